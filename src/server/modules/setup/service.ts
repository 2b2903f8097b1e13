// The setup checklist (issue 22): each step is computed from the data. The four lists a fresh install
// starts with (expense categories, leave types, checklist templates, roles) are "done" when there is
// something to use (at least one active entry; both checklists for the templates) AND an admin has
// kept the list with "Keep these" on the checklist: an explicit action, recorded in the
// `setup_reviewed` setting with who and when. A fresh install's defaults alone never tick a step.
import { and, count, eq, gte, lte, min, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { roles, users } from '../../db/schema/accounts';
import { holidays, leaveTypes } from '../../db/schema/hr';
import { expenseCategories } from '../../db/schema/master-data';
import { onboardingTemplates } from '../../db/schema/onboarding';
import { settings } from '../../db/schema/settings';
import { assertAdmin } from '../../plugins/auth';
import { validationError } from '../../plugins/errors';
import { plainChanges, recordChange } from '../../resources/audit';
import { inWrite, type ResourceContext } from '../../resources/types';
import { today } from '../../../shared/dates';
import { type ReviewStepKey, type SetupChecklist, type SetupStep, type SetupStepKey, isReviewStep } from '../../../shared/schemas/setup';
import { FIRM_PROFILE_KEY } from '../setting/firm-profile';

const REVIEWED_KEY = 'setup_reviewed';

type Reviewed = Partial<Record<ReviewStepKey, { by: string; by_id: number; at: string }>>;

const words: Record<SetupStepKey, { title: string; description: string; route: string }> = {
  'firm-profile': {
    title: 'Firm profile',
    description: 'Your firm\'s name, logo, time zone, default currency and working week.',
    route: 'setting.index',
  },
  holidays: {
    title: 'Countries and public holidays',
    description: 'The countries you work in and this year\'s public holidays, so leave does not count them.',
    route: 'holiday.index',
  },
  'expense-categories': {
    title: 'Expense categories',
    description: 'What people file expenses under. Travel, Meals and five more are ready; change them or keep them.',
    route: 'category-expense.index',
  },
  'leave-types': {
    title: 'Leave types',
    description: 'Kinds of leave and each one\'s yearly allowance. Annual, Sick and three more are ready; change them or keep them.',
    route: 'leave-type.index',
  },
  'checklist-templates': {
    title: 'Onboarding and offboarding checklists',
    description: 'The tasks every onboarding and offboarding starts with. A starting set is ready; change it or keep it.',
    route: 'onboarding-template.index',
  },
  roles: {
    title: 'Roles',
    description: 'Who may do what: admin, manager, user, finance, recruiter and account manager are ready; change them or keep them.',
    route: 'role.index',
  },
  'invite-people': {
    title: 'Invite people',
    description: 'Add your colleagues; each gets an email to choose a password.',
    route: 'user.index',
  },
};

/** Why a review step cannot be kept yet, or null when its list has something to use. */
const notReadyReasons: Record<ReviewStepKey, string> = {
  'expense-categories': 'Add or activate at least one expense category first.',
  'leave-types': 'Add or activate at least one leave type first.',
  'checklist-templates': 'Add or activate at least one onboarding task and one offboarding task first.',
  roles: 'The roles cannot be kept without any.',
};

async function readReviewed(db: Db): Promise<Reviewed> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, REVIEWED_KEY)).limit(1);
  return row?.value && typeof row.value === 'object' ? row.value as Reviewed : {};
}

const countOf = async (query: Promise<{ value: number }[]>): Promise<number> => (await query)[0]?.value ?? 0;

/** Whether each review step's list has something to use (an active entry; both checklists). */
async function readiness(db: Db): Promise<Record<ReviewStepKey, boolean>> {
  const activeTemplates = await db.select({ phase: onboardingTemplates.phase, value: count() }).from(onboardingTemplates)
    .where(eq(onboardingTemplates.status, 'active')).groupBy(onboardingTemplates.phase);
  return {
    'expense-categories': await countOf(db.select({ value: count() }).from(expenseCategories).where(eq(expenseCategories.status, 'active'))) > 0,
    'leave-types': await countOf(db.select({ value: count() }).from(leaveTypes).where(eq(leaveTypes.status, 'active'))) > 0,
    'checklist-templates': ['onboarding', 'offboarding'].every((phase) => activeTemplates.some((row) => row.phase === phase && row.value > 0)),
    roles: await countOf(db.select({ value: count() }).from(roles).where(eq(roles.account_type, 'app'))) > 0,
  };
}

/** The checklist, each step computed from the data (admins only, by the admin role). */
export async function setupChecklist(ctx: ResourceContext): Promise<SetupChecklist> {
  assertAdmin(ctx.account);
  return checklistOf(ctx.db);
}

async function checklistOf(db: Db): Promise<SetupChecklist> {
  const [profile] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, FIRM_PROFILE_KEY)).limit(1);
  const hasFirmName = !!(profile?.value as { name?: string } | undefined)?.name;
  const year = today().slice(0, 4);
  const holidaysThisYear = await countOf(db.select({ value: count() }).from(holidays)
    .where(and(gte(holidays.date, `${year}-01-01`), lte(holidays.date, `${year}-12-31`))));
  // The first admin is the oldest account; anyone else means someone was invited.
  const [first] = await db.select({ id: min(users.id) }).from(users);
  const others = first?.id == null ? 0 : await countOf(db.select({ value: count() }).from(users).where(ne(users.id, first.id)));
  const reviewed = await readReviewed(db);
  const ready = await readiness(db);

  const steps = (Object.keys(words) as SetupStepKey[]).map((key): SetupStep => {
    const base = { key, ...words[key], can_confirm: false, confirmed: null };
    if (key === 'firm-profile') return { ...base, is_done: hasFirmName };
    if (key === 'holidays') return { ...base, is_done: holidaysThisYear > 0 };
    if (key === 'invite-people') return { ...base, is_done: others > 0 };
    const kept = reviewed[key as ReviewStepKey];
    const isDone = !!kept && ready[key as ReviewStepKey];
    return {
      ...base, is_done: isDone, can_confirm: !isDone && ready[key as ReviewStepKey],
      confirmed: kept ? { by: kept.by, at: kept.at } : null,
    };
  });
  return { is_done: steps.every((step) => step.is_done), steps };
}

/** "Keep these": records that an admin reviewed the list of a review step (in the audit trail too); the checklist after. */
export async function confirmSetupStep(ctx: ResourceContext, step: SetupStepKey): Promise<SetupChecklist> {
  assertAdmin(ctx.account);
  const { account } = ctx;
  await inWrite(ctx, async ({ db }) => {
    if (!isReviewStep(step)) throw validationError({ step: 'This step is ticked by doing it, not by confirming it.' });
    if (!(await readiness(db))[step]) throw validationError({ step: notReadyReasons[step] });
    const reviewed = await readReviewed(db);
    const value: Reviewed = { ...reviewed, [step]: { by: String(account.user.name), by_id: account.id, at: new Date().toISOString() } };
    await db.insert(settings).values({ key: REVIEWED_KEY, value })
      .onConflictDoUpdate({ target: settings.key, set: { value, updated_at: new Date() } });
    await recordChange(db, { account, action: 'update', resource: 'setting', recordId: null, title: 'Setup checklist', changes: plainChanges({ [step]: null }, { [step]: 'Reviewed' }) });
  });
  return checklistOf(ctx.db);
}

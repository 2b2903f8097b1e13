// First-start data: every role and permission the spec names, and the first admin.
// Safe to run on every start: it only adds what is missing.
import { hash } from '@node-rs/argon2';
import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { Db } from './client';
import { modelHasRoles, permissions, roleHasPermissions, roles, users } from './schema/accounts';
import { leaveTypes } from './schema/hr';
import { expenseCategories } from './schema/master-data';
import { offerTemplates } from './schema/interviews';
import { onboardingTemplates } from './schema/onboarding';
import { defaultExpenseCategories } from '../../shared/resources/expense-category';
import { defaultChecklistTemplates } from '../../shared/resources/onboarding-template';
import { DEFAULT_OFFER_TEMPLATE } from '../../shared/resources/offer-template';
import { allPermissions, defaultRolePermissions, roleNames } from '../../shared/permissions';
import { defaultLeaveTypes } from '../../shared/resources/leave-type';

/** The roles partner logins hold: every login the first, a firm's admin logins the second too (issue 28). */
export const PARTNER_ROLE = 'partner';
export const PARTNER_ADMIN_ROLE = 'partner admin';
const partnerRoles: readonly string[] = [PARTNER_ROLE, PARTNER_ADMIN_ROLE];

export interface SeedResult { adminCreated: boolean }

export interface SeedOptions {
  /**
   * Whether a fresh install (the first admin created now) also gets the firm's starting lists:
   * expense categories and checklist templates (issue 22), and an offer letter template (issue 28). On by default; the test snapshot turns it
   * off, because the suites written before issue 22 make their own (tests/api/first-run.test.ts
   * starts from an empty database and checks these).
   */
  withFirmDefaults?: boolean;
}

export async function seed(db: Db, admin: { email: string; password: string }, options: SeedOptions = {}): Promise<SeedResult> {
  // Permissions new to this database (a release added them) go to every role whose defaults hold them.
  const added = new Set((await db.insert(permissions).values(allPermissions.map((name) => ({ name }))).onConflictDoNothing()
    .returning({ name: permissions.name })).map((p) => p.name));
  // Issue 28: the permissions are the catalogue in the code (allPermissions): a name the code no longer
  // has (one an admin once typed in, or one a release retired) checks nothing and goes, with its ticks.
  await db.delete(permissions).where(notInArray(permissions.name, allPermissions));
  const permissionRows = await db.select().from(permissions);
  const permissionId = new Map(permissionRows.map((p) => [p.name, p.id]));

  for (const name of roleNames) {
    const inserted = await db.insert(roles).values({ name, account_type: partnerRoles.includes(name) ? 'partner' : 'app' })
      .onConflictDoNothing().returning({ id: roles.id });
    const [role] = await db.select().from(roles).where(eq(roles.name, name));
    // Defaults are given when a role is created; afterwards the role screen owns them.
    // The admin role always holds every permission, including ones added by later releases.
    const grant = name === 'admin' || inserted.length ? defaultRolePermissions[name] : defaultRolePermissions[name].filter((p) => added.has(p));
    if (grant.length) {
      await db.insert(roleHasPermissions)
        .values(grant.map((p) => ({ role_id: role.id, permission_id: permissionId.get(p)! })))
        .onConflictDoNothing();
    }
    // Issue 28: when the partner admin role first appears, each firm's first login (its contact) holds it.
    if (name === PARTNER_ADMIN_ROLE && inserted.length) {
      await db.execute(sql`insert into model_has_roles (role_id, account_type, account_id)
        select ${role.id}, 'partner', min(id) from partner_accounts group by partner_id on conflict do nothing`);
    }
  }

  // The leave types a new installation starts with; once there is any, the leave-type screen owns them.
  const [{ leaveTypeCount }] = await db.select({ leaveTypeCount: sql<number>`count(*)::int` }).from(leaveTypes);
  if (leaveTypeCount === 0) await db.insert(leaveTypes).values([...defaultLeaveTypes]).onConflictDoNothing();

  const [{ count }] = await db.select({ count: sql<number>`count(*)::int` }).from(users).where(eq(users.user_type, 'admin'));
  if (count > 0) return { adminCreated: false };
  const [adminRow] = await db.insert(users).values({
    name: 'Administrator',
    email: admin.email,
    password: await hash(admin.password),
    user_type: 'admin',
    email_verified_at: new Date(),
  }).returning();
  await assignRoles(db, 'app', adminRow.id, ['admin']);
  if (options.withFirmDefaults !== false) await seedFirmDefaults(db);
  return { adminCreated: true };
}

/**
 * The lists a fresh install starts with (issue 22), given once, with the first admin: an install that
 * already has an admin never gets them again, so nothing an admin deleted comes back. All editable.
 */
async function seedFirmDefaults(db: Db) {
  await db.insert(expenseCategories).values([...defaultExpenseCategories]).onConflictDoNothing();
  const [{ templateCount }] = await db.select({ templateCount: sql<number>`count(*)::int` }).from(onboardingTemplates);
  if (templateCount === 0) await db.insert(onboardingTemplates).values([...defaultChecklistTemplates]);
  // Issue 28: without a template the recruiter's first "make an offer letter" had nothing to pick.
  const [{ offerTemplateCount }] = await db.select({ offerTemplateCount: sql<number>`count(*)::int` }).from(offerTemplates);
  if (offerTemplateCount === 0) await db.insert(offerTemplates).values(DEFAULT_OFFER_TEMPLATE);
}

export async function assignRoles(db: Db, type: 'app' | 'partner', accountId: number, roleList: string[]) {
  const rows = await db.select().from(roles).where(and(inArray(roles.name, roleList), eq(roles.account_type, type)));
  if (rows.length) {
    await db.insert(modelHasRoles).values(rows.map((r) => ({ role_id: r.id, account_type: type, account_id: accountId }))).onConflictDoNothing();
  }
}

// Onboarding (issue 13): checklists copied from the templates, who may tick a task, the spec §5
// timing of each task, the daily overdue reminders with their escalation, and what the dashboard
// and the recruitment workflow call.
import { and, asc, count, eq, exists, lt, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { shapedRows } from '../../db/named';
import { users } from '../../db/schema/accounts';
import { onboardingPendingDue, onboardings, onboardingTasks, onboardingTemplates } from '../../db/schema/onboarding';
import { remindersSent, workflowHistory } from '../../db/schema/workflow';
import { inTransaction, type Transaction } from '../../lib/transaction';
import type { Account } from '../../plugins/auth';
import { HttpError } from '../../plugins/errors';
import { recordResourceChange } from '../../resources/audit';
import { OWNER_MANAGER, recordUrl, writeHistory } from '../../resources/workflow';
import { notify, notifyEach, type NotificationItem } from '../notification/notify';
import { hasPermission } from '../../../shared/permissions';
import { ONBOARDING_IN_PROGRESS, onboarding as onboardingDefinition, onboardingTask } from '../../../shared/resources/onboarding';
import { daysOverdue, ESCALATE_AFTER_DAYS, taskDueSoonLabel } from '../../../shared/rules';
import { addDays, daysBetween, today } from '../../../shared/dates';
import { firmTodaySql } from '../setting/time-zone';
import type { Row, WriteContext } from '../../resources/types';

type Phase = 'onboarding' | 'offboarding';

/**
 * The outer onboarding's id, spelled out: drizzle leaves columns unqualified in one-table queries,
 * and inside a subquery on onboarding_tasks a bare "id" would be the task's.
 */
const outerOnboardingId = sql`"onboardings"."id"`;

/** Whoever may edit onboardings sees them all; anyone else only those they manage or have a task in. */
export const MANAGE_PERMISSION = 'can-edit-onboarding';
const seesAll = (account: Account) => hasPermission(account.permissions, MANAGE_PERMISSION);

export function onboardingScope(account: Account): SQL | undefined {
  if (seesAll(account)) return undefined;
  return or(
    eq(onboardings.manager_id, account.id),
    exists(sql`(select 1 from ${onboardingTasks} where ${onboardingTasks.onboarding_id} = ${outerOnboardingId} and ${onboardingTasks.assignee_id} = ${account.id})`),
  );
}

export function taskScope(account: Account): SQL | undefined {
  if (seesAll(account)) return undefined;
  return or(
    eq(onboardingTasks.assignee_id, account.id),
    sql`"onboarding_tasks"."onboarding_id" in (select o.id from ${onboardings} o where o.manager_id = ${account.id})`,
  );
}

/** The onboarding's manager, selected with each task: they may tick it too. */
export const onboardingManagerOfTask = sql<number>`(select o.manager_id from ${onboardings} o where o.id = "onboarding_tasks"."onboarding_id")`;
export const TASK_MANAGER_KEY = 'onboarding_manager_id';

const pendingTasksOf = (extra: SQL = sql``) =>
  sql`from ${onboardingTasks} where ${onboardingTasks.onboarding_id} = ${outerOnboardingId} and ${onboardingTasks.status} = 'pending'${extra}`;
// The firm's today, not the database session's current_date (issue 21).
const pastDue = sql` and ${onboardingTasks.due_date} < ${firmTodaySql}`;

/** An onboarding's earliest pending due date (kept by triggers, migration 0040) is past: it has an overdue task. */
const pendingDuePast = sql`${onboardingPendingDue.due_date} < ${firmTodaySql}`;

/** Open (pending) and overdue tasks of an onboarding, for its list row. */
export const onboardingComputed = {
  open_tasks: sql<number>`(select count(*) ${pendingTasksOf()})`.mapWith(Number),
  overdue_tasks: sql<number>`(select count(*) ${pendingTasksOf(pastDue)})`.mapWith(Number),
  // From each onboarding's earliest pending due date (kept by triggers, migration 0040): one row per
  // onboarding, not every pending task (the dashboard counts onboardings with an overdue task).
  has_overdue: sql<boolean>`exists (select 1 from ${onboardingPendingDue} where ${onboardingPendingDue.onboarding_id} = ${outerOnboardingId} and ${pendingDuePast})`,
};

/**
 * How many onboardings have an overdue task, for whoever sees every onboarding: has_overdue's kept rows
 * counted alone (their due-date index), not joined with every onboarding (issue 27). Each row names an
 * onboarding that exists: its tasks' triggers keep it, and deleting an onboarding deletes its tasks.
 */
export const overdueOnboardingsOfEveryone = sql`(select count(*)::int from ${onboardingPendingDue} where ${pendingDuePast})`;

export const taskComputed = {
  [TASK_MANAGER_KEY]: onboardingManagerOfTask,
  is_overdue: sql<boolean>`(${onboardingTasks.status} = 'pending' and ${onboardingTasks.due_date} < ${firmTodaySql})`,
};

/**
 * Who may mark a task done or not done: its assignee, the assignee's manager, the onboarding's
 * manager, or whoever may edit onboardings. Null when `account` may; else why not.
 */
export function taskDeciderRefusal(row: Row, account: Account): string | null {
  if (seesAll(account)) return null;
  const people = [row.assignee_id, row[OWNER_MANAGER], row[TASK_MANAGER_KEY]];
  return people.includes(account.id) ? null : 'Only the assignee or a manager can tick this task.';
}

/**
 * spec §5 on each task row, with today's date: the countdown of a pending task due within 5 days
 * ('3 days left', 'Due today'; decision 021), never beside its lateness, and the days overdue (a done
 * task: completion minus due, floored at 0; others: days past the due date).
 */
export function taskTiming(row: Row, on = today()): { due_in: string | null; days_overdue: number } {
  return {
    due_in: taskDueSoonLabel({ status: String(row.status), due_date: String(row.due_date) }, on),
    days_overdue: daysOverdue({ due_date: String(row.due_date), status: String(row.status), completion_date: row.completion_date as string | null }, on),
  };
}

/**
 * Copies the phase's active templates into the onboarding's checklist, due `due_after_days` after
 * `from`, assigned as the template says or to the onboarding's manager; tells each assignee once.
 */
export async function createChecklist(tx: Transaction, record: { id: number; person_name: string; manager_id: number }, phase: Phase, from: string, actor: Account | null): Promise<number> {
  const actorId = actor?.id ?? null;
  const templates = await tx.db.select().from(onboardingTemplates)
    .where(and(eq(onboardingTemplates.phase, phase), eq(onboardingTemplates.status, 'active')))
    .orderBy(asc(onboardingTemplates.sort_order), asc(onboardingTemplates.id));
  if (!templates.length) return 0;
  const tasks = templates.map((template) => ({
    onboarding_id: record.id, template_id: template.id, phase, title: template.title,
    assignee_id: template.assignee_id ?? record.manager_id, due_date: addDays(from, template.due_after_days),
  }));
  const inserted = await tx.db.insert(onboardingTasks).values(tasks).returning({ id: onboardingTasks.id });
  // Each task's history starts with its creation, as for a task added by hand.
  await tx.db.insert(workflowHistory).values(inserted.map((task) => ({
    resource: onboardingTask.name, record_id: task.id, transition: 'create', from_status: null, to_status: 'pending',
    actor_type: actor ? actor.type : null, actor_id: actor?.id ?? null, actor_name: (actor?.user as { name?: string } | undefined)?.name ?? null,
    comment: `From the ${phase} checklist template.`,
  })));
  const perAssignee = new Map<number, number>();
  for (const task of tasks) perAssignee.set(task.assignee_id, (perAssignee.get(task.assignee_id) ?? 0) + 1);
  const url = recordUrl(onboardingDefinition, record.id);
  for (const [assignee, n] of perAssignee) {
    if (assignee === actorId) continue;
    await notify(tx, [assignee], {
      title: `New ${phase} tasks`,
      message: `${n} ${phase} task${n === 1 ? '' : 's'} for ${record.person_name} ${n === 1 ? 'is' : 'are'} assigned to you.`,
      url,
    }, { type: 'App\\Notifications\\OnboardingTasksAssigned', kind: 'onboarding' });
  }
  return tasks.length;
}

/** 409 while the phase's checklist has tasks not done (onboarded / offboarded need them all done). */
export async function checkPhaseDone(db: Db, onboardingId: number, phase: Phase) {
  const [{ open }] = await db.select({ open: count() }).from(onboardingTasks)
    .where(and(eq(onboardingTasks.onboarding_id, onboardingId), eq(onboardingTasks.phase, phase), eq(onboardingTasks.status, 'pending')));
  if (open > 0) throw new HttpError(409, `${open} ${phase} task${open === 1 ? ' is' : 's are'} not done yet.`);
}

/**
 * Opens the onboarding of a candidate who reached the Onboarding stage (recruitment's workflow calls
 * this in its transaction): managed by their recruiter, starting today, with the onboarding
 * checklist. A candidate gets one onboarding however often they re-enter the stage: null then.
 */
export async function createOnboardingForCandidate(
  ctx: WriteContext | Transaction,
  candidate: { id: number; name: string; email?: string | null; recruiter_id?: number | null },
): Promise<number | null> {
  // A bare transaction: a public link's write, with nobody signed in.
  const { tx, account } = 'onCommit' in ctx ? { tx: ctx, account: null } : ctx;
  const managerId = candidate.recruiter_id ?? account?.id;
  if (!managerId) throw new Error('an onboarding needs a manager: the recruiter or the actor');
  const [created] = await tx.db.insert(onboardings).values({
    person_name: candidate.name, email: candidate.email ?? null, candidate_id: candidate.id, manager_id: managerId,
    start_date: today(), status: ONBOARDING_IN_PROGRESS,
  }).onConflictDoNothing({ target: onboardings.candidate_id }).returning();
  if (!created) return null;
  await writeHistory(tx.db, { resource: onboardingDefinition.name, recordId: created.id, transition: 'create', from: null, to: ONBOARDING_IN_PROGRESS, account, comment: 'Opened when the candidate reached Onboarding.' });
  await recordResourceChange(tx.db, account, onboardingDefinition, { action: 'create', id: created.id, before: null, after: created });
  await createChecklist(tx, created, 'onboarding', created.start_date, account);
  return created.id;
}

// ---- The daily overdue reminders ----

export interface OverdueRun { reminded: number; escalated: number }

interface OverdueTask { id: number; title: string; assignee_id: number; due_date: string; onboarding_id: number; person_name: string; manager_id: number }

/**
 * Every pending task past its due date reminds its assignee once per day; one more than
 * ESCALATE_AFTER_DAYS days overdue also tells the onboarding's manager, once per task. "Once" is the
 * reminders_sent key (the reminder machinery's: `overdue:<day>` per day, `escalation` per task),
 * claimed in the same statement that finds the tasks, so N nodes running the job send each once.
 */
export async function sendOverdueTaskReminders(app: FastifyInstance, on = today()): Promise<OverdueRun> {
  return inTransaction(app, async (tx) => {
    const reminded = await claimOverdue(tx, `overdue:${on}`, on, 0);
    const escalated = await claimOverdue(tx, 'escalation', on, ESCALATE_AFTER_DAYS);
    const items: NotificationItem[] = [
      ...reminded.map((task) => ({
        recipients: [task.assignee_id],
        content: {
          title: 'Onboarding task overdue',
          message: `"${task.title}" for ${task.person_name} was due on ${task.due_date} (${daysBetween(task.due_date, on)} day(s) overdue).`,
          url: recordUrl(onboardingDefinition, task.onboarding_id),
        },
      })),
    ];
    await notifyEach(tx, items, { type: 'App\\Notifications\\OnboardingTaskOverdue', kind: 'onboarding' });
    const escalations: NotificationItem[] = escalated.map((task) => ({
      recipients: [task.manager_id],
      content: {
        title: 'Onboarding task escalated',
        message: `"${task.title}" for ${task.person_name} is ${daysBetween(task.due_date, on)} days overdue.`,
        url: recordUrl(onboardingDefinition, task.onboarding_id),
      },
    }));
    await notifyEach(tx, escalations, { type: 'App\\Notifications\\OnboardingTaskEscalated', kind: 'onboarding' });
    return { reminded: reminded.length, escalated: escalated.length };
  });
}

/** Claims (in reminders_sent) the pending tasks more than `pastDays` days past due on `on` not yet claimed under `reminder`. */
async function claimOverdue(tx: Transaction, reminder: string, on: string, pastDays: number): Promise<OverdueTask[]> {
  const result = await tx.db.execute(sql`
    with sent as (
      insert into ${remindersSent} (resource, reminder, record_id)
      select 'onboarding-task', ${reminder}::text, t.id
      from ${onboardingTasks} t
      where t.status = 'pending' and t.due_date < ${on}::date - ${pastDays}::int
      order by t.id
      on conflict do nothing
      returning record_id
    )
    select t.id, t.title, t.assignee_id, to_char(t.due_date, 'YYYY-MM-DD') as due_date, o.id as onboarding_id, o.person_name, o.manager_id
    from sent join ${onboardingTasks} t on t.id = sent.record_id join ${onboardings} o on o.id = t.onboarding_id
    order by t.id`);
  return (result as unknown as { rows: OverdueTask[] }).rows;
}

// ---- The dashboard ----

export interface OverdueTaskSummary {
  /** null when asked without it (`withTotal: false`). */
  total: number | null;
  items: { id: number; title: string; due_date: string; days_overdue: number; onboarding_id: number; person_name: string; assignee: { id: number; name: string } }[];
}

/**
 * The first overdue tasks (everyone's, or one assignee's): two shapes whose values alone vary, built once
 * and sent as named statements (db/named.ts).
 */
const overdueTaskRows = (db: Db, byAssignee: boolean) => db.select({
  id: onboardingTasks.id, title: onboardingTasks.title, due_date: onboardingTasks.due_date, onboarding_id: onboardingTasks.onboarding_id,
  person_name: onboardings.person_name, assignee_id: users.id, assignee_name: users.name,
}).from(onboardingTasks)
  .innerJoin(onboardings, eq(onboardings.id, onboardingTasks.onboarding_id))
  .innerJoin(users, eq(users.id, onboardingTasks.assignee_id))
  // 'pending' written out, not a parameter, and the order of onboarding_tasks_pending_due (due date, then
  // onboarding) before the id: everyone's first five are that partial index's first entries and the
  // LIMIT stops there, where ordering by (due date, id) read every task of the earliest due dates (335
  // at 100,000 tasks) to sort them (issue 27).
  .where(and(sql`${onboardingTasks.status} = 'pending'`, lt(onboardingTasks.due_date, sql.placeholder('on')),
    byAssignee ? eq(onboardingTasks.assignee_id, sql.placeholder('assigneeId')) : undefined))
  .orderBy(asc(onboardingTasks.due_date), asc(onboardingTasks.onboarding_id), asc(onboardingTasks.id)).limit(sql.placeholder('limit'));
const everyonesOverdueTasks = (db: Db, values: { on: string; limit: number }) => shapedRows(db, 'onboarding|overdue-tasks', () => overdueTaskRows(db, false), values);
const assigneesOverdueTasks = (db: Db, values: { on: string; assigneeId: number; limit: number }) => shapedRows(db, 'onboarding|overdue-tasks|assignee', () => overdueTaskRows(db, true), values);

/**
 * Overdue onboarding tasks for the dashboard: the count and the most overdue first, all of them or,
 * with `assigneeId`, one person's. The count is served by onboarding_tasks_status_due, everyone's rows by
 * onboarding_tasks_pending_due, one person's by onboarding_tasks_assignee_id.
 */
export async function overdueOnboardingTasks(db: Db, { on = today(), assigneeId, limit = 5, withTotal = true }: { on?: string; assigneeId?: number; limit?: number; withTotal?: boolean } = {}): Promise<OverdueTaskSummary> {
  const where = and(eq(onboardingTasks.status, 'pending'), lt(onboardingTasks.due_date, on), assigneeId ? eq(onboardingTasks.assignee_id, assigneeId) : undefined);
  // The count reads every overdue task's index entry: skipped by callers that only show the first few.
  const [[{ total }], rows] = await Promise.all([
    withTotal ? db.select({ total: count() }).from(onboardingTasks).where(where) : [{ total: null }],
    assigneeId ? assigneesOverdueTasks(db, { on, assigneeId, limit }) : everyonesOverdueTasks(db, { on, limit }),
  ]);
  return {
    total,
    items: rows.map((row) => ({
      id: row.id, title: row.title, due_date: row.due_date, days_overdue: daysBetween(row.due_date, on), onboarding_id: row.onboarding_id,
      person_name: row.person_name, assignee: { id: row.assignee_id, name: row.assignee_name },
    })),
  };
}

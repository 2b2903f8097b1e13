// Issue 28 (decision 030): each person's leave ledger, the balance derived from it, an admin's
// adjustments and the yearly rollover that carries unused days into the new year.
//
// What is stored and what is derived: accrual follows from the leave type (yearly or monthly) and the
// date; taken and pending days from the leave applications (so cancelling or ending a leave early gives
// the days back by itself); expiry from the carried days and the leave taken by their expiry date. Only
// what cannot be derived again is stored in `leave_ledger`: the days carried (a snapshot of the year's
// end, written once by the rollover) and an admin's adjustments with their reason.
import { and, asc, eq, gte, inArray, lte, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/accounts';
import { leaveApplications, leaveLedger, leaveTypes } from '../../db/schema/hr';
import { inTransaction } from '../../lib/transaction';
import { assertAdmin } from '../../plugins/auth';
import { inWrite, type ResourceContext } from '../../resources/types';
import { validationError } from '../../plugins/errors';
import { recordChange } from '../../resources/audit';
import { addDays, today } from '../../../shared/dates';
import { LEAVE_PENDING, leaveTakenStatuses, formatDays } from '../../../shared/resources/leave-application';
import {
  accrualLines, accruedBy, carriedExpiryDate, expiredDays, type LeaveAdjustment, type LeaveLedger, type LedgerLine, type LedgerTypeYear,
} from '../../../shared/resources/leave-ledger';
import { chosenOneRefused } from '../../../shared/words';

type LeaveTypeRow = typeof leaveTypes.$inferSelect;

/** The day a year's ledger is counted to when none is asked for: today in this year, its last day for a past year, its first for a future one. */
export function defaultAsOf(year: number): string {
  const now = today();
  const thisYear = Number(now.slice(0, 4));
  if (year === thisYear) return now;
  return year < thisYear ? `${year}-12-31` : `${year}-01-01`;
}

const spanOf = (from: string, to: string) => (from === to ? `on ${from}` : `from ${from} to ${to}`);

/**
 * One person's ledger for `year`, per leave type, counted to `asOf` (accrual begun and carried days
 * expired by then). Every active type shows; an inactive one only with days in the year.
 * `excludeId`: an application being edited, left out of the days taken and pending.
 */
export async function ledgerOf(db: Db, userId: number, year: number, asOf: string, excludeId?: number): Promise<LedgerTypeYear[]> {
  // One after another, not side by side: a write hands in its transaction, one connection, and
  // node-postgres queues queries sent together on one connection (deprecated; pg 9 refuses them).
  const types = await db.select().from(leaveTypes).orderBy(asc(leaveTypes.name), asc(leaveTypes.id));
  const stored = await db.select().from(leaveLedger).where(and(eq(leaveLedger.user_id, userId), eq(leaveLedger.year, year)))
    .orderBy(asc(leaveLedger.effective_on), asc(leaveLedger.id));
  const leaves = await db.select({
    id: leaveApplications.id, leave_type_id: leaveApplications.leave_type_id, from_date: leaveApplications.from_date,
    to_date: leaveApplications.to_date, days: leaveApplications.days, status: leaveApplications.status,
  }).from(leaveApplications).where(and(
    eq(leaveApplications.user_id, userId), inArray(leaveApplications.status, [LEAVE_PENDING, ...leaveTakenStatuses]),
    // Balances are per calendar year: a leave counts in the year it starts (it cannot run into the next).
    gte(leaveApplications.from_date, `${year}-01-01`), lte(leaveApplications.from_date, `${year}-12-31`),
    excludeId ? ne(leaveApplications.id, excludeId) : undefined,
  )).orderBy(asc(leaveApplications.from_date), asc(leaveApplications.id));

  return types.flatMap((type): LedgerTypeYear[] => {
    const own = stored.filter((row) => row.leave_type_id === type.id);
    const ofType = leaves.filter((leave) => leave.leave_type_id === type.id);
    const takenLeaves = ofType.filter((leave) => leaveTakenStatuses.includes(leave.status));
    const taken = sum(takenLeaves.map((leave) => leave.days));
    const pending = sum(ofType.filter((leave) => leave.status === LEAVE_PENDING).map((leave) => leave.days));
    if (type.status !== 'active' && !own.length && !ofType.length) return [];

    const lines: LedgerLine[] = [];
    let carried = 0;
    let expiresOn: string | null = null;
    for (const row of own.filter((r) => r.kind === 'carried')) {
      carried += row.days;
      expiresOn = row.expires_on;
      lines.push({ date: row.effective_on, kind: 'carried', days: row.days, note: `Carried from ${year - 1}${row.expires_on ? `; expires after ${row.expires_on}` : ''}` });
    }
    const accrued = accruedBy(type, year, asOf);
    lines.push(...accrualLines(type, year, asOf));
    let adjusted = 0;
    for (const row of own.filter((r) => r.kind === 'adjusted')) {
      adjusted += row.days;
      lines.push({ date: row.effective_on, kind: 'adjusted', days: row.days, note: row.reason ?? '' });
    }
    for (const leave of takenLeaves) {
      lines.push({ date: leave.from_date, kind: 'taken', days: -leave.days, note: `Leave ${spanOf(leave.from_date, leave.to_date)}`, leave_application_id: leave.id });
    }
    const takenByExpiry = expiresOn ? sum(takenLeaves.filter((leave) => leave.from_date <= expiresOn!).map((leave) => leave.days)) : 0;
    const expired = expiredDays(carried, takenByExpiry, expiresOn, asOf);
    if (expired > 0 && expiresOn) {
      lines.push({ date: addDays(expiresOn, 1), kind: 'expired', days: -expired, note: `Carried days not taken by ${expiresOn}` });
    }
    lines.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));

    const isLimited = type.yearly_allowance !== null;
    return [{
      leave_type_id: type.id, name: type.name, accrual: type.accrual,
      allowance: isLimited ? accrued + carried - expired + adjusted : null,
      accrued, carried, expired, adjusted, taken, pending,
      remaining: isLimited ? accrued + carried - expired + adjusted - taken - pending : null,
      lines,
    }];
  });
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** GET /api/leave-application/ledger: the person (see visiblePerson: themselves, a report, anyone for an admin) and year. */
export async function leaveLedgerFor(db: Db, person: { id: number; name: string }, year: number): Promise<LeaveLedger> {
  const asOf = defaultAsOf(year);
  return { user: { id: person.id, name: person.name }, year, as_of: asOf, types: await ledgerOf(db, person.id, year, asOf) };
}

// ---- POST /api/leave-application/ledger/adjustments ----

/** An admin (HR) adds days to, or takes days from, one person's leave type for one year; the reason is kept on the line and in the audit log. */
/** HR's correction of one person's leave of one type and year, with the reason: admins only, whatever the role's other permissions. */
export async function adjustLeave(ctx: ResourceContext, input: LeaveAdjustment): Promise<LeaveLedger> {
  assertAdmin(ctx.account);
  const { account } = ctx;
  return inWrite(ctx, async ({ db }) => {
    const [person] = await db.select({ id: users.id, name: users.name }).from(users).where(eq(users.id, input.user_id));
    if (!person) throw validationError({ user_id: chosenOneRefused('person') });
    const [type] = await db.select().from(leaveTypes).where(eq(leaveTypes.id, input.leave_type_id));
    if (!type) throw validationError({ leave_type_id: chosenOneRefused('leave type') });
    if (type.yearly_allowance === null) throw validationError({ leave_type_id: `${type.name} leave has no limit: there is no balance to adjust.` });
    const now = today();
    const effectiveOn = now.startsWith(String(input.year)) ? now : `${input.year}-01-01`;
    await db.insert(leaveLedger).values({
      user_id: person.id, leave_type_id: type.id, year: input.year, kind: 'adjusted', days: input.days,
      effective_on: effectiveOn, reason: input.reason, created_by: account.id,
    });
    await recordChange(db, {
      account, action: 'update', resource: 'leave-ledger', recordId: person.id,
      title: `${person.name}: ${type.name} leave ${input.year}`,
      changes: [{ field: 'adjusted', old: null, new: input.days, old_text: null, new_text: `${input.days > 0 ? '+' : '-'}${formatDays(Math.abs(input.days))}: ${input.reason}` }],
    });
    return leaveLedgerFor(db, person, input.year);
  });
}

// ---- The yearly rollover (job leave-rollover, registry.ts) ----

export interface RolloverResult { year: number; carried: number; people: number }

/**
 * Carries each person's unused days of `fromYear` into the next year, up to each type's cap, with the
 * date they expire. Written once per person, type and year: the recurring key (leave-rollover:YYYY)
 * makes one run a year whatever the number of nodes, and the unique index makes a repeated run (a retry
 * after a failure half-way) add nothing twice. Days still pending at the year's end count as taken here,
 * as they do in the balance: carrying them too would give them twice if approved.
 */
export async function rollOverLeave(db: Db, fromYear: number): Promise<RolloverResult> {
  const types = (await db.select().from(leaveTypes)).filter((type) => type.yearly_allowance !== null && type.carry_forward_cap > 0);
  if (!types.length) return { year: fromYear + 1, carried: 0, people: 0 };
  const people = await db.select({ id: users.id }).from(users).where(eq(users.status, 'active')).orderBy(asc(users.id));
  let carried = 0;
  const touched = new Set<number>();
  for (const person of people) {
    const ledger = await ledgerOf(db, person.id, fromYear, `${fromYear}-12-31`);
    for (const type of types) {
      const remaining = ledger.find((row) => row.leave_type_id === type.id)?.remaining ?? 0;
      const days = Math.min(type.carry_forward_cap, Math.max(remaining ?? 0, 0));
      if (days <= 0) continue;
      const inserted = await db.insert(leaveLedger).values(carryRow(person.id, type, fromYear, days))
        .onConflictDoNothing({ target: [leaveLedger.user_id, leaveLedger.leave_type_id, leaveLedger.year], where: sql`kind = 'carried'` })
        .returning({ id: leaveLedger.id });
      if (inserted.length) { carried += 1; touched.add(person.id); }
    }
  }
  return { year: fromYear + 1, carried, people: touched.size };
}

const carryRow = (userId: number, type: LeaveTypeRow, fromYear: number, days: number) => ({
  user_id: userId, leave_type_id: type.id, year: fromYear + 1, kind: 'carried' as const, days,
  effective_on: `${fromYear + 1}-01-01`, expires_on: carriedExpiryDate(fromYear + 1, type.carry_forward_expiry_month),
  reason: `Unused ${type.name.toLowerCase()} leave of ${fromYear}, up to the cap of ${formatDays(type.carry_forward_cap)}`,
});

/** The job: the year that ended before the one the run was scheduled in (its key leave-rollover:YYYY), even when it runs late. */
export async function runLeaveRollover(app: FastifyInstance, job?: { unique_key: string | null }): Promise<RolloverResult> {
  const scheduledIn = Number(/:(\d{4})$/.exec(job?.unique_key ?? '')?.[1] ?? today().slice(0, 4));
  return inTransaction(app, ({ db }) => rollOverLeave(db, scheduledIn - 1));
}

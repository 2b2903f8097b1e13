// Leave applications beyond CRUD: who sees which, whom one may apply for, the working days of a
// leave, the checks that refuse it (dates, overlaps, balance), balances and the team calendar.
import { decidedByQuery } from '../delegation/scope';
import { and, asc, eq, gte, inArray, lte, ne, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/accounts';
import { leaveApplications, leaveTypes } from '../../db/schema/hr';
import type { Account } from '../../plugins/auth';
import { HttpError, validationError } from '../../plugins/errors';
import type { ResourceContext } from '../../resources/register';
import { hasPermission, isAdmin } from '../../../shared/permissions';
import type { TransitionDefinition } from '../../../shared/resources/define';
import {
  type CalendarDay, type CalendarLeave, countWorkingDays, datesBetween, LEAVE_CANCEL_TRANSITION, LEAVE_END_EARLY_TRANSITIONS, type LeaveBalance,
  type LeaveCalendar, type LeaveDates, leaveHoldingStatuses, leavesOverlap, type LeaveTypeBalance,
  type LeaveStatus, monthRange, partOn,
} from '../../../shared/resources/leave-application';
import { today } from '../../../shared/dates';
import { isWorkingWeekday } from '../../../shared/working-week';
import { workingCalendarFor } from '../holiday/working-calendar';
import { defaultAsOf, leaveLedgerFor, ledgerOf } from './ledger';
import type { LeaveLedger } from '../../../shared/resources/leave-ledger';
import type { Row } from '../../resources/types';
import { chosenOneRefused } from '../../../shared/words';

type Input = Record<string, unknown>;
type Person = { id: number; name: string; parent_id: number | null; country_id: number | null; status: string };



/**
 * Who sees which applications: admins all; everyone else their own and their reports' (a manager
 * is whoever people report to). The list scope, and so the scope of every single-record route.
 */
export function leaveApplicationScope(app: FastifyInstance, account: Account): SQL | undefined {
  if (isAdmin(account)) return undefined;
  // Decision 036: and today, the reports of a manager who delegated their decisions to the caller.
  return or(eq(leaveApplications.user_id, account.id), inArray(leaveApplications.user_id, decidedByQuery(app.db, account.id)));
}

async function findPerson(db: Db, id: number): Promise<Person | undefined> {
  const [person] = await db.select({ id: users.id, name: users.name, parent_id: users.parent_id, country_id: users.country_id, status: users.status })
    .from(users).where(eq(users.id, id));
  return person;
}

/**
 * The applicant: the caller when none is named; else someone who reports to the caller, or anyone
 * for an admin. Their row is locked for the rest of the transaction, so two applications of one
 * person are checked one after the other (overlap and balance cannot both pass concurrently).
 */
async function resolveApplicant(db: Db, account: Account, requested: unknown): Promise<Person> {
  const id = typeof requested === 'number' ? requested : account.id;
  await db.select({ id: users.id }).from(users).where(eq(users.id, id)).for('update');
  const person = await findPerson(db, id);
  const mayApply = person && (id === account.id || isAdmin(account) || person.parent_id === account.id);
  if (!mayApply) throw validationError({ user_id: 'You may apply only for yourself or for someone who reports to you.' });
  if (person.status !== 'active') throw validationError({ user_id: 'The selected applicant is inactive.' });
  return person;
}

/**
 * The working days of a leave, or the field errors that refuse its dates: the end before the start,
 * a leave running into the next year (balances are per calendar year: apply for each year's days
 * separately), half of a one-day leave twice, and dates with no working day at all.
 */
export async function leaveDays(db: Db, person: Pick<Person, 'id'>, leave: LeaveDates): Promise<{ days: number } | { errors: Record<string, string> }> {
  const { from_date: from, to_date: to } = leave;
  if (to < from) return { errors: { to_date: 'The leave cannot end before it starts.' } };
  if (from.slice(0, 4) !== to.slice(0, 4)) {
    return { errors: { to_date: `A leave must end in the year it starts: apply for the days from ${to.slice(0, 4)}-01-01 separately.` } };
  }
  if (from === to && leave.is_half_day_start && leave.is_half_day_end) {
    return { errors: { is_half_day_end: 'A one-day leave is either a morning or an afternoon: choose one half day.' } };
  }
  const days = countWorkingDays(from, to, await workingCalendarFor(db, person.id, from, to), leave.is_half_day_start, leave.is_half_day_end);
  if (days <= 0) return { errors: { from_date: 'The selected dates contain no working day (days outside the working week and public holidays do not count).' } };
  return { days };
}

/**
 * Each active leave type (and any inactive one with days that year) with its allowance, used, pending
 * and remaining days. Issue 28: the allowance is the ledger's entitlement by `asOf` (accrued, carried,
 * less expired, plus adjustments; ledger.ts); remaining is still allowance - used - pending.
 */
export async function leaveBalances(db: Db, userId: number, year: number, excludeId?: number, asOf = defaultAsOf(year)): Promise<LeaveTypeBalance[]> {
  return (await ledgerOf(db, userId, year, asOf, excludeId)).map((row) => ({
    leave_type_id: row.leave_type_id, name: row.name, allowance: row.allowance, used: row.taken, pending: row.pending, remaining: row.remaining,
  }));
}

const daysText = (days: number) => `${days} ${days === 1 ? 'day' : 'days'}`;

/**
 * Checks a leave as it will be saved and returns its days: dates (see leaveDays), no overlap with the
 * person's other leave that is not rejected, an active leave type, and enough balance of that type
 * for the year (days approved and days pending both count).
 */
async function checkLeave(db: Db, account: Account, person: Person, leave: LeaveDates & { leave_type_id: number }, options: { id?: number; isTypeChanged: boolean }): Promise<number> {
  const counted = await leaveDays(db, person, leave);
  if ('errors' in counted) throw validationError(counted.errors);
  const { days } = counted;
  const whose = person.id === account.id ? 'your' : `${person.name}'s`;

  const others = await db.select({
    from_date: leaveApplications.from_date, to_date: leaveApplications.to_date,
    is_half_day_start: leaveApplications.is_half_day_start, is_half_day_end: leaveApplications.is_half_day_end,
  }).from(leaveApplications).where(and(
    eq(leaveApplications.user_id, person.id), inArray(leaveApplications.status, [...leaveHoldingStatuses]),
    lte(leaveApplications.from_date, leave.to_date), gte(leaveApplications.to_date, leave.from_date),
    options.id ? ne(leaveApplications.id, options.id) : undefined,
  )).orderBy(asc(leaveApplications.from_date));
  const overlapping = others.find((other) => leavesOverlap(other, leave));
  if (overlapping) {
    const span = overlapping.from_date === overlapping.to_date ? `on ${overlapping.from_date}` : `from ${overlapping.from_date} to ${overlapping.to_date}`;
    throw validationError({ from_date: `These dates overlap ${whose} leave ${span}.` });
  }

  const [type] = await db.select().from(leaveTypes).where(eq(leaveTypes.id, leave.leave_type_id));
  if (!type || (options.isTypeChanged && type.status !== 'active')) throw validationError({ leave_type_id: chosenOneRefused('leave type') });
  if (type.yearly_allowance !== null) {
    const year = Number(leave.from_date.slice(0, 4));
    // What the ledger holds on the leave's first day: a monthly allowance has accrued up to that month,
    // carried days have expired if it starts after their date (issue 28).
    const row = (await ledgerOf(db, person.id, year, leave.from_date, options.id)).find((r) => r.leave_type_id === type.id);
    const remaining = Math.max(row?.remaining ?? 0, 0);
    if (days > remaining) {
      throw validationError({
        leave_type_id: `This leave needs ${daysText(days)} of ${type.name.toLowerCase()} but ${remaining === 0 ? 'none remains' : `only ${daysText(remaining)} remain${remaining === 1 ? 's' : ''}`} for ${year}.`,
      });
    }
  }
  return days;
}

const flag = (value: unknown) => value === true;

/** Nobody covers their own leave. */
function checkBackFill(person: Person, backFillId: unknown) {
  if (backFillId === person.id) throw validationError({ back_fill_user_id: 'The back-fill person must be someone other than the applicant.' });
}

/** beforeCreate: the applicant (the caller unless named), the days counted by the server, who filed it. */
export async function prepareLeaveApplication(values: Input, input: Input, { account, db }: ResourceContext): Promise<Input> {
  const person = await resolveApplicant(db, account, input.user_id);
  const leave = {
    from_date: String(input.from_date), to_date: String(input.to_date),
    is_half_day_start: flag(input.is_half_day_start), is_half_day_end: flag(input.is_half_day_end),
    leave_type_id: Number(input.leave_type_id),
  };
  checkBackFill(person, input.back_fill_user_id);
  const days = await checkLeave(db, account, person, leave, { isTypeChanged: true });
  return { ...values, ...leave, user_id: person.id, days, created_by: account.id };
}

/** beforeUpdate: the same checks on the record as it will be; an empty applicant keeps the current one. */
export async function prepareLeaveApplicationUpdate(values: Input, existing: Row, input: Input, { account, db }: ResourceContext): Promise<Input> {
  const next = { ...values };
  const applicantId = input.user_id === null || input.user_id === undefined ? existing.user_id as number : input.user_id as number;
  if (applicantId === existing.user_id) delete next.user_id;
  const person = applicantId === existing.user_id
    ? await lockedPerson(db, applicantId)
    : await resolveApplicant(db, account, applicantId);
  const pick = <T>(key: string): T => (key in values ? values[key] : existing[key]) as T;
  const leave = {
    from_date: pick<string>('from_date'), to_date: pick<string>('to_date'),
    is_half_day_start: flag(pick('is_half_day_start')), is_half_day_end: flag(pick('is_half_day_end')),
    leave_type_id: pick<number>('leave_type_id'),
  };
  checkBackFill(person, pick('back_fill_user_id'));
  const days = await checkLeave(db, account, person, leave, { id: existing.id as number, isTypeChanged: leave.leave_type_id !== existing.leave_type_id });
  return { ...next, user_id: person.id, days };
}

async function lockedPerson(db: Db, id: number): Promise<Person> {
  await db.select({ id: users.id }).from(users).where(eq(users.id, id)).for('update');
  const person = await findPerson(db, id);
  if (!person) throw new HttpError(409, 'The applicant of this leave application no longer exists.');
  return person;
}

/** A manager's decision is recorded on the record itself (the history has every step). */
export async function decisionColumns(transition: TransitionDefinition, { account, db }: Pick<ResourceContext, 'account' | 'db'>, existing?: Row, values: Input = {}): Promise<Input> {
  if (transition.name === 'withdraw') return {};
  // Issue 28: the applicant's change of plan keeps the manager's decision on the record.
  if (existing && transition.name === LEAVE_CANCEL_TRANSITION) return checkCancel(existing);
  if (existing && LEAVE_END_EARLY_TRANSITIONS.includes(transition.name)) return endEarlyColumns(db, existing, values);
  // The back-fill person named with "back fill arranged" (issue 24) is someone other than the applicant.
  if ('back_fill_user_id' in values && existing) checkBackFill({ id: existing.user_id as number } as Person, values.back_fill_user_id);
  return { decided_by: account.id, decided_at: new Date() };
}

/** Cancelling is for leave that has not started: once it has, the days taken stay taken. */
function checkCancel(existing: Row): Input {
  const from = String(existing.from_date);
  if (from <= today()) {
    throw new HttpError(409, `This leave started on ${from}: end it early instead, so the days you were away stay counted.`);
  }
  return {};
}

/**
 * Ending a started leave early: the new last day lies from its first day to the day before its planned
 * end, and it is a whole day (the half day planned for the old last day goes with it). The days are
 * counted again with the person's working calendar (their work location's holidays), so those not
 * taken return to the balance.
 */
async function endEarlyColumns(db: Db, existing: Row, values: Input): Promise<Input> {
  const from = String(existing.from_date);
  const plannedTo = String(existing.to_date);
  if (from > today()) throw new HttpError(409, `This leave starts on ${from}: cancel it instead if you will not take it.`);
  const to = String(values.to_date);
  if (to < from) throw validationError({ to_date: `The new last day must be on or after the first day of the leave, ${from}.` });
  if (to >= plannedTo) throw validationError({ to_date: `The new last day must be before the planned last day, ${plannedTo}.` });
  const leave = { from_date: from, to_date: to, is_half_day_start: existing.is_half_day_start === true, is_half_day_end: false };
  const counted = await leaveDays(db, { id: existing.user_id as number }, leave);
  if ('errors' in counted) throw validationError({ to_date: Object.values(counted.errors)[0] });
  return { to_date: to, is_half_day_end: false, days: counted.days };
}

// ---- GET /api/leave-application/balance ----

/** Someone whose balance the caller may read: themselves, a report, or anyone for an admin; else 404. */
export async function visiblePerson(db: Db, account: Account, id: number | undefined): Promise<Person> {
  const personId = id ?? account.id;
  const [person] = await db.select({ id: users.id, name: users.name, parent_id: users.parent_id, country_id: users.country_id, status: users.status })
    .from(users).where(and(eq(users.id, personId), isAdmin(account) || personId === account.id ? undefined : eq(users.parent_id, account.id)));
  if (!person) throw new HttpError(404, 'User not found.');
  return person;
}

export async function leaveBalance(ctx: ResourceContext, query: {
  user_id?: number; year?: number; from_date?: string; to_date?: string; is_half_day_start?: boolean; is_half_day_end?: boolean; exclude_id?: number;
}): Promise<LeaveBalance> {
  const { db, account } = ctx;
  const person = await visiblePerson(db, account, query.user_id);
  const year = query.year ?? Number((query.from_date ?? today()).slice(0, 4));
  let request: LeaveBalance['request'] = null;
  if (query.from_date && query.to_date) {
    const counted = await leaveDays(db, person, {
      from_date: query.from_date, to_date: query.to_date,
      is_half_day_start: !!query.is_half_day_start, is_half_day_end: !!query.is_half_day_end,
    });
    request = 'errors' in counted ? { days: 0, error: Object.values(counted.errors)[0] } : { days: counted.days, error: null };
  }
  // The application being edited only leaves the figures when it is the person's own and visible.
  const excludeId = query.exclude_id ? await ownApplicationId(db, person.id, query.exclude_id) : undefined;
  // The accrual and expiry as of the planned leave's first day when there is one (the check's own rule).
  const asOf = query.from_date && query.from_date.startsWith(String(year)) ? query.from_date : defaultAsOf(year);
  return { user: { id: person.id, name: person.name }, year, balances: await leaveBalances(db, person.id, year, excludeId, asOf), request };
}

async function ownApplicationId(db: Db, userId: number, id: number): Promise<number | undefined> {
  const [row] = await db.select({ id: leaveApplications.id }).from(leaveApplications)
    .where(and(eq(leaveApplications.id, id), eq(leaveApplications.user_id, userId)));
  return row?.id;
}

// ---- GET /api/leave-application/back-fill-options ----

/** GET /api/leave-application/ledger: a person the caller may see (visiblePerson), for one year (this year when none is asked for). */
export async function visibleLeaveLedger(ctx: ResourceContext, query: { user_id?: number; year?: number }): Promise<LeaveLedger> {
  const person = await visiblePerson(ctx.db, ctx.account, query.user_id);
  return leaveLedgerFor(ctx.db, person, query.year ?? Number(today().slice(0, 4)));
}

/**
 * People who may cover an applicant: active engineers other than them who share their manager, or
 * report to the caller; anyone for those who may view the people list (managers, admins). Engineers
 * would otherwise see only themselves in the generic /api/user/options.
 */
export async function backFillOptions(ctx: ResourceContext, query: { search?: string; user_id?: number }) {
  const { db, account } = ctx;
  const applicant = await visiblePerson(db, account, query.user_id);
  const seesEveryone = isAdmin(account) || hasPermission(account.permissions, 'can-view-user');
  const term = query.search?.trim();
  const rows = await db.select({ id: users.id, label: users.name }).from(users).where(and(
    eq(users.user_type, 'user'), eq(users.status, 'active'), ne(users.id, applicant.id),
    seesEveryone ? undefined : or(eq(users.parent_id, account.id), applicant.parent_id ? eq(users.parent_id, applicant.parent_id) : undefined),
    term ? sql`lower(${users.name}) like ${`%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`}` : undefined,
  )).orderBy(asc(users.name), asc(users.id)).limit(50);
  return rows;
}

// ---- GET /api/leave-application/calendar ----

/**
 * Who is away in a month. Admins see everyone; others see their own leave, their reports' and
 * their team-mates' (people with the same manager), so an engineer can plan around colleagues.
 * Team-mates' leave shows only who and when: no type, no link (it is outside the list's scope).
 * Rejected leave is left out; pending leave is shown as such.
 */
export async function leaveCalendar(ctx: ResourceContext, month: string): Promise<LeaveCalendar> {
  const { db, account } = ctx;
  const { from, to } = monthRange(month);
  const me = account.user as { parent_id?: number | null };
  const admin = isAdmin(account);
  const mine = or(eq(users.id, account.id), eq(users.parent_id, account.id));
  const team = admin ? undefined : me.parent_id ? or(mine, eq(users.parent_id, me.parent_id)) : mine;
  const rows = await db.select({
    id: leaveApplications.id, user_id: leaveApplications.user_id, name: users.name, user_parent_id: users.parent_id,
    leave_type_id: leaveApplications.leave_type_id, leave_type_name: leaveTypes.name,
    from_date: leaveApplications.from_date, to_date: leaveApplications.to_date,
    is_half_day_start: leaveApplications.is_half_day_start, is_half_day_end: leaveApplications.is_half_day_end,
    days: leaveApplications.days, status: leaveApplications.status,
  }).from(leaveApplications)
    .innerJoin(users, eq(users.id, leaveApplications.user_id))
    .innerJoin(leaveTypes, eq(leaveTypes.id, leaveApplications.leave_type_id))
    .where(and(
      inArray(leaveApplications.status, [...leaveHoldingStatuses]),
      lte(leaveApplications.from_date, to), gte(leaveApplications.to_date, from), team,
    ))
    .orderBy(asc(leaveApplications.from_date), asc(users.name), asc(leaveApplications.id));

  const leaves: CalendarLeave[] = rows.map((row) => {
    const isOpenable = admin || row.user_id === account.id || row.user_parent_id === account.id;
    return {
      id: isOpenable ? row.id : null,
      user: { id: row.user_id, name: row.name },
      leave_type: isOpenable ? { id: row.leave_type_id, name: row.leave_type_name } : null,
      from_date: row.from_date, to_date: row.to_date,
      is_half_day_start: row.is_half_day_start, is_half_day_end: row.is_half_day_end,
      days: row.days, status: row.status as LeaveStatus,
    };
  });
  // The caller's working days: the office is closed on their work location's public holidays.
  const calendar = await workingCalendarFor(db, account.id, from, to);
  const days: CalendarDay[] = datesBetween(from, to).map((date) => ({
    date,
    is_working_weekday: isWorkingWeekday(date, calendar.workingWeek),
    holiday: calendar.holidays.get(date) ?? null,
    // Nobody is away on a day outside the working week: they would not be working.
    away: !isWorkingWeekday(date, calendar.workingWeek) ? [] : leaves.flatMap((leave, index) => (leave.from_date <= date && date <= leave.to_date
      ? [{ leave: index, user_id: leave.user.id, name: leave.user.name, part: partOn(leave, date), status: leave.status }]
      : [])),
  }));
  return { month, days, leaves };
}

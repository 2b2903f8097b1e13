// Answers of the leave routes beside the generic ones (src/server/modules/leave/routes.ts): the
// balance, the ledger (issue 28), the back-fill choices and the team calendar. The types the
// screens read (LeaveBalance, LeaveLedger, LeaveCalendar) are inferred from these.
import { z } from 'zod';
import { leaveStatuses } from '../resources/leave-application';
import { ledgerLineKinds } from '../resources/leave-ledger';
import { leaveAccruals } from '../resources/leave-type';

const person = z.object({ id: z.number().int(), name: z.string() });

export const leaveTypeBalanceSchema = z.object({
  leave_type_id: z.number().int(),
  name: z.string(),
  /** Null: no limit. */
  allowance: z.number().nullable(),
  /** Days of approved (or taken) leave starting in the year. */
  used: z.number(),
  /** Days of leave still waiting for a decision. */
  pending: z.number(),
  /** allowance - used - pending, or null without a limit. */
  remaining: z.number().nullable(),
});

/** GET /api/leave-application/balance. */
export const leaveBalanceSchema = z.object({
  user: person,
  year: z.number().int(),
  balances: z.array(leaveTypeBalanceSchema),
  /** The working days of the request described by the query, or null (no dates, or dates that do not count). */
  request: z.object({ days: z.number(), error: z.string().nullable() }).nullable(),
});

export const ledgerLineSchema = z.object({
  /** The day it counts from. */
  date: z.string(),
  kind: z.enum(ledgerLineKinds),
  /** Signed: what it adds to (or takes from) the balance. */
  days: z.number(),
  /** What a person reads: "Carried from 2026; expires after 2027-03-31", the admin's reason, the leave's dates. */
  note: z.string(),
  /** The leave application of a taken line. */
  leave_application_id: z.number().int().optional(),
});

export const ledgerTypeYearSchema = z.object({
  leave_type_id: z.number().int(),
  name: z.string(),
  accrual: z.enum(leaveAccruals),
  /** Null: the type has no limit (no ledger, only the days taken). */
  allowance: z.number().nullable(),
  accrued: z.number(),
  carried: z.number(),
  expired: z.number(),
  adjusted: z.number(),
  taken: z.number(),
  pending: z.number(),
  /** accrued + carried - expired + adjusted - taken - pending; null without a limit. */
  remaining: z.number().nullable(),
  lines: z.array(ledgerLineSchema),
});

/** GET /api/leave-application/ledger, and the adjustment's answer. */
export const leaveLedgerSchema = z.object({
  user: person,
  year: z.number().int(),
  /** The day the accrual is counted to: today in the current year, the year's last day for a past one, the first for a future one. */
  as_of: z.string(),
  types: z.array(ledgerTypeYearSchema),
});

/** Someone's leave as the calendar shows it; `id` and `leave_type` only for leave the caller may open. */
export const calendarLeaveSchema = z.object({
  id: z.number().int().nullable(),
  user: person,
  leave_type: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  from_date: z.string(),
  to_date: z.string(),
  is_half_day_start: z.boolean(),
  is_half_day_end: z.boolean(),
  days: z.number(),
  status: z.enum(leaveStatuses),
});

/** away on a day: all day, or half of it (the leave starts at noon: afternoon; ends at noon: morning). */
export const awayPartSchema = z.enum(['day', 'morning', 'afternoon']);

export const calendarDaySchema = z.object({
  date: z.string(),
  /** A day of the firm's working week (the working week setting), holidays aside. */
  is_working_weekday: z.boolean(),
  /** The public holiday of the caller's work location, if any (the office is closed). */
  holiday: z.string().nullable(),
  away: z.array(z.object({ leave: z.number().int(), user_id: z.number().int(), name: z.string(), part: awayPartSchema, status: z.enum(leaveStatuses) })),
});

/** GET /api/leave-application/calendar. */
export const leaveCalendarSchema = z.object({
  month: z.string(),
  days: z.array(calendarDaySchema),
  /** The leaves of the month, referenced by index from each day's `away`. */
  leaves: z.array(calendarLeaveSchema),
});

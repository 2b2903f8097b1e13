// A person's leave ledger (issue 28, decision 030): per leave type and year, what was accrued, carried
// from the year before, expired, adjusted by an admin and taken. The balance is this ledger summed:
// entitlement (accrued + carried - expired + adjusted) less the days taken and pending, the rule the
// balance always had (pending days are held until the manager decides).
import { z } from 'zod';
import type { ledgerLineSchema, leaveLedgerSchema, ledgerTypeYearSchema } from '../schemas/leave';
import { idQuery } from './define';
import { type LeaveAccrual, MONTH_NAMES } from './leave-type';

/** The kinds of ledger line, in the order a year shows them. */
export const ledgerLineKinds = ['carried', 'accrued', 'adjusted', 'taken', 'expired'] as const;
export type LedgerLineKind = (typeof ledgerLineKinds)[number];

export type LedgerLine = z.infer<typeof ledgerLineSchema>;

export type LedgerTypeYear = z.infer<typeof ledgerTypeYearSchema>;

/** A person's ledger of a year (src/shared/schemas/leave.ts). */
export type LeaveLedger = z.infer<typeof leaveLedgerSchema>;

const yearQuery = z.coerce.number({ error: 'The year field must be a year.' }).int('The year field must be a year.')
  .min(2000, 'The year field must be at least 2000.').max(2100, 'The year field must not be greater than 2100.');

export const leaveLedgerQuerySchema = z.object({
  user_id: idQuery().optional(),
  year: yearQuery.optional(),
});

/** An admin's adjustment: days added (or taken away, negative) to one person's type for one year, with the reason. */
export const leaveAdjustmentSchema = z.object({
  user_id: z.number({ error: 'The person field is required.' }).int().positive('The person field is required.'),
  leave_type_id: z.number({ error: 'The leave type field is required.' }).int().positive('The leave type field is required.'),
  year: z.number({ error: 'The year field must be a year.' }).int('The year field must be a year.')
    .min(2000, 'The year field must be at least 2000.').max(2100, 'The year field must not be greater than 2100.'),
  days: z.number({ error: 'The days field must be a number.' })
    .min(-366, 'The days field must be at least -366.').max(366, 'The days field must not be greater than 366.')
    .multipleOf(0.5, 'The days field must be a whole or a half number of days.')
    .refine((days) => days !== 0, 'The days field must not be 0.'),
  reason: z.string({ error: 'The reason field is required.' }).trim().min(1, 'The reason field is required.')
    .max(1000, 'The reason field must not be greater than 1000 characters.'),
});
export type LeaveAdjustment = z.infer<typeof leaveAdjustmentSchema>;

/** Rounded down to a half day: accrual never gives a part of a day nobody can take. */
const toHalfDays = (days: number) => Math.floor(days * 2 + 1e-9) / 2;

/**
 * What a type's allowance has accrued in `year` by the day `asOf`: yearly, the whole allowance from
 * 1 January; monthly, a twelfth at the start of each month begun (rounded down to a half day; all of
 * it once December has begun). Nothing before the year starts.
 */
export function accruedBy(type: { yearly_allowance: number | null; accrual: LeaveAccrual }, year: number, asOf: string): number {
  if (type.yearly_allowance === null) return 0;
  if (asOf < `${year}-01-01`) return 0;
  if (type.accrual === 'yearly') return type.yearly_allowance;
  const months = asOf > `${year}-12-31` ? 12 : Number(asOf.slice(5, 7));
  return months === 12 ? type.yearly_allowance : toHalfDays((type.yearly_allowance * months) / 12);
}

/** Each month's accrual of `year` begun by `asOf`, as ledger lines (one line for a yearly type). */
export function accrualLines(type: { yearly_allowance: number | null; accrual: LeaveAccrual }, year: number, asOf: string): LedgerLine[] {
  if (type.yearly_allowance === null || asOf < `${year}-01-01`) return [];
  if (type.accrual === 'yearly') return [{ date: `${year}-01-01`, kind: 'accrued', days: type.yearly_allowance, note: `The allowance for ${year}` }];
  const lines: LedgerLine[] = [];
  let before = 0;
  for (let month = 1; month <= 12; month += 1) {
    const date = `${year}-${String(month).padStart(2, '0')}-01`;
    if (date > asOf) break;
    const total = accruedBy(type, year, date);
    lines.push({ date, kind: 'accrued', days: total - before, note: `Accrued for ${MONTH_NAMES[month - 1]} ${year}` });
    before = total;
  }
  return lines;
}



/** The last day of `month` (1-12) of `year`: the day after which carried days expire. */
export function carriedExpiryDate(year: number, month: number): string {
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${String(month).padStart(2, '0')}-${String(last).padStart(2, '0')}`;
}

/**
 * Carried days that expire: those not taken by the expiry date. Days taken in the year are taken from
 * the carried days first (they would be lost otherwise), so what expires is the carried days less the
 * days of leave starting on or before the expiry date, never below 0. Nothing expires before the date has passed.
 */
export function expiredDays(carried: number, takenByExpiry: number, expiresOn: string | null, asOf: string): number {
  if (!expiresOn || carried <= 0 || asOf <= expiresOn) return 0;
  return Math.max(carried - takenByExpiry, 0);
}

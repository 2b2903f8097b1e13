// People's bank details (issue 21), kept on their user row: read and changed only by the person
// themself and by finance (can-reimburse-expense). The generic user routes hide these columns, so
// they never appear in lists, exports, options or anyone else's view.
import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/accounts';
import type { Account } from '../../plugins/auth';
import { HttpError } from '../../plugins/errors';
import { inWrite, type ResourceContext } from '../../resources/types';
import { hasPermission } from '../../../shared/permissions';
import { REIMBURSE_PERMISSION, type BankDetails } from '../../../shared/resources/reimbursement-batch';

/** The columns of the users table that hold bank details (hidden from every generic user row). */
export const BANK_COLUMNS = ['bank_account_holder', 'bank_account_number', 'bank_code', 'bank_details_updated_at'] as const;

export interface StoredBankDetails extends BankDetails { updated_at: string | null }

/** 403 unless `account` is the person or finance. */
function checkBankDetailsReader(account: Account, userId: number) {
  if (account.type === 'app' && account.id === userId) return;
  if (hasPermission(account.permissions, REIMBURSE_PERMISSION)) return;
  throw new HttpError(403, 'Only the person themself and finance can see or change bank details.');
}

const select = {
  id: users.id, name: users.name,
  account_holder: users.bank_account_holder, account_number: users.bank_account_number, bank_code: users.bank_code,
  updated_at: users.bank_details_updated_at,
};

/** Null details when none were given; 404 for an unknown person; 403 to anyone but them and finance. */
export async function readBankDetails({ db, account }: ResourceContext, userId: number): Promise<{ name: string; details: StoredBankDetails | null }> {
  checkBankDetailsReader(account, userId);
  const [row] = await db.select(select).from(users).where(eq(users.id, userId));
  if (!row) throw new HttpError(404, 'No such person.');
  return { name: row.name, details: detailsOf(row) };
}

/** The person themself or finance keeps a person's details (403 to anyone else, 404 for an unknown person). */
export async function saveBankDetails(ctx: ResourceContext, userId: number, details: BankDetails) {
  checkBankDetailsReader(ctx.account, userId);
  const row = await inWrite(ctx, async ({ db }) => {
    const [saved] = await db.update(users).set({
      bank_account_holder: details.account_holder, bank_account_number: details.account_number, bank_code: details.bank_code,
      bank_details_updated_at: new Date(),
    }).where(eq(users.id, userId)).returning(select);
    if (!saved) throw new HttpError(404, 'No such person.');
    return saved;
  });
  const whose = ctx.account.id === userId ? 'Your' : `${row.name}'s`;
  return { data: detailsOf(row), name: row.name, message: `${whose} bank details were saved. Reimbursed claims are paid to this account from now on.` };
}

/** The payees' details at once (the bank file and the batch page); a payee without them maps to null. */
export async function bankDetailsOf(db: Db, userIds: readonly number[]): Promise<Map<number, { name: string; details: StoredBankDetails | null }>> {
  if (!userIds.length) return new Map();
  const rows = await db.select(select).from(users).where(inArray(users.id, [...userIds]));
  return new Map(rows.map((row) => [row.id, { name: row.name, details: detailsOf(row) }]));
}

function detailsOf(row: { account_holder: string | null; account_number: string | null; bank_code: string | null; updated_at: Date | null }): StoredBankDetails | null {
  if (!row.account_holder || !row.account_number) return null;
  return { account_holder: row.account_holder, account_number: row.account_number, bank_code: row.bank_code, updated_at: row.updated_at?.toISOString() ?? null };
}

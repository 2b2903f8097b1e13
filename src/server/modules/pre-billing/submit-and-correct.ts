// A partner files and corrects a pre-billing statement (issue 11): the definition's write hooks. The
// checks refuse a bad statement with 422 before anything is stored; a rejected statement corrected is
// resubmitted, its previous lines kept as a version, and finance and the account manager are told.
// The hooks take the context first (decision 040).
import { and, eq, isNull, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { preBillingLines, preBillings, preBillingVersions } from '../../db/schema/partner-billing';
import { HttpError, validationError } from '../../plugins/errors';
import { ownerIdOf, writeHistory } from '../../resources/workflow';
import { notifyAbout } from '../../resources/workflow-notify';
import type { AttachmentSummary } from '../../../shared/resources/define';
import {
  firstOfMonth, monthLabel, parsePreBillingLines, preBilling, RESUBMIT_TRANSITION, type PreBillingLine,
} from '../../../shared/resources/pre-billing';
import { sumMoney } from '../../../shared/money';
import { thisMonth } from '../../../shared/dates';
import type { Input, ResourceContext, RowOf, WriteContext } from '../../resources/types';
import { type PricedLine, priceLines, quantitiesBilledElsewhere } from './pricing';

/** What `beforeCreate` / `beforeUpdate` settled, handed to the `after` hook of the same request. */
interface Settled { lines: PricedLine[]; isResubmission: boolean }
const settled = new WeakMap<object, Settled>();

/**
 * Checks a statement as it will be saved (the month free for the firm and not in the future, the
 * spreadsheet attached, every line), all at once: one 422 naming every field, and nothing stored.
 * Returns the columns to store; the priced lines wait for the `after` hook.
 */
async function checkStatement(ctx: ResourceContext, statement: {
  id?: number; partnerId: number; month: string; currency: string; rawLines: unknown; spreadsheet: readonly AttachmentSummary[]; isSupplementary: boolean;
}) {
  const errors: Record<string, string> = {};
  const first = firstOfMonth(statement.month)!;
  let supplementsId: number | null = null;
  if (first > firstOfMonth(thisMonth())!) errors.month = 'The month may not be in the future: bill a month once it has been worked.';
  else {
    // The month's original statement (one per firm and month); supplementary ones come beside it.
    const [original] = await ctx.db.select({ id: preBillings.id, status: preBillings.status }).from(preBillings)
      .where(and(eq(preBillings.partner_id, statement.partnerId), eq(preBillings.month, first), isNull(preBillings.supplements_id),
        statement.id ? ne(preBillings.id, statement.id) : undefined)).limit(1);
    const month = monthLabel(first);
    if (statement.isSupplementary) {
      if (!original) errors.month = `There is no pre-billing for ${month} to supplement: submit an ordinary statement for it.`;
      else if (original.status !== 'approved') {
        errors.month = `The pre-billing for ${month} is not approved yet: add the forgotten line to it instead of a supplementary statement.`;
      } else supplementsId = original.id;
    } else if (original) {
      errors.month = original.status === 'approved'
        ? `The pre-billing for ${month} is already approved: to bill a forgotten line, submit a supplementary statement for ${month}.`
        : `A pre-billing for ${month} has already been submitted: correct that one instead.`;
    }
  }
  if (!statement.spreadsheet.length) errors.spreadsheet = 'Attach the statement\'s spreadsheet (xlsx, xls, csv or pdf).';
  const parsed = parsePreBillingLines(statement.rawLines);
  Object.assign(errors, parsed.errors);
  const elsewhere = await quantitiesBilledElsewhere(ctx.db, statement.partnerId, first, statement.id);
  const { priced, errors: lineErrors } = await priceLines(ctx.db, statement.partnerId, first, statement.currency, parsed.lines, elsewhere);
  Object.assign(errors, lineErrors);
  if (Object.keys(errors).length) throw validationError(errors);
  return { first, priced, total: sumMoney(priced.map((line) => line.amount)), supplementsId };
}

/** The partner portal files a statement: the firm is the caller's, the first version, submitted by this login. */
export async function beforeCreatePreBilling(ctx: WriteContext, values: Input, input: Input): Promise<Input> {
  if (ctx.area !== 'partner') throw new HttpError(403, 'Only the partner submits its pre-billing.');
  const partnerId = ownerIdOf(ctx.account);
  const { first, priced, total, supplementsId } = await checkStatement(ctx, {
    partnerId, month: String(input.month), currency: String(input.currency), rawLines: input.lines,
    spreadsheet: (input.spreadsheet as AttachmentSummary[] | undefined) ?? [], isSupplementary: input.is_supplementary === true,
  });
  settled.set(ctx.request, { lines: priced, isResubmission: false });
  const { is_supplementary: _asked, ...stored } = values;
  return { ...stored, partner_id: partnerId, month: first, total, version: 1, submitted_by: ctx.account.id, supplements_id: supplementsId };
}

export async function afterCreatePreBilling(ctx: WriteContext, row: RowOf<typeof preBillings>) {
  // Finance and the account manager were told by the create (the definition's `events.create`).
  await storeLines(ctx.db, row.id, settled.get(ctx.request)?.lines ?? []);
}

/**
 * A correction from the portal (only while pending or rejected: `editableStates`). Lines left out
 * are priced again as they stand (the month or currency may have changed). Correcting a rejected
 * statement resubmits it: the previous lines and total are kept as version n, it becomes n + 1 and
 * pending again, and finance is told as on the first submission.
 */
export async function beforeUpdatePreBilling(ctx: WriteContext, values: Input, existing: RowOf<typeof preBillings>, input: Input): Promise<Input> {
  if (ctx.area !== 'partner') throw new HttpError(403, 'Only the partner corrects its pre-billing.');
  const existingLines = (existing.lines as PreBillingLine[] | undefined) ?? [];
  const { first, priced, total, supplementsId } = await checkStatement(ctx, {
    id: existing.id,
    partnerId: existing.partner_id,
    month: String(input.month ?? existing.month),
    currency: String(input.currency ?? existing.currency),
    rawLines: input.lines ?? existingLines.map(({ engineer_id, client_id, quantity }) => ({ engineer_id, client_id, quantity })),
    spreadsheet: (input.spreadsheet as AttachmentSummary[] | undefined) ?? [],
    // A supplementary statement stays one (and the same original's) through its corrections.
    isSupplementary: existing.supplements_id !== null && existing.supplements_id !== undefined,
  });
  const isResubmission = existing.status === 'rejected';
  settled.set(ctx.request, { lines: priced, isResubmission });
  const next: Input = { ...values, month: first, total, submitted_by: ctx.account.id };
  delete next.lines;
  delete next.is_supplementary;
  if (supplementsId !== null) next.supplements_id = supplementsId;
  if (isResubmission) {
    const version = existing.version;
    await ctx.db.insert(preBillingVersions).values({
      pre_billing_id: existing.id, version, total: existing.total,
      lines: { currency: existing.currency, lines: existingLines.map(({ id: _id, ...line }) => line) },
    });
    Object.assign(next, { version: version + 1, status: 'pending', decided_by: null, decided_at: null });
  }
  return next;
}

export async function afterUpdatePreBilling(ctx: WriteContext, row: RowOf<typeof preBillings>) {
  const work = settled.get(ctx.request);
  if (!work) return;
  const id = row.id;
  await ctx.db.delete(preBillingLines).where(eq(preBillingLines.pre_billing_id, id));
  await storeLines(ctx.db, id, work.lines);
  if (!work.isResubmission) return;
  await writeHistory(ctx.db, { resource: preBilling.name, recordId: id, transition: RESUBMIT_TRANSITION, from: 'rejected', to: 'pending', account: ctx.account });
  await notifyAbout(ctx.tx, preBilling, row, preBilling.workflow!.events.resubmit.notify, ctx.account, null, 'resubmitted');
}

async function storeLines(db: Db, preBillingId: number, lines: readonly PricedLine[]) {
  if (lines.length) await db.insert(preBillingLines).values(lines.map((line) => ({ ...line, pre_billing_id: preBillingId })));
}

/** Who decided last (the history keeps every step). */
export const decisionColumns = ({ account }: WriteContext) => ({ decided_by: account.id, decided_at: new Date() });

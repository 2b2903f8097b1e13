// Contracts (issue 13): the rules of the definition's routes (dates, a PO number used once, the owner,
// what a row shows, no second renewal) and recording the new PO that replaces a contract.
import { HttpError } from '../../plugins/errors';
import { type FileInput, saveAttachments } from '../../resources/attachments';
import { recordResourceChange } from '../../resources/audit';
import { resourceRow } from '../../resources/register';
import { type Input, inWrite, type ResourceContext, type Row, type RowOf, type WriteContext } from '../../resources/types';
import type { contracts } from '../../db/schema/onboarding';
import { contract, type NewPo } from '../../../shared/resources/contract';
import type { TransitionDefinition } from '../../../shared/resources/define';
import { today } from '../../../shared/dates';
import { attachPeople, canReleaseNewPo, checkDates, checkPoNumber, checkRenewedEnd, isStartingLater, releaseNewPo, statusNote } from './service';

export async function prepareContract(ctx: WriteContext, values: Input): Promise<Input> {
  checkDates(values);
  await checkPoNumber(ctx.db, String(values.po_number));
  // The one who records it owns it: the end-date reminders go to them.
  return { ...values, owner_id: ctx.account.id };
}

export async function prepareContractUpdate(ctx: WriteContext, values: Input, existing: RowOf<typeof contracts>): Promise<Input> {
  checkDates({ ...existing, ...values });
  checkRenewedEnd(values, existing);
  if (typeof values.po_number === 'string') await checkPoNumber(ctx.db, values.po_number, existing.id);
  return values;
}

/** Each row's people, whether the caller may release its new PO, its note and its start, and nothing to renew twice. */
export async function decorateContracts(ctx: ResourceContext, rows: Row[]) {
  await attachPeople(ctx.db, rows);
  const on = today();
  for (const row of rows) {
    row.can_release_new_po = canReleaseNewPo(row, ctx.account);
    row.status_note = statusNote(row, on);
    row.starts_on = isStartingLater(row, on) ? row.start_date : null;
    // Renewed already: there is nothing left to renew.
    if (row.renewed_by) row.available_transitions = [];
  }
}

export function checkRenewal(transition: TransitionDefinition, existing: Row) {
  const renewedBy = existing.renewed_by as { po_number: string } | null;
  if (transition.name === 'start-renewal' && renewedBy) throw new HttpError(409, `This contract was renewed by PO ${renewedBy.po_number} already.`);
}

/** "A new PO moves it on": the new PO becomes a contract of its own (with its document) and the old one is closed. */
export function recordNewPo(ctx: ResourceContext, id: number, po: NewPo, files: FileInput | null): Promise<Row> {
  return inWrite(ctx, async (write) => {
    const before = await resourceRow(contract.name, write, id);
    const createdId = await releaseNewPo(write, id, po);
    await saveAttachments(write.tx, contract, createdId, files, write.account);
    // The audit trail: the new contract, and the old one closed by it (issue 20).
    const created = await resourceRow(contract.name, write, createdId);
    await recordResourceChange(write.db, write.account, contract, { action: 'create', id: createdId, before: null, after: created });
    await recordResourceChange(write.db, write.account, contract, {
      action: 'transition', id: before.id as number, before, after: await resourceRow(contract.name, write, before.id as number), transition: 'new-po',
    });
    return created;
  });
}

// A person returns their signed or completed copy of an assigned document (issue 10): the checks that it
// is theirs and waiting for a copy, the move to "submitted", its history, audit and the assigner told.
import { and, eq } from 'drizzle-orm';
import { documentAssignments, libraryDocuments } from '../../db/schema/compliance';
import { workflowHistory } from '../../db/schema/workflow';
import { HttpError, validationError } from '../../plugins/errors';
import { recordChange } from '../../resources/audit';
import { type FileInput, saveAttachments } from '../../resources/attachments';
import { actorName, inWrite, type ResourceContext, type WriteContext } from '../../resources/types';
import { notifyEach } from '../notification/notify';
import { workflowState } from '../../../shared/resources/define';
import { documentAssignment, WAITING_STATUSES } from '../../../shared/resources/document-assignment';
import { routePath } from '../../../shared/routes';
import type { ReturnedCopy } from '../../../shared/schemas/compliance';
import { docAssignedOf, refreshDocAssigned, RETURNED_NOTIFICATION } from './service';

/** POST /api/document-assign-history/:id/return: the copy (one file) sent for review; the person's icon after it. */
export async function returnAssignedCopy(ctx: ResourceContext, assignmentId: number, files: FileInput): Promise<ReturnedCopy> {
  const added = files.added.returned_copy ?? [];
  if (added.length !== 1) throw validationError({ returned_copy: 'Attach the signed or completed copy as one file.' });
  await inWrite(ctx, async (write) => {
    const from = await checkReturnable(write, assignmentId);
    await recordReturnedCopy(write, assignmentId, from);
    await saveAttachments(write.tx, documentAssignment, assignmentId, { added: { returned_copy: added }, kept: {} }, write.account);
  });
  return { id: assignmentId, status: 'submitted', doc_assigned: await docAssignedOf(ctx.db, ctx.account.id) };
}

/** Checks the person may return a copy of this assignment now (theirs, a document to return, waiting for them). */
async function checkReturnable({ db, account }: ResourceContext, assignmentId: number) {
  const [row] = await db.select({ status: documentAssignments.status, action: libraryDocuments.action, assigned_by: documentAssignments.assigned_by, title: libraryDocuments.title })
    .from(documentAssignments).innerJoin(libraryDocuments, eq(libraryDocuments.id, documentAssignments.document_id))
    .where(and(eq(documentAssignments.id, assignmentId), eq(documentAssignments.user_id, account.id))).limit(1);
  if (!row) throw new HttpError(404, 'Document assignment not found.');
  if (row.action !== 'return') throw new HttpError(409, 'This document asks to be read and acknowledged, not returned.');
  if (!WAITING_STATUSES.includes(row.status as never)) throw new HttpError(409, 'This document is not waiting for a copy from you.');
  return row;
}

/** Records the returned copy: submitted for review (compare-and-set), history, the assigner told. */
async function recordReturnedCopy({ tx, account }: WriteContext, assignmentId: number, from: { status: string; assigned_by: number | null; title: string }) {
  const changed = await tx.db.update(documentAssignments).set({ status: 'submitted', submitted_at: new Date(), updated_at: new Date() })
    .where(and(eq(documentAssignments.id, assignmentId), eq(documentAssignments.status, from.status))).returning({ id: documentAssignments.id });
  if (!changed.length) throw new HttpError(409, 'This document assignment was changed meanwhile; reload it.');
  await tx.db.insert(workflowHistory).values({
    resource: documentAssignment.name, record_id: assignmentId, transition: 'submit', from_status: from.status, to_status: 'submitted',
    actor_type: 'app', actor_id: account.id, actor_name: actorName(account),
  });
  await recordChange(tx.db, {
    account, action: 'transition', transition: 'submit', resource: documentAssignment.name, recordId: assignmentId, title: from.title,
    changes: [{ field: 'status', old: from.status, new: 'submitted', old_text: workflowState(documentAssignment.workflow!, from.status).label, new_text: workflowState(documentAssignment.workflow!, 'submitted').label }],
  });
  await refreshDocAssigned(tx.db, [account.id]);
  if (from.assigned_by && from.assigned_by !== account.id) {
    await notifyEach(tx, [{
      recipients: [from.assigned_by],
      content: { title: 'Signed copy returned', message: `${actorName(account)} returned “${from.title}” for review.`, url: routePath('document-assign-history.show', { id: assignmentId }) },
    }], { type: RETURNED_NOTIFICATION, kind: 'document-assign-history' });
  }
}


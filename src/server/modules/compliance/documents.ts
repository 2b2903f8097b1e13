// The rules of the compliance library's generic routes (issue 10), as the definitions' hooks: a library
// document's versions, an assignment's decisions, and a person's own documents, which only they change.
import type { TransitionDefinition } from '../../../shared/resources/define';
import { HttpError, validationError } from '../../plugins/errors';
import type { Input, ResourceContext, Row, WriteContext } from '../../resources/types';
import { checkVersionFiles, refreshDocAssigned, reopenForNewVersion } from './service';

// ---- The repository: one file to start with, then one new version at a time ----

export function prepareLibraryDocument(ctx: WriteContext, values: Input, input: Input): Input {
  checkVersionFiles(null, input);
  return { ...values, version: 1, created_by: ctx.account.id };
}

export function prepareLibraryDocumentUpdate(values: Input, existing: Row, input: Input): Input {
  const { isNewVersion } = checkVersionFiles(existing, input);
  return isNewVersion ? { ...values, version: (existing.version as number) + 1 } : values;
}

/** A new version asks everyone assigned the document again. */
export async function afterLibraryDocumentUpdate(ctx: WriteContext, row: Row, existing: Row) {
  if ((row.version as number) > (existing.version as number)) await reopenForNewVersion(ctx, row);
}

// ---- Assignments ----

/** A document to return is never acknowledged: the person uploads their copy instead. */
export function withoutAcknowledgeToReturn(rows: Row[]) {
  for (const row of rows) {
    if (row.action !== 'acknowledge') row.available_transitions = (row.available_transitions as { name: string }[]).filter((t) => t.name !== 'acknowledge');
  }
}

/** The columns a transition sets: when it was acknowledged, or who decided on a returned copy and when. */
export function assignmentDecisionColumns(ctx: WriteContext, transition: TransitionDefinition, existing: Row): Input {
  if (transition.name === 'acknowledge') {
    if (existing.action !== 'acknowledge') throw new HttpError(409, 'This document asks for a signed or completed copy: upload it instead.');
    return { acknowledged_at: new Date() };
  }
  return { decided_by: ctx.account.id, decided_at: new Date() };
}

/** The person's icon follows what still waits for them (a rejected copy goes back to them). */
export const afterAssignmentTransition = (ctx: WriteContext, row: Row) => refreshDocAssigned(ctx.db, [row.user_id as number]);

// ---- A person's own documents ----

/** An own document is one file, replaced rather than added to. */
function checkOneFile(input: Input) {
  const files = (input.file as unknown[] | undefined) ?? [];
  if (files.length !== 1) throw validationError({ file: 'Attach the document as one file.' });
}

/** The holder is whoever adds it. */
export function prepareOwnDocument(ctx: WriteContext, values: Input, input: Input): Input {
  checkOneFile(input);
  return { ...values, user_id: ctx.account.id };
}

export function prepareOwnDocumentUpdate(values: Input, input: Input): Input {
  checkOneFile(input);
  return values;
}

/** Only its holder changes or removes their own document, whoever else may see it. */
export function holderRefusal(existing: Row, ctx: ResourceContext): HttpError | null {
  return existing.user_id !== ctx.account.id ? new HttpError(403, 'Only the holder can change this document.') : null;
}

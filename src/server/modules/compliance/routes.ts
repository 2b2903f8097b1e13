// The compliance library (issue 10): the generic routes of its three definitions (repository with
// versions, assignments with their workflow and timeline, people's own documents), plus assigning,
// returning a signed copy, opening an assigned document and a person's compliance.
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { documentAssignments, libraryDocuments, ownDocuments } from '../../db/schema/compliance';
import { requireAccount } from '../../plugins/auth';
import { HttpError, validationError } from '../../plugins/errors';
import { inTransaction } from '../../lib/transaction';
import { discardNewFiles, saveAttachments, sendAttachment } from '../../resources/attachments';
import { readMultipart, replayedMultipart } from '../../resources/multipart';
import { registerResource } from '../../resources/register';
import { hasPermission } from '../../../shared/permissions';
import { idQuery } from '../../../shared/resources/define';
import { ownDocument } from '../../../shared/resources/document';
import {
  ASSIGN_HISTORY_PERMISSION, ASSIGN_PERMISSION, assignDocumentSchema, documentAssignment, OWN_DOCUMENT_PERMISSION,
} from '../../../shared/resources/document-assignment';
import { documentRepository } from '../../../shared/resources/document-repository';
import { assignDocumentResultSchema, personComplianceSchema, returnedCopySchema } from '../../../shared/schemas/compliance';
import { dataResponse, fileDownload, savedResponse } from '../../../shared/schemas/responses';
import {
  assignDocuments, assignedDocumentFile, assignmentComputed, assignmentScope, checkReturnable, checkVersionFiles, docAssignedOf,
  personCompliance, recordReturnedCopy, refreshDocAssigned, reopenForNewVersion, seesAllOwnDocuments,
} from './service';
import type { Row } from '../../resources/types';

/** Whoever may look at a person's compliance: the library's and the history's staff. */
const COMPLIANCE_PERMISSION = `${documentRepository.permissions.view}|${ASSIGN_HISTORY_PERMISSION}`;

export function registerComplianceRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  registerResource(parent, {
    definition: documentRepository,
    table: libraryDocuments,
    beforeCreate(values, input, ctx) {
      checkVersionFiles(null, input);
      return { ...values, version: 1, created_by: ctx.account.id };
    },
    beforeUpdate(values, existing, input) {
      const { isNewVersion } = checkVersionFiles(existing, input);
      return isNewVersion ? { ...values, version: (existing.version as number) + 1 } : values;
    },
    async afterUpdate(row, existing, _input, ctx) {
      if ((row.version as number) > (existing.version as number)) await reopenForNewVersion(ctx.tx, ctx.account, row);
    },
  });

  registerResource(parent, {
    definition: documentAssignment,
    table: documentAssignments,
    scope: ({ account }) => assignmentScope(account),
    computed: assignmentComputed,
    // A document to return is never acknowledged: the person uploads their copy instead.
    async decorate(rows) {
      for (const row of rows) {
        if (row.action !== 'acknowledge') row.available_transitions = (row.available_transitions as { name: string }[]).filter((t) => t.name !== 'acknowledge');
      }
    },
    beforeTransition(transition, existing, _comment, ctx) {
      if (transition.name === 'acknowledge') {
        if (existing.action !== 'acknowledge') throw new HttpError(409, 'This document asks for a signed or completed copy: upload it instead.');
        return { acknowledged_at: new Date() };
      }
      return { decided_by: ctx.account.id, decided_at: new Date() };
    },
    // The person's icon follows what still waits for them (a rejected copy goes back to them).
    afterTransition: (row, _transition, _existing, ctx) => refreshDocAssigned(ctx.db, [row.user_id as number]),
  });

  registerResource(parent, {
    definition: ownDocument,
    table: ownDocuments,
    // The holder's own; the repository's staff see everyone's (a person's compliance).
    scope: ({ account }) => (seesAllOwnDocuments(account) ? undefined : eq(ownDocuments.user_id, account.id)),
    beforeCreate(values, input, ctx) {
      checkOneFile(input);
      return { ...values, user_id: ctx.account.id };
    },
    updateRefusal: (existing, ctx) => holderRefusal(existing, ctx.account.id),
    deleteRefusal: (existing, ctx) => holderRefusal(existing, ctx.account.id),
    beforeUpdate(values, _existing, input) {
      checkOneFile(input);
      return values;
    },
  });

  // Assign documents to people and groups (spec /document-assign).
  app.post('/document-assign', {
    config: { auth: 'app', permission: ASSIGN_PERMISSION },
    schema: {
      tags: [documentAssignment.label], summary: 'Assign documents to people, employee types, managers\u2019 teams or clients\u2019 placements', body: assignDocumentSchema,
      response: { 201: savedResponse(assignDocumentResultSchema) },
    },
  }, async (request, reply) => {
    const account = requireAccount(request);
    const data = await inTransaction(parent, (tx) => assignDocuments(tx, account, request.body));
    const message = data.assigned === 0
      ? 'Everyone chosen already has these documents open: nothing new was assigned.'
      : `${data.assigned} assignment${data.assigned === 1 ? '' : 's'} sent to ${data.people} ${data.people === 1 ? 'person' : 'people'}.`;
    return reply.status(201).send({ data, message });
  });

  // The person returns their signed or completed copy (multipart `returned_copy`), with progress on the client.
  app.post('/document-assign-history/:id/return', {
    config: { auth: 'app', permission: OWN_DOCUMENT_PERMISSION },
    schema: {
      tags: [documentAssignment.label], summary: 'Return a signed or completed copy of an assigned document', params: z.object({ id: idQuery() }),
      response: { 200: savedResponse(returnedCopySchema) },
    },
  }, async (request, reply) => {
    const account = requireAccount(request);
    if (!request.isMultipart()) throw validationError({ returned_copy: 'Attach the signed or completed copy.' });
    const { values, files } = await readMultipart(request, documentAssignment);
    // A retried outbox item (issue 26) replays the first answer.
    if (await replayedMultipart(request, reply, values, files)) return reply;
    try {
      const added = files.added.returned_copy ?? [];
      if (added.length !== 1) throw validationError({ returned_copy: 'Attach the signed or completed copy as one file.' });
      const id = request.params.id;
      await inTransaction(parent, async (tx) => {
        const from = await checkReturnable(tx.db, account, id);
        await recordReturnedCopy(tx, account, id, from);
        await saveAttachments(tx, documentAssignment, id, { added: { returned_copy: added }, kept: {} }, account);
      });
      return { data: { id, status: 'submitted' as const, doc_assigned: await docAssignedOf(parent.db, account.id) }, message: 'Your copy was sent for review.' };
    } catch (error) {
      await discardNewFiles(request, files);
      throw error;
    }
  });

  // The document an assignment asks about, for the person, the assigner and the history's staff.
  app.get('/document-assign-history/:id/document', {
    config: { auth: 'app', permission: documentAssignment.permissions.view },
    schema: {
      tags: [documentAssignment.label], summary: 'Open the document of an assignment (the version it asks about, or ?version=n)',
      params: z.object({ id: idQuery() }),
      querystring: z.object({ version: z.coerce.number().int().min(1).max(1000).optional(), disposition: z.enum(['attachment', 'inline']).optional() }),
      response: { 200: fileDownload },
    },
  }, async (request, reply) => {
    const account = requireAccount(request);
    const { documentId, attachmentId } = await assignedDocumentFile(parent.db, account, request.params.id, request.query.version);
    return sendAttachment(reply, parent.db, documentRepository, documentId, attachmentId, request.query.disposition ?? 'attachment');
  });

  // A person's compliance (their show screen): the badge of spec §5, their documents and assignments.
  app.get('/compliance/:id', {
    config: { auth: 'app', permission: `${COMPLIANCE_PERMISSION}|${OWN_DOCUMENT_PERMISSION}` },
    schema: {
      tags: [documentAssignment.label], summary: 'A person\u2019s compliance (user id): badge, own documents and assignments', params: z.object({ id: idQuery() }),
      response: { 200: dataResponse(personComplianceSchema) },
    },
  }, async (request) => {
    const account = requireAccount(request);
    // Anyone may see their own; someone else's needs the library's or the history's permission (else
    // it is not there for them, as a record outside a scope).
    if (request.params.id !== account.id && !hasPermission(account.permissions, COMPLIANCE_PERMISSION)) {
      throw new HttpError(404, 'Person not found.');
    }
    return { data: await personCompliance(parent.db, request.params.id) };
  });
}

/** An own document is one file, replaced rather than added to. */
function checkOneFile(input: Row) {
  const files = (input.file as unknown[] | undefined) ?? [];
  if (files.length !== 1) throw validationError({ file: 'Attach the document as one file.' });
}

/** Only the holder changes or deletes their own document (the staff who see it only read it). */
/** Only its holder changes or removes their own document, whoever else may see it. */
function holderRefusal(existing: Row, accountId: number): HttpError | null {
  return existing.user_id !== accountId ? new HttpError(403, 'Only the holder can change this document.') : null;
}

// The compliance library (issue 10): the generic routes of its three definitions (repository with
// versions, assignments with their workflow and timeline, people's own documents), plus assigning,
// returning a signed copy, opening an assigned document and a person's compliance.
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { documentAssignments, libraryDocuments, ownDocuments } from '../../db/schema/compliance';
import { validationError } from '../../plugins/errors';
import { discardNewFiles, sendAttachment } from '../../resources/attachments';
import { readMultipart, replayedMultipart } from '../../resources/multipart';
import { registerResource } from '../../resources/register';
import { idQuery } from '../../../shared/resources/define';
import { ownDocument } from '../../../shared/resources/document';
import {
  ASSIGN_PERMISSION, assignDocumentSchema, documentAssignment, OWN_DOCUMENT_PERMISSION,
} from '../../../shared/resources/document-assignment';
import { documentRepository } from '../../../shared/resources/document-repository';
import { assignDocumentResultSchema, personComplianceSchema, returnedCopySchema } from '../../../shared/schemas/compliance';
import { dataResponse, fileDownload, savedResponse } from '../../../shared/schemas/responses';
import {
  assignDocuments, assignedDocumentFile, assignmentComputed, assignmentScope, COMPLIANCE_PERMISSION, personCompliance, seesAllOwnDocuments,
} from './service';
import {
  afterAssignmentTransition, afterLibraryDocumentUpdate, assignmentDecisionColumns, holderRefusal, prepareLibraryDocument,
  prepareLibraryDocumentUpdate, prepareOwnDocument, prepareOwnDocumentUpdate, withoutAcknowledgeToReturn,
} from './documents';
import { returnAssignedCopy } from './returned-copy';
import { contextOf } from '../../resources/types';

export function registerComplianceRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  registerResource(parent, {
    definition: documentRepository,
    table: libraryDocuments,
    beforeCreate: (values, input, ctx) => prepareLibraryDocument(ctx, values, input),
    beforeUpdate: prepareLibraryDocumentUpdate,
    afterUpdate: (row, existing, _input, ctx) => afterLibraryDocumentUpdate(ctx, row, existing),
  });

  registerResource(parent, {
    definition: documentAssignment,
    table: documentAssignments,
    scope: ({ account }) => assignmentScope(account),
    computed: assignmentComputed,
    decorate: async (rows) => withoutAcknowledgeToReturn(rows),
    beforeTransition: (transition, existing, _comment, ctx) => assignmentDecisionColumns(ctx, transition, existing),
    afterTransition: (row, _transition, _existing, ctx) => afterAssignmentTransition(ctx, row),
  });

  registerResource(parent, {
    definition: ownDocument,
    table: ownDocuments,
    // The holder's own; the repository's staff see everyone's (a person's compliance).
    scope: ({ account }) => (seesAllOwnDocuments(account) ? undefined : eq(ownDocuments.user_id, account.id)),
    beforeCreate: (values, input, ctx) => prepareOwnDocument(ctx, values, input),
    updateRefusal: holderRefusal,
    deleteRefusal: holderRefusal,
    beforeUpdate: (values, _existing, input) => prepareOwnDocumentUpdate(values, input),
  });

  // Assign documents to people and groups (spec /document-assign).
  app.post('/document-assign', {
    config: { auth: 'app', permission: ASSIGN_PERMISSION },
    schema: {
      tags: [documentAssignment.label], summary: 'Assign documents to people, employee types, managers\u2019 teams or clients\u2019 placements', body: assignDocumentSchema,
      response: { 201: savedResponse(assignDocumentResultSchema) },
    },
  }, async (request, reply) => {
    const data = await assignDocuments(contextOf(request), request.body);
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
    if (!request.isMultipart()) throw validationError({ returned_copy: 'Attach the signed or completed copy.' });
    const { values, files } = await readMultipart(request, documentAssignment);
    // A retried outbox item (issue 26) replays the first answer.
    if (await replayedMultipart(request, reply, values, files)) return reply;
    try {
      return { data: await returnAssignedCopy(contextOf(request), request.params.id, files), message: 'Your copy was sent for review.' };
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
    const { documentId, attachmentId } = await assignedDocumentFile(contextOf(request), request.params.id, request.query.version);
    return sendAttachment(reply, parent.db, documentRepository, documentId, attachmentId, request.query.disposition ?? 'attachment');
  });

  // A person's compliance (their show screen): the badge of spec §5, their documents and assignments.
  app.get('/compliance/:id', {
    config: { auth: 'app', permission: `${COMPLIANCE_PERMISSION}|${OWN_DOCUMENT_PERMISSION}` },
    schema: {
      tags: [documentAssignment.label], summary: 'A person\u2019s compliance (user id): badge, own documents and assignments', params: z.object({ id: idQuery() }),
      response: { 200: dataResponse(personComplianceSchema) },
    },
  }, async (request) => ({ data: await personCompliance(contextOf(request), request.params.id) }));
}

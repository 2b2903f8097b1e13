// Contracts (issue 13): the generic routes of the shared definition (the document as a file field,
// the renewal transitions, the end-date reminders) plus recording the new PO that replaces one.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contracts } from '../../db/schema/onboarding';
import { issuesError } from '../../plugins/errors';
import { discardNewFiles, type FileInput } from '../../resources/attachments';
import { readMultipart } from '../../resources/multipart';
import { registerResource } from '../../resources/register';
import { contextOf } from '../../resources/types';
import { contract, newPoSchema } from '../../../shared/resources/contract';
import { idQuery } from '../../../shared/resources/define';
import { resourceResponses } from '../../../shared/schemas/resource';
import { renewedBySql, savePeople } from './service';
import { checkRenewal, decorateContracts, prepareContract, prepareContractUpdate, recordNewPo } from './rules';

/** The new PO as JSON, or multipart with bracketed keys and its `document` (as the contract form sends it). */
async function readNewPo(request: FastifyRequest) {
  let values: unknown = request.body;
  let files: FileInput | null = null;
  if (request.isMultipart()) ({ values, files } = await readMultipart(request, contract));
  const parsed = newPoSchema.safeParse(values ?? {});
  if (!parsed.success) {
    await discardNewFiles(request, files);
    throw issuesError(parsed.error.issues);
  }
  return { po: parsed.data, files };
}

export function registerContractRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  registerResource(parent, {
    definition: contract,
    table: contracts,
    computed: { renewed_by: renewedBySql },
    beforeCreate: (values, _input, ctx) => prepareContract(ctx, values),
    beforeUpdate: (values, existing, _input, ctx) => prepareContractUpdate(ctx, values, existing),
    afterCreate: (row, input, ctx) => savePeople(ctx.db, row.id, input.person_ids),
    afterUpdate: (row, _existing, input, ctx) => savePeople(ctx.db, row.id, input.person_ids),
    decorate: (rows, ctx) => decorateContracts(ctx, rows),
    beforeTransition: (transition, existing) => checkRenewal(transition, existing),
  });

  // "A new PO moves it on": the new PO becomes a contract of its own and the old one is closed.
  app.post('/contract/:id/new-po', {
    config: { auth: 'app', permission: contract.permissions.edit },
    schema: {
      tags: [contract.label], summary: 'Record the new PO replacing a contract (JSON, or multipart with its document)',
      params: z.object({ id: idQuery() }), body: z.union([newPoSchema, z.unknown()]),
      response: { 201: resourceResponses(contract).saved },
    },
  }, async (request, reply) => {
    const { po, files } = await readNewPo(request);
    try {
      const data = await recordNewPo(contextOf(request), request.params.id, po, files);
      return reply.status(201).send({ data, message: `PO ${po.po_number} released; it starts on ${po.start_date}.` });
    } catch (error) {
      await discardNewFiles(request, files);
      throw error;
    }
  });
}

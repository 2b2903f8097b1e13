// Contracts (issue 13): the generic routes of the shared definition (the document as a file field,
// the renewal transitions, the end-date reminders) plus recording the new PO that replaces one.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contracts } from '../../db/schema/onboarding';
import { inTransaction } from '../../lib/transaction';
import { requireAccount } from '../../plugins/auth';
import { HttpError, issuesError } from '../../plugins/errors';
import { discardNewFiles, type FileInput, saveAttachments } from '../../resources/attachments';
import { readMultipart } from '../../resources/multipart';
import { recordResourceChange } from '../../resources/audit';
import { registerResource, resourceRow } from '../../resources/register';
import { contract, newPoSchema } from '../../../shared/resources/contract';
import { idQuery } from '../../../shared/resources/define';
import { today } from '../../../shared/dates';
import { resourceResponses } from '../../../shared/schemas/resource';
import {
  attachPeople, canReleaseNewPo, checkDates, checkPoNumber, checkRenewedEnd, isStartingLater, releaseNewPo, renewedBySql, savePeople, statusNote,
} from './service';

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
    async beforeCreate(values, _input, ctx) {
      checkDates(values);
      await checkPoNumber(ctx.db, String(values.po_number));
      // The one who records it owns it: the end-date reminders go to them.
      return { ...values, owner_id: ctx.account.id };
    },
    async beforeUpdate(values, existing, _input, ctx) {
      checkDates({ ...existing, ...values });
      checkRenewedEnd(values, existing);
      if (typeof values.po_number === 'string') await checkPoNumber(ctx.db, values.po_number, existing.id);
      return values;
    },
    afterCreate: (row, input, ctx) => savePeople(ctx.db, row.id, input.person_ids),
    afterUpdate: (row, _existing, input, ctx) => savePeople(ctx.db, row.id, input.person_ids),
    async decorate(rows, ctx) {
      await attachPeople(ctx.db, rows);
      const on = today();
      for (const row of rows) {
        row.can_release_new_po = canReleaseNewPo(row, ctx.account);
        row.status_note = statusNote(row, on);
        row.starts_on = isStartingLater(row, on) ? row.start_date : null;
        // Renewed already: there is nothing left to renew.
        if (row.renewed_by) row.available_transitions = [];
      }
    },
    beforeTransition(transition, existing) {
      const renewedBy = existing.renewed_by as { po_number: string } | null;
      if (transition.name === 'start-renewal' && renewedBy) throw new HttpError(409, `This contract was renewed by PO ${renewedBy.po_number} already.`);
    },
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
      const account = requireAccount(request);
      const data = await inTransaction(parent, async (tx) => {
        const ctx = { app: parent, request, account, area: 'app' as const, db: tx.db, tx };
        const before = await resourceRow(contract.name, ctx, request.params.id);
        const id = await releaseNewPo(ctx, request.params.id, po);
        await saveAttachments(tx, contract, id, files, account);
        // The audit trail: the new contract, and the old one closed by it (issue 20).
        const created = await resourceRow(contract.name, ctx, id);
        await recordResourceChange(tx.db, account, contract, { action: 'create', id, before: null, after: created });
        await recordResourceChange(tx.db, account, contract, {
          action: 'transition', id: before.id as number, before, after: await resourceRow(contract.name, ctx, before.id as number), transition: 'new-po',
        });
        return created;
      });
      return reply.status(201).send({ data, message: `PO ${po.po_number} released; it starts on ${po.start_date}.` });
    } catch (error) {
      await discardNewFiles(request, files);
      throw error;
    }
  });
}

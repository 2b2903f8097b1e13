// A workflow's routes (docs/resources.md "Workflows"): one transition of one record, the same for
// several at once, and a record's history.
import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../../plugins/errors';
import { idQuery, MAX_ID, MAX_PER_PAGE } from '../../../shared/resources/define';
import { recordResourceChange } from '../audit';
import { findRow } from '../queries';
import { contextOf } from '../types';
import { checkTransition, notifyAbout, readHistory, targetState, transitionFieldValues, writeHistory } from '../workflow';
import { idParams, type Served, write } from './served';

const comment = z.string().trim().max(2000, 'The comment field must not be greater than 2000 characters.').nullish();
// The fields a transition asks for (issue 24), each checked by the definition's schema in the transition.
const transitionValues = z.record(z.string().max(60), z.unknown()).nullish();
const nameParam = z.string().regex(/^[a-z0-9_-]{1,60}$/, 'Unknown transition.');

export function transitionRoutes(served: Served) {
  const { app, resource, area, base, permissions, tags, responses } = served;
  const { definition, table } = resource;
  const { workflow } = definition;
  if (!workflow) return;
  const label = definition.label.toLowerCase();

  /** One transition of one record, in its own transaction: the single route and each id of the bulk route. */
  const transition = async (request: FastifyRequest, id: number, name: string, comment: string | null, values?: Record<string, unknown> | null) => {
    const declared = workflow.transitions.find((t) => t.name === name);
    if (!declared) throw new HttpError(404, `${definition.label} has no transition ${name.slice(0, 60)}.`);
    return write(contextOf(request), async (ctx) => {
      const existing = await findRow(resource, ctx, id);
      checkTransition(definition, declared, existing, ctx.account, comment);
      const asked = transitionFieldValues(definition, declared, values);
      const from = String(existing[workflow.field]);
      const to = await targetState(ctx.db, definition, declared, existing);
      const extra = { ...asked, ...(await resource.beforeTransition?.(declared, existing, comment, ctx, asked)) };
      // Compare-and-set in the update itself: of two simultaneous decisions one changes the row, the other 409s.
      const changed = await ctx.db.update(table)
        .set({ ...extra, [workflow.field]: to, ...(resource.columns.updated_at ? { updated_at: new Date() } : {}) } as never)
        .where(and(eq(resource.columns.id, id), eq(resource.columns[workflow.field], from)))
        .returning({ id: resource.columns.id });
      if (!changed.length) throw new HttpError(409, `This ${label} was changed by someone else just now; reload it to see its state.`);
      await writeHistory(ctx.db, { resource: definition.name, recordId: id, transition: declared.name, from, to, account: ctx.account, comment });
      const row = await findRow(resource, ctx, id, false);
      await notifyAbout(ctx.tx, definition, row, declared.words.notify, ctx.account, comment, declared.name, declared.isMailed);
      await resource.afterTransition?.(row, declared, existing, ctx);
      await recordResourceChange(ctx.db, ctx.account, definition, { action: 'transition', id, before: existing, after: row, text: resource.auditText, transition: declared.name });
      // The toast says what the caller did, in the history's words: "You approved the claim for finance."
      return { data: row, message: `${declared.words.history('You')}.` };
    });
  };

  app.post(`${base}/:id/transitions/:transition`, {
    config: { auth: area, permission: permissions.view },
    schema: {
      tags, summary: `Move a ${label} to its next state`,
      params: z.object({ id: idQuery(), transition: nameParam }),
      body: z.object({ comment, values: transitionValues }).optional(),
      response: { 200: responses.saved },
    },
  }, async (request) => transition(request, request.params.id, request.params.transition, request.body?.comment || null, request.body?.values));

  app.post(`${base}/transitions/:transition`, {
    config: { auth: area, permission: permissions.view },
    schema: {
      tags, summary: `Move several ${definition.pluralLabel.toLowerCase()} at once`,
      params: z.object({ transition: nameParam }),
      body: z.object({
        ids: z.array(z.number().int().positive().max(MAX_ID), { error: 'The ids field is required.' })
          .min(1, 'Choose at least one record.').max(MAX_PER_PAGE, `Choose at most ${MAX_PER_PAGE} records.`),
        comment,
        values: transitionValues,
      }),
      response: { 200: responses.bulkTransition },
    },
  }, async (request) => {
    const results: { id: number; status: number; message: string }[] = [];
    // One after another, each in its own transaction: one refusal never undoes the others.
    for (const id of [...new Set(request.body.ids)]) {
      try {
        const done = await transition(request, id, request.params.transition, request.body.comment || null, request.body.values);
        results.push({ id, status: 200, message: done.message });
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        results.push({ id, status: error.statusCode, message: error.message });
      }
    }
    return { data: results };
  });
  historyRoute(served);
}

/** GET /api/{name}/{id}/history: the workflow's history of a record, oldest first, its creation first. */
function historyRoute({ app, resource, area, base, permissions, tags, responses }: Served) {
  const { definition } = resource;
  app.get(`${base}/:id/history`, {
    config: { auth: area, permission: permissions.view },
    schema: { tags, summary: `History of a ${definition.label.toLowerCase()}`, params: idParams, response: { 200: responses.history } },
  }, async (request) => {
    const ctx = contextOf(request);
    await findRow(resource, ctx, request.params.id);
    return { data: await readHistory(ctx.db, definition.name, request.params.id) };
  });
}

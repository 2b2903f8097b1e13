// A workflow's routes (docs/resources.md "Workflows"): one transition of one record, the same for
// several at once, and a record's history.
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../../plugins/errors';
import { actingAs, idQuery, MAX_ID, MAX_PER_PAGE, type WorkflowDefinition } from '../../../shared/resources/define';
import { auditLog } from '../../db/schema/audit';
import { executeNamed } from '../../db/named';
import { rowAbilities } from '../abilities';
import { auditRows, recordChange, resourceChangeEntry } from '../audit';
import { users } from '../../db/schema/accounts';
import { findRow } from '../queries';
import { contextOf, type RegisteredResource, type ResourceContext, type Row } from '../types';
import {
  availableTransitions, checkTransition, historyInsert, onBehalfOfId, OWNER_MANAGER, OWNER_MANAGER_DELEGATES,
  readHistory, targetState, transitionFieldValues,
} from '../workflow';
import { notificationStatementAbout, notifyAbout } from '../workflow-notify';
import { idParams, type Served, write } from './served';

const comment = z.string().trim().max(2000, 'The comment field must not be greater than 2000 characters.').nullish();
// The fields a transition asks for (issue 24), each checked by the definition's schema in the transition.
const transitionValues = z.record(z.string().max(60), z.unknown()).nullish();
const nameParam = z.string().regex(/^[a-z0-9_-]{1,60}$/, 'Unknown transition.');

/** One transition of one record, in its own transaction: the single route and each id of the bulk route. */
async function runTransition(
  resource: RegisteredResource, workflow: WorkflowDefinition, request: FastifyRequest,
  id: number, name: string, comment: string | null, values?: Record<string, unknown> | null,
) {
  const { definition, table } = resource;
  const label = definition.label.toLowerCase();
  const declared = workflow.transitions.find((t) => t.name === name);
  if (!declared) throw new HttpError(404, `${definition.label} has no transition ${name.slice(0, 60)}.`);
  return write(contextOf(request), async (ctx) => {
    const existing = await findRow(resource, ctx, id);
    checkTransition(definition, declared, existing, ctx.account, comment);
    const asked = transitionFieldValues(definition, declared, values);
    const from = String(existing[workflow.field]);
    const to = await targetState(ctx.db, definition, declared, existing);
    const extra = { ...asked, ...(await resource.beforeTransition?.(declared, existing, comment, ctx, asked)) };
    const written: Row = { ...extra, [workflow.field]: to, ...(resource.columns.updated_at ? { updated_at: new Date() } : {}) };
    // The record as it is now, from what it was and what this writes; read back only where that cannot tell.
    const known = rowAfter(resource, ctx, existing, written);
    // Decided as a manager's delegate (decision 036): the history and the trail say for whom.
    const principalId = onBehalfOfId(declared, ctx.account, existing);
    const onBehalfOf = principalId === null ? null : await principalOf(ctx, principalId);
    const history = historyInsert(ctx.db, { resource: definition.name, recordId: id, transition: declared.name, from, to, account: ctx.account, comment, onBehalfOf });
    const audit = known && ctx.db.insert(auditLog).values(auditRows([{ ...resourceChangeEntry(ctx.account, definition, {
      action: 'transition', id, before: existing, after: known, text: resource.auditText, transition: declared.name,
    }), onBehalfOf: onBehalfOf?.name }]));
    // Where the row after is known, its notification too (recipients, who may open its link, their
    // choices, coalescing, the mail job) is written by the same statement.
    const notice = known && await notificationStatementAbout(ctx.tx, definition, known, declared.words.notify, ctx.account, comment, declared.name, declared.isMailed);
    // One statement (decision 028): the compare-and-set update, the history row, the audit entry and the
    // notification. Of two simultaneous decisions one changes the row, the other finds none changed and
    // 409s; its history, audit and notification rows go with the rolled-back transaction.
    const update = ctx.db.update(table).set(written as never)
      .where(and(eq(resource.columns.id, id), eq(resource.columns[workflow.field], from))).returning({ id: resource.columns.id });
    // Named: the same text for every decision of this transition, planned once per connection.
    const result = await executeNamed(ctx.db, sql`with changed as (${update.getSQL()}), history as (${history.getSQL()})${audit ? sql`, audit as (${audit.getSQL()})` : sql``}${notice ? notice.ctes : sql``}
      select (select count(*)::int from changed) as changed${notice ? sql`, ${notice.columns}` : sql``}`) as { rows: { changed: number; notices?: unknown; mail_jobs?: unknown }[] };
    if (!Number(result.rows[0]?.changed)) throw new HttpError(409, `This ${label} was changed by someone else just now; reload it to see its state.`);
    const row = known ?? await findRow(resource, ctx, id, false);
    if (notice) notice.finish(result.rows[0]);
    else await notifyAbout(ctx.tx, definition, row, declared.words.notify, ctx.account, comment, declared.name, declared.isMailed);
    await resource.afterTransition?.(row, declared, existing, ctx);
    if (!audit) {
      await recordChange(ctx.db, { ...resourceChangeEntry(ctx.account, definition, { action: 'transition', id, before: existing, after: row, text: resource.auditText, transition: declared.name }), onBehalfOf: onBehalfOf?.name });
    }
    // The toast says what the caller did, in the history's words: "You approved the claim for finance."
    return { data: row, message: `${declared.words.history(actingAs('You', onBehalfOf?.name))}.` };
  });
}


export function transitionRoutes(served: Served) {
  const { app, resource, area, base, permissions, tags, responses } = served;
  const { definition } = resource;
  const { workflow } = definition;
  if (!workflow) return;
  const label = definition.label.toLowerCase();

  const transition = (request: FastifyRequest, id: number, name: string, comment: string | null, values?: Record<string, unknown> | null) =>
    runTransition(resource, workflow, request, id, name, comment, values);

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

/**
 * The row as its routes serialise it after a transition wrote `values`, made from the row before
 * (issue 27: no read-back). Null where only a read can tell: a resource that decorates its rows or
 * computes columns in SQL, or a write to a reference (its label comes with the row from the join).
 */
function rowAfter(resource: RegisteredResource, ctx: ResourceContext, existing: Row, values: Row): Row | null {
  const { definition } = resource;
  if (resource.decorate || Object.keys(resource.computed ?? {}).length) return null;
  if (Object.keys(values).some((key) => definition.fields[key]?.reference)) return null;
  const row: Row = { ...existing };
  // Columns the row does not carry (hidden ones) stay out of it, as a read would leave them.
  for (const [key, value] of Object.entries(values)) if (key in existing) row[key] = value instanceof Date ? value.toISOString() : value;
  Object.defineProperty(row, OWNER_MANAGER, { value: existing[OWNER_MANAGER], enumerable: false });
  Object.defineProperty(row, OWNER_MANAGER_DELEGATES, { value: existing[OWNER_MANAGER_DELEGATES], enumerable: false });
  row.available_transitions = availableTransitions(definition, row, ctx.account);
  row.abilities = rowAbilities(resource, ctx)(row);
  return row;
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

/** The manager a delegate decided for, named as they are now (kept so in the history). */
async function principalOf(ctx: ResourceContext, id: number): Promise<{ id: number; name: string }> {
  const [found] = await ctx.db.select({ name: users.name }).from(users).where(eq(users.id, id)).limit(1);
  return { id, name: found?.name ?? 'their manager' };
}

// A workflow's routes (docs/resources.md "Workflows"): one transition of one record, the same for
// several at once, and a record's history.
import { and, eq, getTableColumns, is, SQL, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../../plugins/errors';
import { actingAs, decisionNote, idQuery, MAX_ID, MAX_PER_PAGE, type TransitionDefinition, type WorkflowDefinition } from '../../../shared/resources/define';
import { auditLog } from '../../db/schema/audit';
import { boundValuesOf, placeholdersOf, shapedRows } from '../../db/named';
import { workflowHistory } from '../../db/schema/workflow';
import { rowAbilities } from '../abilities';
import { auditRows, recordChange, resourceChangeEntry } from '../audit';
import { users } from '../../db/schema/accounts';
import { findRow } from '../queries';
import { contextOf, type RegisteredResource, type ResourceContext, type Row, type WriteContext } from '../types';
import { inOneStatement } from '../../lib/transaction';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import {
  availableTransitions, checkTransition, historyRow, onBehalfOfId, OWNER_MANAGER, OWNER_MANAGER_DELEGATES,
  readHistory, targetState, transitionFieldValues,
} from '../workflow';
import { notificationStatementAbout, notifyAbout } from '../workflow-notify';
import type { NotificationStatement } from '../../modules/notification/notify';
import { idParams, type Served, write } from './served';
import { inSentence, withArticle } from '../../../shared/words';

const comment = z.string().trim().max(2000, 'The comment field must not be greater than 2000 characters.').nullish();
// The fields a transition asks for (issue 24), each checked by the definition's schema in the transition.
const transitionValues = z.record(z.string().max(60), z.unknown()).nullish();
const nameParam = z.string().regex(/^[a-z0-9_-]{1,60}$/, 'Unknown transition.');

/**
 * One transition of one record, in its own transaction or, where every change is its one statement, as
 * that statement alone: the single route and each id of the bulk route.
 */
async function runTransition(
  resource: RegisteredResource, workflow: WorkflowDefinition, request: FastifyRequest,
  id: number, name: string, comment: string | null, values?: Record<string, unknown> | null,
) {
  const { definition } = resource;
  const label = inSentence(definition.label);
  const declared = workflow.transitions.find((t) => t.name === name);
  if (!declared) throw new HttpError(404, `There is no step called “${name.slice(0, 60)}” for ${inSentence(definition.pluralLabel)}.`);
  const context = contextOf(request);
  // Columns the transition sets from the caller alone; worked out first, as they decide whether the row
  // after is known without a read.
  const columns = resource.transitionColumns?.(declared, comment, context.account) ?? {};
  // Where no hook reads or writes in the transaction and the row after is known, every change is the one
  // statement: sent alone, without BEGIN and COMMIT (decision 050). Otherwise one transaction, as every write.
  const writtenKeys = [...Object.keys(columns), ...(declared.fields ?? []).map((field) => field.key)];
  const isOneStatement = !resource.beforeTransition && !resource.afterTransition && isRowAfterKnown(resource, writtenKeys);
  const decide = async (ctx: WriteContext) => {
    const existing = await findRow(resource, ctx, id);
    checkTransition(definition, declared, existing, ctx.account, comment);
    const asked = transitionFieldValues(definition, declared, values);
    const from = String(existing[workflow.field]);
    const to = await targetState(ctx.db, definition, declared, existing);
    const extra = { ...asked, ...columns, ...(await resource.beforeTransition?.(declared, existing, comment, ctx, asked)) };
    const written: Row = { ...extra, [workflow.field]: to, ...(resource.columns.updated_at ? { updated_at: new Date() } : {}) };
    // The record as it is now, from what it was and what this writes; read back only where that cannot tell.
    const known = rowAfter(resource, ctx, existing, written);
    if (isOneStatement && !known) throw new Error(`A transition of ${definition.name} sent alone must know its row after.`);
    // Decided as a manager's delegate (decision 036): the history and the trail say for whom.
    const principalId = onBehalfOfId(declared, ctx.account, existing);
    const onBehalfOf = principalId === null ? null : await principalOf(ctx, principalId);
    const history = historyRow({ resource: definition.name, recordId: id, transition: declared.name, from, to, account: ctx.account, comment, onBehalfOf });
    const [audit] = known ? auditRows([{ ...resourceChangeEntry(ctx.account, definition, {
      action: 'transition', id, before: existing, after: known, text: resource.auditText, transition: declared.name,
    }), onBehalfOf: onBehalfOf?.name }]) : [];
    // Where the row after is known, its notification too (recipients, who may open its link, their
    // choices, coalescing, the mail job) is written by the same statement.
    const notice = known && await notificationStatementAbout(ctx.tx, definition, known, declared.words.notify, ctx.account, comment, declared.name, declared.isMailed);
    // One statement (decision 028): the compare-and-set update, the history row, the audit entry, the
    // notification and the module's own writes. Of two simultaneous decisions one changes the row, the
    // other finds none changed and 409s, its other writes waiting for a changed row in vain. Its text is
    // built once per shape and named (decisions 047 and 050).
    const stored = storedColumns(resource, written);
    const shape: DecisionShape = { written: Object.keys(stored), isAudited: !!audit, notice: notice || null };
    const [answer] = await shapedRows<{ changed: number; notices?: unknown; mail_jobs?: unknown }>(ctx.db, shapeKey(resource, declared, shape), () => decisionStatement(resource, workflow, ctx, shape), {
      id, from,
      ...boundValuesOf(resource.columns, 'w_', stored),
      ...boundValuesOf(HISTORY_TABLE_COLUMNS, 'h_', history),
      ...(audit ? boundValuesOf(AUDIT_TABLE_COLUMNS, 'a_', audit) : {}),
      ...(notice ? notice.values : {}),
    });
    if (!Number(answer?.changed)) throw new HttpError(409, `This ${label} was changed by someone else just now; reload it to see its state.`);
    const row = known ?? await findRow(resource, ctx, id, false);
    if (notice) notice.finish(answer);
    else await notifyAbout(ctx.tx, definition, row, declared.words.notify, ctx.account, comment, declared.name, declared.isMailed);
    await resource.afterTransition?.(row, declared, existing, ctx);
    if (!known) {
      await recordChange(ctx.db, { ...resourceChangeEntry(ctx.account, definition, { action: 'transition', id, before: existing, after: row, text: resource.auditText, transition: declared.name }), onBehalfOf: onBehalfOf?.name });
    }
    // Decision 063: the answer reads beside its state why it is there, as the record's page does after a reload.
    if (typeof row.status_note !== 'string') {
      row.status_note = decisionNote(workflow, row[workflow.field], {
        transition: declared.name, to, comment, actor: history.actor_name === null ? null : { name: history.actor_name }, on_behalf_of: onBehalfOf,
      });
    }
    // The toast says what the caller did, in the history's words: "You approved the claim for finance."
    return { data: row, message: `${declared.words.history(actingAs('You', onBehalfOf?.name))}.` };
  };
  return isOneStatement ? inOneStatement(context.app, (tx) => decide({ ...context, db: tx.db, tx })) : write(context, decide);
}

/** What a decision's statement's text depends on, beside its resource and transition. */
interface DecisionShape { written: string[]; isAudited: boolean; notice: NotificationStatement | null }

const shapeKey = (resource: RegisteredResource, declared: TransitionDefinition, { written, isAudited, notice }: DecisionShape) =>
  `decision|${resource.definition.name}|${declared.name}|${written.join(',')}|${isAudited}|${notice?.shape ?? ''}`;

/**
 * A decision's one statement with a placeholder for every value (db/named.ts `shapedRows`): `id` and
 * `from` for the compare-and-set, `w_<column>` for what it writes, `h_` and `a_` for the history row and
 * the audit entry, the notification's own; then the module's writes (`transitionWrites`).
 */
function decisionStatement(resource: RegisteredResource, workflow: WorkflowDefinition, ctx: ResourceContext, { written, isAudited, notice }: DecisionShape): SQL {
  const { table, columns } = resource;
  const update = ctx.db.update(table).set(placeholdersOf('w_', written) as never)
    .where(and(eq(columns.id, sql.placeholder('id')), eq(columns[workflow.field], sql.placeholder('from')))).returning({ id: columns.id });
  // Every write but the update waits for `changed`: a 409 writes nothing even where no rollback follows.
  const hasChanged = sql`exists (select 1 from changed)`;
  const notified = notice?.build(hasChanged);
  return sql`with changed as (${update.getSQL()}), history as (${insertIfChanged(workflowHistory, HISTORY_TABLE_COLUMNS, 'h_', HISTORY_COLUMNS)})${
    isAudited ? sql`, audit as (${insertIfChanged(auditLog, AUDIT_TABLE_COLUMNS, 'a_', AUDIT_COLUMNS)})` : sql``}${notified ? notified.ctes : sql``}${
    resource.transitionWrites ? sql`, module_writes as (${resource.transitionWrites})` : sql``}
      select (select count(*)::int from changed) as changed${notified ? sql`, ${notified.columns}` : sql``}`;
}

/** `insert into <table> (<keys>) select <placeholders> where exists (select 1 from changed)`, each placeholder cast to its column's type. */
function insertIfChanged(table: PgTable, columns: Record<string, PgColumn>, prefix: string, keys: readonly string[]): SQL {
  const names = sql.join(keys.map((key) => sql.identifier(columns[key].name)), sql`, `);
  const values = sql.join(keys.map((key) => sql`${sql.placeholder(`${prefix}${key}`)}::${sql.raw(columns[key].getSQLType())}`), sql`, `);
  return sql`insert into ${table} (${names}) select ${values} where exists (select 1 from changed)`;
}

/**
 * What an UPDATE of `values` stores, as drizzle's `set` takes it: the table's columns, an undefined value
 * left out. Values only: a hook's SQL expression would make a text of its own, not a bound value.
 */
function storedColumns(resource: RegisteredResource, values: Row): Row {
  const stored: Row = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || !resource.columns[key]) continue;
    if (is(value, SQL)) throw new Error(`A transition of ${resource.definition.name} writes ${key} as SQL; write a value.`);
    stored[key] = value;
  }
  return stored;
}

const HISTORY_TABLE_COLUMNS = getTableColumns(workflowHistory);
const AUDIT_TABLE_COLUMNS = getTableColumns(auditLog);
/** The columns a history row and an audit entry bind (every one of them, always). */
const HISTORY_COLUMNS = Object.keys(historyRow({ resource: '', recordId: 0, transition: '', from: null, to: '', account: null }));
const AUDIT_COLUMNS = Object.keys(auditRows([{ account: null, action: 'create', resource: '', recordId: 0, title: null, changes: [] }])[0]);

export function transitionRoutes(served: Served) {
  const { app, resource, area, base, permissions, tags, responses } = served;
  const { definition } = resource;
  const { workflow } = definition;
  if (!workflow) return;
  const label = inSentence(definition.label);

  const transition = (request: FastifyRequest, id: number, name: string, comment: string | null, values?: Record<string, unknown> | null) =>
    runTransition(resource, workflow, request, id, name, comment, values);

  app.post(`${base}/:id/transitions/:transition`, {
    config: { auth: area, permission: permissions.view },
    schema: {
      tags, summary: `Move ${withArticle(label)} to its next state`,
      params: z.object({ id: idQuery(), transition: nameParam }),
      body: z.object({ comment, values: transitionValues }).optional(),
      response: { 200: responses.saved },
    },
  }, async (request) => transition(request, request.params.id, request.params.transition, request.body?.comment || null, request.body?.values));

  app.post(`${base}/transitions/:transition`, {
    config: { auth: area, permission: permissions.view },
    schema: {
      tags, summary: `Move several ${inSentence(definition.pluralLabel)} at once`,
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
  if (!isRowAfterKnown(resource, Object.keys(values))) return null;
  const row: Row = { ...existing };
  // Columns the row does not carry (hidden ones) stay out of it, as a read would leave them.
  for (const [key, value] of Object.entries(values)) if (key in existing) row[key] = value instanceof Date ? value.toISOString() : value;
  Object.defineProperty(row, OWNER_MANAGER, { value: existing[OWNER_MANAGER], enumerable: false });
  Object.defineProperty(row, OWNER_MANAGER_DELEGATES, { value: existing[OWNER_MANAGER_DELEGATES], enumerable: false });
  row.available_transitions = availableTransitions(definition, row, ctx.account);
  row.abilities = rowAbilities(resource, ctx)(row);
  return row;
}

/** Whether a transition writing `keys` leaves a row that `rowAfter` can make without reading it. */
const isRowAfterKnown = (resource: RegisteredResource, keys: readonly string[]) => !resource.decorate && !Object.keys(resource.computed ?? {}).length
  && !keys.some((key) => resource.definition.fields[key]?.reference);

/** GET /api/{name}/{id}/history: the workflow's history of a record, oldest first, its creation first. */
function historyRoute({ app, resource, area, base, permissions, tags, responses }: Served) {
  const { definition } = resource;
  app.get(`${base}/:id/history`, {
    config: { auth: area, permission: permissions.view },
    schema: { tags, summary: `History of ${withArticle(inSentence(definition.label))}`, params: idParams, response: { 200: responses.history } },
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

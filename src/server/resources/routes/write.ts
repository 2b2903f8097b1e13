// POST /api/{name}, PUT / PATCH /api/{name}/{id} and DELETE /api/{name}/{id}: each write in one
// transaction, through the hooks, the audit trail and (for a workflow) its history and notifications.
import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Account } from '../../plugins/auth';
import { HttpError } from '../../plugins/errors';
import type { Transaction } from '../../lib/transaction';
import { type ResourceDefinition, saveWords } from '../../../shared/resources/define';
import { sanitiseRichTextFields } from '../../lib/rich-text';
import { type FileInput, discardNewFiles, finalFileLists, removeAttachmentsOf, saveAttachments } from '../attachments';
import { recordResourceChange } from '../audit';
import { deleteRefusalOf, updateRefusalOf } from '../abilities';
import { checkInput, databaseError, inUseReason, storedValues } from '../checks';
import { findRow } from '../queries';
import { contextOf, type Input, type RegisteredResource, type Row, type WriteContext } from '../types';
import { ownerIdOf, writeHistory } from '../workflow';
import { notifyAbout } from '../workflow-notify';
import { messageResponse } from '../../../shared/schemas/responses';
import { bodySchema, hasFiles, idParams, readBody, type Served, write } from './served';
import { inSentence, withArticle } from '../../../shared/words';

/** The history's name for an edit that returned a decided record to its first step. */
const EDIT_TRANSITION = 'edit';

/**
 * Whether an edit of a record in `status` returns it to the workflow's first step (issue 20): a
 * record past its first step was decided, and an edit must not stand behind that decision. Not
 * when the module's hook already moved it (a resubmission), nor for states nobody decides.
 */
function isRestartedByEdit(definition: ResourceDefinition, status: string, values: Row): boolean {
  const workflow = definition.workflow!;
  return status !== workflow.initial && !workflow.isStateKeptOnEdit && !!definition.editableStates?.includes(status) && values[workflow.field] === undefined;
}

/** The edit in the history and told to whom the definition's `edit` words name (the first step's decider). */
async function recordRestartByEdit(tx: Transaction, definition: ResourceDefinition, row: Row, from: string, actor: Account) {
  const workflow = definition.workflow!;
  const words = workflow.events.edit;
  await writeHistory(tx.db, { resource: definition.name, recordId: row.id as number, transition: EDIT_TRANSITION, from, to: workflow.initial, account: actor });
  await notifyAbout(tx, definition, row, words?.notify, actor, null, 'edited', workflow.isCreateMailed);
}

/** Runs a write that saves files; a refused or rolled-back write leaves none of them behind. */
async function keepingNoFilesOnFailure<T>(request: FastifyRequest, files: FileInput | null, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    await discardNewFiles(request, files);
    throw error;
  }
}

async function createRecord(resource: RegisteredResource, ctx: WriteContext, input: Input, files: FileInput | null): Promise<Row> {
  const { definition, table } = resource;
  const { workflow } = definition;
  Object.assign(input, finalFileLists(definition, files, null));
  if (ctx.area === 'partner') delete input[definition.owner!.column];
  await checkInput(resource, input, ctx);
  let values = storedValues(resource, input);
  // On the partner portal the record is the caller's firm's, whatever the body says.
  if (ctx.area === 'partner') values[definition.owner!.column] = ownerIdOf(ctx.account);
  // The workflow decides the first state; the client never sends it.
  if (workflow) values[workflow.field] = workflow.initial;
  if (resource.beforeCreate) values = await resource.beforeCreate(values, input, ctx);
  const [created] = await ctx.db.insert(table).values(values as never).returning({ id: resource.columns.id })
    .catch((error: unknown) => { throw databaseError(error, definition); });
  const id = created.id as number;
  await saveAttachments(ctx.tx, definition, id, files, ctx.account);
  const row = await findRow(resource, ctx, id, false);
  if (workflow) {
    await writeHistory(ctx.db, { resource: definition.name, recordId: id, transition: 'create', from: null, to: workflow.initial, account: ctx.account });
    await notifyAbout(ctx.tx, definition, row, workflow.events.create.notify, ctx.account, null, 'created', workflow.isCreateMailed);
  }
  await resource.afterCreate?.(row, input, ctx);
  const saved = await findRow(resource, ctx, id, false);
  await recordResourceChange(ctx.db, ctx.account, definition, { action: 'create', id, before: null, after: saved, input, text: resource.auditText });
  return saved;
}

async function updateRecord(resource: RegisteredResource, ctx: WriteContext, id: number, input: Input, files: FileInput | null): Promise<Row> {
  const { definition, table, columns } = resource;
  const { workflow } = definition;
  const existing = await findRow(resource, ctx, id);
  const status = workflow ? String(existing[workflow.field]) : null;
  const refusal = updateRefusalOf(resource, existing, ctx);
  if (refusal) throw refusal;
  Object.assign(input, finalFileLists(definition, files, existing));
  // A record never changes owner from the partner portal.
  if (ctx.area === 'partner') delete input[definition.owner!.column];
  await checkInput(resource, input, ctx, id);
  let values = storedValues(resource, input);
  if (resource.beforeUpdate) values = await resource.beforeUpdate(values, existing, input, ctx);
  // Issue 20: an edit after a decision sends the record back to the first decider.
  const isRestarted = !!workflow && isRestartedByEdit(definition, status!, values);
  if (isRestarted) values[workflow.field] = workflow.initial;
  if (Object.keys(values).length) {
    // Compare-and-set on the status: a decision taken meanwhile wins over this edit.
    const updated = await ctx.db.update(table).set({ ...values, ...(columns.updated_at ? { updated_at: new Date() } : {}) } as never)
      .where(and(eq(columns.id, id), workflow ? eq(columns[workflow.field], status!) : undefined))
      .returning({ id: columns.id })
      .catch((error: unknown) => { throw databaseError(error, definition); });
    if (!updated.length) throw new HttpError(409, `This ${inSentence(definition.label)} was decided meanwhile; reload it.`);
  }
  await saveAttachments(ctx.tx, definition, id, files, ctx.account);
  const row = await findRow(resource, ctx, id, false);
  if (isRestarted) await recordRestartByEdit(ctx.tx, definition, row, status!, ctx.account);
  await resource.afterUpdate?.(row, existing, input, ctx);
  const saved = await findRow(resource, ctx, id, false);
  await recordResourceChange(ctx.db, ctx.account, definition, { action: 'update', id, before: existing, after: saved, input, text: resource.auditText });
  return saved;
}

/** Deletes the record; the row as it was, which the definition's `deleted` words may name. */
async function deleteRecord(resource: RegisteredResource, ctx: WriteContext, id: number): Promise<Row> {
  const { definition } = resource;
  const existing = await findRow(resource, ctx, id);
  const refusal = deleteRefusalOf(resource, existing, ctx);
  if (refusal) throw refusal;
  await resource.beforeDelete?.(existing, ctx);
  const reason = await inUseReason(resource, existing, ctx);
  if (reason) throw new HttpError(409, reason);
  await ctx.db.delete(resource.table).where(eq(resource.columns.id, id))
    .catch((error: unknown) => { throw databaseError(error, definition); });
  if (hasFiles(resource)) await removeAttachmentsOf(ctx.tx, definition, id);
  await recordResourceChange(ctx.db, ctx.account, definition, { action: 'delete', id, before: existing, after: null, text: resource.auditText });
  return existing;
}

export function writeRoutes({ app, resource, area, base, permissions, tags, responses }: Served) {
  const { definition } = resource;
  const label = inSentence(definition.label);
  // The answers are the definition's words (its own, else "X created successfully."), never a module's.
  const answers = saveWords(definition);
  if (permissions.add) {
    app.post(base, {
      config: { auth: area, permission: permissions.add },
      schema: { tags, summary: `Create ${withArticle(label)}`, body: bodySchema(resource, definition.schema), response: { 201: responses.saved } },
    }, async (request, reply) => {
      const body = await readBody(resource, request, reply, definition.schema);
      if (!body) return reply;
      const { input, files } = body;
      sanitiseRichTextFields(definition.fields, input);
      const data = await keepingNoFilesOnFailure(request, files, () => write(contextOf(request), (ctx) => createRecord(resource, ctx, input, files)));
      return reply.status(201).send({ data, message: answers.created(data) });
    });
  }
  if (permissions.edit) {
    for (const method of ['PUT', 'PATCH'] as const) {
      const schema = method === 'PUT' ? definition.schema : definition.updateSchema;
      app.route({
        method,
        url: `${base}/:id`,
        config: { auth: area, permission: permissions.edit },
        schema: { tags, summary: `Update ${withArticle(label)}`, params: idParams, body: bodySchema(resource, schema), response: { 200: responses.saved } },
        handler: async (request, reply) => {
          const { id } = request.params;
          const body = await readBody(resource, request, reply, schema);
          if (!body) return reply;
          const { input, files } = body;
          sanitiseRichTextFields(definition.fields, input);
          const data = await keepingNoFilesOnFailure(request, files, () => write(contextOf(request), (ctx) => updateRecord(resource, ctx, id, input, files)));
          return { data, message: answers.updated(data) };
        },
      });
    }
  }
  if (permissions.delete) {
    app.delete(`${base}/:id`, {
      config: { auth: area, permission: permissions.delete },
      schema: { tags, summary: `Delete ${withArticle(label)}`, params: idParams, response: { 200: messageResponse } },
    }, async (request) => {
      const deleted = await write(contextOf(request), (ctx) => deleteRecord(resource, ctx, request.params.id));
      return { message: answers.deleted(deleted) };
    });
  }
}

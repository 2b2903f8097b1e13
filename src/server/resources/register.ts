// Turns a shared resource definition + a drizzle table into its routes (docs/resources.md):
// list, show, create, update, delete, CSV export and options. Behaviour beyond CRUD plugs in
// through hooks; the generic code is written once here.
import { Readable } from 'node:stream';
import {
  type AnyColumn, and, asc, count, desc, eq, getTableColumns, inArray, is, type Name, ne, SQL, sql,
} from 'drizzle-orm';
import { getTableConfig, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../db/client';
import { users } from '../db/schema/accounts';
import { type Account, forbidden, requireAccount } from '../plugins/auth';
import { HttpError, validationError } from '../plugins/errors';
import { hasPermission } from '../../shared/permissions';
import { pageMeta } from '../lib/list';
import { sanitiseRichTextFields } from '../lib/rich-text';
import { inTransaction, type Transaction } from '../lib/transaction';
import {
  DEFAULT_PER_PAGE, idQuery, MAX_ID, MAX_PER_PAGE, type FieldDefinition, type ResourceDefinition, type TransitionDefinition, workflowState,
} from '../../shared/resources/define';
import { optionsPermission } from '../../shared/resources/registry';
import { formatDay, formatDayTime, today } from '../../shared/dates';
import {
  discardNewFiles, type FileInput, fileFieldsOf, fileListSelection, finalFileLists, readMultipart, removeAttachmentsOf,
  replayedMultipart, saveAttachments, sendAttachment,
} from './attachments';
import { recordEdits } from '../modules/audit/service';
import { type AuditText, recordResourceChange } from './audit';
import { type ImportHooks, registerImporter } from './importer';
import {
  availableTransitions, checkTransition, isRestartedByEdit, notifyAbout, OWNER_MANAGER, ownerIdOf, readHistory, recordRestartByEdit, targetState,
  transitionFieldValues, writeHistory,
} from './workflow';

/**
 * What hooks see: the app, the request, its (authenticated) account and the database handle to use:
 * in a write, the transaction's (`tx` is set; side effects go to `tx.onCommit`). `area` is where the
 * call came in: the main application, or the partner portal (`/api/partner/...`, a partner login,
 * scoped to its firm) for a definition with an `owner`.
 */
export interface ResourceContext { app: FastifyInstance; request: FastifyRequest; account: Account; area: Area; db: Db; tx?: Transaction }

/** The main application's routes, or the partner portal's (the account type that may call them). */
export type Area = 'app' | 'partner';

const contextOf = (request: FastifyRequest): ResourceContext => {
  const account = requireAccount(request);
  return { app: request.server, request, account, area: account.type, db: request.server.db };
};

type Row = Record<string, unknown>;
type Input = Record<string, unknown>;

export interface ResourceOptions {
  definition: ResourceDefinition;
  /** A table with an integer `id` primary key and the definition's stored fields as columns. */
  table: PgTable;
  /** Narrows every query (and reference checks against this resource): one user_type, recent activity. */
  scope?: (context: ResourceContext) => SQL | undefined;
  /** Narrows only the choices `/options` offers (people an account may pick without viewing the list). */
  optionsScope?: (context: ResourceContext) => SQL | undefined;
  /** Columns never sent to the client. */
  hidden?: readonly string[];
  /** Read-only values selected with each row and sortable by key (counts). */
  computed?: Record<string, SQL>;
  /** Case-insensitively unique fields, checked before saving and reported as 422 on the field. */
  unique?: readonly string[];
  /** Values to store on create; may add columns the form does not send (user_type, password). */
  beforeCreate?: (values: Input, input: Input, context: ResourceContext) => Promise<Input> | Input;
  afterCreate?: (row: Row, input: Input, context: ResourceContext) => Promise<void> | void;
  beforeUpdate?: (values: Input, existing: Row, input: Input, context: ResourceContext) => Promise<Input> | Input;
  afterUpdate?: (row: Row, existing: Row, input: Input, context: ResourceContext) => Promise<void> | void;
  /**
   * Why this caller may not change this record whatever they send (only the claimant changes an
   * expense; nobody but an admin edits an admin's account): the error the update route answers
   * with, or null. Decided from the row's selected columns and the caller alone, never a query: the
   * same predicate gives every listed row its `abilities.update` (docs/resources.md "Abilities").
   */
  updateRefusal?: (existing: Row, context: ResourceContext) => HttpError | null;
  /** The same for a delete (your own account, another's expense): the error, or null; gives `abilities.delete`. */
  deleteRefusal?: (existing: Row, context: ResourceContext) => HttpError | null;
  /** Work before the row goes (its files, its logins' sessions). Refusals belong in `deleteRefusal`. */
  beforeDelete?: (existing: Row, context: ResourceContext) => Promise<void> | void;
  /** Extra reasons a record is in use beyond foreign keys (a role held by accounts): a message, or null. */
  inUse?: (existing: Row, context: ResourceContext) => Promise<string | null>;
  /** Adds data to a page of serialised rows in one go (roles of users, permissions of roles). */
  decorate?: (rows: Row[], context: ResourceContext) => Promise<void>;
  /** Columns to set with the new status (decided_by, decided_at); runs after the checks, in the transaction. */
  /** `values`: the fields the transition asks for (its `fields`), already checked by the schema. */
  beforeTransition?: (transition: TransitionDefinition, existing: Row, comment: string | null, context: ResourceContext, values: Input) => Promise<Input | void> | Input | void;
  afterTransition?: (row: Row, transition: TransitionDefinition, existing: Row, context: ResourceContext) => Promise<void> | void;
  /** How the audit trail words a value the field alone cannot (an amount with its currency); undefined: the field's way. */
  auditText?: AuditText;
  /** Issue 22: an import's behaviour beyond the create hooks (a definition with an `importer`; importer.ts). */
  importHooks?: ImportHooks;
  /** Success messages; a function words it from the saved row ("… flagged as a possible duplicate"). */
  messages?: { created?: Message; updated?: Message; deleted?: string };
}

type Message = string | ((row: Row) => string);
const messageOf = (message: Message | undefined, row: Row, fallback: string) =>
  (typeof message === 'function' ? message(row) : message) ?? fallback;

interface RegisteredResource extends ResourceOptions {
  columns: Record<string, PgColumn>;
  /** What a row query selects: the columns that are sent (hidden ones are never read) and the computed values. */
  selection: Record<string, PgColumn | SQL>;
  /** Keys of the selected timestamp columns, sent as ISO strings. */
  dateKeys: string[];
}

/** Every registered resource by name, so references can be checked and labelled across resources. */
const registered = new Map<string, RegisteredResource>();

/** The registered resources (the reminder job walks those whose definition declares reminders). */
export const registeredResources = (): readonly ResourceOptions[] => [...registered.values()];

const idParams = z.object({ id: idQuery() });
const OPTIONS_LIMIT = 50;
const EXPORT_BATCH = 500;

export function registerResource(parent: FastifyInstance, options: ResourceOptions) {
  const { definition, table } = options;
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const hidden = new Set(options.hidden ?? []);
  // A partner-owned record's owner is a firm, which has no manager in the users table.
  const ownerColumn = definition.workflow && !definition.owner ? columns[definition.workflow.ownerField] : undefined;
  const selection = {
    ...Object.fromEntries(Object.entries(columns).filter(([key]) => !hidden.has(key))),
    ...options.computed,
    // The guards need the owner's manager; selected with the row, removed before sending.
    ...(ownerColumn ? { [OWNER_MANAGER]: sql<number | null>`(select ${users.parent_id} from ${users} where ${users.id} = ${ownerColumn})` } : {}),
  };
  const dateKeys = Object.entries(columns).filter(([key, column]) => !hidden.has(key) && column.columnType === 'PgTimestamp').map(([key]) => key);
  const resource: RegisteredResource = { ...options, columns, selection, dateKeys };
  registered.set(definition.name, resource);
  const context = contextOf;
  /** Runs a write in one transaction with the context's handle switched to it. */
  const write = <T>(ctx: ResourceContext, work: (ctx: ResourceContext) => Promise<T>) =>
    inTransaction(parent, (tx) => work({ ...ctx, db: tx.db, tx }));
  const label = definition.label.toLowerCase();
  const { workflow } = definition;
  const hasFiles = fileFieldsOf(definition).length > 0;

  /**
   * The body as JSON (validated by the route's schema) or, for definitions with file fields,
   * JSON or multipart: then validated here with the same schema.
   */
  const readBody = async (request: FastifyRequest, reply: FastifyReply, schema: z.ZodType): Promise<{ input: Input; files: FileInput | null } | null> => {
    if (!hasFiles) return { input: request.body as Input, files: null };
    let values: unknown = request.body;
    let files: FileInput | null = null;
    if (request.isMultipart()) {
      ({ values, files } = await readMultipart(request, definition));
      // A retried outbox item (issue 26): null once the first answer has been replayed.
      if (await replayedMultipart(request, reply, values as Input, files)) return null;
    }
    const parsed = schema.safeParse(values ?? {});
    if (!parsed.success) {
      await discardNewFiles(request, files);
      const errors: Record<string, string[]> = {};
      for (const issue of parsed.error.issues) (errors[String(issue.path[0] ?? 'body')] ??= []).push(issue.message);
      throw validationError(errors);
    }
    return { input: parsed.data as Input, files };
  };
  /**
   * JSON bodies are validated by the route; a definition with files validates in readBody (multipart
   * has no JSON body), and its route documents the schema beside "anything" so the docs still show it.
   */
  const bodySchema = (schema: z.ZodType) => (hasFiles ? z.union([schema, z.unknown()]) : schema);

  const serve = (area: Area) => {
    // The main application at /api/{name}; a partner-owned definition also at /api/partner/{segment},
    // with the partner role's permissions and every query scoped to the caller's firm (scopeOf).
    const base = area === 'app' ? `/${definition.name}` : `/partner/${definition.owner!.segment}`;
    const permissions = area === 'app' ? definition.permissions : definition.owner!.permissions;
    const tags = [area === 'app' ? definition.label : `Partner portal: ${definition.pluralLabel}`];

    app.get(base, {
      config: { auth: area, permission: permissions.view },
      schema: { tags, summary: `List ${definition.pluralLabel.toLowerCase()}`, querystring: definition.listQuerySchema },
    }, async (request) => {
      const ctx = context(request);
      const query = request.query as Record<string, string | number | undefined>;
      const page = Number(query.page ?? 1);
      const perPage = Math.min(Number(query.per_page ?? DEFAULT_PER_PAGE), MAX_PER_PAGE);
      const where = listWhere(resource, query, ctx);
      const order = orderBy(resource, query);
      const offset = (page - 1) * perPage;
      const countRows = () => parent.db.select({ total: count() }).from(table).where(where).then(([row]) => row.total);
      // Browsing a whole list (staff): the page comes from an index in order while the count reads
      // every row, so counting in the same query would make the page wait for the count. Side by side instead
      // (two pooled connections on PostgreSQL). A search, or a firm's own records on the partner
      // portal, matches few rows: one query returns the page and its total (docs/benchmarks.md
      // "Partner invoice list").
      if (!searchTerm(query) && area === 'app') {
        const [total, rows] = await Promise.all([countRows(), selectRows(resource, ctx, where, order, perPage, offset)]);
        return { data: rows, meta: pageMeta(request, page, perPage, total) };
      }
      // Each row carries the total (selectRows); only a page past the end, which has no row to carry
      // it, needs a separate count.
      const rows = await selectRows(resource, ctx, where, order, perPage, offset, true);
      const total = rows.length ? rows[0][TOTAL] as number : offset > 0 ? await countRows() : 0;
      for (const row of rows) delete row[TOTAL];
      return { data: rows, meta: pageMeta(request, page, perPage, total) };
    });

    app.get(`${base}/export`, {
      config: { auth: area, permission: permissions.view },
      schema: { tags, summary: `Export the filtered ${definition.pluralLabel.toLowerCase()} as CSV`, querystring: definition.listQuerySchema },
    }, async (request, reply) => {
      const ctx = context(request);
      const query = request.query as Record<string, string | number | undefined>;
      const where = listWhere(resource, query, ctx);
      const order = orderBy(resource, query);
      const fields = exportFields(definition);
      const lines = (rows: Row[]) => rows.map((row) => `${fields.map(([key, field]) => csvCell(displayValue(field, key, row))).join(',')}\r\n`).join('');
      // The first page is read before a byte is sent: a query that fails is answered with its error
      // status, never with a 200 that stops short.
      const first = await selectRows(resource, ctx, where, order, EXPORT_BATCH, 0);
      // The other pages are read as the client consumes the stream: the export is never held in memory.
      // One that fails makes the stream fail, and Fastify then destroys the response before the chunked
      // body's last chunk: the download fails in the browser rather than saving a short file.
      async function* csv() {
        yield `${fields.map(([, field]) => csvCell(field.label)).join(',')}\r\n${lines(first)}`;
        if (first.length < EXPORT_BATCH) return;
        for (let offset = EXPORT_BATCH; ; offset += EXPORT_BATCH) {
          const rows = await selectRows(resource, ctx, where, order, EXPORT_BATCH, offset);
          if (rows.length) yield lines(rows);
          if (rows.length < EXPORT_BATCH) return;
        }
      }
      const date = today();
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${definition.name}-${date}.csv"`)
        .send(Readable.from(csv()));
    });

    app.get(`${base}/options`, {
      config: { auth: area, permission: area === 'app' ? optionsPermissionOf(definition) : permissions.view },
      schema: { tags, summary: `${definition.label} choices for a searchable select`, querystring: definition.listQuerySchema },
    }, async (request) => {
      const ctx = context(request);
      const query = request.query as Record<string, string | number | undefined>;
      // The title may be computed (an engineer's name, from the users table).
      const title = options.computed?.[definition.titleKey] ?? resource.columns[definition.titleKey];
      // A select offers active records only; a record already pointing at an inactive one still shows it (the row's relation).
      const isActiveOnly = definition.fields.status?.options?.some((o) => o.value === 'active') && resource.columns.status;
      const where = and(listWhere(resource, query, ctx), options.optionsScope?.(ctx), isActiveOnly ? eq(resource.columns.status, 'active') : undefined);
      const rows = await parent.db.select({ id: resource.columns.id, label: title }).from(table).where(where)
        .orderBy(asc(title), asc(resource.columns.id)).limit(OPTIONS_LIMIT);
      return { data: rows };
    });

    app.get(`${base}/:id`, {
      config: { auth: area, permission: permissions.view },
      schema: { tags, summary: `Show a ${label}`, params: idParams },
    }, async (request) => ({ data: await findRow(resource, context(request), request.params.id) }));

    // A record's edits for its History tab (issue 20), to whoever may view the record; the
    // portal's screens show its workflow history only.
    if (area === 'app') {
      app.get(`${base}/:id/changes`, {
        config: { auth: area, permission: permissions.view },
        schema: { tags, summary: `Edits of a ${label}, oldest first`, params: idParams },
      }, async (request) => {
        const ctx = context(request);
        await findRow(resource, ctx, request.params.id);
        return { data: await recordEdits(ctx.db, definition.name, request.params.id) };
      });
    }

    if (permissions.add) {
      app.post(base, {
        config: { auth: area, permission: permissions.add },
        schema: { tags, summary: `Create a ${label}`, body: bodySchema(definition.schema) },
      }, async (request, reply) => {
        const body = await readBody(request, reply, definition.schema);
        if (!body) return reply;
        const { input, files } = body;
        sanitiseRichTextFields(definition.fields, input);
        try {
          const data = await write(context(request), async (ctx) => {
            Object.assign(input, finalFileLists(definition, files, null));
            if (area === 'partner') delete input[definition.owner!.column];
            await checkInput(resource, input, ctx);
            let values = storedValues(resource, input);
            // On the partner portal the record is the caller's firm's, whatever the body says.
            if (area === 'partner') values[definition.owner!.column] = ownerIdOf(ctx.account);
            // The workflow decides the first state; the client never sends it.
            if (workflow) values[workflow.field] = workflow.initial;
            if (options.beforeCreate) values = await options.beforeCreate(values, input, ctx);
            const [created] = await ctx.db.insert(table).values(values as never).returning({ id: resource.columns.id })
              .catch((error: unknown) => { throw databaseError(error, definition); });
            const id = created.id as number;
            await saveAttachments(ctx.tx!, definition, id, files, ctx.account);
            const row = await findRow(resource, ctx, id, false);
            if (workflow) {
              await writeHistory(ctx.db, { resource: definition.name, recordId: id, transition: 'create', from: null, to: workflow.initial, account: ctx.account });
              await notifyAbout(ctx.tx!, definition, row, workflow.events.create.notify, ctx.account, null, 'created', workflow.isCreateMailed);
            }
            await options.afterCreate?.(row, input, ctx);
            const saved = await findRow(resource, ctx, id, false);
            await recordResourceChange(ctx.db, ctx.account, definition, { action: 'create', id, before: null, after: saved, input, text: options.auditText });
            return saved;
          });
          return reply.status(201).send({ data, message: messageOf(options.messages?.created, data, `${definition.label} created successfully.`) });
        } catch (error) {
          await discardNewFiles(request, files);
          throw error;
        }
      });
    }

    if (permissions.edit) {
      for (const method of ['PUT', 'PATCH'] as const) {
        app.route({
          method,
          url: `${base}/:id`,
          config: { auth: area, permission: permissions.edit },
          schema: { tags, summary: `Update a ${label}`, params: idParams, body: bodySchema(method === 'PUT' ? definition.schema : definition.updateSchema) },
          handler: async (request, reply) => {
            const { id } = request.params as { id: number };
            const body = await readBody(request, reply, method === 'PUT' ? definition.schema : definition.updateSchema);
            if (!body) return reply;
            const { input, files } = body;
            sanitiseRichTextFields(definition.fields, input);
            try {
              const data = await write(context(request), async (ctx) => {
                const existing = await findRow(resource, ctx, id);
                const status = workflow ? String(existing[workflow.field]) : null;
                const refusal = updateRefusalOf(resource, existing, ctx);
                if (refusal) throw refusal;
                Object.assign(input, finalFileLists(definition, files, existing));
                // A record never changes owner from the partner portal.
                if (area === 'partner') delete input[definition.owner!.column];
                await checkInput(resource, input, ctx, id);
                let values = storedValues(resource, input);
                if (options.beforeUpdate) values = await options.beforeUpdate(values, existing, input, ctx);
                // Issue 20: an edit after a decision sends the record back to the first decider.
                const isRestarted = !!workflow && isRestartedByEdit(definition, status!, values);
                if (isRestarted) values[workflow!.field] = workflow!.initial;
                if (Object.keys(values).length) {
                  // Compare-and-set on the status: a decision taken meanwhile wins over this edit.
                  const updated = await ctx.db.update(table).set({ ...values, ...(resource.columns.updated_at ? { updated_at: new Date() } : {}) } as never)
                    .where(and(eq(resource.columns.id, id), workflow ? eq(resource.columns[workflow.field], status!) : undefined))
                    .returning({ id: resource.columns.id })
                    .catch((error: unknown) => { throw databaseError(error, definition); });
                  if (!updated.length) throw new HttpError(409, `This ${label} was decided meanwhile; reload it.`);
                }
                await saveAttachments(ctx.tx!, definition, id, files, ctx.account);
                const row = await findRow(resource, ctx, id, false);
                if (isRestarted) await recordRestartByEdit(ctx.tx!, definition, row, status!, ctx.account);
                await options.afterUpdate?.(row, existing, input, ctx);
                const saved = await findRow(resource, ctx, id, false);
                await recordResourceChange(ctx.db, ctx.account, definition, { action: 'update', id, before: existing, after: saved, input, text: options.auditText });
                return saved;
              });
              return { data, message: messageOf(options.messages?.updated, data, `${definition.label} updated successfully.`) };
            } catch (error) {
              await discardNewFiles(request, files);
              throw error;
            }
          },
        });
      }
    }

    if (permissions.delete) {
      app.delete(`${base}/:id`, {
        config: { auth: area, permission: permissions.delete },
        schema: { tags, summary: `Delete a ${label}`, params: idParams },
      }, async (request) => {
        await write(context(request), async (ctx) => {
          const existing = await findRow(resource, ctx, request.params.id);
          const refusal = deleteRefusalOf(resource, existing, ctx);
          if (refusal) throw refusal;
          await options.beforeDelete?.(existing, ctx);
          const reason = await inUseReason(resource, existing, ctx);
          if (reason) throw new HttpError(409, reason);
          await ctx.db.delete(table).where(eq(resource.columns.id, request.params.id))
            .catch((error: unknown) => { throw databaseError(error, definition); });
          if (hasFiles) await removeAttachmentsOf(ctx.tx!, definition, request.params.id);
          await recordResourceChange(ctx.db, ctx.account, definition, { action: 'delete', id: request.params.id, before: existing, after: null, text: options.auditText });
        });
        return { message: options.messages?.deleted ?? `${definition.label} deleted successfully.` };
      });
    }

    if (hasFiles) {
      app.get(`${base}/:id/attachments/:attachmentId`, {
        config: { auth: area, permission: permissions.view },
        schema: {
          tags, summary: `Download a file of a ${label}`,
          params: z.object({ id: idQuery(), attachmentId: idQuery() }),
          querystring: z.object({ disposition: z.enum(['attachment', 'inline']).optional() }),
        },
      }, async (request, reply) => {
        const ctx = context(request);
        await findRow(resource, ctx, request.params.id);
        return sendAttachment(reply, ctx.db, definition, request.params.id, request.params.attachmentId, request.query.disposition ?? 'attachment');
      });
    }

    if (!workflow) return;

    /** One transition of one record, in its own transaction: the single route and each id of the bulk route. */
    const transition = async (request: FastifyRequest, id: number, name: string, comment: string | null, values?: Record<string, unknown> | null) => {
      const declared = workflow.transitions.find((t) => t.name === name);
      if (!declared) throw new HttpError(404, `${definition.label} has no transition ${name.slice(0, 60)}.`);
      return write(context(request), async (ctx) => {
        const existing = await findRow(resource, ctx, id);
        checkTransition(definition, declared, existing, ctx.account, comment);
        const asked = transitionFieldValues(definition, declared, values);
        const from = String(existing[workflow.field]);
        const to = await targetState(ctx.db, definition, declared, existing);
        const extra = { ...asked, ...(await options.beforeTransition?.(declared, existing, comment, ctx, asked)) };
        // Compare-and-set in the update itself: of two simultaneous decisions one changes the row, the other 409s.
        const changed = await ctx.db.update(table)
          .set({ ...extra, [workflow.field]: to, ...(resource.columns.updated_at ? { updated_at: new Date() } : {}) } as never)
          .where(and(eq(resource.columns.id, id), eq(resource.columns[workflow.field], from)))
          .returning({ id: resource.columns.id });
        if (!changed.length) throw new HttpError(409, `This ${label} was changed by someone else just now; reload it to see its state.`);
        await writeHistory(ctx.db, { resource: definition.name, recordId: id, transition: declared.name, from, to, account: ctx.account, comment });
        const row = await findRow(resource, ctx, id, false);
        await notifyAbout(ctx.tx!, definition, row, declared.words.notify, ctx.account, comment, declared.name, declared.isMailed);
        await options.afterTransition?.(row, declared, existing, ctx);
        await recordResourceChange(ctx.db, ctx.account, definition, { action: 'transition', id, before: existing, after: row, text: options.auditText, transition: declared.name });
        // The toast says what the caller did, in the history's words: "You approved the claim for finance."
        return { data: row, message: `${declared.words.history('You')}.` };
      });
    };
    const comment = z.string().trim().max(2000, 'The comment field must not be greater than 2000 characters.').nullish();
    // The fields a transition asks for (issue 24), each checked by the definition's schema in the transition.
    const transitionValues = z.record(z.string().max(60), z.unknown()).nullish();
    const nameParam = z.string().regex(/^[a-z0-9_-]{1,60}$/, 'Unknown transition.');

    app.post(`${base}/:id/transitions/:transition`, {
      config: { auth: area, permission: permissions.view },
      schema: {
        tags, summary: `Move a ${label} to its next state`,
        params: z.object({ id: idQuery(), transition: nameParam }),
        body: z.object({ comment, values: transitionValues }).optional(),
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

    app.get(`${base}/:id/history`, {
      config: { auth: area, permission: permissions.view },
      schema: { tags, summary: `History of a ${label}`, params: idParams },
    }, async (request) => {
      const ctx = context(request);
      await findRow(resource, ctx, request.params.id);
      return { data: await readHistory(ctx.db, definition.name, request.params.id) };
    });
  };
  serve('app');
  if (definition.owner) serve('partner');
  if (definition.importer && definition.permissions.add) {
    // A create hook that must run once per record after it exists cannot be repeated in bulk unseen.
    if (options.afterCreate && !options.importHooks?.afterCreate) throw new Error(`${definition.name}: an importer with afterCreate declares importHooks.afterCreate`);
    registerImporter(parent, definition, {
      options,
      columns,
      target: (name) => {
        const target = registered.get(name);
        return target && { table: target.table, columns: target.columns, scope: (ctx) => scopeOf(target, ctx) };
      },
      rowsOf: (ctx, ids) => selectRows(resource, ctx, inArray(columns.id, ids), [asc(columns.id)], ids.length, 0),
    }, contextOf);
  }
}

/**
 * The where clause of `GET /api/{name}` for this request's query and account (scope, search,
 * filters), for routes that summarise the same list (totals above it). The query must have been
 * validated with the definition's listQuerySchema; or `query`, a list's filters given here (a dashboard
 * figure that sums the list behind its link).
 */
export function resourceListWhere(name: string, request: FastifyRequest, query = request.query as Record<string, string | number | undefined>): SQL | undefined {
  const resource = registered.get(name);
  if (!resource) throw new Error(`${name} is not registered`);
  const ctx = contextOf(request);
  return listWhere(resource, query, ctx);
}

/**
 * How many rows `GET /api/{name}?<query>` lists for this caller, by the same scope and filters: a
 * dashboard figure that counts it links to exactly that list. With `groupBy`, the count per value
 * of that column (a board's columns, a funnel's stages).
 */
export async function countResourceList(name: string, request: FastifyRequest, query: Record<string, string | number | undefined>): Promise<number>;
export async function countResourceList(name: string, request: FastifyRequest, query: Record<string, string | number | undefined>, groupBy: string): Promise<{ value: unknown; count: number }[]>;
export async function countResourceList(name: string, request: FastifyRequest, query: Record<string, string | number | undefined>, groupBy?: string) {
  const resource = registered.get(name);
  if (!resource) throw new Error(`${name} is not registered`);
  const where = listWhere(resource, query, contextOf(request));
  if (!groupBy) {
    const [{ value }] = await request.server.db.select({ value: count() }).from(resource.table).where(where);
    return value;
  }
  const column = resource.columns[groupBy];
  return request.server.db.select({ value: column, count: count() }).from(resource.table).where(where).groupBy(column);
}

/**
 * The first rows of `GET /api/{name}?<query>` for this caller (sort and direction in the query, as the
 * list takes them) and how many there are: a dashboard panel's few rows and its "see all" count.
 */
export async function resourceListPage(name: string, request: FastifyRequest, query: Record<string, string | number | undefined>, limit: number): Promise<{ rows: Row[]; total: number }> {
  const resource = registered.get(name);
  if (!resource) throw new Error(`${name} is not registered`);
  const ctx = contextOf(request);
  const where = listWhere(resource, query, ctx);
  const [[{ total }], rows] = await Promise.all([
    request.server.db.select({ total: count() }).from(resource.table).where(where),
    selectRows(resource, ctx, where, orderBy(resource, query), limit, 0),
  ]);
  return { rows, total };
}

/**
 * One record of a registered resource as its routes serialise it (references, files, transitions for
 * the caller), for routes beside the generic ones that answer with the record they wrote (a new PO).
 */
export async function resourceRow(name: string, ctx: ResourceContext, id: number): Promise<Row> {
  const resource = registered.get(name);
  if (!resource) throw new Error(`${name} is not registered`);
  return findRow(resource, ctx, id, false);
}

/** Its own view permission, or one of a form that picks from it (also for definitions outside the registry). */
function optionsPermissionOf(definition: ResourceDefinition): string {
  return [...new Set([definition.permissions.view, ...optionsPermission(definition.name).split('|')].filter(Boolean))].join('|');
}

// ---- Queries ----

/**
 * The resource's own scope and, on the partner portal, its owner: a partner login reaches only its
 * firm's records of a partner-owned definition (through lists, reads, writes, references and files).
 */
function scopeOf(resource: RegisteredResource, ctx: ResourceContext): SQL | undefined {
  const { owner } = resource.definition;
  const own = owner && ctx.area === 'partner' ? eq(resource.columns[owner.column], ownerIdOf(ctx.account)) : undefined;
  return and(resource.scope?.(ctx), own);
}

function listWhere(resource: RegisteredResource, query: Record<string, string | number | undefined>, ctx: ResourceContext): SQL | undefined {
  const { definition, columns } = resource;
  const conditions: (SQL | undefined)[] = [scopeOf(resource, ctx)];
  const search = searchTerm(query);
  if (search) {
    // Case-insensitive '%term%' with the term's own wildcards escaped, over one expression of all the
    // searched fields, which a trigram index on exactly that expression serves where the list is
    // large (users_search_trgm).
    const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(sql`${searchExpression(resource)} like lower(${pattern})`);
  }
  for (const filter of definition.filters ?? []) {
    // A computed value (an invoice's is_overdue) filters like a column (eq takes either; typed as the column).
    const column = (resource.computed?.[filter.key] ?? columns[filter.key]) as PgColumn;
    if (filter.type === 'date-range') {
      const from = query[`${filter.key}_from`];
      const to = query[`${filter.key}_to`];
      // Calendar days, both ends inclusive.
      if (from) conditions.push(sql`(${column})::date >= ${from}::date`);
      if (to) conditions.push(sql`(${column})::date <= ${to}::date`);
      continue;
    }
    const value = query[filter.key];
    if (value === undefined || value === '') continue;
    if (filter.type === 'boolean') conditions.push(eq(column, value === 'true' || value === '1'));
    else if (filter.type === 'text') conditions.push(sql`lower(${column}) = lower(${String(value)})`);
    else if (filter.type === 'reference') conditions.push(eq(column, Number(value)));
    else conditions.push(eq(column, typeof filter.options[0]?.value === 'number' ? Number(value) : value));
  }
  if (definition.parent && query[definition.parent.field] !== undefined) {
    conditions.push(eq(columns[definition.parent.field], Number(query[definition.parent.field])));
  }
  return and(...conditions);
}

const searchTerm = (query: Record<string, string | number | undefined>) => (typeof query.search === 'string' ? query.search.trim() : '');

/**
 * The searched fields as one lower-case string: `lower(coalesce(a, '') || chr(1) || coalesce(b, '') ...)`
 * in the definition's `search` order. chr(1) separates the fields because nobody types it, so a term
 * never matches across two of them (as OR-ed ILIKEs would not). A migration that indexes a list's
 * search must use this exact expression (see users_search_trgm), or the planner will not use it.
 */
export function searchExpression(resource: { definition: ResourceDefinition; columns: Record<string, PgColumn>; computed?: Record<string, SQL> }): SQL {
  const fields = resource.definition.search.map((key) => sql`coalesce(${resource.computed?.[key] ?? resource.columns[key]}, '')`);
  return sql`lower(${sql.join(fields, sql` || chr(1) || `)})`;
}

function orderBy(resource: RegisteredResource, query: Record<string, string | number | undefined>): SQL[] {
  const { definition } = resource;
  const key = (query.sort as string | undefined) ?? definition.defaultSort.key;
  if (!definition.sortable.includes(key) && key !== definition.defaultSort.key) {
    throw validationError({ sort: `The selected sort is invalid. Sortable: ${definition.sortable.join(', ')}.` });
  }
  const direction = (query.direction as 'asc' | 'desc' | undefined) ?? (query.sort ? 'asc' : definition.defaultSort.direction);
  const by = direction === 'desc' ? desc : asc;
  // The id breaks ties so pages never repeat or skip a row.
  return [by(sortExpression(resource, key)), by(resource.columns.id)];
}

/** A column, a computed value, or for a foreign key the referenced record's label (sort cities by country name). */
function sortExpression(resource: RegisteredResource, key: string): SQL | AnyColumn {
  if (resource.computed?.[key]) return resource.computed[key];
  return referenced(resource, key, (other, label) => sql`${other}.${label}`) ?? resource.columns[key];
}

/**
 * `(select <value> from <target> where <target>.id = <this row's key>)` for a reference field with a
 * registered target, else undefined; `value` gets the target's alias and its label column. The alias
 * keeps a self-reference (a user's manager) apart from the outer row, whose column is spelled out as
 * `"table"."column"` (drizzle leaves columns unqualified in one-table queries).
 */
function referenced(resource: RegisteredResource, key: string, value: (other: Name, label: Name) => SQL): SQL | undefined {
  const field = resource.definition.fields[key];
  const target = field?.input === 'reference' && field.reference ? registered.get(field.reference.resource) : undefined;
  if (!target || !field.reference || !resource.columns[key]) return undefined;
  const other = sql.identifier(`ref_${key}`);
  const label = sql.identifier(target.columns[field.reference.labelKey].name);
  const outer = sql`${sql.identifier(getTableConfig(resource.table).name)}.${sql.identifier(resource.columns[key].name)}`;
  return sql`(select ${value(other, label)} from ${sql.identifier(getTableConfig(target.table).name)} ${other} where ${other}."id" = ${outer})`;
}

/** The key under which a page's rows carry the total of the whole list (removed before sending). */
const TOTAL = '__total';

async function selectRows(resource: RegisteredResource, ctx: ResourceContext, where: SQL | undefined, order: SQL[], limit: number, offset: number, withTotal = false): Promise<Row[]> {
  // The total as an uncorrelated subquery, which PostgreSQL runs once (an InitPlan). A window count
  // would instead pass every matching row through the window, each with its references and computed
  // values, before the limit (docs/benchmarks.md "Partner invoice list").
  const total: Record<string, SQL> = withTotal
    ? { [TOTAL]: sql<number>`(select count(*) from ${resource.table} where ${where ?? sql`true`})`.mapWith(Number) } : {};
  const rows = await ctx.db.select({ ...resource.selection, ...referenceSelection(resource), ...total }).from(resource.table)
    .where(where).orderBy(...order).limit(limit).offset(offset);
  return serialise(resource, rows as Row[], ctx);
}

/**
 * Each single reference as `{id, [labelKey]}` under its relation, and each file field as its list of
 * files (attachments.ts), selected with the row. PostgreSQL
 * evaluates these subqueries after the sort and limit (for the page's rows only), so a page is one
 * round trip whatever it refers to. Built on first use, once every resource is registered.
 */
const referenceSelections = new WeakMap<RegisteredResource, Record<string, SQL>>();
function referenceSelection(resource: RegisteredResource): Record<string, SQL> {
  let selection = referenceSelections.get(resource);
  if (selection) return selection;
  selection = {};
  for (const [key, field] of Object.entries(resource.definition.fields)) {
    const labelKey = field.reference?.labelKey;
    const value = referenced(resource, key, (other, label) => sql`json_build_object('id', ${other}."id", ${labelKey}::text, ${other}.${label})`);
    if (value && field.reference) selection[field.reference.relation] = value;
  }
  Object.assign(selection, fileListSelection(resource.definition, getTableConfig(resource.table).name));
  referenceSelections.set(resource, selection);
  return selection;
}

/** One row within the resource's scope, serialised; 404 when it is not there. */
async function findRow(resource: RegisteredResource, ctx: ResourceContext, id: number, isScoped = true): Promise<Row> {
  const where = and(eq(resource.columns.id, id), isScoped ? scopeOf(resource, ctx) : undefined);
  const [row] = await selectRows(resource, ctx, where, [], 1, 0);
  if (!row) throw new HttpError(404, `${resource.definition.label} not found.`);
  return row;
}

/** Dates as ISO strings, in place (the rows are fresh from the driver); references arrive with the row. */
async function serialise(resource: RegisteredResource, rows: Row[], ctx: ResourceContext): Promise<Row[]> {
  const relations = Object.values(resource.definition.fields)
    .flatMap((field) => (field.input === 'reference' && field.reference ? [field.reference.relation] : []));
  for (const row of rows) {
    for (const key of resource.dateKeys) {
      const value = row[key];
      if (value instanceof Date) row[key] = value.toISOString();
    }
    for (const relation of relations) row[relation] ??= null;
    if (resource.definition.workflow) {
      row.available_transitions = availableTransitions(resource.definition, row, ctx.account);
      // Kept for the transition's own checks, but never sent (JSON skips non-enumerable keys).
      Object.defineProperty(row, OWNER_MANAGER, { enumerable: false });
    }
  }
  if (rows.length) await resource.decorate?.(rows, ctx);
  // After decorate: a refusal may read what it attached (a user's role ids).
  for (const row of rows) row.abilities = { update: !updateRefusalOf(resource, row, ctx), delete: !deleteRefusalOf(resource, row, ctx) };
  return rows;
}

// ---- Abilities ----

/** The permissions of the area the caller came in by: the main application's, or the partner portal's. */
const areaPermissions = (definition: ResourceDefinition, area: Area) => (area === 'app' ? definition.permissions : definition.owner?.permissions ?? { view: '' });

/**
 * Why the caller may not update this record, as the update route answers (null: it would be let
 * through to its input checks): the route and its permission, the state the record is in, the
 * resource's own rule. The update route asks this before it writes, and every served row carries
 * its answer as `abilities.update`: the one predicate keeps the screens' Edit and the route agreeing.
 */
function updateRefusalOf(resource: RegisteredResource, row: Row, ctx: ResourceContext): HttpError | null {
  const { definition } = resource;
  const permission = areaPermissions(definition, ctx.area).edit;
  if (!permission || !hasPermission(ctx.account.permissions, permission)) return forbidden();
  const { workflow } = definition;
  const status = workflow ? String(row[workflow.field]) : null;
  if (workflow && definition.editableStates && !definition.editableStates.includes(status!)) {
    return new HttpError(409, `This ${definition.label.toLowerCase()} is ${workflowState(workflow, status).label.toLowerCase()}, so it can no longer be edited.`);
  }
  return resource.updateRefusal?.(row, ctx) ?? null;
}

/**
 * Why the caller may not delete this record (null: the delete goes on to its in-use check, which
 * counts rows elsewhere and so is not part of `abilities.delete`): the route and its permission, the
 * definition's refusal (a built-in role), the resource's own rule.
 */
function deleteRefusalOf(resource: RegisteredResource, row: Row, ctx: ResourceContext): HttpError | null {
  const { definition } = resource;
  const permission = areaPermissions(definition, ctx.area).delete;
  if (!permission || !hasPermission(ctx.account.permissions, permission)) return forbidden();
  const refusal = definition.deleteRefusal?.(row);
  if (refusal) return new HttpError(409, refusal);
  return resource.deleteRefusal?.(row, ctx) ?? null;
}

// ---- Checks ----

/** Only the table's own columns are stored; the rest (role_ids) is for the hooks. */
function storedValues(resource: RegisteredResource, input: Input): Input {
  return Object.fromEntries(Object.entries(input)
    .filter(([key]) => key !== 'id' && key in resource.columns && key in resource.definition.schema.shape)
    .map(([key, value]) => [key, value === null ? emptyValue(resource.columns[key]) : value]));
}

/**
 * What an optional field left empty stores (issue 22): null, or the column's own default when the
 * column may not be null (a checklist task's order is 0), so an empty optional field is never a 500.
 */
function emptyValue(column: PgColumn): unknown {
  return column.notNull && column.hasDefault && column.default !== undefined && !is(column.default, SQL) ? column.default : null;
}

/** Database checks of CONVENTIONS "Schemas": existing foreign keys, unique values; 422 on the field. */
async function checkInput(resource: RegisteredResource, input: Input, ctx: ResourceContext, id?: number) {
  const errors: Record<string, string> = {};
  for (const [key, field] of Object.entries(resource.definition.fields)) {
    const value = input[key];
    if (!field.reference || value === null || value === undefined) continue;
    const target = registered.get(field.reference.resource);
    if (!target) continue;
    const ids = [...new Set(Array.isArray(value) ? value as number[] : [value as number])];
    if (!ids.length) continue;
    const [{ found }] = await ctx.db.select({ found: count() }).from(target.table)
      .where(and(inArray(target.columns.id, ids), scopeOf(target, ctx)));
    if (found !== ids.length) errors[key] = `The selected ${field.label.toLowerCase()} is invalid.`;
  }
  for (const key of resource.unique ?? []) {
    const value = input[key];
    if (typeof value !== 'string' || errors[key]) continue;
    const [taken] = await ctx.db.select({ id: resource.columns.id }).from(resource.table)
      .where(and(sql`lower(${resource.columns[key]}) = ${value.toLowerCase()}`, id ? ne(resource.columns.id, id) : undefined)).limit(1);
    if (taken) errors[key] = `The ${resource.definition.fields[key].label.toLowerCase()} has already been taken.`;
  }
  if (Object.keys(errors).length) throw validationError(errors);
}

/**
 * Why a record cannot be deleted: rows of any registered table whose foreign key points at it
 * without ON DELETE SET NULL / CASCADE, then the resource's own reasons.
 */
async function inUseReason(resource: RegisteredResource, existing: Row, ctx: ResourceContext): Promise<string | null> {
  const seen = new Set<PgTable>();
  for (const other of registered.values()) {
    if (seen.has(other.table)) continue;
    seen.add(other.table);
    const config = getTableConfig(other.table);
    for (const foreignKey of config.foreignKeys) {
      const reference = foreignKey.reference();
      if (reference.foreignTable !== resource.table || ['set null', 'cascade'].includes(foreignKey.onDelete ?? '')) continue;
      const [{ used }] = await ctx.db.select({ used: count() }).from(other.table).where(eq(reference.columns[0], existing.id as number));
      if (used > 0) {
        const what = config.name.replaceAll('_', ' ');
        return `This ${resource.definition.label.toLowerCase()} cannot be deleted because ${used} ${used === 1 ? singular(what) : what} ${used === 1 ? 'uses' : 'use'} it.`;
      }
    }
  }
  return resource.inUse ? resource.inUse(existing, ctx) : null;
}

const singular = (plural: string) => plural.replace(/ies$/, 'y').replace(/(ss|x|ch|sh)es$/, '$1').replace(/s$/, '');

/** Constraint errors the checks above did not foresee (a concurrent change): a clear 4xx, never a 500. */
function databaseError(error: unknown, definition: ResourceDefinition): unknown {
  const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  if (code === '23503') return new HttpError(409, `This ${definition.label.toLowerCase()} is in use or refers to a record that no longer exists.`);
  if (code === '23505') return new HttpError(409, `A ${definition.label.toLowerCase()} with these details already exists.`);
  return error;
}

// ---- CSV ----

/**
 * The columns of an export: the list's, and beside each amount its currency when the list shows it
 * elsewhere (a badge, the amount's own cell) or not at all, so no figure leaves without its currency.
 */
export function exportFields(definition: ResourceDefinition): (readonly [string, FieldDefinition])[] {
  const fields: (readonly [string, FieldDefinition])[] = [];
  const keys = new Set(definition.columns);
  for (const key of definition.columns) {
    const field = definition.fields[key];
    fields.push([key, field]);
    const currency = field.currencyField;
    if (currency && !keys.has(currency) && definition.fields[currency]) {
      fields.push([currency, definition.fields[currency]]);
      keys.add(currency);
    }
  }
  return fields;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T/;

/**
 * The text a list cell shows: option labels, reference labels, lists joined; amounts with two
 * decimals; dates as YYYY-MM-DD, a timestamp as the firm's day (and time, where the field is not a date).
 */
function displayValue(field: FieldDefinition, key: string, row: Row): unknown {
  if (field.reference) {
    const related = row[field.reference.relation];
    const labelOf = (item: unknown) => (item as Row | null)?.[field.reference!.labelKey] ?? '';
    return Array.isArray(related) ? related.map(labelOf).join('; ') : labelOf(related);
  }
  const value = row[key];
  if (field.options) return field.options.find((o) => String(o.value) === String(value))?.label ?? value;
  if (field.currencyField && value !== null && value !== undefined && value !== '' && Number.isFinite(Number(value))) return Number(value).toFixed(2);
  // spec §9: dates read YYYY-MM-DD, in the file as on the screen.
  if (typeof value === 'string' && TIMESTAMP.test(value)) return field.input === 'date' ? formatDay(value) : formatDayTime(value);
  return Array.isArray(value) ? value.join('; ') : value;
}

/** RFC 4180 quoting; a leading = + - @ is neutralised so a spreadsheet never runs a cell as a formula. */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

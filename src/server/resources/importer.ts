// Issue 22: records in bulk from a CSV or XLSX file, for any definition that declares an `importer`
// (docs/resources.md "Importer"). Three routes beside the definition's own, all under its add
// permission: a template to fill in, a preview that checks every row and writes nothing, and the
// import itself (every row in one transaction, refused while any row has errors; or only the valid
// rows). Rows are checked against the same schema and hooks a create uses, and every record written
// is audited like a create, in bulk.
import { and, eq, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { imports } from '../db/schema/imports';
import { HttpError, validationError } from '../plugins/errors';
import { idQuery, type ResourceDefinition } from '../../shared/resources/define';
import { readImportFile, importTemplate } from './import-files';
import { checkImportRows } from './import-checks';
import { insertRows } from './import-writes';
import { inWrite, type ResourceContext, type ResourceOptions, type Row } from './types';
import { importPreviewSchema, importStatusSchema, importTemplateDownload } from '../../shared/schemas/import';
import { dataResponse, savedResponse } from '../../shared/schemas/responses';
import { inSentence } from '../../shared/words';

type Input = Record<string, unknown>;

/** The most bytes an import file may have (5,000 people are about 1 MB of CSV). */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;

/** One problem of one row, named by the file's column (null: the row as a whole). */
export interface ImportError { column: string | null; message: string }

export interface CheckedRow {
  /** The row's number as a spreadsheet shows it (the heading is row 1). */
  row: number;
  /** The cells as read, by heading. */
  values: Record<string, string>;
  errors: ImportError[];
  /** The payload a create would receive (valid rows only). */
  input: Input | null;
}

/**
 * Behaviour of a registered resource's import beyond its create hooks (ResourceOptions.importHooks):
 * people get one unknown password hash for all of them, their roles in bulk, and an invitation job.
 */
export interface ImportHooks {
  /** Once per import, before any row is checked: refuse the caller (403), or prepare what every row shares. */
  prepare?: (ctx: ResourceContext) => Promise<unknown>;
  /** Per row, instead of the resource's beforeCreate: the values to store; throw a 422 to name the row's errors. */
  beforeCreate?: (values: Input, input: Input, ctx: ResourceContext, prepared: unknown) => Promise<Input> | Input;
  /** Once, after the rows are inserted (in the transaction), with their ids in file order. */
  afterCreate?: (created: { id: number; input: Input }[], ctx: ResourceContext, importId: number) => Promise<void>;
}

/** What the importer needs of the resource machinery (register.ts), handed over so the two files do not import each other. */
export interface ImporterMachinery {
  options: ResourceOptions;
  columns: Record<string, PgColumn>;
  /** A registered resource's table, columns and scope, by name (for references). */
  target: (name: string) => { table: PgTable; columns: Record<string, PgColumn>; scope: (ctx: ResourceContext) => SQL | undefined } | undefined;
  /** Serialised rows (with references) of these ids, for the audit trail. */
  rowsOf: (ctx: ResourceContext, ids: number[]) => Promise<Row[]>;
}

// ---- Routes ----

const modeSchema = z.enum(['all', 'valid'], { error: 'Choose whether to import all rows or only the valid ones.' });

/** The uploaded file (and the import's mode), read into memory: at most MAX_IMPORT_BYTES. */
async function readUpload(request: FastifyRequest): Promise<{ name: string; data: Buffer; fields: Record<string, string> }> {
  if (!request.isMultipart()) throw validationError({ file: 'Choose a CSV or XLSX file to upload.' });
  let upload: { name: string; data: Buffer } | null = null;
  const fields: Record<string, string> = Object.create(null);
  for await (const part of request.parts({ limits: { fileSize: MAX_IMPORT_BYTES } }) as AsyncIterable<MultipartFile | { type: 'field'; fieldname: string; value: unknown }>) {
    if (part.type === 'file') {
      const data = await part.toBuffer();
      if (part.fieldname !== 'file' || upload) continue;
      upload = { name: part.filename, data };
    } else {
      fields[part.fieldname] = String(part.value ?? '');
    }
  }
  if (!upload) throw validationError({ file: 'Choose a CSV or XLSX file to upload.' });
  return { ...upload, fields };
}

/** The import itself, in one transaction: its record, the rows, and the ids it wrote (in file order). */
async function importRows(
  machinery: ImporterMachinery, definition: ResourceDefinition, ctx: ResourceContext,
  rows: { mode: 'all' | 'valid'; total: number; valid: CheckedRow[]; prepared: unknown },
): Promise<{ id: number; ids: number[] }> {
  return inWrite(ctx, async (writeCtx) => {
    const [record] = await writeCtx.db.insert(imports).values({
      resource: definition.name, created_by: ctx.account.id, mode: rows.mode, rows_total: rows.total, rows_imported: rows.valid.length, record_ids: [],
    }).returning({ id: imports.id });
    const ids = await insertRows(machinery, definition, writeCtx, rows.valid, rows.prepared, record.id);
    await writeCtx.db.update(imports).set({ record_ids: ids }).where(eq(imports.id, record.id));
    return { id: record.id, ids };
  }).catch((error: unknown) => {
    // A value taken meanwhile by someone else (the unique index): the file is checked again by the admin.
    const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
    if (code === '23505') throw new HttpError(409, 'Someone added a record with the same details while the file was imported. Nothing was imported; check the file again.');
    throw error;
  });
}

/** A preview row as the screen shows it: its number, its cells and its errors. */
const previewRow = (row: CheckedRow) => ({ row: row.row, values: row.values, errors: row.errors });

export function registerImporter(parent: FastifyInstance, definition: ResourceDefinition, machinery: ImporterMachinery, contextOf: (request: FastifyRequest) => ResourceContext) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const permission = definition.permissions.add!;
  const base = `/import/${definition.name}`;
  const tags = [definition.label];
  const plural = inSentence(definition.pluralLabel);

  /**
   * The file read, the caller refused when they may not import at all (as a create checks its body,
   * then its hooks), then every row checked.
   */
  const check = async (request: FastifyRequest, ctx: ResourceContext) => {
    const upload = await readUpload(request);
    const file = await readImportFile(upload.name, upload.data);
    const prepared = await machinery.options.importHooks?.prepare?.(ctx);
    const rows = await checkImportRows(machinery, definition, ctx, file, prepared);
    return { rows, prepared, fields: upload.fields };
  };

  app.get(`${base}/template`, {
    config: { auth: 'app', permission },
    schema: { tags, summary: `A template file for importing ${plural}`, querystring: z.object({ format: z.enum(['csv', 'xlsx']).optional() }), response: { 200: importTemplateDownload } },
  }, async (request, reply) => {
    const format = request.query.format ?? 'csv';
    const body = await importTemplate(definition, format);
    return reply
      .header('content-type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="${definition.name}-import-template.${format}"`)
      .send(body);
  });

  app.post(`${base}/preview`, {
    config: { auth: 'app', permission },
    schema: { tags, summary: `Check a file of ${plural}: every row with its errors; nothing is written`, response: { 200: dataResponse(importPreviewSchema) } },
  }, async (request) => {
    const { rows } = await check(request, contextOf(request));
    const invalid = rows.filter((row) => row.errors.length).length;
    return { data: { columns: definition.importer!.columns.map((c) => c.header), rows: rows.map(previewRow), total: rows.length, valid: rows.length - invalid, invalid } };
  });

  app.post(base, {
    config: { auth: 'app', permission },
    schema: { tags, summary: `Import ${plural} from a file: all rows in one transaction, or only the valid ones`, response: { 201: savedResponse(importStatusSchema) } },
  }, async (request, reply) => {
    const ctx = contextOf(request);
    const { rows, prepared, fields } = await check(request, ctx);
    const mode = modeSchema.safeParse(fields.mode);
    if (!mode.success) throw validationError({ mode: mode.error.issues[0].message });
    const invalid = rows.filter((row) => row.errors.length);
    if (mode.data === 'all' && invalid.length) {
      throw new HttpError(422, `Nothing was imported: ${invalid.length === 1 ? '1 row has' : `${invalid.length} rows have`} errors. Fix them, or import only the valid rows.`,
        undefined, { file: ['Some rows have errors.'] }, { rows: invalid.map(previewRow) });
    }
    const valid = rows.filter((row) => !row.errors.length);
    if (!valid.length) throw validationError({ file: 'No row of the file can be imported: every row has errors.' });
    const result = await importRows(machinery, definition, ctx, { mode: mode.data, total: rows.length, valid, prepared });
    const skipped = rows.length - valid.length;
    const message = `${result.ids.length === 1 ? `1 ${inSentence(definition.label)} was` : `${result.ids.length} ${plural} were`} imported`
      + (skipped ? `; ${skipped === 1 ? '1 row with errors was' : `${skipped} rows with errors were`} left out.` : '.');
    return reply.status(201).send({ data: await importStatus(ctx, definition.name, result.id), message });
  });

  app.get(`${base}/:id`, {
    config: { auth: 'app', permission },
    schema: { tags, summary: `How an import of ${plural} is going (its invitations)`, params: z.object({ id: idQuery() }), response: { 200: dataResponse(importStatusSchema) } },
  }, async (request) => ({ data: await importStatus(contextOf(request), definition.name, request.params.id) }));
}

/** An import as its screen follows it; only its author sees it. */
async function importStatus(ctx: ResourceContext, resource: string, id: number) {
  const [row] = await ctx.db.select({
    id: imports.id, resource: imports.resource, mode: imports.mode, rows_total: imports.rows_total, rows_imported: imports.rows_imported,
    invitations_total: imports.invitations_total, invitations_sent: imports.invitations_sent,
    invitations_done_at: imports.invitations_done_at, created_at: imports.created_at,
  }).from(imports).where(and(eq(imports.id, id), eq(imports.resource, resource), eq(imports.created_by, ctx.account.id)));
  if (!row) throw new HttpError(404, 'Import not found.');
  return { ...row, invitations_done_at: row.invitations_done_at?.toISOString() ?? null, created_at: row.created_at.toISOString() };
}

// Issue 22: records in bulk from a CSV or XLSX file, for any definition that declares an `importer`
// (docs/resources.md "Importer"). Three routes beside the definition's own, all under its add
// permission: a template to fill in, a preview that checks every row and writes nothing, and the
// import itself (every row in one transaction, refused while any row has errors; or only the valid
// rows). Rows are checked against the same schema and hooks a create uses, and every record written
// is audited like a create, in bulk.
import { parse as parseCsv } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { imports } from '../db/schema/imports';
import { HttpError, validationError } from '../plugins/errors';
import { inTransaction } from '../lib/transaction';
import {
  type FieldDefinition, IMPORT_LIST_SEPARATOR, idQuery, type ImportColumn, MAX_IMPORT_ROWS, type ResourceDefinition,
} from '../../shared/resources/define';
import { recordChanges, rowChanges } from './audit';
import type { ResourceContext, ResourceOptions, WriteContext } from './types';
import type { Row } from './types';
import { importPreviewSchema, importStatusSchema, importTemplateDownload } from '../../shared/schemas/import';
import { dataResponse, savedResponse } from '../../shared/schemas/responses';

type Input = Record<string, unknown>;

/** The most bytes an import file may have (5,000 people are about 1 MB of CSV). */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
/** Rows per INSERT: well under PostgreSQL's 65,535 parameters for the widest table. */
const INSERT_CHUNK = 500;

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

// ---- Reading files ----

/** The file's cells as text, by row; the first row is the headings. Empty rows are skipped. */
export async function readImportFile(name: string, data: Buffer): Promise<{ headers: string[]; rows: { row: number; cells: string[] }[] }> {
  const extension = name.toLowerCase().split('.').pop();
  let table: { row: number; cells: string[] }[];
  if (extension === 'xlsx') {
    const workbook = new ExcelJS.Workbook();
    try {
      await workbook.xlsx.load(data as unknown as ArrayBuffer);
    } catch {
      throw validationError({ file: 'This file could not be read as an XLSX workbook. Save it again from your spreadsheet program, or as CSV.' });
    }
    const sheet = workbook.worksheets[0];
    if (!sheet) throw validationError({ file: 'The workbook has no sheet.' });
    table = [];
    sheet.eachRow({ includeEmpty: false }, (row, number) => {
      const cells: string[] = [];
      row.eachCell({ includeEmpty: true }, (cell, column) => { cells[column - 1] = cellText(cell.value); });
      table.push({ row: number, cells: Array.from(cells, (cell) => cell ?? '') });
    });
  } else if (extension === 'csv') {
    let records: string[][];
    try {
      records = parseCsv(data, { bom: true, relax_column_count: true, skip_empty_lines: false, trim: false }) as string[][];
    } catch (error) {
      throw validationError({ file: `This file could not be read as CSV: ${(error as Error).message.slice(0, 200)}` });
    }
    table = records.map((cells, index) => ({ row: index + 1, cells }));
  } else {
    throw validationError({ file: 'Choose a CSV or XLSX file.' });
  }
  const nonEmpty = table.filter((line) => line.cells.some((cell) => String(cell ?? '').trim() !== ''));
  const [heading, ...rows] = nonEmpty;
  if (!heading) throw validationError({ file: 'The file is empty: it needs a heading row and at least one row of data.' });
  if (!rows.length) throw validationError({ file: 'The file has headings but no rows to import.' });
  if (rows.length > MAX_IMPORT_ROWS) throw validationError({ file: `The file has ${rows.length} rows; import at most ${MAX_IMPORT_ROWS} at a time.` });
  return { headers: heading.cells.map((cell) => String(cell ?? '').trim()), rows };
}

/** A spreadsheet cell as the text a person sees: dates as YYYY-MM-DD, links and rich text by their text. */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('text' in value) return cellText(value.text as ExcelJS.CellValue);
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
    if ('error' in value) return '';
  }
  return String(value);
}

/** The template: the headings and one example row, as CSV or as an XLSX workbook. */
export async function importTemplate(definition: ResourceDefinition, format: 'csv' | 'xlsx'): Promise<Buffer> {
  const { columns, example } = definition.importer!;
  const headers = columns.map((column) => column.header);
  const values = headers.map((header) => example[header] ?? '');
  if (format === 'csv') {
    const line = (cells: string[]) => cells.map((cell) => (/[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell)).join(',');
    return Buffer.from(`${line(headers)}\r\n${line(values)}\r\n`, 'utf8');
  }
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(definition.pluralLabel);
  sheet.addRow(headers).font = { bold: true };
  sheet.addRow(values);
  sheet.columns.forEach((column) => { column.width = 22; });
  // Dates and IDs stay text, so a spreadsheet does not turn 2026-01-05 into a serial number or drop a leading zero.
  for (const [index, column] of columns.entries()) {
    const field = definition.fields[column.field];
    if (field.input === 'date' || field.input === 'text') sheet.getColumn(index + 1).numFmt = '@';
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

// ---- Checking rows ----

interface Candidate { id: number; label: string; depends: Record<string, unknown> }

/**
 * The records a reference column may name, loaded once per import (never one query per row): by the
 * referenced label (or `matchBy`), lower-cased.
 */
async function loadCandidates(machinery: ImporterMachinery, ctx: ResourceContext, field: FieldDefinition, column: ImportColumn): Promise<Map<string, Candidate[]>> {
  const reference = field.reference!;
  const target = machinery.target(reference.resource);
  if (!target) throw new Error(`import: ${reference.resource} is not registered`);
  const labelColumn = target.columns[column.matchBy ?? reference.labelKey];
  // dependsOn (a city within the row's country), and the country as a tie-break for a place named twice.
  const dependsKeys = [...new Set([...Object.values(reference.dependsOn ?? {}), ...(target.columns.country_id ? ['country_id'] : [])])];
  const selection: Record<string, PgColumn> = { id: target.columns.id, label: labelColumn };
  for (const key of dependsKeys) selection[key] = target.columns[key];
  const rows = await ctx.db.select(selection).from(target.table).where(target.scope(ctx)) as Row[];
  const byLabel = new Map<string, Candidate[]>();
  for (const row of rows) {
    const key = String(row.label ?? '').trim().toLowerCase();
    const list = byLabel.get(key) ?? [];
    list.push({ id: row.id as number, label: String(row.label), depends: Object.fromEntries(dependsKeys.map((k) => [k, row[k]])) });
    byLabel.set(key, list);
  }
  return byLabel;
}

const what = (field: FieldDefinition) => field.label.toLowerCase();

/** One cell -> the payload's value, or an error in words; undefined leaves the field out (empty). */
function convertCell(
  field: FieldDefinition, column: ImportColumn, text: string, input: Input, candidates: Map<string, Candidate[]> | undefined,
): { value?: unknown; error?: string } {
  if (text === '') return field.input === 'multiselect' || field.input === 'list' ? { value: [] } : {};
  switch (field.input) {
    case 'number': {
      const number = Number(text.replace(',', '.'));
      return Number.isFinite(number) ? { value: number } : { error: `The ${what(field)} must be a number; the file says "${text}".` };
    }
    case 'boolean':
      if (/^(yes|true|1)$/i.test(text)) return { value: true };
      if (/^(no|false|0)$/i.test(text)) return { value: false };
      return { error: `The ${what(field)} must be yes or no; the file says "${text}".` };
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(text) ? { value: text } : { error: `The ${what(field)} must be a date written YYYY-MM-DD; the file says "${text}".` };
    case 'select': {
      const option = field.options?.find((o) => o.label.toLowerCase() === text.toLowerCase() || String(o.value).toLowerCase() === text.toLowerCase());
      if (option) return { value: option.value };
      if (field.options) return { error: `Unknown ${what(field)} "${text}". Use one of: ${field.options.map((o) => o.label).join(', ')}.` };
      return { value: text };
    }
    case 'list':
      return { value: text.split(IMPORT_LIST_SEPARATOR).map((item) => item.trim()).filter(Boolean) };
    case 'reference':
    case 'multiselect': {
      if (!field.reference || !candidates) return { value: text };
      const names = field.input === 'multiselect' ? text.split(IMPORT_LIST_SEPARATOR).map((item) => item.trim()).filter(Boolean) : [text];
      const ids: number[] = [];
      for (const name of names) {
        const found = pickCandidate(field, column, name, input, candidates);
        if (typeof found === 'string') return { error: found };
        ids.push(found);
      }
      return { value: field.input === 'multiselect' ? ids : ids[0] };
    }
    default:
      return { value: text };
  }
}

function pickCandidate(field: FieldDefinition, column: ImportColumn, name: string, input: Input, candidates: Map<string, Candidate[]>): number | string {
  let found = candidates.get(name.toLowerCase()) ?? [];
  // A city within the row's country (dependsOn), or the country telling two places of one name apart.
  const dependsOn = { ...(field.reference!.dependsOn ?? {}), ...(found.length > 1 ? { country_id: 'country_id' } : {}) };
  for (const [targetKey, ownKey] of Object.entries(dependsOn)) {
    const own = input[ownKey];
    if (own !== undefined && own !== null && found.some((c) => targetKey in c.depends)) found = found.filter((c) => c.depends[targetKey] === own);
  }
  if (found.length === 1) return found[0].id;
  const label = what(field);
  if (found.length > 1) return `More than one ${label} is called "${name}"; add the country to tell them apart.`;
  if (column.matchBy === 'email') return `Unknown ${label}: nobody who can be a ${label} has the email ${name}.`;
  const within = Object.values(field.reference!.dependsOn ?? {}).some((key) => input[key] !== undefined && input[key] !== null)
    ? ' in the given country' : '';
  return `Unknown ${label} "${name}"${within}.`;
}

/**
 * Every row checked as a create would check it, plus what only a file has: a value given twice in
 * it. Nothing is written. The file's columns are matched to the importer's by heading, whatever
 * their case and order.
 */
export async function checkImportRows(
  machinery: ImporterMachinery, definition: ResourceDefinition, ctx: ResourceContext,
  file: { headers: string[]; rows: { row: number; cells: string[] }[] }, prepared: unknown,
): Promise<CheckedRow[]> {
  const importer = definition.importer!;
  const { options } = machinery;
  const position = new Map(file.headers.map((header, index) => [header.toLowerCase(), index]));
  const used = importer.columns.filter((column) => position.has(column.header.toLowerCase()));
  const requiredMissing = importer.columns.filter((column) => !position.has(column.header.toLowerCase())
    && !(definition.schema.shape[column.field] as z.ZodType | undefined)?.safeParse(undefined).success && !(column.field in (importer.defaults ?? {})));
  if (requiredMissing.length) {
    throw validationError({ file: `The file has no ${requiredMissing.map((c) => c.header).join(', ')} column${requiredMissing.length > 1 ? 's' : ''}. Start from the template.` });
  }
  const candidates = new Map<string, Map<string, Candidate[]>>();
  for (const column of used) {
    const field = definition.fields[column.field];
    if (field.reference && (field.input === 'reference' || field.input === 'multiselect')) {
      candidates.set(column.field, await loadCandidates(machinery, ctx, field, column));
    }
  }
  const headerOf = (field: string) => importer.columns.find((c) => c.field === field)?.header ?? definition.fields[field]?.label ?? null;
  // References a later column depends on (the country of a city) are converted first.
  const ordered = [...used].sort((a, b) => Number(!!definition.fields[a.field].reference?.dependsOn) - Number(!!definition.fields[b.field].reference?.dependsOn));
  const beforeCreate = importBeforeCreate(options);
  const checked: CheckedRow[] = [];
  for (const line of file.rows) {
    const values: Record<string, string> = {};
    for (const column of importer.columns) {
      const index = position.get(column.header.toLowerCase());
      values[column.header] = index === undefined ? '' : String(line.cells[index] ?? '').trim();
    }
    const errors: ImportError[] = [];
    const input: Input = { ...importer.defaults };
    for (const column of ordered) {
      const converted = convertCell(definition.fields[column.field], column, values[column.header], input, candidates.get(column.field));
      if (converted.error) errors.push({ column: column.header, message: converted.error });
      else if (converted.value !== undefined) input[column.field] = converted.value;
    }
    const parsed = definition.schema.safeParse(input);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const column = headerOf(String(issue.path[0] ?? ''));
        // A cell already refused above is not refused twice.
        if (!errors.some((e) => e.column === column)) errors.push({ column, message: issue.message });
      }
    }
    checked.push({ row: line.row, values, errors, input: parsed.success ? parsed.data as Input : null });
  }
  await checkUnique(machinery, definition, ctx, checked, headerOf);
  // The resource's own rules (a city in its country, a correct answer among the options, the roles
  // the caller may give), row by row, on rows that passed the rest.
  for (const row of checked) {
    if (row.errors.length || !row.input) continue;
    try {
      await beforeCreate(storedValuesOf(machinery, definition, row.input), row.input, ctx, prepared);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      if (error.statusCode !== 422 || !error.errors) throw error;
      for (const [field, messages] of Object.entries(error.errors)) {
        for (const message of messages) row.errors.push({ column: headerOf(field), message });
      }
    }
  }
  for (const row of checked) if (row.errors.length) row.input = null;
  return checked;
}

/** A unique value (an email, an employee ID) given twice in the file, or already taken in the database. */
async function checkUnique(machinery: ImporterMachinery, definition: ResourceDefinition, ctx: ResourceContext, rows: CheckedRow[], headerOf: (field: string) => string | null) {
  for (const key of machinery.options.unique ?? []) {
    const header = headerOf(key);
    if (!definition.importer!.columns.some((c) => c.field === key)) continue;
    const label = what(definition.fields[key]);
    const firstRow = new Map<string, number>();
    for (const row of rows) {
      const value = row.input?.[key] ?? null;
      if (typeof value !== 'string' || !value) continue;
      const lower = value.toLowerCase();
      const first = firstRow.get(lower);
      if (first !== undefined) row.errors.push({ column: header, message: `The ${label} ${value} is also on row ${first} of the file.` });
      else firstRow.set(lower, row.row);
    }
    const values = [...firstRow.keys()];
    const column = machinery.columns[key];
    const taken = new Set<string>();
    for (let i = 0; i < values.length; i += 1000) {
      const found = await ctx.db.select({ value: sql<string>`lower(${column})` }).from(machinery.options.table)
        .where(sql`lower(${column}) in ${values.slice(i, i + 1000)}`);
      for (const row of found) taken.add(row.value);
    }
    for (const row of rows) {
      const value = row.input?.[key];
      if (typeof value === 'string' && taken.has(value.toLowerCase())) {
        row.errors.push({ column: header, message: `The ${label} ${value} has already been taken.` });
      }
    }
  }
}

/** Only the table's own columns are stored; the rest (role_ids) is for the hooks. */
function storedValuesOf(machinery: ImporterMachinery, definition: ResourceDefinition, input: Input): Input {
  return Object.fromEntries(Object.entries(input).filter(([key]) => key in machinery.columns && key in definition.schema.shape));
}

/**
 * Each row's create hook: the import's own, or the create's. A preview checks rows outside any
 * transaction, so a create hook the import shares must not depend on one (the people import gives
 * its own).
 */
function importBeforeCreate(options: ResourceOptions) {
  return options.importHooks?.beforeCreate
    ?? ((values: Input, input: Input, context: ResourceContext) => options.beforeCreate?.(values, input, context as WriteContext) ?? values);
}

// ---- Writing ----

/**
 * Inserts the rows in chunks, in the caller's transaction, then audits them as creates (one
 * insert per chunk, the entries built from the saved rows as a create's are) and hands them to the
 * afterCreate hook. Returns the new ids in file order.
 */
async function insertRows(machinery: ImporterMachinery, definition: ResourceDefinition, ctx: ResourceContext, rows: CheckedRow[], prepared: unknown, importId: number): Promise<number[]> {
  const { options } = machinery;
  const beforeCreate = importBeforeCreate(options);
  const created: { id: number; input: Input }[] = [];
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const chunk = rows.slice(i, i + INSERT_CHUNK);
    const values: Input[] = [];
    for (const row of chunk) values.push(await beforeCreate(storedValuesOf(machinery, definition, row.input!), row.input!, ctx, prepared));
    const ids = await ctx.db.insert(options.table).values(values as never).returning({ id: machinery.columns.id });
    ids.forEach(({ id }, index) => created.push({ id: id as number, input: chunk[index].input! }));
  }
  await options.importHooks?.afterCreate?.(created, ctx, importId);
  for (let i = 0; i < created.length; i += INSERT_CHUNK) {
    const saved = await machinery.rowsOf(ctx, created.slice(i, i + INSERT_CHUNK).map((c) => c.id));
    await recordChanges(ctx.db, saved.map((row) => ({
      account: ctx.account, action: 'create' as const, resource: definition.name, recordId: row.id as number,
      title: row[definition.titleKey] === undefined ? null : String(row[definition.titleKey] ?? ''),
      changes: rowChanges(definition, null, row, options.auditText),
    })));
  }
  return created.map((c) => c.id);
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

/** A preview row as the screen shows it: its number, its cells and its errors. */
const previewRow = (row: CheckedRow) => ({ row: row.row, values: row.values, errors: row.errors });

export function registerImporter(parent: FastifyInstance, definition: ResourceDefinition, machinery: ImporterMachinery, contextOf: (request: FastifyRequest) => ResourceContext) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const permission = definition.permissions.add!;
  const base = `/import/${definition.name}`;
  const tags = [definition.label];
  const plural = definition.pluralLabel.toLowerCase();

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
    const result = await inTransaction(parent, async (tx) => {
      const writeCtx = { ...ctx, db: tx.db, tx };
      const [record] = await tx.db.insert(imports).values({
        resource: definition.name, created_by: ctx.account.id, mode: mode.data, rows_total: rows.length, rows_imported: valid.length, record_ids: [],
      }).returning({ id: imports.id });
      const ids = await insertRows(machinery, definition, writeCtx, valid, prepared, record.id);
      await tx.db.update(imports).set({ record_ids: ids }).where(eq(imports.id, record.id));
      return { id: record.id, ids };
    }).catch((error: unknown) => {
      // A value taken meanwhile by someone else (the unique index): the file is checked again by the admin.
      const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
      if (code === '23505') throw new HttpError(409, 'Someone added a record with the same details while the file was imported. Nothing was imported; check the file again.');
      throw error;
    });
    const skipped = rows.length - valid.length;
    const message = `${result.ids.length === 1 ? `1 ${definition.label.toLowerCase()} was` : `${result.ids.length} ${plural} were`} imported`
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

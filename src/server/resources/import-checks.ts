// Issue 22, the importer's checks (importer.ts): every row of a file checked as a create would check
// it, references matched by label with the candidates loaded once per import. Nothing is written.
import type { z } from 'zod';
import { HttpError, validationError } from '../plugins/errors';
import { chosenNoun, type FieldDefinition, IMPORT_LIST_SEPARATOR, type ImportColumn, type ResourceDefinition } from '../../shared/resources/define';
import { resourceDefinitions } from '../../shared/resources/registry';
import type { CheckedRow, ImporterMachinery, ImportError } from './importer';
import { checkUnique, importBeforeCreate, storedValuesOf } from './import-writes';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { ResourceContext, Row } from './types';
import { inSentence } from '../../shared/words';

type Input = Record<string, unknown>;

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

export const what = (field: FieldDefinition) => inSentence(field.label);

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

/** One choice of a list field, as a name in the file is one: "Unknown role", never "Unknown roles". */
function oneOfSeveral(field: FieldDefinition): string {
  const target = resourceDefinitions.find((definition) => definition.name === field.reference!.resource);
  return target ? chosenNoun(target).one : what(field);
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
  const label = field.input === 'multiselect' ? oneOfSeveral(field) : what(field);
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

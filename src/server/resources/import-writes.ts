// Issue 22, the importer's writes (importer.ts): what only a file can get wrong (a unique value given
// twice), the values a row stores, and the rows inserted in chunks and audited as creates.
import { sql } from 'drizzle-orm';
import type { ResourceDefinition } from '../../shared/resources/define';
import { recordChanges, rowChanges } from './audit';
import type { CheckedRow, ImporterMachinery } from './importer';
import { what } from './import-checks';
import type { ResourceContext, ResourceOptions, WriteContext } from './types';

type Input = Record<string, unknown>;

/** Rows per INSERT: well under PostgreSQL's 65,535 parameters for the widest table. */
const INSERT_CHUNK = 500;

export async function checkUnique(machinery: ImporterMachinery, definition: ResourceDefinition, ctx: ResourceContext, rows: CheckedRow[], headerOf: (field: string) => string | null) {
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
export function storedValuesOf(machinery: ImporterMachinery, definition: ResourceDefinition, input: Input): Input {
  return Object.fromEntries(Object.entries(input).filter(([key]) => key in machinery.columns && key in definition.schema.shape));
}

/**
 * Each row's create hook: the import's own, or the create's. A preview checks rows outside any
 * transaction, so a create hook the import shares must not depend on one (the people import gives
 * its own).
 */
export function importBeforeCreate(options: ResourceOptions) {
  return options.importHooks?.beforeCreate
    ?? ((values: Input, input: Input, context: ResourceContext) => options.beforeCreate?.(values, input, context as WriteContext) ?? values);
}

/**
 * Inserts the rows in chunks, in the caller's transaction, then audits them as creates (one
 * insert per chunk, the entries built from the saved rows as a create's are) and hands them to the
 * afterCreate hook. Returns the new ids in file order.
 */
export async function insertRows(machinery: ImporterMachinery, definition: ResourceDefinition, ctx: ResourceContext, rows: CheckedRow[], prepared: unknown, importId: number): Promise<number[]> {
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

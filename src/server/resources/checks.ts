// What a write checks against the database before and while it saves (CONVENTIONS "Schemas"):
// references that exist, unique values, records still in use, and constraint errors nobody foresaw.
import { and, count, eq, inArray, is, ne, SQL, sql } from 'drizzle-orm';
import { getTableConfig, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import { HttpError, validationError } from '../plugins/errors';
import { referenceRefusal, type ResourceDefinition } from '../../shared/resources/define';
import { scopeOf } from './queries';
import type { Input, RegisteredResource, ResourceContext, Row } from './types';
import { capitalised, inSentence, withArticle } from '../../shared/words';

/** Only the table's own columns are stored; the rest (role_ids) is for the hooks. */
export function storedValues(resource: RegisteredResource, input: Input): Input {
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
export async function checkInput(resource: RegisteredResource, input: Input, ctx: ResourceContext, id?: number) {
  const errors: Record<string, string> = {};
  for (const [key, field] of Object.entries(resource.definition.fields)) {
    const value = input[key];
    if (!field.reference || value === null || value === undefined) continue;
    const target = resource.registry.get(field.reference.resource);
    if (!target) continue;
    const ids = [...new Set(Array.isArray(value) ? value as number[] : [value as number])];
    if (!ids.length) continue;
    const [{ found }] = await ctx.db.select({ found: count() }).from(target.table)
      .where(and(inArray(target.columns.id, ids), scopeOf(target, ctx)));
    // Written about what was chosen, not the field's label (decision 060): "Assign To" is no noun.
    if (found !== ids.length) errors[key] = referenceRefusal(target.definition, Array.isArray(value));
  }
  for (const key of resource.unique ?? []) {
    const value = input[key];
    if (typeof value !== 'string' || errors[key]) continue;
    const [taken] = await ctx.db.select({ id: resource.columns.id }).from(resource.table)
      .where(and(sql`lower(${resource.columns[key]}) = ${value.toLowerCase()}`, id ? ne(resource.columns.id, id) : undefined)).limit(1);
    if (taken) errors[key] = `The ${inSentence(resource.definition.fields[key].label)} has already been taken.`;
  }
  if (Object.keys(errors).length) throw validationError(errors);
}

/**
 * Why a record cannot be deleted: rows of any registered table whose foreign key points at it
 * without ON DELETE SET NULL / CASCADE, then the resource's own reasons.
 */
export async function inUseReason(resource: RegisteredResource, existing: Row, ctx: ResourceContext): Promise<string | null> {
  const seen = new Set<PgTable>();
  for (const other of resource.registry.values()) {
    if (seen.has(other.table)) continue;
    seen.add(other.table);
    const config = getTableConfig(other.table);
    for (const foreignKey of config.foreignKeys) {
      const reference = foreignKey.reference();
      if (reference.foreignTable !== resource.table || ['set null', 'cascade'].includes(foreignKey.onDelete ?? '')) continue;
      const [{ used }] = await ctx.db.select({ used: count() }).from(other.table).where(eq(reference.columns[0], existing.id as number));
      if (used > 0) {
        const what = inSentence(usersOf(other, resource.registry, used));
        return `This ${inSentence(resource.definition.label)} cannot be deleted because ${used} ${what} ${used === 1 ? 'uses' : 'use'} it.`;
      }
    }
  }
  return resource.inUse ? resource.inUse(existing, ctx) : null;
}

/**
 * What uses a record, in the words of the list that holds them ("2 time sheets", "1 document
 * assignment"); a table several lists share (the people's, one list per account type) by its name.
 */
function usersOf(other: RegisteredResource, registry: ReadonlyMap<string, RegisteredResource>, used: number): string {
  const sharing = [...registry.values()].filter((candidate) => candidate.table === other.table).length;
  if (sharing === 1) return used === 1 ? other.definition.label : other.definition.pluralLabel;
  const words = getTableConfig(other.table).name.replaceAll('_', ' ');
  return used === 1 ? singular(words) : words;
}

const singular = (plural: string) => plural.replace(/ies$/, 'y').replace(/(ss|x|ch|sh)es$/, '$1').replace(/s$/, '');

/** Constraint errors the checks above did not foresee (a concurrent change): a clear 4xx, never a 500. */
export function databaseError(error: unknown, definition: ResourceDefinition): unknown {
  const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  if (code === '23503') return new HttpError(409, `This ${inSentence(definition.label)} is in use or refers to a record that no longer exists.`);
  if (code === '23505') return new HttpError(409, `${capitalised(withArticle(inSentence(definition.label)))} with these details already exists.`);
  return error;
}

// A boolean filter over a computed value is the value itself ('true') or its negation ('false'), not a
// comparison with a parameter: PostgreSQL turns `exists (…)` into a semi join that starts from the
// subquery's index, but evaluates `exists (…) = $1` per row of the list (issue 27, the dashboard's
// onboardings with an overdue task). A column keeps its comparison.
import { sql } from 'drizzle-orm';
import { PgDialect, boolean, integer, pgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { listWhere } from '../../src/server/resources/queries';
import type { RegisteredResource, ResourceContext } from '../../src/server/resources/types';

const things = pgTable('things', { id: integer('id').primaryKey(), active: boolean('active') });
const late = pgTable('late', { thing_id: integer('thing_id') });
const resource = {
  definition: { name: 'thing', search: [], filters: [{ key: 'active', label: 'Active', type: 'boolean' }, { key: 'is_late', label: 'Late', type: 'boolean' }] },
  columns: things,
  computed: { is_late: sql<boolean>`exists (select 1 from ${late} where ${late.thing_id} = ${things.id})` },
} as unknown as RegisteredResource;
const ctx = { area: 'app' } as unknown as ResourceContext;
const rendered = (query: Record<string, string>) => {
  const { sql: text, params } = new PgDialect().sqlToQuery(listWhere(resource, query, ctx)!);
  return { sql: text, params };
};

describe('a boolean filter', () => {
  it('over a computed value is the expression itself, or its negation', () => {
    expect(rendered({ is_late: 'true' })).toEqual({ sql: '(exists (select 1 from "late" where "late"."thing_id" = "things"."id"))', params: [] });
    expect(rendered({ is_late: '1' }).sql).toBe('(exists (select 1 from "late" where "late"."thing_id" = "things"."id"))');
    expect(rendered({ is_late: 'false' })).toEqual({ sql: 'not (exists (select 1 from "late" where "late"."thing_id" = "things"."id"))', params: [] });
  });

  it('over a column compares it with the value', () => {
    expect(rendered({ active: 'true' })).toEqual({ sql: '"things"."active" = $1', params: [true] });
    expect(rendered({ active: 'false' })).toEqual({ sql: '"things"."active" = $1', params: [false] });
  });
});

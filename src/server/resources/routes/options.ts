// GET /api/{name}/options: at most 50 `{id, label}` choices for a searchable select.
import { and, asc, eq } from 'drizzle-orm';
import type { ResourceDefinition } from '../../../shared/resources/define';
import { optionsPermission } from '../../../shared/resources/registry';
import { type ListQuery, listWhere } from '../queries';
import { contextOf } from '../types';
import { type OptionRow, optionsResponse } from '../../../shared/schemas/responses';
import type { Served } from './served';

const OPTIONS_LIMIT = 50;

/** Its own view permission, or one of a form that picks from it (also for definitions outside the registry). */
function optionsPermissionOf(definition: ResourceDefinition): string {
  return [...new Set([definition.permissions.view, ...optionsPermission(definition.name).split('|')].filter(Boolean))].join('|');
}

export function optionsRoute({ app, resource, area, base, permissions, tags }: Served) {
  const { definition, table } = resource;
  app.get(`${base}/options`, {
    config: { auth: area, permission: area === 'app' ? optionsPermissionOf(definition) : permissions.view },
    schema: { tags, summary: `${definition.label} choices for a searchable select`, querystring: definition.listQuerySchema, response: { 200: optionsResponse } },
  }, async (request) => {
    const ctx = contextOf(request);
    const query = request.query as ListQuery;
    // The title may be computed (an engineer's name, from the users table).
    const title = resource.computed?.[definition.titleKey] ?? resource.columns[definition.titleKey];
    // A select offers active records only; a record already pointing at an inactive one still shows it (the row's relation).
    const isActiveOnly = definition.fields.status?.options?.some((o) => o.value === 'active') && resource.columns.status;
    const where = and(listWhere(resource, query, ctx), resource.optionsScope?.(ctx), isActiveOnly ? eq(resource.columns.status, 'active') : undefined);
    const rows = await ctx.db.select({ id: resource.columns.id, label: title }).from(table).where(where)
      .orderBy(asc(title), asc(resource.columns.id)).limit(OPTIONS_LIMIT);
    return { data: rows as OptionRow[] };
  });
}

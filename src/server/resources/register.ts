// Turns a shared resource definition + a drizzle table into its routes (docs/resources.md): list,
// show, create, update, delete, CSV export, options, files and a workflow's transitions, each in its
// file under routes/. Behaviour beyond CRUD plugs in through hooks (types.ts); the generic code is
// written once. Routes beside the generic ones read the same lists through the helpers below.
import { asc, count, inArray, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { registerImporter } from './importer';
import { findRow, type ListQuery, listWhere, orderBy, scopeOf, selectRows } from './queries';
import { addResource, registeredResource } from './registry';
import { exportRoute } from './routes/export';
import { fileRoute } from './routes/files';
import { listRoute } from './routes/list';
import { optionsRoute } from './routes/options';
import { hasFiles, type Served } from './routes/served';
import { showRoutes } from './routes/show';
import { transitionRoutes } from './routes/transitions';
import { writeRoutes } from './routes/write';
import { resourceResponses } from '../../shared/schemas/resource';
import { type Area, contextOf, type RegisteredResource, type ResourceContext, type ResourceOptions, type Row } from './types';

export type { Area, ResourceContext, ResourceOptions, Row, WriteContext } from './types';
export { registeredResources } from './registry';
export { searchExpression } from './queries';

/** The routes of one area: the main application at /api/{name}, a partner-owned definition's portal at /api/partner/{segment}. */
function serve(app: Served['app'], resource: RegisteredResource, area: Area) {
  const { definition } = resource;
  // On the portal, with the partner role's permissions and every query scoped to the caller's firm (scopeOf).
  const served: Served = {
    app, resource, area,
    base: area === 'app' ? `/${definition.name}` : `/partner/${definition.owner!.segment}`,
    permissions: area === 'app' ? definition.permissions : definition.owner!.permissions,
    tags: [area === 'app' ? definition.label : `Partner portal: ${definition.pluralLabel}`],
    responses: resourceResponses(definition),
  };
  listRoute(served);
  exportRoute(served);
  optionsRoute(served);
  showRoutes(served);
  writeRoutes(served);
  if (hasFiles(resource)) fileRoute(served);
  transitionRoutes(served);
}

export function registerResource<T extends PgTable>(parent: FastifyInstance, options: ResourceOptions<T>) {
  const resource = addResource(parent, options);
  const { definition, columns } = resource;
  const app = parent.withTypeProvider<ZodTypeProvider>();
  serve(app, resource, 'app');
  if (definition.owner) serve(app, resource, 'partner');
  if (!definition.importer || !definition.permissions.add) return;
  // A create hook that must run once per record after it exists cannot be repeated in bulk unseen.
  if (resource.afterCreate && !resource.importHooks?.afterCreate) throw new Error(`${definition.name}: an importer with afterCreate declares importHooks.afterCreate`);
  registerImporter(parent, definition, {
    options: resource,
    columns,
    target: (name) => {
      const target = resource.registry.get(name);
      return target && { table: target.table, columns: target.columns, scope: (ctx) => scopeOf(target, ctx) };
    },
    // One text per number of ids: not worth a prepared statement each.
    rowsOf: (ctx, ids) => selectRows(resource, ctx, inArray(columns.id, ids), [asc(columns.id)], ids.length, 0, false),
  }, contextOf);
}

/**
 * The where clause of `GET /api/{name}` for this request's query and account (scope, search,
 * filters), for routes that summarise the same list (totals above it). The query must have been
 * validated with the definition's listQuerySchema; or `query`, a list's filters given here (a dashboard
 * figure that sums the list behind its link).
 */
export function resourceListWhere(name: string, request: FastifyRequest, query = request.query as ListQuery): SQL | undefined {
  return listWhere(registeredResource(request.server, name), query, contextOf(request));
}

/**
 * How many rows `GET /api/{name}?<query>` lists for this caller, by the same scope and filters: a
 * dashboard figure that counts it links to exactly that list. With `groupBy`, the count per value
 * of that column (a board's columns, a funnel's stages).
 */
export async function countResourceList(name: string, request: FastifyRequest, query: ListQuery): Promise<number>;
export async function countResourceList(name: string, request: FastifyRequest, query: ListQuery, groupBy: string): Promise<{ value: unknown; count: number }[]>;
export async function countResourceList(name: string, request: FastifyRequest, query: ListQuery, groupBy?: string) {
  const resource = registeredResource(request.server, name);
  const where = listWhere(resource, query, contextOf(request));
  if (!groupBy) {
    const [{ value }] = await request.server.db.select({ value: count() }).from(resource.table).where(where);
    return value;
  }
  const column = resource.columns[groupBy];
  return request.server.db.select({ value: column, count: count() }).from(resource.table).where(where).groupBy(column);
}

/**
 * The table and where clause of `GET /api/{name}?<query>` for this caller: what a figure counting that
 * list reads (the dashboard folds such counts into one statement, modules/dashboard/kept-counts.ts).
 */
export function resourceListSource(name: string, request: FastifyRequest, query: ListQuery): { table: PgTable; where: SQL | undefined } {
  const resource = registeredResource(request.server, name);
  return { table: resource.table, where: listWhere(resource, query, contextOf(request)) };
}

/**
 * The first rows of `GET /api/{name}?<query>` for this caller (sort and direction in the query, as the
 * list takes them): a dashboard panel's few rows, beside its "see all" count (resourceListSource).
 */
export async function resourceListRows(name: string, request: FastifyRequest, query: ListQuery, limit: number): Promise<Row[]> {
  const resource = registeredResource(request.server, name);
  const ctx = contextOf(request);
  return selectRows(resource, ctx, listWhere(resource, query, ctx), orderBy(resource, query), limit, 0);
}

/**
 * One record of a registered resource as its routes serialise it (references, files, transitions for
 * the caller), for routes beside the generic ones that answer with the record they wrote (a new PO).
 */
export async function resourceRow(name: string, ctx: ResourceContext, id: number): Promise<Row> {
  return findRow(registeredResource(ctx.app, name), ctx, id, false);
}

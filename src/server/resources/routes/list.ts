// GET /api/{name}: a page of the filtered, sorted list with Laravel's meta (docs/resources.md).
import { count } from 'drizzle-orm';
import { pageMeta } from '../../lib/list';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../../../shared/resources/define';
import { type ListQuery, listWhere, orderBy, searchTerm, selectPageWithTotal, selectRows } from '../queries';
import { readRows } from '../../db/named';
import { contextOf } from '../types';
import type { Served } from './served';
import { inSentence } from '../../../shared/words';

export function listRoute({ app, resource, area, base, permissions, tags, responses }: Served) {
  const { definition, table } = resource;
  app.get(base, {
    config: { auth: area, permission: permissions.view },
    schema: { tags, summary: `List ${inSentence(definition.pluralLabel)}`, querystring: definition.listQuerySchema, response: { 200: responses.list } },
  }, async (request) => {
    const ctx = contextOf(request);
    const query = request.query as ListQuery;
    const page = Number(query.page ?? 1);
    const perPage = Math.min(Number(query.per_page ?? DEFAULT_PER_PAGE), MAX_PER_PAGE);
    const where = listWhere(resource, query, ctx);
    const order = orderBy(resource, query);
    const offset = (page - 1) * perPage;
    const countRows = () => readRows(ctx.db, ctx.db.select({ total: count() }).from(table).where(where), { kind: 'list' }).then(([row]) => row.total);
    // Browsing a whole list (staff): the page comes from an index in order while the count reads
    // every row, so counting in the same query would make the page wait for the count. Side by side instead
    // (two pooled connections on PostgreSQL). A search, or a firm's own records on the partner
    // portal, matches few rows: one query returns the page and its total (docs/benchmarks.md
    // "Partner invoice list").
    if (!searchTerm(query) && area === 'app') {
      const [total, rows] = await Promise.all([countRows(), selectRows(resource, ctx, where, order, perPage, offset)]);
      return { data: rows, meta: pageMeta(request, page, perPage, total) };
    }
    // Only a page past the end, which has no row to carry the total, needs a separate count.
    const { rows, total } = await selectPageWithTotal(resource, ctx, where, order, perPage, offset);
    return { data: rows, meta: pageMeta(request, page, perPage, total ?? (offset > 0 ? await countRows() : 0)) };
  });
}

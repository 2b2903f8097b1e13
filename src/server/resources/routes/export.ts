// GET /api/{name}/export: the filtered, sorted list as CSV, every page, streamed.
import { Readable } from 'node:stream';
import { today } from '../../../shared/dates';
import { csvCell, displayValue, exportFields } from '../csv';
import { type ListQuery, listWhere, orderBy, selectRows } from '../queries';
import { contextOf, type Row } from '../types';
import { csvDownload } from '../../../shared/schemas/responses';
import type { Served } from './served';
import { inSentence } from '../../../shared/words';

const EXPORT_BATCH = 500;

export function exportRoute({ app, resource, area, base, permissions, tags }: Served) {
  const { definition } = resource;
  app.get(`${base}/export`, {
    config: { auth: area, permission: permissions.view },
    schema: { tags, summary: `Export the filtered ${inSentence(definition.pluralLabel)} as CSV`, querystring: definition.listQuerySchema, response: { 200: csvDownload } },
  }, async (request, reply) => {
    const ctx = contextOf(request);
    const query = request.query as ListQuery;
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
}

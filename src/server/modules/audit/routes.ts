// The admin's audit screen (issue 20): GET /api/audit-log lists every change across the product,
// filtered by person, resource, record, action and date; /export streams the same as CSV. Admins
// only: the admin account check the modules already use (user_type admin), not a permission a role
// could be given.
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pageMeta } from '../../lib/list';
import { csvCell } from '../../resources/csv';
import { contextOf } from '../../resources/types';
import { AUDIT_ACTIONS, auditPageResponse, auditQuerySchema } from '../../../shared/schemas/audit';
import { csvDownload, optionsResponse } from '../../../shared/schemas/responses';
import { auditExportBatches, auditLogPage, auditPeople } from './service';

const tags = ['Audit log'];

export function registerAuditRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  app.get('/audit-log', {
    config: { auth: 'app' },
    schema: { tags, summary: 'Changes across the product, newest first (admins only)', querystring: auditQuerySchema, response: { 200: auditPageResponse } },
  }, async (request) => {
    const { rows, total, isCapped, page, perPage } = await auditLogPage(contextOf(request), request.query);
    return { data: rows, meta: { ...pageMeta(request, page, perPage, total), is_total_capped: isCapped } };
  });

  // The person filter's choices: every staff account (admins, managers and users alike), by name or email.
  app.get('/audit-log/people', {
    config: { auth: 'app' },
    schema: { tags, summary: 'Staff accounts to filter the audit log by (admins only)', querystring: z.object({ search: z.string().max(100).optional() }),
      response: { 200: optionsResponse } },
  }, async (request) => ({ data: await auditPeople(contextOf(request), request.query.search) }));

  app.get('/audit-log/export', {
    config: { auth: 'app' },
    schema: { tags, summary: 'The filtered changes as CSV (admins only)', querystring: auditQuerySchema, response: { 200: csvDownload } },
  }, async (request, reply) => {
    const batches = auditExportBatches(contextOf(request), request.query);
    const actionLabel = (action: string) => AUDIT_ACTIONS.find((a) => a.value === action)?.label ?? action;
    const header = ['When (UTC)', 'Who', 'Account type', 'Action', 'Resource', 'Record', 'Record name', 'What changed', 'Changes'];
    // The first batch is read before a byte is sent, so a failing query answers with its status.
    const first = await batches.next();
    async function* csv() {
      yield `${header.map(csvCell).join(',')}\r\n`;
      for (let batch = first; !batch.done; batch = await batches.next()) {
        yield batch.value.map((entry) => `${[
          entry.created_at.replace('T', ' ').slice(0, 19), entry.actor?.name ?? '', entry.actor?.type === 'partner' ? 'Partner' : entry.actor ? 'Staff' : 'Public link',
          actionLabel(entry.action), entry.resource_label, entry.record_id ?? '', entry.record_title ?? '', entry.summary,
          entry.changes.map((c) => (c.is_secret ? `${c.label}: changed` : `${c.label}: ${c.old_text ?? '(empty)'} -> ${c.new_text ?? '(empty)'}`)).join('; '),
        ].map(csvCell).join(',')}\r\n`).join('');
      }
    }
    const date = new Date().toISOString().slice(0, 10);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="audit-log-${date}.csv"`)
      .send(Readable.from(csv()));
  });
}

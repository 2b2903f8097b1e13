// The admin's audit screen (issue 20): GET /api/audit-log lists every change across the product,
// filtered by person, resource, record, action and date; /export streams the same as CSV. Admins
// only: the admin account check the modules already use (user_type admin), not a permission a role
// could be given.
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { asc, sql } from 'drizzle-orm';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isAdminAccount } from '../../../shared/permissions';
import { users } from '../../db/schema/accounts';
import { pageMeta } from '../../lib/list';
import { forbidden, requireAccount } from '../../plugins/auth';
import { validationError } from '../../plugins/errors';
import { csvCell } from '../../resources/csv';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../../../shared/resources/define';
import { AUDIT_ACTIONS, type AuditQuery, auditPageResponse, auditQuerySchema } from '../../../shared/schemas/audit';
import { csvDownload, optionsResponse } from '../../../shared/schemas/responses';
import { AUDIT_COUNT_CAP, auditBatches, type AuditFilters, listAuditEntries } from './service';

const tags = ['Audit log'];

function requireAdmin(request: FastifyRequest) {
  const account = requireAccount(request);
  if (!isAdminAccount(account.user)) throw forbidden();
}

const filtersOf = (query: AuditQuery): AuditFilters => {
  if (query.created_at_from && query.created_at_to && query.created_at_from > query.created_at_to) {
    throw validationError({ created_at_to: 'The end date must be on or after the start date.' });
  }
  const { page: _page, per_page: _perPage, ...filters } = query;
  return filters;
};

export function registerAuditRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  app.get('/audit-log', {
    config: { auth: 'app' },
    schema: { tags, summary: 'Changes across the product, newest first (admins only)', querystring: auditQuerySchema, response: { 200: auditPageResponse } },
  }, async (request) => {
    requireAdmin(request);
    const filters = filtersOf(request.query);
    const page = request.query.page ?? 1;
    const perPage = Math.min(request.query.per_page ?? DEFAULT_PER_PAGE, MAX_PER_PAGE);
    // Pages stop where the count stops (AUDIT_COUNT_CAP): older changes are reached by narrowing the filters.
    if ((page - 1) * perPage >= AUDIT_COUNT_CAP) {
      throw validationError({ page: `Only the newest ${AUDIT_COUNT_CAP.toLocaleString('en')} changes are paged; narrow the filters or the dates to see older ones.` });
    }
    const { rows, total, isCapped } = await listAuditEntries(parent.db, filters, page, perPage);
    return { data: rows, meta: { ...pageMeta(request, page, perPage, total), is_total_capped: isCapped } };
  });

  // The person filter's choices: every staff account (admins, managers and users alike), by name or email.
  app.get('/audit-log/people', {
    config: { auth: 'app' },
    schema: { tags, summary: 'Staff accounts to filter the audit log by (admins only)', querystring: z.object({ search: z.string().max(100).optional() }),
      response: { 200: optionsResponse } },
  }, async (request) => {
    requireAdmin(request);
    const term = request.query.search?.trim().toLowerCase() ?? '';
    const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = await parent.db.select({ id: users.id, label: users.name }).from(users)
      .where(term ? sql`lower(${users.name} || ' ' || ${users.email}) like ${pattern}` : undefined)
      .orderBy(asc(users.name), asc(users.id)).limit(50);
    return { data: rows };
  });

  app.get('/audit-log/export', {
    config: { auth: 'app' },
    schema: { tags, summary: 'The filtered changes as CSV (admins only)', querystring: auditQuerySchema, response: { 200: csvDownload } },
  }, async (request, reply) => {
    requireAdmin(request);
    const filters = filtersOf(request.query);
    const actionLabel = (action: string) => AUDIT_ACTIONS.find((a) => a.value === action)?.label ?? action;
    const header = ['When (UTC)', 'Who', 'Account type', 'Action', 'Resource', 'Record', 'Record name', 'What changed', 'Changes'];
    const batches = auditBatches(parent.db, filters);
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

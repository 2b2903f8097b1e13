// The main application's dashboard (issue 13): per permission, what waits for the caller and how the
// firm's work stands. Every count is the count of a list the caller may open, taken with that list's
// own scope and filters (countResourceList), so a figure and the list it links to always agree; read
// from the counts kept by triggers where the condition allows (kept-counts.ts, decision 028).
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { jsonRows } from '../../db/scalar';
import { partnerInvoicePayments, partnerInvoices } from '../../db/schema/partner-billing';
import { requireAccount } from '../../plugins/auth';
import { countResourceList, resourceListRows, resourceListSource, resourceListWhere, type Row } from '../../resources/register';
import { addDays, daysBetween, today } from '../../../shared/dates';
import { BOARD_STAGES } from '../../../shared/resources/candidate';
import { contractWorkflow } from '../../../shared/resources/contract';
import { REQUEST_STATUSES } from '../../../shared/resources/request';
import { dealPipeline } from '../deal/service';
import { overdueOnboardingTasks, overdueOnboardingsOfEveryone } from '../onboarding/service';
import { hasPermission } from '../../../shared/permissions';
import { PREVIOUS_STATE, workflowState, type ResourceDefinition } from '../../../shared/resources/define';
import { resourceByName } from '../../../shared/resources/registry';
import { askedInBatch, countedByKeeping, countedInBatch } from './kept-counts';
import { keptInvoiceTotals } from './kept-invoice-totals';

type ListQuery = Record<string, string>;

/** countResourceList, answered from the kept counts when the list's condition reads only kept columns. */
export async function countFigure(name: string, request: FastifyRequest, query: ListQuery): Promise<number>;
export async function countFigure(name: string, request: FastifyRequest, query: ListQuery, groupBy: string): Promise<{ value: unknown; count: number }[]>;
export async function countFigure(name: string, request: FastifyRequest, query: ListQuery, groupBy?: string) {
  const { table, where } = resourceListSource(name, request, query);
  const kept = await countedByKeeping(request.server.db, name, where, groupBy, request);
  if (kept !== null) return kept;
  // Counted the old way, in the statement that reads the kept counts (one round trip for every figure).
  return groupBy ? countResourceList(name, request, query, groupBy) : countedInBatch(request.server.db, table, where, request);
}

/** A panel's first rows of a list and that list's count (its "see all"), the count asked with the other figures. */
async function listPanelPage(name: string, request: FastifyRequest, filters: ListQuery, order: ListQuery, limit: number): Promise<{ rows: Row[]; total: number }> {
  const [rows, total] = await Promise.all([resourceListRows(name, request, { ...filters, ...order }, limit), countFigure(name, request, filters)]);
  return { rows, total };
}

/** One line of "Waiting for you": a count and the filtered list it comes from. */
export interface WaitingItem { key: string; label: string; detail?: string; count: number; resource: string; query: Record<string, string> }

/** A figure per value of a field (requests by status, candidates by stage), in the order given. */
export interface Breakdown { resource: string; field: string; items: { value: string; label: string; count: number; query: Record<string, string> }[] }

/**
 * The lists whose records wait for a decision. A state waits for the caller when a forward transition
 * from it (not a rejection, a hold or an owner's own action) is one the caller's permissions allow.
 */
const decisionLists = ['leave-application', 'expense', 'time-sheet', 'pre-billing', 'partner-invoice', 'document-assign-history', 'bgv-check', 'request'];

/**
 * Lists whose steps anyone who sees a record may try, but only some may take: a request moves for its
 * assignee (their own lines below) or a coordinator. Without this, an engineer's own new request read
 * "waiting for you" while their home said it waits for the assignee.
 */
const deciders: Readonly<Record<string, string>> = { request: 'can-edit-request' };

export function waitingStates(definition: ResourceDefinition, permissions: readonly string[]): string[] {
  const workflow = definition.workflow;
  if (!workflow || !definition.filters?.some((filter) => filter.key === workflow.field)) return [];
  const states = new Set<string>();
  for (const transition of workflow.transitions) {
    const forward = (transition.tone ?? 'primary') === 'primary' && transition.to !== PREVIOUS_STATE && !transition.guards?.includes('ownRecord');
    if (forward && hasPermission(permissions, transition.permission)) for (const from of transition.from) states.add(from);
  }
  return [...states];
}

/** null when the caller may open none of the decision lists (no panel), else the non-zero lines. */
async function waitingForCaller(request: FastifyRequest): Promise<WaitingItem[] | null> {
  const account = requireAccount(request);
  const lists = decisionLists.filter((name) => resourceByName[name] && hasPermission(account.permissions, resourceByName[name].permissions.view));
  if (!lists.length) return null;
  const decided = lists.filter((name) => !deciders[name] || hasPermission(account.permissions, deciders[name]));
  const linesAsked = Promise.all(decided.map(async (name) => {
    const definition = resourceByName[name];
    return Promise.all(waitingStates(definition, account.permissions).map(async (state) => {
      const query = { [definition.workflow!.field]: state };
      const count = await countFigure(name, request, query).catch(() => 0);
      // The list over its records' step as people say it, not a state's label glued to the list's name.
      const { step, label } = workflowState(definition.workflow!, state);
      return { key: `${name}:${state}`, label: definition.pluralLabel, detail: step ?? label, count, resource: name, query };
    }));
  }));
  // What is the caller's own to do: assignments to read or return, requests assigned to them.
  const ownAsked = Promise.all(personalLines.map(async (line): Promise<WaitingItem | null> => {
    const definition = resourceByName[line.resource];
    if (!definition || !hasPermission(account.permissions, definition.permissions.view)) return null;
    const query: Record<string, string> = { ...line.query, [line.personField]: String(account.id) };
    return { key: line.key, label: line.label, ...(line.detail ? { detail: line.detail } : {}), count: await countFigure(line.resource, request, query), resource: line.resource, query };
  }));
  // Asked together, so their kept counts share one statement.
  const [lines, own] = await Promise.all([linesAsked, ownAsked]);
  return [...own.filter((item): item is WaitingItem => item !== null), ...lines.flat()].filter((item) => item.count > 0);
}

const personalLines: { key: string; label: string; detail?: string; resource: string; personField: string; query: Record<string, string> }[] = [
  { key: 'my-documents', label: 'Documents for you to read or return', resource: 'document-assign-history', personField: 'user_id', query: { status: 'pending' } },
  { key: 'my-returns-rejected', label: 'Returned copies to send again', resource: 'document-assign-history', personField: 'user_id', query: { status: 'rejected' } },
  { key: 'my-requests-new', label: 'Requests assigned to you', detail: 'Not started yet', resource: 'request', personField: 'assign_to', query: { status: 'Requested' } },
  { key: 'my-requests-started', label: 'Requests assigned to you', detail: 'In progress', resource: 'request', personField: 'assign_to', query: { status: 'Work in Progress' } },
];

/**
 * Approved, unpaid partner invoices: how many and how much is outstanding per currency (tax included,
 * less the payments recorded: issue 21), of the invoice list the caller may open (an account manager:
 * the firms they manage), as its link shows them.
 */
async function invoicesAwaitingPayment(request: FastifyRequest) {
  const account = requireAccount(request);
  if (!hasPermission(account.permissions, resourceByName['partner-invoice'].permissions.view)) return null;
  const query = { status: 'approved' };
  const where = resourceListWhere('partner-invoice', request, query);
  // Whoever sees the whole list reads the totals kept per state and currency (decision 054); a scoped
  // caller, invoiced per currency from the index on (status, currency, total) alone, less what was paid
  // on those invoices per currency: no subquery per invoice. Read with the figures, in their statement.
  const totals = await askedInBatch(request.server.db, keptInvoiceTotals(where) ?? sql`(select coalesce(json_agg(r order by r.currency), '[]'::json) from (with invoiced as (
      select ${partnerInvoices.currency} as currency, count(*)::int as count, sum(${partnerInvoices.total}) as total from ${partnerInvoices} where ${where} group by 1
    ), paid as (
      select ${partnerInvoices.currency} as currency, sum(p.amount) as amount from ${partnerInvoicePayments} p
      join ${partnerInvoices} on ${partnerInvoices.id} = p.invoice_id where ${where} group by 1
    )
    select i.currency, i.count, i.total - coalesce(paid.amount, 0) as total from invoiced i left join paid on paid.currency = i.currency) r)`, request);
  const rows = jsonRows<{ currency: string; count: number; total: string | number }>(totals).map((row) => ({ ...row, count: Number(row.count) }));
  return {
    count: rows.reduce((sum, row) => sum + row.count, 0),
    totals: rows.map((row) => ({ currency: row.currency, amount: Number(row.total) })),
    resource: 'partner-invoice', query,
  };
}

/** A panel of a few records (what expires, what is overdue) and the filtered list holding all of them. */
export interface DashboardList {
  key: string; title: string; description?: string; empty: string;
  items: { id: number; title: string; detail?: string; date?: string | null; badge?: { label: string; tone: 'red' | 'yellow' | 'green' | 'gray' } | null; resource: string }[];
  all?: { count: number; resource: string; query: Record<string, string>; label?: string };
}

export const EXPIRING_WITHIN_DAYS = 30;
const PANEL_ROWS = 5;

/** An expiry date as a badge: spec §5, on or before today is expired. */
export function expiryBadge(date: string, on = today()): { label: string; tone: 'red' | 'yellow' } {
  const days = daysBetween(on, date);
  return days <= 0 ? { label: 'Expired', tone: 'red' } : { label: `In ${days} day${days === 1 ? '' : 's'}`, tone: 'yellow' };
}

/** Documents (the caller's own, or everyone's for the repository's staff; library documents) expired or expiring soon. */
async function expiringDocuments(request: FastifyRequest): Promise<DashboardList | null> {
  const account = requireAccount(request);
  const on = today();
  // A document that expired long ago and was replaced since would stay here for ever: the panel looks
  // as far back as it looks ahead.
  const query = { expiry_date_from: addDays(on, -EXPIRING_WITHIN_DAYS), expiry_date_to: addDays(on, EXPIRING_WITHIN_DAYS) };
  const sources = ['document', 'document-repository'].filter((name) => hasPermission(account.permissions, resourceByName[name]?.permissions.view ?? '-'));
  if (!sources.length) return null;
  // "See all" opens the own documents: only their count is asked (the library's is not shown).
  const [pages, ownTotal] = await Promise.all([
    Promise.all(sources.map(async (name) => ({ name, rows: await resourceListRows(name, request, { ...query, sort: 'expiry_date', direction: 'asc' }, PANEL_ROWS) }))),
    sources.includes('document') ? countFigure('document', request, query) : null,
  ]);
  const items = pages.flatMap(({ name, rows }) => rows.map((row) => ({
    id: Number(row.id), title: String(row.title), resource: name, date: String(row.expiry_date),
    detail: name === 'document' ? `${(row.holder as { name?: string } | null)?.name ?? 'Own document'}` : 'Library document',
    badge: expiryBadge(String(row.expiry_date), on),
  }))).sort((a, b) => a.date.localeCompare(b.date)).slice(0, PANEL_ROWS);
  return {
    key: 'expiring-documents', title: 'Expiring documents', description: `Expired in the last ${EXPIRING_WITHIN_DAYS} days, or expiring within ${EXPIRING_WITHIN_DAYS}.`,
    empty: `Nothing expires in the next ${EXPIRING_WITHIN_DAYS} days.`, items,
    all: ownTotal !== null ? { count: ownTotal, resource: 'document', query } : undefined,
  };
}

/**
 * Contracts ending within 30 days: the first rows of the contract list filtered by that end-date
 * range, and its count, so the panel and "See all" show the same contracts (issue 21). A contract
 * renewed by a new PO stays in it, running, until its end date.
 */
async function expiringContractsPanel(request: FastifyRequest): Promise<DashboardList | null> {
  const account = requireAccount(request);
  if (!hasPermission(account.permissions, resourceByName.contract.permissions.view)) return null;
  const on = today();
  const all = { end_date_from: on, end_date_to: addDays(on, EXPIRING_WITHIN_DAYS) };
  const { rows, total } = await listPanelPage('contract', request, all, { sort: 'end_date', direction: 'asc' }, PANEL_ROWS);
  return {
    key: 'expiring-contracts', title: 'Expiring contracts', description: `Ending within ${EXPIRING_WITHIN_DAYS} days.`,
    empty: `No contract ends in the next ${EXPIRING_WITHIN_DAYS} days.`,
    items: rows.map((row) => {
      const client = (row.client as { name?: string } | null)?.name ?? 'No client';
      const state = workflowState(contractWorkflow, String(row.status)).label;
      return {
        id: Number(row.id), title: String(row.po_number), resource: 'contract', date: String(row.end_date),
        detail: [client, state, row.status_note].filter(Boolean).join(' · '), badge: expiryBadge(String(row.end_date), on),
      };
    }),
    all: { count: total, resource: 'contract', query: all },
  };
}

/** The onboarding list's count with an overdue task: from the kept due dates alone when the caller's list is every onboarding. */
async function overdueOnboardings(request: FastifyRequest): Promise<number> {
  if (resourceListWhere('onboarding', request, {}) !== undefined) return countFigure('onboarding', request, { has_overdue: 'true' });
  return Number(await askedInBatch(request.server.db, overdueOnboardingsOfEveryone, request) ?? 0);
}

/** Overdue onboarding tasks: every one for those who run onboarding, else the caller's own. */
async function overdueTasksPanel(request: FastifyRequest): Promise<DashboardList | null> {
  const account = requireAccount(request);
  if (!hasPermission(account.permissions, resourceByName.onboarding.permissions.view)) return null;
  const everyone = hasPermission(account.permissions, 'can-edit-onboarding');
  // "See all" opens the onboardings with an overdue task: its figure counts those, not the tasks.
  const [{ items }, onboardingsOverdue] = await Promise.all([
    overdueOnboardingTasks(request.server.db, { assigneeId: everyone ? undefined : account.id, limit: PANEL_ROWS, withTotal: false }),
    everyone ? overdueOnboardings(request) : 0,
  ]);
  return {
    key: 'overdue-tasks', title: everyone ? 'Overdue onboarding tasks' : 'Your overdue tasks', description: 'Onboarding and offboarding checklist tasks past their due date.',
    empty: 'No task is overdue.',
    items: items.map((item) => ({
      id: item.onboarding_id, title: item.title, detail: `${item.person_name} · ${item.assignee.name}`, date: item.due_date,
      badge: { label: `${item.days_overdue} day${item.days_overdue === 1 ? '' : 's'} late`, tone: 'red' as const }, resource: 'onboarding',
    })),
    // The link opens onboardings (with an overdue task), not tasks: it says so rather than "see all".
    all: everyone ? { count: onboardingsOverdue, resource: 'onboarding', query: { has_overdue: 'true' }, label: `Onboardings with an overdue task: ${onboardingsOverdue.toLocaleString('en')}` } : undefined,
  };
}

/** A list's counts per value of a field, every value shown (zeros too) in `values` order. */
export async function breakdown(request: FastifyRequest, name: string, field: string, values: readonly string[], labelOf: (value: string) => string = (v) => v): Promise<Breakdown | null> {
  const account = requireAccount(request);
  const definition = resourceByName[name];
  if (!definition || !hasPermission(account.permissions, definition.permissions.view)) return null;
  const counts = await countFigure(name, request, {}, field);
  const byValue = new Map(counts.map((row) => [String(row.value), row.count]));
  return { resource: name, field, items: values.map((value) => ({ value, label: labelOf(value), count: byValue.get(value) ?? 0, query: { [field]: value } })) };
}

/** The panels the caller may see; a panel about lists they cannot open is left out, not sent empty. */
/** The weighted pipeline of every deal (deals are not scoped: whoever sees the list sees them all). */
async function pipeline(request: FastifyRequest) {
  const account = requireAccount(request);
  if (!hasPermission(account.permissions, resourceByName['deal-tracking'].permissions.view)) return null;
  // Its kept totals and lost reasons read in the figures' statement.
  return { resource: 'deal-tracking', ...await dealPipeline(request.server.db, undefined, (select) => askedInBatch(request.server.db, select, request)) };
}

export async function appDashboardPanels(request: FastifyRequest): Promise<Record<string, unknown>> {
  const present = <T>(items: (T | null)[]) => items.filter((item): item is T => item !== null);
  const [waiting, invoices, pipelinePanel, lists, breakdowns] = await Promise.all([
    waitingForCaller(request),
    invoicesAwaitingPayment(request),
    pipeline(request),
    Promise.all([expiringDocuments(request), expiringContractsPanel(request), overdueTasksPanel(request)]).then(present),
    Promise.all([
      breakdown(request, 'candidate', 'stage', BOARD_STAGES).then((b) => b && { key: 'hiring-funnel', title: 'Hiring funnel', description: 'Candidates by stage.', ...b }),
      breakdown(request, 'request', 'status', REQUEST_STATUSES).then((b) => b && { key: 'requests-by-status', title: 'Requests by status', description: 'The service requests you can see.', ...b }),
    ]).then(present),
  ]);
  // An empty "waiting" still shows ("all caught up"); a panel the caller may not see is left out.
  const panels: Record<string, unknown> = {};
  if (waiting) panels.waiting = waiting;
  if (invoices) panels.invoices_awaiting_payment = invoices;
  if (pipelinePanel) panels.pipeline = pipelinePanel;
  if (lists.length) panels.lists = lists;
  if (breakdowns.length) panels.breakdowns = breakdowns;
  return panels;
}

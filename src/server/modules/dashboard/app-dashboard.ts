// The main application's dashboard (issue 13): per permission, what waits for the caller and how the
// firm's work stands. Every count is the count of a list the caller may open, taken with that list's
// own scope and filters (countResourceList), so a figure and the list it links to always agree.
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { partnerInvoices } from '../../db/schema/partner-billing';
import { requireAccount } from '../../plugins/auth';
import { countResourceList } from '../../resources/register';
import { hasPermission } from '../../../shared/permissions';
import { PREVIOUS_STATE, workflowState, type ResourceDefinition } from '../../../shared/resources/define';
import { resourceByName } from '../../../shared/resources/registry';

/** One line of "Waiting for you": a count and the filtered list it comes from. */
export interface WaitingItem { key: string; label: string; count: number; resource: string; query: Record<string, string> }

/** A figure per value of a field (requests by status, candidates by stage), in the order given. */
export interface Breakdown { resource: string; field: string; items: { value: string; label: string; count: number; query: Record<string, string> }[] }

/**
 * The lists whose records wait for a decision. A state waits for the caller when a forward transition
 * from it (not a rejection, a hold or an owner's own action) is one the caller's permissions allow.
 */
const decisionLists = ['leave-application', 'expense', 'time-sheet', 'pre-billing', 'partner-invoice', 'document-assign-history', 'bgv-check', 'request', 'onboarding', 'contract'];

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
  const lines = await Promise.all(lists.map(async (name) => {
    const definition = resourceByName[name];
    return Promise.all(waitingStates(definition, account.permissions).map(async (state) => {
      const query = { [definition.workflow!.field]: state };
      const count = await countResourceList(name, request, query).catch(() => 0);
      return { key: `${name}:${state}`, label: `${definition.pluralLabel} — ${workflowState(definition.workflow!, state).label.toLowerCase()}`, count, resource: name, query };
    }));
  }));
  return lines.flat().filter((item) => item.count > 0);
}

/** Approved, unpaid partner invoices: how many and how much per currency. */
async function invoicesAwaitingPayment(request: FastifyRequest) {
  const account = requireAccount(request);
  if (!hasPermission(account.permissions, 'can-view-partner-invoice')) return null;
  const rows = await request.server.db.select({ currency: partnerInvoices.currency, count: sql<number>`count(*)::int`, total: sql<string>`sum(${partnerInvoices.total})` })
    .from(partnerInvoices).where(and(eq(partnerInvoices.status, 'approved'))).groupBy(partnerInvoices.currency);
  return {
    count: rows.reduce((sum, row) => sum + row.count, 0),
    totals: rows.map((row) => ({ currency: row.currency, amount: Number(row.total) })),
    resource: 'partner-invoice', query: { status: 'approved' },
  };
}

/** A list's counts per value of a field, every value shown (zeros too) in `values` order. */
export async function breakdown(request: FastifyRequest, name: string, field: string, values: readonly string[], labelOf: (value: string) => string = (v) => v): Promise<Breakdown | null> {
  const account = requireAccount(request);
  const definition = resourceByName[name];
  if (!definition || !hasPermission(account.permissions, definition.permissions.view)) return null;
  const counts = await countResourceList(name, request, {}, field);
  const byValue = new Map(counts.map((row) => [String(row.value), row.count]));
  return { resource: name, field, items: values.map((value) => ({ value, label: labelOf(value), count: byValue.get(value) ?? 0, query: { [field]: value } })) };
}

/** The panels the caller may see; a panel about lists they cannot open is left out, not sent empty. */
export async function appDashboardPanels(request: FastifyRequest): Promise<Record<string, unknown>> {
  const [waiting, invoices] = await Promise.all([waitingForCaller(request), invoicesAwaitingPayment(request)]);
  const panels: Record<string, unknown> = { waiting, invoices_awaiting_payment: invoices };
  return Object.fromEntries(Object.entries(panels).filter(([, value]) => value !== null && !(Array.isArray(value) && value.length === 0 && value !== waiting)));
}

// Workflows declared on a definition (ARCHITECTURE "Workflows"): who may make which transition
// (permission and named guards) and the history; each step's notifications are in workflow-notify.ts.
// The routes that use these live in routes/; nothing here is specific to one resource.
import { and, asc, desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { workflowHistory } from '../db/schema/workflow';
import type { Db } from '../db/client';
import type { PartnerRow } from '../modules/auth/accounts';
import type { Account } from '../plugins/auth';
import { HttpError } from '../plugins/errors';
import { hasPermission, isAdmin } from '../../shared/permissions';
import {
  type AvailableTransition, decisionNote, type HistoryEntry, PREVIOUS_STATE, type ResourceDefinition,
  type TransitionDefinition, type WorkflowDefinition, type WorkflowGuard, workflowState,
} from '../../shared/resources/define';
import { routePath, routesByName } from '../../shared/routes';
import { OWNER_MANAGER, OWNER_MANAGER_DELEGATES, type Row } from './types';
import { inSentence, staleStepRefusal, stepNotPermitted } from '../../shared/words';

/** What the guards know of a record besides its row: the owner's manager, and who acts for them today (decision 036). */
export interface WorkflowFacts { ownerId: number | null; ownerManagerId: number | null; ownerManagerDelegates?: readonly number[] }

export { OWNER_MANAGER, OWNER_MANAGER_DELEGATES };

/** Whom a record's owner field names when it is the caller's: an app user's own id, a partner login's firm. */
export const ownerIdOf = (account: Account): number =>
  (account.type === 'partner' ? (account.user as PartnerRow).partner_id : account.id);

/** Each guard answers why the actor may not, or null. */
const guards: Record<WorkflowGuard, (account: Account, facts: WorkflowFacts, label: string) => string | null> = {
  notOwnRecord: (account, { ownerId }, label) => (ownerId === ownerIdOf(account) ? `You cannot decide your own ${label}.` : null),
  ownRecord: (account, { ownerId }, label) => (ownerId !== ownerIdOf(account) ? `Only the person this ${label} belongs to can do this.` : null),
  managerOfOwner: (account, { ownerManagerId, ownerManagerDelegates }, label) =>
    (isAdmin(account) || ownerManagerId === account.id || (ownerManagerId !== null && !!ownerManagerDelegates?.includes(account.id))
      ? null : `Only the manager of the person this ${label} belongs to can decide it.`),
};

/** Why `account` may not make `transition` on a record (permission, then guards), or null. */
export function transitionRefusal(definition: ResourceDefinition, transition: TransitionDefinition, account: Account, facts: WorkflowFacts): string | null {
  const label = inSentence(definition.label);
  if (!hasPermission(account.permissions, transition.permission)) return stepNotPermitted(definition.label);
  for (const guard of transition.guards ?? []) {
    const refusal = guards[guard](account, facts, label);
    if (refusal) return refusal;
  }
  return null;
}

export function factsOf(workflow: WorkflowDefinition, row: Row): WorkflowFacts {
  const owner = row[workflow.ownerField];
  return { ownerId: typeof owner === 'number' ? owner : null, ownerManagerId: row[OWNER_MANAGER] ?? null, ownerManagerDelegates: row[OWNER_MANAGER_DELEGATES] ?? [] };
}

/**
 * The manager a decision is made for (decision 036): when `transition` needs the owner's manager and
 * the caller passes only as that manager's delegate today, the manager's id; else null.
 */
export function onBehalfOfId(transition: TransitionDefinition, account: Account, row: Row): number | null {
  if (!transition.guards?.includes('managerOfOwner') || isAdmin(account)) return null;
  const manager = row[OWNER_MANAGER] ?? null;
  return manager !== null && manager !== account.id && (row[OWNER_MANAGER_DELEGATES] ?? []).includes(account.id) ? manager : null;
}

/** The transitions `account` may make on the row now (rows carry them as `available_transitions`). */
export function availableTransitions(definition: ResourceDefinition, row: Row, account: Account): AvailableTransition[] {
  const workflow = definition.workflow!;
  const status = String(row[workflow.field]);
  const facts = factsOf(workflow, row);
  return workflow.transitions
    .filter((t) => t.from.includes(status) && !transitionRefusal(definition, t, account, facts))
    .map((t) => ({ name: t.name, label: t.label, requires_comment: t.comment === 'required', ...(t.tone ? { tone: t.tone } : {}) }));
}

/** Checks a transition against a record as it is now; throws 403, 409 or 422 as the contract says. */
export function checkTransition(definition: ResourceDefinition, transition: TransitionDefinition, row: Row, account: Account, comment: string | null) {
  const workflow = definition.workflow!;
  const refusal = transitionRefusal(definition, transition, account, factsOf(workflow, row));
  if (refusal) throw new HttpError(403, refusal);
  const status = String(row[workflow.field]);
  if (!transition.from.includes(status)) {
    throw new HttpError(409, staleStepRefusal(definition.label, workflowState(workflow, status).label));
  }
  if (transition.comment === 'required' && !comment) {
    throw new HttpError(422, 'The comment field is required.', undefined, { comment: ['The comment field is required.'] });
  }
}

/**
 * The record fields a transition asks for (`fields`, issue 24), from the body's `values`: each checked
 * by the definition's own schema, a required one refused when empty (422 keyed by the field). Fields
 * the transition does not declare are ignored; the result is written with the move.
 */
export function transitionFieldValues(definition: ResourceDefinition, transition: TransitionDefinition, values: Record<string, unknown> | null | undefined): Row {
  const written: Row = {};
  const errors: Record<string, string[]> = {};
  for (const field of transition.fields ?? []) {
    const raw = values?.[field.key];
    // The dialog's own label where it declares one: the field's "To" read "The to field is required.".
    const label = inSentence(field.label ?? definition.fields[field.key]?.label ?? field.key);
    if (raw === undefined || raw === null || raw === '') {
      if (field.isRequired) errors[field.key] = [`The ${label} field is required.`];
      continue;
    }
    const parsed = (definition.schema.shape[field.key] as z.ZodType).safeParse(raw);
    if (parsed.success) written[field.key] = parsed.data;
    else errors[field.key] = parsed.error.issues.map((issue) => issue.message);
  }
  if (Object.keys(errors).length) throw new HttpError(422, Object.values(errors)[0][0], undefined, errors);
  return written;
}

/** Where a transition leads: its state, or for PREVIOUS_STATE the state the record left to enter its current one. */
export async function targetState(db: Db, definition: ResourceDefinition, transition: TransitionDefinition, row: Row): Promise<string> {
  if (transition.to !== PREVIOUS_STATE) return transition.to;
  const workflow = definition.workflow!;
  const [entered] = await db.select({ from: workflowHistory.from_status }).from(workflowHistory)
    .where(and(eq(workflowHistory.resource, definition.name), eq(workflowHistory.record_id, row.id as number), eq(workflowHistory.to_status, String(row[workflow.field]))))
    .orderBy(desc(workflowHistory.id)).limit(1);
  return entered?.from ?? workflow.initial;
}

export interface HistoryInput {
  resource: string; recordId: number; transition: string; from: string | null; to: string; account: Account | null; comment?: string | null;
  /** The manager the decision was made for (decision 036). */
  onBehalfOf?: { id: number; name: string } | null;
}

export async function writeHistory(db: Db, entry: HistoryInput) {
  await historyInsert(db, entry);
}

/** The INSERT of a history row, unrun. */
export function historyInsert(db: Db, entry: HistoryInput) {
  return db.insert(workflowHistory).values(historyRow(entry));
}

/** A history row's columns, every one of them always (a transition binds them in its one statement, routes/transitions.ts). */
export function historyRow(entry: HistoryInput) {
  return {
    resource: entry.resource, record_id: entry.recordId, transition: entry.transition, from_status: entry.from, to_status: entry.to,
    actor_type: entry.account?.type ?? null, actor_id: entry.account?.id ?? null,
    actor_name: (entry.account?.user as { name?: string } | undefined)?.name ?? null, comment: entry.comment ?? null,
    on_behalf_of_id: entry.onBehalfOf?.id ?? null, on_behalf_of_name: entry.onBehalfOf?.name.slice(0, 255) ?? null,
  };
}

export async function readHistory(db: Db, resource: string, recordId: number): Promise<HistoryEntry[]> {
  const rows = await db.select().from(workflowHistory)
    .where(and(eq(workflowHistory.resource, resource), eq(workflowHistory.record_id, recordId))).orderBy(asc(workflowHistory.id));
  return rows.map((row) => ({
    transition: row.transition, from: row.from_status, to: row.to_status,
    actor: row.actor_id !== null ? { id: row.actor_id, name: row.actor_name ?? '' } : null,
    comment: row.comment, created_at: row.created_at.toISOString(),
    ...(row.on_behalf_of_name ? { on_behalf_of: { id: row.on_behalf_of_id ?? 0, name: row.on_behalf_of_name } } : {}),
  }));
}

/** The states a step that says a note leads to, per workflow: a record in any other state has none to read. */
const noteStates = new WeakMap<WorkflowDefinition, ReadonlySet<string>>();
function statesWithNotes(workflow: WorkflowDefinition): ReadonlySet<string> {
  let states = noteStates.get(workflow);
  if (!states) {
    states = new Set(workflow.transitions.filter((t) => t.words.note && t.to !== PREVIOUS_STATE).map((t) => t.to));
    noteStates.set(workflow, states);
  }
  return states;
}

/**
 * Decision 063: the record's page reads beside its state why it is there and who decided, from the
 * latest step into its current state when that step declares a note ("Rejected by Maria Manager:
 * Receipt missing."), as `status_note`. A module's own note (a contract's "Starts on …") stands.
 * Only the record's own answers carry it (GET /{id}, a transition's answer), never a list's rows.
 */
export async function withDecisionNote(db: Db, definition: ResourceDefinition, row: Row): Promise<Row> {
  const { workflow } = definition;
  if (!workflow || typeof row.status_note === 'string') return row;
  const status = String(row[workflow.field]);
  row.status_note = null;
  if (!statesWithNotes(workflow).has(status)) return row;
  const [entry] = await db.select({
    transition: workflowHistory.transition, to: workflowHistory.to_status, comment: workflowHistory.comment,
    actor: workflowHistory.actor_name, principal: workflowHistory.on_behalf_of_name,
  }).from(workflowHistory)
    .where(and(eq(workflowHistory.resource, definition.name), eq(workflowHistory.record_id, row.id as number), eq(workflowHistory.to_status, status)))
    .orderBy(desc(workflowHistory.id)).limit(1);
  row.status_note = decisionNote(workflow, status, entry && {
    transition: entry.transition, to: entry.to, comment: entry.comment,
    actor: entry.actor === null ? null : { name: entry.actor }, on_behalf_of: entry.principal ? { name: entry.principal } : null,
  });
  return row;
}

/**
 * The screen a notification about a record opens: its detail page, else its list highlighting it;
 * for a partner login, the partner portal's screens of a partner-owned definition.
 */
export function recordUrl(definition: ResourceDefinition, id: number, recipientType: 'app' | 'partner' = 'app'): string {
  const routes = recipientType === 'partner' ? definition.owner?.routes : definition.routes;
  if (!routes) return recipientType === 'partner' ? routePath('partner.dashboard') : routePath('dashboard');
  const show = routes.show;
  if (show && routesByName[show]) return routePath(show, { id });
  return `${routePath(routes.index)}?highlight=${id}`;
}

/** 'leave-application' -> 'LeaveApplication': the Laravel class names notification types are given. */
export const pascal = (name: string) => name.split(/[^a-z0-9]+/i).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join('');

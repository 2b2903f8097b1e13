// The audit trail (issue 20): every create, update, delete and transition made through the API is
// recorded here, in the transaction of the change (a rolled-back write leaves no entry). The
// machinery (register.ts) records its own writes; a module that writes outside it calls
// recordChange with the same transaction. Secrets are never stored (only that they changed);
// files are recorded by name.
import type { Db } from '../db/client';
import { type AuditAction, type AuditChange, auditLog } from '../db/schema/audit';
import type { Account } from '../plugins/auth';
import type { AccountRow } from '../modules/auth/accounts';
import type { FieldDefinition, ResourceDefinition } from '../../shared/resources/define';
import { workflowState } from '../../shared/resources/define';
import type { Row } from './types';

/** Passwords, tokens, secrets and second-factor fields: recorded as changed, never with a value. */
const SECRET = /password|secret|token|two_fa|2fa|otp|recovery/i;
export const isSecretField = (key: string) => SECRET.test(key);

/** Long texts are kept whole in `old`/`new`; what an entry reads stays short. */
const TEXT_LIMIT = 300;

/** How a resource words one value where the field alone cannot (an amount with its currency). */
export type AuditText = (key: string, row: Row) => string | null | undefined;

export interface ChangeEntry {
  /** Null when nobody signed in made it (a candidate's public form, a job). */
  account: Account | null;
  action: AuditAction;
  resource: string;
  recordId: number | null;
  title?: string | null;
  changes: AuditChange[];
  transition?: string | null;
  /** A decision made for a manager who delegated it (decision 036): that manager's name. */
  onBehalfOf?: string | null;
}

/**
 * The one place an entry is written: with `db` the transaction's handle, so the entry commits or
 * rolls back with the change it records. An update that changed nothing records nothing.
 */
export function recordChange(db: Db, entry: ChangeEntry): Promise<void> {
  return recordChanges(db, [entry]);
}

/** Rows per INSERT: nine parameters each, under PostgreSQL's 65,535 per statement. */
const INSERT_CHUNK = 5000;

/** Many entries at once (a document assigned to 5,000 people): one INSERT per chunk, not one per entry. */
export async function recordChanges(db: Db, entries: readonly ChangeEntry[]): Promise<void> {
  const rows = auditRows(entries);
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) await db.insert(auditLog).values(rows.slice(i, i + INSERT_CHUNK));
}

/** The audit_log rows of `entries`: for a caller that writes them inside a statement of its own (a transition's). */
export function auditRows(entries: readonly ChangeEntry[]) {
  return entries.filter((entry) => !((entry.action === 'update' || entry.action === 'transition') && !entry.changes.length)).map((entry) => ({
    actor_type: entry.account?.type ?? null,
    actor_id: entry.account?.id ?? null,
    actor_name: entry.account ? String((entry.account.user as { name?: string }).name ?? '').slice(0, 255) || null : null,
    action: entry.action,
    resource: entry.resource,
    record_id: entry.recordId,
    record_title: entry.title ? entry.title.slice(0, 255) : null,
    changes: entry.changes,
    transition: entry.transition ?? null,
    on_behalf_of_name: entry.onBehalfOf ? entry.onBehalfOf.slice(0, 255) : null,
  }));
}

/**
 * A registered resource's write as the machinery sees it: the record before (null on create) and
 * after (null on delete), both as its routes serialise it. Hidden columns are never selected, so they
 * never reach the trail; secret fields sent in the body are recorded as changed without a value.
 */
export async function recordResourceChange(db: Db, account: Account | null, definition: ResourceDefinition, change: {
  action: AuditAction; id: number; before: Row | null; after: Row | null; input?: Row; text?: AuditText; transition?: string;
}): Promise<void> {
  await recordChange(db, resourceChangeEntry(account, definition, change));
}

/** The entry recordResourceChange writes. */
export function resourceChangeEntry(account: Account | null, definition: ResourceDefinition, change: {
  action: AuditAction; id: number; before: Row | null; after: Row | null; input?: Row; text?: AuditText; transition?: string;
}): ChangeEntry {
  const changes = rowChanges(definition, change.before, change.after, change.text);
  const row = change.after ?? change.before;
  if (change.input && change.action !== 'delete') {
    for (const [key, value] of Object.entries(change.input)) {
      if (isSecretField(key) && value !== undefined && value !== null && value !== '') changes.push({ field: key, is_secret: true });
    }
  }
  return {
    account, action: change.action, resource: definition.name, recordId: change.id, title: row ? recordTitle(definition, row) : null, changes, transition: change.transition,
  };
}

/** The record's name as its title field reads (a reference by its label): "Taxi to the client". */
function recordTitle(definition: ResourceDefinition, row: Row): string | null {
  const field = definition.fields[definition.titleKey];
  return field ? fieldText(definition, field, definition.titleKey, row) : null;
}

/** Kept by the database, not by anyone's edit. */
const BOOKKEEPING = new Set(['id', 'created_at', 'updated_at']);

/** The fields whose value differs between two serialised rows (one may be null: a create or a delete). */
export function rowChanges(definition: ResourceDefinition, before: Row | null, after: Row | null, text?: AuditText): AuditChange[] {
  const changes: AuditChange[] = [];
  for (const [key, field] of Object.entries(definition.fields)) {
    if (isSecretField(key) || BOOKKEEPING.has(key)) continue;
    const old = before ? fieldValue(field, key, before) : null;
    const value = after ? fieldValue(field, key, after) : null;
    if (sameValue(old, value)) continue;
    changes.push({
      field: key, old, new: value,
      old_text: before ? fieldText(definition, field, key, before, text) : null,
      new_text: after ? fieldText(definition, field, key, after, text) : null,
    });
  }
  return changes;
}

/** What is stored of a field: files by name, a multiselect by its ids, anything else as serialised. */
function fieldValue(field: FieldDefinition, key: string, row: Row): unknown {
  const value = row[key] instanceof Date ? (row[key] as Date).toISOString() : row[key];
  if (field.input === 'file') return Array.isArray(value) ? value.map((file) => (file as { name?: unknown }).name) : [];
  if (value === undefined && field.reference) {
    const related = row[field.reference.relation];
    if (Array.isArray(related)) return related.map((item) => (item as Row).id);
  }
  return value ?? null;
}

const isEmpty = (value: unknown) => value === null || value === undefined || value === '' || (Array.isArray(value) && !value.length);
const sameValue = (a: unknown, b: unknown) => (isEmpty(a) && isEmpty(b)) || JSON.stringify(a) === JSON.stringify(b);

/** The value as a person read it at the time: labels for choices and references, names of files. */
function fieldText(definition: ResourceDefinition, field: FieldDefinition, key: string, row: Row, text?: AuditText): string | null {
  const own = text?.(key, row);
  if (own !== undefined) return own;
  const value = row[key] instanceof Date ? (row[key] as Date).toISOString() : row[key];
  let result: string | null;
  if (field.input === 'file') {
    result = Array.isArray(value) ? value.map((file) => String((file as { name?: unknown }).name ?? '')).join(', ') : null;
  } else if (field.reference) {
    const related = row[field.reference.relation];
    const labelOf = (item: unknown) => String((item as Row | null)?.[field.reference!.labelKey] ?? '');
    // A row written outside the machinery (a public form) carries the key without its label.
    result = Array.isArray(related) ? related.map(labelOf).join(', ') : related ? labelOf(related) : isEmpty(value) ? null : `#${String(value)}`;
  } else if (isEmpty(value)) {
    result = null;
  } else if (definition.workflow?.field === key) {
    result = workflowState(definition.workflow, String(value)).label;
  } else if (field.options) {
    const labelOf = (item: unknown) => field.options!.find((o) => String(o.value) === String(item))?.label ?? String(item);
    result = Array.isArray(value) ? value.map(labelOf).join(', ') : labelOf(value);
  } else if (field.input === 'boolean') {
    result = value ? 'yes' : 'no';
  } else if (field.input === 'date') {
    result = String(value).slice(0, 10);
  } else if (field.input === 'richtext') {
    result = String(value).replace(/<[^>]*>/g, ' ').replace(/&nbsp;/g, ' ').replace(/\s+/g, ' ').trim();
  } else {
    result = Array.isArray(value) ? value.map(String).join(', ') : String(value);
  }
  if (result === null || result === '') return null;
  return result.length > TEXT_LIMIT ? `${result.slice(0, TEXT_LIMIT - 1)}…` : result;
}

/** The changed keys of a plain value kept outside the definitions (a setting), each as its text. */
export function plainChanges(old: object, now: object): AuditChange[] {
  const before = old as Row;
  const after = now as Row;
  return Object.keys({ ...before, ...after }).filter((key) => !isSecretField(key) && !sameValue(before[key], after[key])).map((key) => ({
    field: key, old: before[key] ?? null, new: after[key] ?? null,
    old_text: isEmpty(before[key]) ? null : String(before[key]), new_text: isEmpty(after[key]) ? null : String(after[key]),
  }));
}

/** The resource an account's row is listed under: staff by their type (admin, manager, user), partner logins as theirs. */
export const accountResource = (row: AccountRow): string => ('user_type' in row ? row.user_type : 'partner-account');

/** A change someone makes to their own account (profile, password), recorded as an edit of it. */
export function recordOwnAccountChange(db: Db, account: Account, changes: AuditChange[]): Promise<void> {
  return recordChange(db, { account, action: 'update', resource: accountResource(account.user), recordId: account.id, title: account.user.name, changes });
}

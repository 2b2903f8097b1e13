// Reading the audit trail (issue 20): the admin's list across the product, its CSV export and a
// record's own edits for its History tab, each entry worded as a sentence with the field labels of
// the resource definitions. Entries are written by src/server/resources/audit.ts.
import { and, asc, desc, eq, gte, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/accounts';
import { auditLog } from '../../db/schema/audit';
import { assertAdminAccount } from '../../plugins/auth';
import { validationError } from '../../plugins/errors';
import type { ResourceContext } from '../../resources/types';
import { actingAs, DEFAULT_PER_PAGE, MAX_PER_PAGE, type ResourceDefinition } from '../../../shared/resources/define';
import { resourceByName } from '../../../shared/resources/registry';
import type { AuditEntryView, AuditQuery } from '../../../shared/schemas/audit';

type Entry = typeof auditLog.$inferSelect;

/**
 * Names of what modules record outside the definitions (settings, links, comments), as a person
 * says them; a definition's own label otherwise.
 */
const OTHER_LABELS: Record<string, string> = {
  setting: 'Setting',
  'candidate-form-link': 'Candidate form link',
  'request-comment': 'Request comment',
  assessment: 'Assessment',
};

export const resourceLabel = (resource: string) =>
  resourceByName[resource]?.label ?? OTHER_LABELS[resource] ?? resource.replaceAll('-', ' ').replace(/^./, (c) => c.toUpperCase());

/** "Expense Date" -> "expense date", but "PO Number" -> "PO number": words in capitals stay so. */
export const lowerLabel = (label: string) => label.split(' ').map((word) => (/^[A-Z][a-z]|^[A-Z]$/.test(word) ? word.toLowerCase() : word)).join(' ');

function fieldLabel(definition: ResourceDefinition | undefined, field: string): string {
  return definition?.fields[field]?.label ?? field.replaceAll('_', ' ').replace(/^./, (c) => c.toUpperCase());
}

/** Free text reads in quotes ("from “Taxi” to “Train”"); amounts, dates and choices without. */
function quoted(definition: ResourceDefinition | undefined, field: string, text: string): string {
  const input = definition?.fields[field]?.input;
  return input && ['text', 'textarea', 'richtext', 'email', 'list'].includes(input) ? `“${text}”` : text;
}

/** "expense 12", or "the announcement setting" for a record without an id. */
function recordPhrase(entry: Entry): string {
  const label = lowerLabel(resourceLabel(entry.resource));
  if (entry.record_id === null) return entry.record_title ? `the ${lowerLabel(entry.record_title)} ${label}` : `the ${label}`;
  return `${label} ${entry.record_id}`;
}

const actorPhrase = (entry: Entry) => actingAs(
  entry.actor_name ?? (entry.actor_type === 'partner' ? 'A partner login' : entry.actor_type ? 'A deleted account' : 'Someone using a public link'),
  entry.on_behalf_of_name,
);

const list = (items: string[]) => (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`);

/** Staff accounts are listed under their type (admin, manager, user); partner logins under theirs. */
const isOwnAccount = (entry: Entry) => entry.actor_id !== null && entry.actor_id === entry.record_id
  && (entry.actor_type === 'partner' ? entry.resource === 'partner-account' : ['admin', 'manager', 'user'].includes(entry.resource));

/** The entry as a person would write it: "Maria Manager changed the amount of expense 12 from EUR 20.00 to EUR 9,000.00." */
export function entrySentence(entry: Entry): string {
  const definition = resourceByName[entry.resource];
  const actor = actorPhrase(entry);
  const record = recordPhrase(entry);
  // The record by its number and, where it has one, its name: "expense 12 (Taxi to the client)";
  // a person's change to their own account reads as theirs ("changed the password of their account").
  const named = isOwnAccount(entry) ? 'their account'
    : entry.record_title && entry.record_id !== null ? `${record} (${entry.record_title})` : record;
  if (entry.action === 'create') return `${actor} created ${named}.`;
  if (entry.action === 'delete') return `${actor} deleted ${named}.`;
  const changes = entry.changes;
  if (changes.length === 1) {
    const [change] = changes;
    const name = `the ${lowerLabel(fieldLabel(definition, change.field))}`;
    if (change.is_secret) return `${actor} changed ${name} of ${named}.`;
    const old = change.old_text ? quoted(definition, change.field, change.old_text) : null;
    const now = change.new_text ? quoted(definition, change.field, change.new_text) : null;
    if (old && now) return `${actor} changed ${name} of ${named} from ${old} to ${now}.`;
    if (now) return `${actor} set ${name} of ${named} to ${now}.`;
    if (old) return `${actor} cleared ${name} of ${named} (it was ${old}).`;
    return `${actor} changed ${name} of ${named}.`;
  }
  return `${actor} changed ${list(changes.map((change) => `the ${lowerLabel(fieldLabel(definition, change.field))}`))} of ${named}.`;
}

/** An entry as the API sends it. */
export function serialiseEntry(entry: Entry): AuditEntryView {
  const definition = resourceByName[entry.resource];
  return {
    id: entry.id,
    created_at: entry.created_at.toISOString(),
    action: entry.action,
    resource: entry.resource,
    resource_label: resourceLabel(entry.resource),
    record_id: entry.record_id,
    record_title: entry.record_title,
    transition: entry.transition,
    actor: entry.actor_type ? { type: entry.actor_type, id: entry.actor_id, name: entry.actor_name } : null,
    summary: entrySentence(entry),
    changes: entry.changes.map((change) => ({
      field: change.field,
      label: fieldLabel(definition, change.field),
      ...(change.is_secret ? { is_secret: true as const } : { old: change.old ?? null, new: change.new ?? null, old_text: change.old_text ?? null, new_text: change.new_text ?? null }),
    })),
  };
}

export interface AuditFilters {
  actor_type?: 'app' | 'partner';
  actor_id?: number;
  resource?: string;
  record_id?: number;
  action?: string;
  created_at_from?: string;
  created_at_to?: string;
}

/**
 * The filters as conditions the indexes serve: equality on (resource, record_id), (resource) or
 * (actor_type, actor_id), then a range on created_at (calendar days in UTC, both ends inclusive)
 * written on the column itself, never on an expression of it, so the index is used.
 */
export function auditWhere(filters: AuditFilters): SQL | undefined {
  return and(
    filters.resource ? eq(auditLog.resource, filters.resource) : undefined,
    filters.record_id !== undefined ? eq(auditLog.record_id, filters.record_id) : undefined,
    filters.actor_id !== undefined ? and(eq(auditLog.actor_type, filters.actor_type ?? 'app'), eq(auditLog.actor_id, filters.actor_id)) : undefined,
    filters.action ? eq(auditLog.action, filters.action as Entry['action']) : undefined,
    filters.created_at_from ? gte(auditLog.created_at, sql`(${filters.created_at_from}::date)::timestamp at time zone 'UTC'`) : undefined,
    filters.created_at_to ? lt(auditLog.created_at, sql`(${filters.created_at_to}::date + 1)::timestamp at time zone 'UTC'`) : undefined,
  );
}

/**
 * How far the list counts and pages: a count over a million entries reads every matching index
 * entry (hundreds of milliseconds); counting at most this many stays a few milliseconds, and nobody
 * pages through more than this: they narrow the filters (docs/benchmarks.md "Audit log").
 */
export const AUDIT_COUNT_CAP = 10_000;

/** Newest first; the id orders entries of one transaction (they share its timestamp). */
const newestFirst = [desc(auditLog.created_at), desc(auditLog.id)];

/** The query's filters (admins only; the audit trail's own admin rule): 422 when its dates run backwards. */
function auditFiltersOf(ctx: ResourceContext, query: AuditQuery): AuditFilters {
  assertAdminAccount(ctx.account);
  if (query.created_at_from && query.created_at_to && query.created_at_from > query.created_at_to) {
    throw validationError({ created_at_to: 'The end date must be on or after the start date.' });
  }
  const { page: _page, per_page: _perPage, ...filters } = query;
  return filters;
}

/** One page of the admin's list; pages stop where the count stops (AUDIT_COUNT_CAP): older changes are reached by narrowing the filters. */
export async function auditLogPage(ctx: ResourceContext, query: AuditQuery) {
  const filters = auditFiltersOf(ctx, query);
  const page = query.page ?? 1;
  const perPage = Math.min(query.per_page ?? DEFAULT_PER_PAGE, MAX_PER_PAGE);
  if ((page - 1) * perPage >= AUDIT_COUNT_CAP) {
    throw validationError({ page: `Only the newest ${AUDIT_COUNT_CAP.toLocaleString('en')} changes are paged; narrow the filters or the dates to see older ones.` });
  }
  return { ...await listAuditEntries(ctx.db, filters, page, perPage), page, perPage };
}

/** The export's batches (admins only); the caller reads the first before sending a byte. */
export function auditExportBatches(ctx: ResourceContext, query: AuditQuery) {
  return auditBatches(ctx.db, auditFiltersOf(ctx, query));
}

/** The person filter's choices (admins only): every staff account (admins, managers and users alike), by name or email. */
export async function auditPeople(ctx: ResourceContext, search: string | undefined) {
  assertAdminAccount(ctx.account);
  const term = search?.trim().toLowerCase() ?? '';
  const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return ctx.db.select({ id: users.id, label: users.name }).from(users)
    .where(term ? sql`lower(${users.name} || ' ' || ${users.email}) like ${pattern}` : undefined)
    .orderBy(asc(users.name), asc(users.id)).limit(50);
}

async function listAuditEntries(db: Db, filters: AuditFilters, page: number, perPage: number) {
  const where = auditWhere(filters);
  const capped = db.select({ one: sql`1` }).from(auditLog).where(where).limit(AUDIT_COUNT_CAP + 1).as('capped');
  const [[{ total }], rows] = await Promise.all([
    db.select({ total: sql<number>`count(*)`.mapWith(Number) }).from(capped),
    db.select().from(auditLog).where(where).orderBy(...newestFirst).limit(perPage).offset((page - 1) * perPage),
  ]);
  return { rows: rows.map(serialiseEntry), total: Math.min(total, AUDIT_COUNT_CAP), isCapped: total > AUDIT_COUNT_CAP };
}

/**
 * Every matching entry, newest first, a batch at a time by keyset (created_at, id): an export of a
 * million entries never reads past an offset and never holds more than one batch.
 */
async function* auditBatches(db: Db, filters: AuditFilters, batch = 1000): AsyncGenerator<AuditEntryView[]> {
  const where = auditWhere(filters);
  let after: { created_at: Date; id: number } | null = null;
  for (;;) {
    const cursor: SQL | undefined = after
      ? or(lt(auditLog.created_at, after.created_at), and(eq(auditLog.created_at, after.created_at), lt(auditLog.id, after.id)))
      : undefined;
    const rows: Entry[] = await db.select().from(auditLog).where(and(where, cursor)).orderBy(...newestFirst).limit(batch);
    if (rows.length) yield rows.map(serialiseEntry);
    if (rows.length < batch) return;
    const last = rows[rows.length - 1];
    after = { created_at: last.created_at, id: last.id };
  }
}

/** A record's edits for its History tab (transitions are in its workflow history), oldest first as that is. */
export async function recordEdits(db: Db, resource: string, recordId: number) {
  const rows = await db.select().from(auditLog)
    .where(and(eq(auditLog.resource, resource), eq(auditLog.record_id, recordId), inArray(auditLog.action, ['create', 'update'])))
    .orderBy(asc(auditLog.created_at), asc(auditLog.id));
  return rows.map(serialiseEntry);
}

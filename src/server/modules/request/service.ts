// Service requests beyond the declared workflow: who sees which requests, who may move one, the
// assignee told live, the comment thread, and the figures the dashboard shows.
import { and, asc, eq, or, type SQL, sql } from 'drizzle-orm';
import { users } from '../../db/schema/accounts';
import { cities } from '../../db/schema/master-data';
import type { Db } from '../../db/client';
import { requestComments, requests } from '../../db/schema/operations';
import type { Account } from '../../plugins/auth';
import { recordChange } from '../../resources/audit';
import { HttpError, validationError } from '../../plugins/errors';
import { notify } from '../notification/notify';
import { recordUrl } from '../../resources/workflow';
import { hasPermission, isAdmin } from '../../../shared/permissions';
import type { TransitionDefinition } from '../../../shared/resources/define';
import { ASSIGNEE_WORDS, request, REQUEST_STATUSES, type RequestComment, type RequestStatus } from '../../../shared/resources/request';
import {
  actorName, type Input, inWrite, type ResourceContext, type Row, type RowOf, type WriteContext,
} from '../../resources/types';

type RequestRow = RowOf<typeof requests>;

/** Coordinators (can-edit-request) and admins see and steer every request. */
const isCoordinator = (account: Account) => isAdmin(account) || hasPermission(account.permissions, request.permissions.edit!);

/** Everyone else sees the requests they raised or were given. */
export function requestScope(account: Account): SQL | undefined {
  if (isCoordinator(account)) return undefined;
  return or(eq(requests.created_by, account.id), eq(requests.assign_to, account.id));
}

/** Dates that come in pairs: the end never before the start (422 on the end). */
function checkDateOrder(values: Row) {
  const errors: Record<string, string> = {};
  const pairs = [
    ['estimated_start_date', 'estimated_end_date', 'The estimated end date cannot be before the estimated start date.'],
    ['sow_start_date', 'sow_end_date', 'The SOW end date cannot be before the SOW start date.'],
  ] as const;
  for (const [start, end, refusal] of pairs) {
    const from = values[start];
    const to = values[end];
    if (typeof from === 'string' && typeof to === 'string' && to < from) {
      errors[end] = refusal;
    }
  }
  if (Object.keys(errors).length) throw validationError(errors);
}

/** The city picked under its country (the form narrows the choices; the API says so too). */
async function checkCityInCountry(db: Db, values: Row) {
  if (typeof values.city_id !== 'number' || typeof values.country_id !== 'number') return;
  const [city] = await db.select({ country_id: cities.country_id }).from(cities).where(eq(cities.id, values.city_id));
  if (city && city.country_id !== values.country_id) throw validationError({ city_id: 'The selected city is not in the selected country.' });
}

/**
 * Why `account` may not move the request now, or null: it must have an assignee, and only the
 * assignee or a coordinator works it (reopening is already a coordinator's permission).
 */
export function transitionRefusal(row: Row, account: Account): string | null {
  if (row.assign_to === null || row.assign_to === undefined) return 'Assign the request to someone before its status changes.';
  if (row.assign_to !== account.id && !isCoordinator(account)) return 'Only the assignee can change the status of this request.';
  return null;
}

function checkTransitionActor(existing: Row, account: Account) {
  const refusal = transitionRefusal(existing, account);
  if (refusal) throw new HttpError(refusal.startsWith('Assign') ? 409 : 403, refusal);
}

/** Tells the (new) assignee, live, that the request is theirs; never someone assigning themselves. */
async function notifyAssignee({ tx, account }: WriteContext, row: RequestRow) {
  const assignee = row.assign_to;
  if (assignee === null || assignee === account.id) return;
  await notify(tx, [assignee], {
    title: 'Request assigned to you',
    message: `${actorName(account)} assigned you the request “${row.title}” (${row.priority} priority).`,
    url: recordUrl(request, row.id),
  }, { type: 'App\\Notifications\\RequestAssigned', kind: 'request' });
}

// ---- The definition's hooks ----

/** Its creator is whoever raises it; the workflow sets the first status. */
export async function prepareRequest(ctx: WriteContext, values: Input): Promise<Input> {
  checkDateOrder(values);
  await checkCityInCountry(ctx.db, values);
  return { ...values, labels: values.labels ?? [], created_by: ctx.account.id, last_status_updated_at: new Date() };
}

export async function prepareRequestUpdate(ctx: WriteContext, values: Input, existing: RequestRow): Promise<Input> {
  checkDateOrder({ ...existing, ...values });
  await checkCityInCountry(ctx.db, { ...existing, ...values });
  return values;
}

export const afterRequestCreate = (ctx: WriteContext, row: RequestRow) => notifyAssignee(ctx, row);

export async function afterRequestUpdate(ctx: WriteContext, row: RequestRow, existing: RequestRow) {
  if (row.assign_to !== existing.assign_to) await notifyAssignee(ctx, row);
}

/** Only the assignee or a coordinator moves it, and only once it has an assignee. */
export function requestStepValues(ctx: WriteContext, existing: RequestRow): Input {
  checkTransitionActor(existing, ctx.account);
  return { last_status_updated_at: new Date() };
}

/**
 * The assignee hears of a step someone else took (the creator hears through the workflow's `owner`),
 * with the comment it was taken with (single and bulk routes alike send it in the body).
 */
export async function afterRequestStep(ctx: WriteContext, row: RequestRow, transition: TransitionDefinition) {
  const assignee = row.assign_to;
  const words = ASSIGNEE_WORDS[transition.name];
  if (!words || assignee === null || assignee === ctx.account.id || assignee === row.created_by) return;
  const comment = (ctx.request.body as { comment?: string | null } | undefined)?.comment || null;
  await notify(ctx.tx, [assignee], { ...words({ record: row, actor: actorName(ctx.account), comment }), url: recordUrl(request, row.id) },
    { type: 'App\\Notifications\\RequestStatusChanged', kind: 'request' });
}

/** The rows' buttons follow the same rule as the step, so nobody is offered a step the server refuses. */
export function decorateRequests(ctx: ResourceContext, rows: Row[]) {
  for (const row of rows) if (transitionRefusal(row, ctx.account)) row.available_transitions = [];
}

// ---- The comment thread ----

/** The request as the caller may see it (its scope), or 404. */
async function findVisibleRequest(db: Db, id: number, account: Account) {
  const [row] = await db.select({ id: requests.id, title: requests.title, created_by: requests.created_by, assign_to: requests.assign_to })
    .from(requests).where(and(eq(requests.id, id), requestScope(account))).limit(1);
  if (!row) throw new HttpError(404, 'Request not found.');
  return row;
}

/** The comment thread of a request the caller may see, oldest first. */
export async function listRequestComments(ctx: ResourceContext, requestId: number): Promise<RequestComment[]> {
  const { db } = ctx;
  const found = await findVisibleRequest(db, requestId, ctx.account);
  const rows = await db.select({ id: requestComments.id, body: requestComments.body, created_at: requestComments.created_at, author_id: users.id, author_name: users.name })
    .from(requestComments).leftJoin(users, eq(users.id, requestComments.user_id))
    .where(eq(requestComments.request_id, found.id)).orderBy(asc(requestComments.id));
  return rows.map(commentOf);
}

const commentOf = (row: { id: number; body: string; created_at: Date; author_id: number | null; author_name: string | null }): RequestComment => ({
  id: row.id, body: row.body, created_at: row.created_at.toISOString(),
  author: row.author_id === null ? null : { id: row.author_id, name: row.author_name ?? '' },
});

/** Adds a comment to a request the caller may see and tells its other side (its creator and its assignee, never the writer). */
export function addRequestComment(ctx: ResourceContext, requestId: number, body: string): Promise<RequestComment> {
  return inWrite(ctx, async (write) => {
    const requestRow = await findVisibleRequest(write.db, requestId, write.account);
    return saveComment(write, requestRow, body);
  });
}

async function saveComment({ tx, account }: WriteContext, requestRow: { id: number; title: string; created_by: number; assign_to: number | null }, body: string): Promise<RequestComment> {
  const [saved] = await tx.db.insert(requestComments).values({ request_id: requestRow.id, user_id: account.id, body }).returning();
  await recordChange(tx.db, {
    account, action: 'create', resource: 'request-comment', recordId: saved.id, title: requestRow.title,
    changes: [{ field: 'request', old: null, new: requestRow.id, old_text: null, new_text: requestRow.title }, { field: 'comment', old: null, new: body, old_text: null, new_text: body }],
  });
  const others = [requestRow.created_by, requestRow.assign_to].filter((id): id is number => typeof id === 'number' && id !== account.id);
  if (others.length) {
    await notify(tx, others, {
      title: 'New comment on a request',
      message: `${actorName(account)} on “${requestRow.title}”: ${body.length > 140 ? `${body.slice(0, 139)}…` : body}`,
      url: recordUrl(request, requestRow.id),
    }, { type: 'App\\Notifications\\RequestCommented', kind: 'request' });
  }
  return commentOf({ ...saved, author_id: account.id, author_name: actorName(account) });
}

// ---- Dashboard figures ----

export interface RequestStatusCount { status: RequestStatus; count: number }

/**
 * Requests by status (spec §4 order, every status present) within what `account` may see: the
 * dashboard's "open requests by status", each linking to /request?status=….
 */
export async function requestCountsByStatus(db: Db, account: Account): Promise<RequestStatusCount[]> {
  const rows = await db.select({ status: requests.status, count: sql<number>`count(*)`.mapWith(Number) })
    .from(requests).where(requestScope(account)).groupBy(requests.status);
  const counts = new Map(rows.map((row) => [row.status, row.count]));
  return REQUEST_STATUSES.map((status) => ({ status, count: counts.get(status) ?? 0 }));
}

/** Requests assigned to `userId` that are not completed yet: "what waits for me". */
export async function openRequestsAssignedTo(db: Db, userId: number): Promise<number> {
  const [row] = await db.select({ count: sql<number>`count(*)`.mapWith(Number) }).from(requests)
    .where(and(eq(requests.assign_to, userId), sql`${requests.status} <> 'Completed'`));
  return row.count;
}

// The bell's unread notifications (spec §2) in the query cache (decision 012): the list and the count are
// one query per account, fetched whole (the dropdown lists every unread notification, not a first page).
// Live notifications go into the cached answer at once (lib/echo.ts), marking read is a mutation that takes
// the row out. Failures to load or mark are only logged, never shown (spec §8).
import { MutationObserver, useQuery } from '@tanstack/react-query';
import type { PageMeta } from '../../shared/pagination';
import type { AccountType } from '../../shared/routes';
import type { NotificationItem } from '../../shared/schemas/auth';
import { auth } from '../stores/auth';
import { useSnapshot } from 'valtio';
import { api } from './api';
import { isPending } from './pending';
import { queryClient, queryKeys } from './query';

export interface Unread { unread: NotificationItem[]; count: number }
export interface NotificationPage { data: NotificationItem[]; meta?: PageMeta }

const NONE: Unread = { unread: [], count: 0 };

/** The route's largest page (notificationListQuery): few requests even for many unread. */
const UNREAD_PAGE_SIZE = 100;

/**
 * Stored notifications received live while a load is in flight, one set per load: the load's answer
 * may have been read before they were committed, and must not wipe them from the bell.
 */
const receivedDuringLoads = new Set<Set<NotificationItem>>();

async function loadUnread(account: AccountType, signal?: AbortSignal): Promise<Unread> {
  const received = new Set<NotificationItem>();
  receivedDuringLoads.add(received);
  try {
    // Page after page of the largest size the route gives, until the last.
    const data: NotificationItem[] = [];
    let page: NotificationPage;
    for (let number = 1; ; number++) {
      page = await api.get<NotificationPage>('/notification', { account, silent: true, signal, params: { type: 'unread', page: number, per_page: UNREAD_PAGE_SIZE } });
      data.push(...(page.data ?? []));
      // The last page: the one the meta names last, or one short of a full page (an answer without meta).
      if (number >= (page.meta?.last_page ?? 1) || (page.data?.length ?? 0) < UNREAD_PAGE_SIZE) break;
    }
    // Newest first: a row committed before the query ran is on its first page, so one missing is not
    // counted yet. One marked read meanwhile has left the cached list and stays out.
    const shown = unreadOf(account).unread;
    const missing = [...received].reverse().filter((item) => !data.some((n) => n.id === item.id) && shown.some((n) => n.id === item.id));
    return { unread: [...missing, ...data], count: (page.meta?.total ?? data.length) + missing.length };
  } catch (error) {
    if (!signal?.aborted) console.error('Could not load notifications', error);
    throw error;
  } finally {
    receivedDuringLoads.delete(received);
  }
}

const unreadQuery = (account: AccountType) => ({
  queryKey: queryKeys.unread(account),
  queryFn: ({ signal }: { signal?: AbortSignal }) => loadUnread(account, signal),
  // Kept fresh by live events, marking read and reconnecting: opening another screen costs no request.
  staleTime: Infinity,
});

/**
 * The bell's list and count for a screen: loaded once per sign-in, then kept in step. Not while the account is
 * pending (lib/pending.ts: a verification link being followed, a second factor to set up): the route would
 * answer 409 and send the person away from where they must be; it loads once /me says they are through.
 */
export function useUnread(account: AccountType): Unread {
  const { token, user } = useSnapshot(auth[account]);
  return useQuery({ ...unreadQuery(account), enabled: !!token && !isPending(user) }, queryClient).data ?? NONE;
}

/** What the cache holds now (outside a component). */
export function unreadOf(account: AccountType): Unread {
  return queryClient.getQueryData<Unread>(queryKeys.unread(account)) ?? NONE;
}

/**
 * Loads the list afresh (a live event whose row the bell must learn the id of); a failure is only logged. A
 * load already in flight may have been read before that row was stored: it is dropped (keeping what the
 * cache holds, rows pushed meanwhile included) for a new one.
 */
export async function refetchUnread(account: AccountType): Promise<void> {
  await queryClient.cancelQueries({ queryKey: queryKeys.unread(account) }, { revert: false, silent: true });
  await queryClient.fetchQuery({ ...unreadQuery(account), staleTime: 0 }).catch(() => undefined);
}

/** Adds a notification that arrived in real time (spec §4), once. */
export function pushUnread(account: AccountType, item: NotificationItem): void {
  queryClient.setQueryData<Unread>(queryKeys.unread(account), (current = NONE) =>
    // The same record again (issue 24: events about it coalesce into one row): its entry now says the
    // latest, at the top, and the count stays.
    (current.unread.some((n) => n.id === item.id)
      ? { unread: [item, ...current.unread.filter((n) => n.id !== item.id)], count: current.count }
      : { unread: [item, ...current.unread], count: current.count + 1 }));
}

/** Adds a stored notification that arrived in real time under its real id (Echo's `.notification()`). */
export function receiveUnread(account: AccountType, item: NotificationItem): void {
  for (const received of receivedDuringLoads) received.add(item);
  pushUnread(account, item);
}

/** Takes rows out of the bell (marked read here); the count falls by those it held. */
function removeUnread(account: AccountType, ids: string[]): void {
  queryClient.setQueryData<Unread>(queryKeys.unread(account), (current) => {
    if (!current) return current;
    const unread = current.unread.filter((n) => !ids.includes(n.id));
    return { unread, count: Math.max(0, current.count - (current.unread.length - unread.length)) };
  });
  // The notification page shows read and unread rows: an open one refetches.
  void queryClient.invalidateQueries({ queryKey: queryKeys.notifications() });
}

/** Runs a mutation outside a component (the bell's click handler, the echo handlers' callers). */
function mutate<TData, TVariables>(options: { mutationFn: (variables: TVariables) => Promise<TData>; onSuccess?: (data: TData, variables: TVariables) => void; onError?: (error: Error) => void }, variables: TVariables): Promise<TData> {
  return new MutationObserver<TData, Error, TVariables>(queryClient, options).mutate(variables);
}

/** PUT /notification/{id} marks it read and answers with the url to open; null when it failed (only logged). */
export function markRead(account: AccountType, item: Pick<NotificationItem, 'id' | 'data'>): Promise<string | null> {
  return mutate({
    mutationFn: (marked: typeof item) => api.put<{ url?: string | null }>(`/notification/${encodeURIComponent(marked.id)}`,
      { notificationId: marked.id, url: marked.data.url }, { account, silent: true }).then((answer) => answer?.url ?? marked.data.url ?? null),
    onSuccess: (_url, marked) => removeUnread(account, [marked.id]),
    onError: (error) => console.error('Could not mark the notification read', error),
  }, item).catch(() => null);
}

/**
 * Opening a notification from the notifications page (spec §7): GET /notification/{id} reads it as it
 * is now (its url may have moved on), then it is marked read like a bell item. A failed read opens
 * the row as listed; failures are only logged (spec §8).
 */
export async function openNotification(account: AccountType, item: NotificationItem): Promise<string | null> {
  let current: Pick<NotificationItem, 'id' | 'data'> = item;
  try {
    current = (await api.get<{ data: NotificationItem }>(`/notification/${encodeURIComponent(item.id)}`, { account, silent: true })).data ?? item;
  } catch (error) {
    console.error('Could not load the notification', error);
  }
  return markRead(account, current);
}

/** PUT /notification/read-all marks every unread row of the caller read; the bell empties at once. */
export function markAllRead(account: AccountType): Promise<{ message: string; count: number }> {
  return mutate({
    mutationFn: () => api.put<{ message: string; count: number }>('/notification/read-all', undefined, { account, silent: true }),
    onSuccess: () => { queryClient.setQueryData<Unread>(queryKeys.unread(account), NONE); },
  }, undefined);
}

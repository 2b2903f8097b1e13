// The bell's unread list and count (spec §2). Load and mark failures are only logged (spec §8).
import { proxy } from 'valtio';
import type { AccountType } from '../../shared/routes';
import type { PageMeta } from '../../shared/pagination';
import type { NotificationItem } from '../../shared/schemas/auth';
import { api } from '../lib/api';

export const notifications = proxy({
  unread: [] as NotificationItem[],
  count: 0,
  loaded: false,
});

/** The route's largest page (notificationListQuery): few requests even for many unread. */
const UNREAD_PAGE_SIZE = 100;

export interface NotificationPage { data: NotificationItem[]; meta?: PageMeta }

/**
 * Stored notifications received live while a load is in flight, one set per load: the load's answer
 * may have been read before they were committed, and must not wipe them from the bell.
 */
const receivedDuringLoads = new Set<Set<NotificationItem>>();

export async function fetchUnread(account: AccountType): Promise<void> {
  const received = new Set<NotificationItem>();
  receivedDuringLoads.add(received);
  try {
    // The bell lists every unread notification (spec §2), not the list's first page: page after page
    // of the largest size the route gives, until the last.
    const data: NotificationItem[] = [];
    let page: NotificationPage;
    for (let number = 1; ; number++) {
      page = await api.get<NotificationPage>('/notification', { account, silent: true, params: { type: 'unread', page: number, per_page: UNREAD_PAGE_SIZE } });
      data.push(...(page.data ?? []));
      // The last page: the one the meta names last, or one short of a full page (an answer without meta).
      if (number >= (page.meta?.last_page ?? 1) || (page.data?.length ?? 0) < UNREAD_PAGE_SIZE) break;
    }
    // Newest first: a row committed before the query ran is on its first page, so one missing is not
    // counted yet. One marked read meanwhile has left the list and stays out.
    const missing = [...received].reverse().filter((item) =>
      !data.some((n) => n.id === item.id) && notifications.unread.some((n) => n.id === item.id));
    notifications.unread = [...missing, ...data];
    notifications.count = (page.meta?.total ?? data.length) + missing.length;
    notifications.loaded = true;
  } catch (error) {
    console.error('Could not load notifications', error);
  } finally {
    receivedDuringLoads.delete(received);
  }
}

/** Appends a notification that arrived in real time (spec §4). */
export function pushUnread(item: NotificationItem) {
  // The same record again (issue 24: events about it coalesce): its entry now says the latest, at the top.
  if (notifications.unread.some((n) => n.id === item.id)) {
    notifications.unread = [item, ...notifications.unread.filter((n) => n.id !== item.id)];
    return;
  }
  notifications.unread.unshift(item);
  notifications.count += 1;
}

/** Appends a stored notification that arrived in real time under its real id (Echo's `.notification()`). */
export function receiveUnread(item: NotificationItem) {
  for (const received of receivedDuringLoads) received.add(item);
  pushUnread(item);
}

/** PUT /notification/{id} marks it read and answers with the url to open. */
export async function markRead(account: AccountType, item: Pick<NotificationItem, 'id' | 'data'>): Promise<string | null> {
  try {
    const answer = await api.put<{ url?: string | null }>(`/notification/${encodeURIComponent(item.id)}`,
      { notificationId: item.id, url: item.data.url }, { account, silent: true });
    const before = notifications.unread.length;
    notifications.unread = notifications.unread.filter((n) => n.id !== item.id);
    if (notifications.unread.length < before) notifications.count = Math.max(0, notifications.count - 1);
    return answer?.url ?? item.data.url ?? null;
  } catch (error) {
    console.error('Could not mark the notification read', error);
    return null;
  }
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
export async function markAllRead(account: AccountType): Promise<{ message: string; count: number }> {
  const answer = await api.put<{ message: string; count: number }>('/notification/read-all', undefined, { account, silent: true });
  notifications.unread = [];
  notifications.count = 0;
  return answer;
}

export function resetNotifications() {
  notifications.unread = [];
  notifications.count = 0;
  notifications.loaded = false;
}

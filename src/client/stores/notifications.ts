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

export interface NotificationPage { data: NotificationItem[]; meta?: PageMeta }

export async function fetchUnread(account: AccountType): Promise<void> {
  try {
    const page = await api.get<NotificationPage>('/notification', { account, silent: true, params: { type: 'unread' } });
    notifications.unread = page.data ?? [];
    notifications.count = page.meta?.total ?? notifications.unread.length;
    notifications.loaded = true;
  } catch (error) {
    console.error('Could not load notifications', error);
  }
}

/** Appends a notification that arrived in real time (spec §4). */
export function pushUnread(item: NotificationItem) {
  if (notifications.unread.some((n) => n.id === item.id)) return;
  notifications.unread.unshift(item);
  notifications.count += 1;
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

export function resetNotifications() {
  notifications.unread = [];
  notifications.count = 0;
  notifications.loaded = false;
}

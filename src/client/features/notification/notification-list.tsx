// All notifications, paginated (spec §2 notification.index; GET /notification?type=all&page=N).
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useLocation, useSearch } from 'wouter';
import type { NotificationItem } from '../../../shared/schemas/auth';
import { api } from '../../lib/api';
import { queryClient, queryKeys } from '../../lib/query';
import { notify } from '../../lib/toast';
import { formatDateTime } from '../../lib/format';
import { openUrl } from '../../lib/navigation';
import type { ScreenProps } from '../../routes';
import { markAllRead, openNotification, useUnread, type NotificationPage } from '../../lib/unread';
import { Badge } from '../../ui/badge';
import { Button, focusRing } from '../../ui/button';
import { CachedNotice } from '../../ui/cached-notice';
import { Card, PageHeader } from '../../ui/card';
import { cx } from '../../ui/cx';
import { EmptyState } from '../../ui/empty-state';
import { SkeletonList } from '../../ui/loading';
import { Pagination } from '../../ui/pagination';

export default function NotificationList({ account }: ScreenProps) {
  const [pathname, setLocation] = useLocation();
  const query = new URLSearchParams(useSearch());
  const page = Math.max(1, Number(query.get('page')) || 1);
  // The All / Unread filter lives in the address, like the page, so Back and a reload keep it.
  const filter: 'all' | 'unread' = query.get('type') === 'unread' ? 'unread' : 'all';
  const [isMarkingAll, setIsMarkingAll] = useState(false);
  const { count: unreadCount } = useUnread(account);
  // A live notification invalidates ['notifications']: the open list takes it in without a reload.
  // A new page starts from the skeleton; a refresh of the same page keeps the rows in place.
  const queryKey = queryKeys.notifications('list', account, filter, page);
  const { data, isError: failed } = useQuery({
    queryKey,
    queryFn: async ({ signal }) => {
      // When the service worker answered from its cache (offline), the list says when it was fetched (issue 5).
      let cachedAt: Date | null = null;
      const answer = await api.get<NotificationPage>('/notification', {
        account, params: { type: filter, page }, silent: true, signal, onCachedAt: (at) => { cachedAt = at; },
      }).catch((error: unknown) => {
        // Spec §8: a failed load is only logged; the page says nothing about it (a cached page, if any, stays).
        if (!signal.aborted) console.error('Could not load notifications', error);
        throw error;
      });
      return { answer, cachedAt };
    },
  }, queryClient);
  const result = data?.answer ?? null;
  const cachedAt = data?.cachedAt ?? null;
  const setResult = (change: (current: NotificationPage | null) => NotificationPage | null) =>
    queryClient.setQueryData<{ answer: NotificationPage; cachedAt: Date | null }>(queryKey, (current) => {
      const next = current && change(current.answer);
      return current && next ? { ...current, answer: next } : current;
    });

  const open = async (item: NotificationItem) => {
    const url = await openNotification(account, item);
    setResult((current) => current && {
      ...current,
      data: current.data.map((n) => (n.id === item.id ? { ...n, read_at: n.read_at ?? new Date().toISOString() } : n)),
    });
    if (url) openUrl(url);
  };

  const hrefFor = (nextFilter: 'all' | 'unread', nextPage = 1) => {
    const params = new URLSearchParams();
    if (nextFilter === 'unread') params.set('type', 'unread');
    if (nextPage > 1) params.set('page', String(nextPage));
    const search = params.toString();
    return search ? `${pathname}?${search}` : pathname;
  };

  const onMarkAllRead = async () => {
    setIsMarkingAll(true);
    try {
      const answer = await markAllRead(account);
      const now = new Date().toISOString();
      // Under "Unread" every row has just been read: the list empties; under "All" the rows stay, read.
      setResult((current) => current && (filter === 'unread'
        ? { data: [] }
        : { ...current, data: current.data.map((n) => ({ ...n, read_at: n.read_at ?? now })) }));
      if (filter === 'unread' && page > 1) setLocation(hrefFor('unread'));
      notify.success(answer.message);
    } catch (error) {
      // Spec §8: only logged, no message to the user.
      console.error('Could not mark the notifications read', error);
    } finally {
      setIsMarkingAll(false);
    }
  };

  const hasUnreadShown = result?.data.some((n) => !n.read_at) ?? false;
  const filters = [{ value: 'all', label: 'All' }, { value: 'unread', label: 'Unread' }] as const;

  return (
    <>
      <PageHeader
        title="Notifications"
        description="Everything sent to you, newest first."
        actions={(
          <Button variant="secondary" onClick={onMarkAllRead} isLoading={isMarkingAll}
            disabled={!hasUnreadShown && unreadCount === 0} data-testid="mark-all-read">
            Mark all as read
          </Button>
        )}
      />
      <div role="group" aria-label="Show" className="mb-3 inline-flex rounded-lg bg-slate-100 p-1 dark:bg-slate-800/60">
        {filters.map(({ value, label }) => (
          <button key={value} type="button" aria-pressed={filter === value} onClick={() => setLocation(hrefFor(value))}
            className={cx('rounded-md px-3 py-1 text-sm font-medium transition-colors', focusRing,
              filter === value
                ? 'bg-white text-slate-900 shadow-sm dark:bg-slate-700 dark:text-white'
                : 'text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white')}>
            {label}
          </button>
        ))}
      </div>
      <CachedNotice fetchedAt={cachedAt} className="mb-3" />
      <Card>
        {!result && !failed && <SkeletonList />}
        {/* Spec §8: a failed load is only logged; the page then shows what it would with nothing to list. */}
        {((failed && !result) || (result && result.data.length === 0)) && (filter === 'unread'
          ? <EmptyState title="No unread notifications" description="You are all caught up." />
          : <EmptyState title="No notifications" description="When something needs your attention, it will appear here." />)}
        {result && result.data.length > 0 && (
          <ul className="divide-y divide-slate-200 dark:divide-slate-800">
            {result.data.map((item) => {
              const unread = !item.read_at;
              return (
                <li key={item.id}>
                  <button type="button" onClick={() => open(item)}
                    className="flex w-full items-start gap-3 px-5 py-4 text-left transition-colors hover:bg-slate-50 focus-visible:bg-slate-50 focus-visible:outline-none dark:hover:bg-slate-800/50 dark:focus-visible:bg-slate-800/50">
                    <span className={cx('mt-1.5 size-2 shrink-0 rounded-full', unread ? 'bg-indigo-500' : 'bg-transparent')} aria-hidden="true" />
                    <span className="min-w-0 flex-1">
                      <span className="flex flex-wrap items-center gap-2">
                        <span className={cx('text-sm', unread ? 'font-semibold text-slate-900 dark:text-white' : 'font-medium text-slate-700 dark:text-slate-300')}>{item.data.title}</span>
                        {/* On a phone the dot and the bold title say it; the badge's own inline-flex would beat a
                            "hidden" passed to it, so a wrapper hides it. A screen reader still hears "Unread". */}
                        {unread && (
                          <>
                            <span className="hidden sm:inline-flex" data-testid="unread-badge"><Badge tone="indigo">Unread</Badge></span>
                            <span className="sr-only sm:hidden">Unread</span>
                          </>
                        )}
                      </span>
                      {item.data.message && <span className="mt-1 line-clamp-2 block text-sm text-slate-600 dark:text-slate-400">{item.data.message}</span>}
                      <time dateTime={item.created_at} className="mt-1.5 block text-xs text-slate-500 tabular-nums sm:hidden dark:text-slate-400">{formatDateTime(item.created_at)}</time>
                    </span>
                    <time dateTime={item.created_at} aria-hidden="true" className="hidden shrink-0 text-xs whitespace-nowrap text-slate-500 tabular-nums sm:block dark:text-slate-400">{formatDateTime(item.created_at)}</time>
                  </button>
                </li>
              );
            })}
          </ul>
        )}
        {result?.meta && (
          <div className="border-t border-slate-200 px-5 py-3 empty:hidden dark:border-slate-800">
            <Pagination meta={result.meta} onPage={(next) => setLocation(hrefFor(filter, next))} />
          </div>
        )}
      </Card>
    </>
  );
}

// All notifications, paginated (spec §2 notification.index; GET /notification?type=all&page=N).
import { useEffect, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { useSnapshot } from 'valtio';
import type { PageMeta } from '../../../shared/pagination';
import type { NotificationItem } from '../../../shared/schemas/auth';
import { api } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { openUrl } from '../../lib/navigation';
import type { ScreenProps } from '../../routes';
import { markRead } from '../../stores/notifications';
import { ui } from '../../stores/ui';
import { Badge } from '../../ui/badge';
import { CachedNotice } from '../../ui/cached-notice';
import { Card, PageHeader } from '../../ui/card';
import { cx } from '../../ui/cx';
import { EmptyState } from '../../ui/empty-state';
import { SkeletonList } from '../../ui/loading';
import { Pagination } from '../../ui/pagination';

interface NotificationPage { data: NotificationItem[]; meta?: PageMeta }

export default function NotificationList({ account }: ScreenProps) {
  const [pathname, setLocation] = useLocation();
  const page = Math.max(1, Number(new URLSearchParams(useSearch()).get('page')) || 1);
  const [result, setResult] = useState<NotificationPage | null>(null);
  const [failed, setFailed] = useState(false);
  // When the service worker answered from its cache (offline), the list says when it was fetched (issue 5).
  const [cachedAt, setCachedAt] = useState<Date | null>(null);
  // A live notification bumps dataVersion: the open list takes it in without a reload.
  const { dataVersion } = useSnapshot(ui);
  const [loadedKey, setLoadedKey] = useState('');
  const key = `${account}:${page}`;

  useEffect(() => {
    let active = true;
    // A new page starts from the skeleton; a live refresh of the same page keeps the rows in place.
    if (loadedKey !== key) setResult(null);
    setFailed(false);
    api.get<NotificationPage>('/notification', {
      account, params: { type: 'all', page }, silent: true, onCachedAt: (at) => { if (active) setCachedAt(at); },
    })
      .then((answer) => { if (active) { setResult(answer); setLoadedKey(key); } })
      .catch(() => { if (active) setFailed(true); });
    return () => { active = false; };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- loadedKey is read, not followed
  }, [account, page, dataVersion]);

  const open = async (item: NotificationItem) => {
    const url = await markRead(account, item);
    setResult((current) => current && {
      ...current,
      data: current.data.map((n) => (n.id === item.id ? { ...n, read_at: n.read_at ?? new Date().toISOString() } : n)),
    });
    if (url) openUrl(url);
  };

  return (
    <>
      <PageHeader title="Notifications" description="Everything sent to you, newest first." />
      <CachedNotice fetchedAt={cachedAt} className="mb-3" />
      <Card>
        {!result && !failed && <SkeletonList />}
        {failed && <EmptyState icon="alert" title="Notifications could not be loaded" description="Please try again in a moment." />}
        {result && result.data.length === 0 && <EmptyState title="No notifications" description="When something needs your attention, it will appear here." />}
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
                        {unread && <Badge tone="indigo" className="hidden sm:inline-flex">Unread</Badge>}
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
            <Pagination meta={result.meta} onPage={(next) => setLocation(`${pathname}?page=${next}`)} />
          </div>
        )}
      </Card>
    </>
  );
}

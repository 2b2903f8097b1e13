// spec §2 bell: zero unread -> straight to the list; otherwise a dropdown (max 400 px high, w-80)
// of unread titles, 'No notifications' when empty, 'See All'; an item is marked read, then opened.
import { Popover, PopoverButton, PopoverPanel } from '@headlessui/react';
import { Link } from 'wouter';
import { routePath, type AccountType } from '../../shared/routes';
import { openUrl } from '../lib/navigation';
import { markRead, useUnread } from '../lib/unread';
import { focusRing } from '../ui/button';
import { cx } from '../ui/cx';
import { Icon } from '../ui/icons';

const iconButton = cx('relative inline-flex size-9 items-center justify-center rounded-lg text-slate-500 transition-colors hover:bg-slate-100 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white', focusRing);

function CountBadge({ count }: { count: number }) {
  return (
    <span data-testid="unread-count" className="absolute -top-0.5 -right-0.5 flex h-[18px] min-w-[18px] items-center justify-center rounded-full bg-rose-500 px-1 text-[10px] font-semibold text-white ring-2 ring-white dark:ring-slate-900">
      {count > 99 ? '99+' : count}
    </span>
  );
}

export function Bell({ account }: { account: AccountType }) {
  const { unread, count } = useUnread(account);
  const listRoute = account === 'partner' ? 'partner.notification.index' : 'notification.index';

  if (count === 0) {
    return (
      <Link href={routePath(listRoute)} className={iconButton} aria-label="Notifications, none unread" title="Notifications">
        <Icon name="bell" />
      </Link>
    );
  }

  return (
    <Popover className="relative">
      <PopoverButton className={iconButton} aria-label={`Notifications, ${count} unread`} title="Notifications">
        <Icon name="bell" />
        <CountBadge count={count} />
      </PopoverButton>
      <PopoverPanel
        anchor={{ to: 'bottom end', gap: 8 }}
        className="z-50 flex max-h-[400px]! w-80 flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-lg focus:outline-none dark:border-slate-800 dark:bg-slate-900"
      >
        {({ close }) => (
          <>
            <div className="flex items-center justify-between border-b border-slate-200 px-4 py-3 dark:border-slate-800">
              <p className="text-sm font-semibold text-slate-900 dark:text-white">Notifications</p>
              <span className="text-xs text-slate-500 dark:text-slate-400">{count} unread</span>
            </div>
            <ul className="flex-1 overflow-y-auto py-1">
              {unread.length === 0 && <li className="px-4 py-6 text-center text-sm text-slate-500 dark:text-slate-400">No notifications</li>}
              {unread.map((item) => (
                <li key={item.id}>
                  <button
                    type="button"
                    className="flex w-full items-start gap-3 px-4 py-2.5 text-left text-sm text-slate-700 hover:bg-slate-50 focus-visible:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-indigo-500 dark:text-slate-200 dark:hover:bg-slate-800 dark:focus-visible:bg-slate-800 dark:focus-visible:ring-indigo-400"
                    onClick={async () => {
                      close();
                      const url = await markRead(account, item);
                      if (url) openUrl(url);
                    }}
                  >
                    <span className="mt-1.5 size-2 shrink-0 rounded-full bg-indigo-500" aria-hidden="true" />
                    {/* The title (spec §2), and the message that tells one upload from another. */}
                    <span className="min-w-0">
                      <span className="line-clamp-2 font-medium">{item.data.title}</span>
                      {item.data.message && <span className="mt-0.5 line-clamp-2 block text-xs text-slate-500 dark:text-slate-400">{item.data.message}</span>}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
            <div className="border-t border-slate-200 p-2 dark:border-slate-800">
              <Link href={routePath(listRoute)} onClick={() => close()}
                className={cx('block rounded-lg px-3 py-2 text-center text-sm font-medium text-indigo-600 hover:bg-indigo-50 dark:text-indigo-300 dark:hover:bg-indigo-500/10', focusRing)}>
                See All
              </Link>
            </div>
          </>
        )}
      </PopoverPanel>
    </Popover>
  );
}

// Issue 5: the header's count of queued changes and their list (what, when, status; retry / fix / discard).
// Shown only while something is queued.
import { Popover, PopoverButton, PopoverPanel } from '@headlessui/react';
import { Link } from 'wouter';
import type { AccountType } from '../../shared/routes';
import { formatDateTime } from '../lib/format';
import { formatBytes, useOutbox } from '../lib/outbox';
import { outboxFormPath } from '../ui/resources/queued-items';
import type { OutboxSummary } from '../stores/outbox';
import { Badge } from '../ui/badge';
import { focusRing } from '../ui/button';
import { cx } from '../ui/cx';
import { Icon } from '../ui/icons';

const iconButton = cx('relative inline-flex size-9 items-center justify-center rounded-lg text-slate-500 transition-colors hover:bg-slate-100 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white', focusRing);
const smallButton = cx('rounded-md px-2 py-1 text-xs font-medium', focusRing);

function StatusBadge({ item, isPaused }: { item: Pick<OutboxSummary, 'status' | 'attempts'>; isPaused: boolean }) {
  if (item.status === 'failed') return <Badge tone="red">Not sent</Badge>;
  if (isPaused) return <Badge tone="amber">Waiting for sign-in</Badge>;
  if (item.attempts > 0) return <Badge tone="amber">Retrying</Badge>;
  return <Badge tone="amber">Waiting to send</Badge>;
}

export function OutboxMenu({ account }: { account: AccountType }) {
  const { items, pendingCount, failedCount, isPaused, totalSize, retry, discard } = useOutbox(account);
  if (items.length === 0) return null;
  const label = `Outbox: ${pendingCount} waiting to send${failedCount ? `, ${failedCount} not sent` : ''}`;

  return (
    <Popover className="relative">
      <PopoverButton className={iconButton} aria-label={label} title={label} data-testid="outbox-button">
        <Icon name="upload" />
        <span data-testid="outbox-count"
          className={cx('absolute -top-0.5 -right-0.5 flex h-[18px] min-w-[18px] items-center justify-center rounded-full px-1 text-[10px] font-semibold text-white ring-2 ring-white dark:ring-slate-900', failedCount ? 'bg-rose-600' : 'bg-amber-600')}>
          {items.length > 99 ? '99+' : items.length}
        </span>
      </PopoverButton>
      <PopoverPanel anchor={{ to: 'bottom end', gap: 8 }}
        className="z-50 flex max-h-[420px]! w-96 max-w-[calc(100vw-1rem)] flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-lg focus:outline-none dark:border-slate-800 dark:bg-slate-900">
        <div className="border-b border-slate-200 px-4 py-3 dark:border-slate-800">
          <p className="flex items-baseline justify-between gap-2 text-sm font-semibold text-slate-900 dark:text-white">
            Outbox<span className="text-xs font-normal text-slate-500 tabular-nums dark:text-slate-400">{items.length} · {formatBytes(totalSize)}</span>
          </p>
          <p className="text-xs text-slate-500 dark:text-slate-400">Kept on this device and sent in order when the connection allows. Closing the app loses nothing.</p>
        </div>
        <ul className="flex-1 divide-y divide-slate-100 overflow-y-auto dark:divide-slate-800" data-testid="outbox-list">
          {items.map((item) => (
            <li key={item.id} className="space-y-1.5 px-4 py-3 text-sm">
              <div className="flex items-start justify-between gap-2">
                <p className="font-medium text-slate-800 dark:text-slate-100">{item.label}</p>
                <StatusBadge item={item} isPaused={isPaused} />
              </div>
              <p className="text-xs text-slate-500 dark:text-slate-400">Made {formatDateTime(item.createdAt)} · {formatBytes(item.size)}{item.attempts > 0 ? ` · ${item.attempts} attempt${item.attempts === 1 ? '' : 's'}` : ''}</p>
              {item.message && <p className="text-xs text-rose-700 dark:text-rose-300">{item.message}</p>}
              {Object.entries(item.fieldErrors).length > 0 && (
                <ul className="list-disc pl-5 text-xs text-rose-700 dark:text-rose-300">
                  {Object.entries(item.fieldErrors).map(([field, messages]) => <li key={field}>{messages.join(' ')}</li>)}
                </ul>
              )}
              <div className="flex gap-1.5">
                {item.editPath && (
                  <Link href={outboxFormPath(item)!}
                    className={cx(smallButton, 'bg-indigo-600 text-white hover:bg-indigo-500')}>{item.status === 'failed' ? 'Fix' : 'Open'}</Link>
                )}
                {(item.status === 'failed' || item.attempts > 0) && (
                  <button type="button" onClick={() => void retry(item.id)} className={cx(smallButton, 'text-indigo-700 hover:bg-indigo-50 dark:text-indigo-300 dark:hover:bg-indigo-500/10')}>Retry now</button>
                )}
                <button type="button" onClick={() => void discard(item.id)} className={cx(smallButton, 'text-rose-700 hover:bg-rose-50 dark:text-rose-300 dark:hover:bg-rose-500/10')}>Discard</button>
              </div>
            </li>
          ))}
        </ul>
      </PopoverPanel>
    </Popover>
  );
}

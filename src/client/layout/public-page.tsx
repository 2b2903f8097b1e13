// The frame of a page a candidate opens from a capability link, without an account or menus (the
// candidate form, the offer letter): the firm's brand above one card, a loading placeholder that keeps
// the card's shape, and the notice said instead of the page when the link is not usable or is answered.
import type { ReactNode } from 'react';
import { BrandMark, BrandName } from './brand';
import { Icon } from '../ui/icons';
import { Skeleton } from '../ui/loading';

export function PublicPage({ children }: { children: ReactNode }) {
  return (
    <div className="w-full max-w-2xl">
      <div className="mb-6 flex items-center gap-2.5">
        <BrandMark className="size-9" />
        <BrandName className="text-[15px]" />
      </div>
      <div className="rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">{children}</div>
    </div>
  );
}

/** What the card holds while the page's data loads; `label` says what is loading ("Loading the form"). */
export function PublicPageLoading({ label }: { label: string }) {
  return (
    <div role="status" aria-label={label} className="space-y-3 p-6">
      <Skeleton className="h-7 w-2/3" /><Skeleton className="h-4 w-1/2" /><Skeleton className="h-40 w-full" />
    </div>
  );
}

/** A done (check) or problem (alert) notice filling the card: its title and one line of what to do next. */
export function PublicNotice({ icon, title, text }: { icon: 'check' | 'alert'; title: string; text: string }) {
  return (
    <div role="status" className="flex flex-col items-center px-6 py-12 text-center">
      <span className={icon === 'check'
        ? 'flex size-12 items-center justify-center rounded-full bg-emerald-100 text-emerald-600 dark:bg-emerald-500/15 dark:text-emerald-400'
        : 'flex size-12 items-center justify-center rounded-full bg-amber-100 text-amber-600 dark:bg-amber-500/15 dark:text-amber-400'}>
        <Icon name={icon} className="size-6" />
      </span>
      <h1 className="mt-4 text-lg font-semibold text-slate-900 dark:text-white">{title}</h1>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{text}</p>
    </div>
  );
}

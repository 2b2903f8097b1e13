// The frame every dashboard panel shares (the main dashboard's and the engineer's home): a card with
// its title and description, its rows (each a link to what it shows when that screen exists here),
// the sentence said when it has none, a footer link, and the grid they sit in.
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { focusRing } from '../../ui/button';
import { Card, CardHeader } from '../../ui/card';
import { cx } from '../../ui/cx';

export function DashboardPanel({ title, description, className, footer, children }: {
  title: string; description?: string; className?: string; footer?: ReactNode; children: ReactNode;
}) {
  return (
    <Card className={className}>
      <CardHeader title={title} description={description} />
      {children}
      {footer && <div className="border-t border-slate-200 px-5 py-3 dark:border-slate-800">{footer}</div>}
    </Card>
  );
}

/** The rows of a panel, divided by hairlines; `className` adds to the list (a reserved height). */
export function PanelList({ className, testId, children }: { className?: string; testId?: string; children: ReactNode }) {
  return <ul className={cx('divide-y divide-slate-100 dark:divide-slate-800', className)} data-testid={testId}>{children}</ul>;
}

/** One row: its content spread across the panel, a link when `href` names a screen, else plain text. */
export function PanelRow({ href, children }: { href: string | null; children: ReactNode }) {
  return (
    <li>
      {href
        ? <Link href={href} className={cx('flex items-center justify-between gap-3 px-5 py-3 hover:bg-slate-50 dark:hover:bg-slate-800/50', focusRing)}>{children}</Link>
        : <div className="flex items-center justify-between gap-3 px-5 py-3">{children}</div>}
    </li>
  );
}

/** What a panel says when it has no rows. */
export function PanelEmpty({ className, children }: { className?: string; children: ReactNode }) {
  return <p className={cx('px-5 py-6 text-sm text-slate-500 dark:text-slate-400', className)}>{children}</p>;
}

/**
 * The panels side by side from a large screen, one above the other below it. grid-cols-1, not the
 * implicit column: a long title must not widen the panels past a phone's width.
 */
export function PanelGrid({ testId, children }: { testId: string; children: ReactNode }) {
  return <div className="mb-6 grid grid-cols-1 gap-6 lg:grid-cols-2" data-testid={testId}>{children}</div>;
}

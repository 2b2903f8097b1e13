// Horizontal bars for a few counts (a funnel, statuses, a pipeline): a list a screen reader reads as
// "label: value", each bar a link to the list it counts when there is one.
import { Link } from 'wouter';
import { cx } from './cx';
import { focusRing } from './button';

export interface Bar { key: string; label: string; value: number; display?: string; href?: string | null }

const tones = {
  indigo: 'bg-indigo-500 dark:bg-indigo-400',
  emerald: 'bg-emerald-500 dark:bg-emerald-400',
  amber: 'bg-amber-500 dark:bg-amber-400',
} as const;

export function BarChart({ bars, label, tone = 'indigo' }: { bars: Bar[]; label: string; tone?: keyof typeof tones }) {
  const max = Math.max(1, ...bars.map((bar) => bar.value));
  return (
    <ul aria-label={label} className="space-y-2.5">
      {bars.map((bar) => {
        const content = (
          <>
            {/* A figure in several currencies is wider than a phone: it moves under its label and wraps between
                amounts, right-aligned, rather than pushing the page sideways; a long label is cut, with a title. */}
            <span className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
              <span className="min-w-0 truncate text-slate-700 dark:text-slate-200" title={bar.label}>{bar.label}</span>
              <span className="ml-auto max-w-full text-right font-medium text-slate-900 tabular-nums dark:text-white" data-testid="bar-value">{bar.display ?? bar.value.toLocaleString()}</span>
            </span>
            <span className="mt-1 block h-2 overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800" aria-hidden="true">
              <span className={cx('block h-full rounded-full', tones[tone])} style={{ width: `${bar.value > 0 ? Math.max(2, (bar.value / max) * 100) : 0}%` }} />
            </span>
          </>
        );
        return (
          <li key={bar.key}>
            {bar.href
              ? <Link href={bar.href} className={cx('block rounded-md p-1 -m-1 hover:bg-slate-50 dark:hover:bg-slate-800/60', focusRing)}>{content}</Link>
              : <div>{content}</div>}
          </li>
        );
      })}
    </ul>
  );
}

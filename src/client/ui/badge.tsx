import type { ReactNode } from 'react';
import { cx } from './cx';

export type Tone = 'gray' | 'indigo' | 'green' | 'yellow' | 'red' | 'amber';

const tones: Record<Tone, string> = {
  gray: 'bg-slate-100 text-slate-700 ring-slate-500/20 dark:bg-slate-800 dark:text-slate-300 dark:ring-slate-400/20',
  indigo: 'bg-indigo-50 text-indigo-700 ring-indigo-600/20 dark:bg-indigo-500/10 dark:text-indigo-300 dark:ring-indigo-400/30',
  green: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20 dark:bg-emerald-500/10 dark:text-emerald-300 dark:ring-emerald-400/30',
  yellow: 'bg-yellow-50 text-yellow-800 ring-yellow-600/20 dark:bg-yellow-500/10 dark:text-yellow-300 dark:ring-yellow-400/30',
  amber: 'bg-amber-50 text-amber-800 ring-amber-600/20 dark:bg-amber-500/10 dark:text-amber-300 dark:ring-amber-400/30',
  red: 'bg-rose-50 text-rose-700 ring-rose-600/20 dark:bg-rose-500/10 dark:text-rose-300 dark:ring-rose-400/30',
};

/**
 * `canWrap`: a long label (spec §4's leave statuses run to 50 characters) breaks onto a second line
 * where room is short, a phone's card or a table column, instead of running past the edge.
 */
export function Badge({ tone = 'gray', children, className, canWrap }: { tone?: Tone; children: ReactNode; className?: string; canWrap?: boolean }) {
  return (
    <span className={cx('inline-flex items-center rounded-md px-2 py-0.5 text-xs font-medium ring-1 ring-inset',
      canWrap ? 'w-max max-w-48 text-left text-pretty' : 'whitespace-nowrap', tones[tone], className)}>
      {children}
    </span>
  );
}

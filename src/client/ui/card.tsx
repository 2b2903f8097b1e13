import { useEffect, useRef, type ReactNode, type Ref } from 'react';
import { takeRouteFocus } from '../lib/navigation';
import { cx } from './cx';

export function Card({ children, className, ref, tabIndex }: { children: ReactNode; className?: string; ref?: Ref<HTMLElement>; tabIndex?: number }) {
  return (
    <section ref={ref} tabIndex={tabIndex} className={cx('rounded-xl border border-slate-200 bg-white shadow-xs dark:border-slate-800 dark:bg-slate-900', className)}>
      {children}
    </section>
  );
}

export function CardHeader({ title, description, id, actions }: { title: string; description?: string; id?: string; actions?: ReactNode }) {
  return (
    <header className="flex flex-wrap items-start justify-between gap-x-4 gap-y-3 border-b border-slate-200 px-5 py-4 dark:border-slate-800">
      <div className="min-w-0 flex-1 basis-64">
        <h2 id={id} className="text-base font-semibold text-slate-900 dark:text-white">{title}</h2>
        {description && <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{description}</p>}
      </div>
      {/* As on the page header: a button's label never breaks; on a narrow card the actions go below the title. */}
      {actions && <div className="flex shrink-0 flex-wrap items-center gap-2 whitespace-nowrap">{actions}</div>}
    </header>
  );
}

export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => takeRouteFocus(headingRef.current), []);
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
      <div className="min-w-0">
        <h1 ref={headingRef} tabIndex={-1} className="text-2xl font-semibold tracking-tight text-slate-900 focus:outline-none dark:text-white">{title}</h1>
        {description && <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{description}</p>}
      </div>
      {/* A button's label never breaks inside it (issue 24: two-line buttons on a phone); whole buttons wrap if they must. */}
      {actions && <div className="flex flex-wrap items-center gap-2 whitespace-nowrap">{actions}</div>}
    </div>
  );
}

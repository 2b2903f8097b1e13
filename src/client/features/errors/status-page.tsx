import type { ReactNode } from 'react';
import { Icon } from '../../ui/icons';

export function StatusPage({ code, icon, title, message, actions }: { code?: string; icon: string; title: string; message: string; actions: ReactNode }) {
  return (
    <div className="w-full max-w-md text-center">
      <div className="mx-auto mb-6 flex size-14 items-center justify-center rounded-2xl bg-white text-indigo-600 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:text-indigo-300 dark:ring-slate-800">
        <Icon name={icon} className="size-7" />
      </div>
      {code && <p className="text-sm font-semibold tracking-wide text-indigo-600 dark:text-indigo-400">{code}</p>}
      <h1 className="mt-2 text-3xl font-semibold tracking-tight text-slate-900 dark:text-white">{title}</h1>
      <p className="mt-3 text-sm leading-6 text-slate-600 dark:text-slate-400">{message}</p>
      <div className="mt-8 flex flex-wrap items-center justify-center gap-3">{actions}</div>
    </div>
  );
}

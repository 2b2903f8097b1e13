import type { ReactNode } from 'react';
import { GuestIcon, type GuestIconName } from '../../ui/guest-icons';

export function AuthHeading({ title, description, icon }: { title: string; description?: ReactNode; icon?: GuestIconName }) {
  return (
    <div className="mb-8">
      {icon && (
        <div className="mb-5 flex size-11 items-center justify-center rounded-xl bg-indigo-50 text-indigo-600 ring-1 ring-indigo-100 dark:bg-indigo-500/10 dark:text-indigo-300 dark:ring-indigo-500/20">
          <GuestIcon name={icon} className="size-5" />
        </div>
      )}
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900 dark:text-white">{title}</h1>
      {description && <p className="mt-2 text-sm leading-6 text-slate-600 dark:text-slate-400">{description}</p>}
    </div>
  );
}

export const textLink = 'rounded font-medium text-indigo-600 hover:text-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:text-indigo-400 dark:hover:text-indigo-300';

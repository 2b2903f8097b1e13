// The frame of the candidate's public assessment pages (no account, no menus).
import type { ReactNode } from 'react';
import { Icon } from '../../ui/icons';

/** Where this browser keeps the attempt link a start link opened (resume after a reload of the mailed link). */
export const attemptTokenKey = (linkToken: string) => `assessment-attempt:${linkToken}`;

export function AssessmentShell({ children, wide }: { children: ReactNode; wide?: boolean }) {
  return (
    <div className={wide ? 'w-full max-w-3xl self-start' : 'w-full max-w-xl'}>
      <div className="rounded-xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">{children}</div>
    </div>
  );
}

export function LinkProblem({ message }: { message: string }) {
  return (
    <div role="alert" className="flex flex-col items-center px-6 py-12 text-center">
      <div className="mb-4 flex size-12 items-center justify-center rounded-full bg-amber-100 text-amber-700 dark:bg-amber-500/15 dark:text-amber-300">
        <Icon name="alert" className="size-6" />
      </div>
      <h1 className="text-base font-semibold text-slate-900 dark:text-white">{message}</h1>
      <p className="mt-1 max-w-sm text-sm text-slate-500 dark:text-slate-400">If you think this is a mistake, ask your recruiter for a new link.</p>
    </div>
  );
}

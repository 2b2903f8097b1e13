import type { ReactNode } from 'react';
import { ThemeToggle } from './theme-toggle';

/** Access denied and not-found: a calm centered page. */
export function PlainLayout({ children }: { children: ReactNode }) {
  return (
    <div className="relative flex min-h-screen flex-col bg-slate-50 dark:bg-slate-950">
      <div className="absolute top-4 right-4"><ThemeToggle /></div>
      <main id="main" className="flex flex-1 items-center justify-center px-6 py-16">{children}</main>
    </div>
  );
}

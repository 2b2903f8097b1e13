// spec §2: the guest layout shows the logo and a business image beside the form on large screens.
// The logo links to the partner login when the route name starts with partner, otherwise to the root.
import { lazy, Suspense, type ReactNode } from 'react';
import { Link } from 'wouter';
import { routePath, routesByName } from '../../shared/routes';
import { appConfig } from '../lib/config';
import { focusRing } from '../ui/button';
import { cx } from '../ui/cx';
import { ScreenLoading } from '../ui/loading';
import { BrandMark, BrandName } from './brand';
import { ThemeToggle } from './theme-toggle';

// The query cache, for the screens of a signed-in account that must finish a step first (route kind 'auth':
// force-reset-password, verify-email, two-factor-setup). Loaded with them only: the login route stays without it.
const QueryProvider = lazy(() => import('./query-provider'));

/** Whether the guest layout's screen belongs to a signed-in (pending) account, and so reads the query cache. */
export const isSignedInGuestRoute = (routeName: string) => routesByName[routeName]?.kind === 'auth';

export function guestLogoHref(routeName: string) {
  return routeName.startsWith('partner') ? routePath('partner.login') : '/';
}

export function GuestLayout({ routeName, children }: { routeName: string; children: ReactNode }) {
  const isPartner = routeName.startsWith('partner');
  return (
    <div className="grid min-h-screen bg-white lg:grid-cols-[minmax(0,1fr)_minmax(0,1.1fr)] dark:bg-slate-950">
      <div className="flex min-h-screen flex-col px-6 py-6 sm:px-10 lg:px-16">
        <header className="flex items-center justify-between">
          <Link href={guestLogoHref(routeName)} className={cx('flex items-center gap-2.5 rounded-lg', focusRing)} aria-label={`${appConfig.name} home`}>
            <BrandMark className="size-9" />
            <span className="flex flex-col leading-tight">
              <BrandName className="text-[15px]" />
              {isPartner && <span className="text-xs font-medium text-indigo-600 dark:text-indigo-400">Partner Portal</span>}
            </span>
          </Link>
          <ThemeToggle />
        </header>
        <main id="main" className="flex flex-1 items-center justify-center py-10">
          <div className="w-full max-w-sm">
            {isSignedInGuestRoute(routeName)
              ? <Suspense fallback={<ScreenLoading />}><QueryProvider>{children}</QueryProvider></Suspense>
              : children}
          </div>
        </main>
        <footer className="text-xs text-slate-500 dark:text-slate-400">© {new Date().getFullYear()} {appConfig.name}</footer>
      </div>
      <aside className="relative hidden overflow-hidden bg-gradient-to-br from-indigo-50 via-white to-sky-50 lg:flex lg:flex-col lg:items-center lg:justify-center dark:from-slate-900 dark:via-slate-900 dark:to-indigo-950" aria-hidden="true">
        <div className="absolute inset-0 bg-[radial-gradient(circle_at_30%_20%,rgba(99,102,241,0.12),transparent_55%)] dark:bg-[radial-gradient(circle_at_30%_20%,rgba(99,102,241,0.25),transparent_55%)]" />
        <img src="/guest-illustration.svg" alt="" className="relative w-[82%] max-w-xl drop-shadow-sm dark:brightness-90" />
        <div className="relative mt-8 max-w-lg px-8 text-center">
          <p className="text-lg font-semibold text-slate-900 dark:text-white">
            {isPartner ? 'Pre-billing and invoices, in one place.' : 'People, partners and paperwork, in one place.'}
          </p>
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
            {isPartner
              ? 'Submit pre-billing, follow your invoices and stay in touch with the team.'
              : 'Leave, documents, expenses, candidates and billing for your consulting teams.'}
          </p>
        </div>
      </aside>
    </div>
  );
}

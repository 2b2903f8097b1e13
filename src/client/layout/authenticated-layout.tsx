// The authenticated shell of both account types (spec §1, §2, §9): sidebar, header with theme
// toggle, bell, profile menu, Beta badge, marquee; verification_url handling and the heartbeat.
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { useSnapshot } from 'valtio';
import { QueryClientProvider } from '@tanstack/react-query';
import { hasPermission, isAdminAccount } from '../../shared/permissions';
import { appMenu, filterMenu, partnerMenu } from '../../shared/menu';
import { routePath, type AccountType } from '../../shared/routes';
import { api } from '../lib/api';
import { onChange } from '../lib/changes';
import { isBeta } from '../lib/config';
import { startRealtime } from '../lib/echo';
import { markRouteChange, navigate, VERIFICATION_PARAM } from '../lib/navigation';
import { apiPrefix, logout, refreshMe, refreshPermissions } from '../lib/session';
import { queryClient } from '../lib/query';
import { notify } from '../lib/toast';
import { isBuilt } from '../routes';
import { auth, useCan } from '../stores/auth';
import { isMobileWidth, toggleSidebar, ui } from '../stores/ui';
import { Badge } from '../ui/badge';
import { focusRing } from '../ui/button';
import { cx } from '../ui/cx';
import { Icon } from '../ui/icons';
import { Spinner } from '../ui/loading';
import { Bell } from './bell';
import { BrandMark } from './brand';
import { Marquee } from './marquee';
import { OfflineIndicator } from './offline-indicator';
import { OutboxMenu } from './outbox-menu';
import { OfflinePrefetch } from '../lib/outbox-prefetch';
import { ProfileMenu } from './profile-menu';
import { Sidebar } from './sidebar';
import { ThemeToggle } from './theme-toggle';
import { useToastRoom } from './toast-room';

export const HEARTBEAT_MS = 2 * 60 * 1000; // spec §9


const followed = new Set<string>();

/** The resources whose changes can turn the user's doc_assigned on or off. */
const DOC_ASSIGNED_FOLLOWS = new Set(['document-assignment', 'document', 'document-assign-history', 'upload-assigned-document']);

/**
 * spec §2/§7: GET the signed verification url (with our bearer), then re-check /me.
 * Only same-origin urls are followed, so a crafted link cannot receive the token.
 */
export async function followVerificationUrl(account: AccountType, raw: string): Promise<void> {
  if (followed.has(raw)) return;
  followed.add(raw);
  let target: URL;
  try { target = new URL(raw, window.location.origin); } catch { return; }
  if (target.origin !== window.location.origin) {
    console.error('Ignored a verification url on another origin');
    return;
  }
  const path = target.pathname.replace(/^\/api(?=\/)/, '') + target.search;
  try {
    const answer = await api.get<{ message?: string }>(path, { account });
    if (answer?.message) notify.success(answer.message);
  } catch {
    /* the wrapper already reported it */
  }
  await refreshMe(account).catch(() => undefined);
}

const iconButton = cx('inline-flex size-9 items-center justify-center rounded-lg text-slate-500 transition-colors hover:bg-slate-100 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white', focusRing);

export function AuthenticatedLayout({ account, routeName, children }: { account: AccountType; routeName: string; children: ReactNode }) {
  const state = useSnapshot(auth[account]);
  const { sidebarCollapsed } = useSnapshot(ui);
  const search = useSearch();
  // Another page (not a query change such as typing a search): its heading will take focus. Marked while
  // rendering, because the new screen's own effects run before this layout's.
  const [pathname] = useLocation();
  const shownPath = useRef(pathname);
  if (pathname !== shownPath.current) {
    shownPath.current = pathname;
    markRouteChange();
  }
  const verificationUrl = new URLSearchParams(search).get(VERIFICATION_PARAM);
  const [isVerifying, setVerifying] = useState(!!verificationUrl);

  // On load: follow a verification link first (the screens' own calls would meet the 409), then /me and the bell.
  useEffect(() => {
    let active = true;
    (async () => {
      if (verificationUrl) {
        await followVerificationUrl(account, verificationUrl);
        const params = new URLSearchParams(window.location.search);
        params.delete(VERIFICATION_PARAM);
        const rest = params.toString();
        navigate(`${window.location.pathname}${rest ? `?${rest}` : ''}`, { replace: true });
        if (active) setVerifying(false);
      } else {
        refreshMe(account).catch(() => undefined);
      }
      // The roles and permissions from their own route (spec §7), mirrored to the one list the checks read.
      refreshPermissions(account).catch(() => undefined);
    })();
    return () => { active = false; };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per layout mount
  }, [account]);

  // --header-height follows the sticky header (the marquee makes it taller): focused fields keep clear
  // of it through their scroll-margin (styles.css).
  const headerRef = useRef<HTMLElement>(null);
  useEffect(() => {
    const header = headerRef.current;
    if (!header || typeof ResizeObserver === 'undefined') return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() => root.style.setProperty('--header-height', `${header.offsetHeight}px`));
    observer.observe(header);
    return () => { observer.disconnect(); root.style.removeProperty('--header-height'); };
  }, []);
  const controlsRef = useRef<HTMLDivElement>(null);
  useToastRoom(controlsRef);

  // spec §2: the upload-assigned-document icon follows doc_assigned, which a live event (a document
  // assigned, a copy rejected) or the person's own step changes: /me is read again when assignments change.
  useEffect(() => onChange((change) => {
    if (account === 'app' && DOC_ASSIGNED_FOLLOWS.has(change.resource)) refreshMe(account).catch(() => undefined);
  }), [account]);

  // spec §4 real-time events: one Echo for this tab while the layout is shown (lib/echo.ts).
  useEffect(() => startRealtime(account), [account]);

  // spec §9 heartbeat; failures only logged (spec §8).
  useEffect(() => {
    const beat = () => api.post(`${apiPrefix(account)}/last-activity`, undefined, { account, silent: true }).catch(() => undefined);
    beat(); // on arrival too, so "active" figures include whoever just signed in
    const timer = window.setInterval(beat, HEARTBEAT_MS);
    return () => window.clearInterval(timer);
  }, [account]);

  // Crossing below the breakpoint collapses the sidebar, as a fresh load there would.
  useEffect(() => {
    let wasMobile = isMobileWidth();
    const onResize = () => {
      const mobile = isMobileWidth();
      if (mobile && !wasMobile) ui.sidebarCollapsed = true;
      wasMobile = mobile;
    };
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);

  const held = state.permissions.permissions;
  const can = useCan(account);
  // The menu's admin-only entry (the audit log) is for admin accounts, as its route (decision 007).
  const isAdmin = account === 'app' && isAdminAccount(state.user);
  const menu = useMemo(
    () => filterMenu(account === 'partner' ? partnerMenu : appMenu, held, isBuilt, hasPermission, isAdmin),
    [account, held, isAdmin],
  );
  const homeRoute = account === 'partner' ? 'partner.dashboard' : 'dashboard';
  const profileRoute = account === 'partner' ? 'partner.profile' : can('can-edit-profile') ? 'profile' : null;
  const announcement = state.announcementAlert;

  const onLogout = async () => {
    await logout(account);
  };

  // The query cache of the signed-in app (lib/query.ts) lives in this lazy chunk, not the login route's.
  return (
    <QueryClientProvider client={queryClient}>
      <div className="flex min-h-screen bg-slate-50 dark:bg-slate-950">
        <a href="#main" className="sr-only z-50 rounded-md bg-indigo-600 px-3 py-2 text-white focus:not-sr-only focus:fixed focus:top-2 focus:left-2">Skip to content</a>
        <Sidebar entries={menu} current={routeName} homeRoute={homeRoute} subtitle={account === 'partner' ? 'Partner Portal' : undefined} />
        <div className="flex min-h-screen min-w-0 flex-1 flex-col">
          <header ref={headerRef} className="sticky top-0 z-20 border-b border-slate-200 bg-white/85 backdrop-blur supports-[backdrop-filter]:bg-white/70 dark:border-slate-800 dark:bg-slate-900/85 dark:supports-[backdrop-filter]:bg-slate-900/70">
            <div className="flex h-16 items-center gap-2 px-3 sm:px-5">
              <button type="button" onClick={toggleSidebar} className={iconButton} data-testid="sidebar-toggle"
                aria-controls="sidebar" aria-expanded={!sidebarCollapsed} aria-label={sidebarCollapsed ? 'Open sidebar' : 'Collapse sidebar'}>
                <Icon name={sidebarCollapsed ? 'menu' : 'panel-left'} />
              </button>
              {sidebarCollapsed && (
                <Link href={routePath(homeRoute)} className={cx('flex items-center rounded-lg', focusRing)} aria-label="Dashboard">
                  <BrandMark className="size-8" />
                </Link>
              )}
              {isBeta && <Badge tone="amber" className="ml-1">Beta Version</Badge>}
              <div ref={controlsRef} className="ml-auto flex items-center gap-1 sm:gap-1.5">
                {account === 'app' && state.user?.doc_assigned && (
                  <Link href={routePath('upload-assigned-document.index')} className={iconButton} aria-label="Upload assigned documents" title="Upload assigned documents">
                    <Icon name="upload" />
                  </Link>
                )}
                <OfflineIndicator />
                <OutboxMenu account={account} />
                <OfflinePrefetch account={account} />
                <ThemeToggle />
                {/* Its unread list waits while the account is pending (a verification link followed): lib/pending.ts. */}
                <Bell account={account} />
                <div className="ml-1 h-6 w-px bg-slate-200 dark:bg-slate-800" aria-hidden="true" />
                <ProfileMenu name={state.user?.name} email={state.user?.email} profileRoute={profileRoute} onLogout={onLogout} />
              </div>
            </div>
            {announcement.status === 'on' && announcement.message && <Marquee message={announcement.message} />}
          </header>
          <main id="main" className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
            {isVerifying
              ? <div className="flex min-h-[40vh] flex-col items-center justify-center gap-3 text-sm text-slate-500 dark:text-slate-400"><Spinner label="Verifying your email" /> Verifying your email…</div>
              : children}
          </main>
        </div>
      </div>
    </QueryClientProvider>
  );
}

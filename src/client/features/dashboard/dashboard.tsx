// Dashboard of both account types: a welcome, the figures GET /api/dashboard (/api/partner/dashboard)
// returns, the account and the unread notifications. Nothing invented.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { useSnapshot } from 'valtio';
import { hasPermission, isAdmin } from '../../../shared/permissions';
import { routePath, routesByName } from '../../../shared/routes';
import { today } from '../../../shared/dates';
import { api } from '../../lib/api';
import { humanize } from '../../lib/format';
import { queryClient, queryKeys } from '../../lib/query';
import { isBuilt, type ScreenProps } from '../../routes';
import { auth } from '../../stores/auth';
import { useUnread } from '../../lib/unread';
import { Badge } from '../../ui/badge';
import { Card, CardHeader, PageHeader } from '../../ui/card';
import { cx } from '../../ui/cx';
import { focusRing } from '../../ui/button';
import { Icon } from '../../ui/icons';
import { Skeleton } from '../../ui/loading';
import { AppDashboardPanels, type AppDashboardData } from './app-dashboard-panels';
import { isPartnerDashboard, PartnerDashboardPanels, type PartnerDashboardData } from './partner-dashboard';
import { SetupChecklistPanel, setupChecklistQuery } from './setup-checklist';
import { EngineerHome, homeQuery } from './engineer-home';

/** `isZero`: a count of nothing, which leads nowhere (its list would be empty). */
type Figure = { key: string; label: string; value: string; isZero?: boolean };

/** Scalar entries of the answer become cards; {label, value} objects too. Anything else is skipped. */
export function figuresOf(data: unknown): Figure[] {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return [];
  return Object.entries(data as Record<string, unknown>).flatMap(([key, value]) => {
    // The unread count has its own live card (it follows the bell).
    if (key === 'unread_notifications') return [];
    if (typeof value === 'number') return [{ key, label: humanize(key), value: value.toLocaleString(), isZero: value === 0 }];
    if (typeof value === 'string' && value.length <= 40) return [{ key, label: humanize(key), value }];
    if (value && typeof value === 'object' && 'value' in value && (typeof (value as { value: unknown }).value === 'number' || typeof (value as { value: unknown }).value === 'string')) {
      const { label, value: inner } = value as { label?: string; value: number | string };
      return [{ key, label: label ?? humanize(key), value: typeof inner === 'number' ? inner.toLocaleString() : inner, isZero: inner === 0 }];
    }
    return [];
  });
}

/** The list each figure counts, with the filter that gives the same count (server modules/dashboard). */
const figureLists: Record<string, { route: string; query?: string }> = {
  admins: { route: 'admin.index', query: 'status=active' },
  managers: { route: 'manager.index', query: 'status=active' },
  users: { route: 'user.index', query: 'status=active' },
  active_users: { route: 'active-user.index' },
  open_positions: { route: 'position.index', query: 'status=open' },
};

/** Where a figure leads: its list, only when that screen exists and the viewer may open it. */
export function figureHref(key: string, held: readonly string[]): string | null {
  const list = figureLists[key];
  const route = list && routesByName[list.route];
  if (!route || !isBuilt(route.name)) return null;
  if (route.permission && !hasPermission(held, route.permission)) return null;
  return `${routePath(route.name)}${list.query ? `?${list.query}` : ''}`;
}

/** What the answer shows: null figures while loading; none when it failed. */
function panelsOf(data: unknown, isError: boolean): { figures: Figure[] | null; partnerData: PartnerDashboardData | null; appData: AppDashboardData | null } {
  if (data === undefined) return { figures: isError ? [] : null, partnerData: null, appData: null };
  // The partner portal's answer has panels of its own rather than flat figures.
  if (isPartnerDashboard(data)) return { figures: [], partnerData: data, appData: null };
  // Besides its figures, the app's answer carries panels (waiting, lists, charts); see app-dashboard-panels.
  return { figures: figuresOf(data), partnerData: null, appData: data && typeof data === 'object' ? data as AppDashboardData : null };
}

const greeting = () => {
  const hour = new Date().getHours();
  return hour < 12 ? 'Good morning' : hour < 18 ? 'Good afternoon' : 'Good evening';
};

/**
 * The figures as cards, each a link to the list it counts when the viewer may open it. A zero is said, not
 * offered as a link to an empty list (as the partner dashboard's "None").
 */
function Figures({ figures, account, held }: { figures: Figure[]; account: ScreenProps['account']; held: readonly string[] }) {
  if (!figures.length) return null;
  return (
    <div className="mb-6 grid grid-cols-2 gap-4 xl:grid-cols-4" data-testid="dashboard-figures">
      {figures.map((figure) => {
        const href = account === 'app' && !figure.isZero ? figureHref(figure.key, held) : null;
        const body = (
          <>
            <p className="flex items-center justify-between gap-2 text-sm font-medium text-slate-500 dark:text-slate-400">
              {figure.label}
              {href && <Icon name="chevron-right" className="size-4 text-slate-400 transition-colors group-hover:text-indigo-500 dark:text-slate-500" />}
            </p>
            <p className="mt-2 text-3xl font-semibold tracking-tight text-slate-900 tabular-nums dark:text-white">{figure.value}</p>
          </>
        );
        return (
          <Card key={figure.key} className={cx(href && 'transition-colors hover:border-indigo-300 dark:hover:border-indigo-500/50')}>
            {href
              ? <Link href={href} aria-label={`${figure.label}: ${figure.value}`} className={cx('group block rounded-[inherit] p-5', focusRing)}>{body}</Link>
              : <div className="p-5">{body}</div>}
          </Card>
        );
      })}
    </div>
  );
}

/** The viewer's account and unread notifications: from the auth state, so drawn at once. */
function AccountCards({ account }: { account: ScreenProps['account'] }) {
  const { user, permissions } = useSnapshot(auth[account]);
  const { count } = useUnread(account);
  const notificationRoute = account === 'partner' ? 'partner.notification.index' : 'notification.index';
  const profileRoute = account === 'partner' ? 'partner.profile' : 'profile';
  const canEditProfile = account === 'partner' || permissions.permissions.includes('can-edit-profile');
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <Card className="lg:col-span-2">
        <CardHeader title="Your account" description="The details this workspace holds about you." />
        <dl className="grid gap-x-6 gap-y-5 px-5 py-5 sm:grid-cols-2">
          <div>
            <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">Name</dt>
            <dd className="mt-1 text-sm text-slate-900 dark:text-white">{user?.name}</dd>
          </div>
          <div className="min-w-0">
            <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">Email</dt>
            <dd className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-900 dark:text-white">
              {/* A long address is cut to the card; the title holds it whole. */}
              <span className="truncate" title={user?.email}>{user?.email}</span>
              {user && (user.email_verified_at ? <Badge tone="green">Verified</Badge> : <Badge tone="yellow">Not verified</Badge>)}
            </dd>
          </div>
          <div>
            <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">Role</dt>
            <dd className="mt-1 flex flex-wrap gap-1.5">
              {permissions.roles.length
                ? permissions.roles.map((role) => <Badge key={role} tone="indigo">{humanize(role)}</Badge>)
                : <span className="text-sm text-slate-500">—</span>}
            </dd>
          </div>
          <div>
            <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">Status</dt>
            <dd className="mt-1">{user?.status && <Badge tone={user.status === 'active' ? 'green' : 'red'}>{humanize(user.status)}</Badge>}</dd>
          </div>
        </dl>
        {canEditProfile && (
          <div className="border-t border-slate-200 px-5 py-3 dark:border-slate-800">
            <Link href={routePath(profileRoute)} className={cx('inline-flex items-center gap-1 rounded text-sm font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400', focusRing)}>
              Edit profile <Icon name="chevron-right" className="size-4" />
            </Link>
          </div>
        )}
      </Card>

      <Card>
        <CardHeader title="Notifications" />
        <div className="px-5 py-5">
          <div className="flex items-center gap-4">
            <div className="flex size-11 items-center justify-center rounded-xl bg-indigo-50 text-indigo-600 dark:bg-indigo-500/10 dark:text-indigo-300">
              <Icon name="bell" />
            </div>
            <div>
              <p className="text-2xl font-semibold text-slate-900 tabular-nums dark:text-white">{count}</p>
              <p className="text-sm text-slate-500 dark:text-slate-400">unread</p>
            </div>
          </div>
        </div>
        <div className="border-t border-slate-200 px-5 py-3 dark:border-slate-800">
          <Link href={routePath(notificationRoute)} className={cx('inline-flex items-center gap-1 rounded text-sm font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400', focusRing)}>
            See all notifications <Icon name="chevron-right" className="size-4" />
          </Link>
        </div>
      </Card>
    </div>
  );
}

/**
 * Decision 046: what the dashboard waits for before it draws anything under its title. The panels'
 * number and heights follow the answers (permissions, data), so no reserved height could match them
 * all: the body appears at once when every answer is in, and nothing already drawn moves.
 */
function useDashboardAnswers(account: ScreenProps['account'], isAppAdmin: boolean) {
  const dashboard = useQuery({
    queryKey: queryKeys.dashboard(account),
    queryFn: ({ signal }) => api.get<{ data: unknown }>(account === 'partner' ? '/partner/dashboard' : '/dashboard', { account, signal }).then((answer) => answer?.data ?? null),
  }, queryClient);
  // The same queries as the setup checklist and the engineer's home: one request each, shared through the cache.
  const checklist = useQuery({ ...setupChecklistQuery, enabled: isAppAdmin }, queryClient);
  const home = useQuery({ ...homeQuery, enabled: account === 'app' && !isAppAdmin }, queryClient);
  const isSettled = (query: { data: unknown; isError: boolean }, enabled = true) => !enabled || query.data !== undefined || query.isError;
  const isSettledNow = isSettled(dashboard) && isSettled(checklist, isAppAdmin) && isSettled(home, account === 'app' && !isAppAdmin);
  // Once drawn, the body stays: a panel that failed refetches when it mounts, and hiding the body
  // again while it does would unmount that panel and start over, for ever.
  const [isReady, setIsReady] = useState(false);
  if (isSettledNow && !isReady) setIsReady(true);
  return { answer: dashboard.data, isError: dashboard.isError, isReady: isReady || isSettledNow };
}

/** Where the body will be, while the answers come: one block, removed whole, so nothing below it moves. */
function DashboardLoading() {
  return (
    <div role="status" aria-label="Loading the dashboard" data-testid="dashboard-loading">
      <div className="mb-6 grid grid-cols-2 gap-4 xl:grid-cols-4">
        {[0, 1, 2, 3].map((i) => <Card key={i} className="p-5"><Skeleton className="h-3 w-24" /><Skeleton className="mt-3 h-7 w-16" /></Card>)}
      </div>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        {[0, 1].map((i) => <Card key={i} className="min-h-64 p-5"><Skeleton className="h-4 w-40" /><Skeleton className="mt-6 h-5 w-full" /><Skeleton className="mt-3 h-5 w-full" /><Skeleton className="mt-3 h-5 w-2/3" /></Card>)}
      </div>
    </div>
  );
}

export default function Dashboard({ account }: ScreenProps) {
  const { user, permissions } = useSnapshot(auth[account]);
  const isAppAdmin = account === 'app' && isAdmin(permissions);
  // Refetched when a resource it counts changes (shared/dashboard.ts, query.ts countedBy), here or live.
  const { answer, isError, isReady } = useDashboardAnswers(account, isAppAdmin);
  const { figures, partnerData, appData } = panelsOf(answer, isError);
  const firstName = user?.name?.split(/\s+/)[0] ?? '';

  return (
    <>
      <PageHeader
        title={`${greeting()}${firstName ? `, ${firstName}` : ''}`}
        description={account === 'partner' ? 'Here is your partner portal at a glance.' : `Today is ${today()}.`}
      />
      {!isReady ? <DashboardLoading /> : (
        <>
          {/* Issue 22: until the firm is set up, the admin's first thing to see. */}
          {isAppAdmin && <SetupChecklistPanel />}
          {/* Issue 28: the caller's own things first (an admin's home is the firm's). */}
          {account === 'app' && !isAppAdmin && <EngineerHome />}
          <Figures figures={figures ?? []} account={account} held={permissions.permissions} />
          {partnerData && <PartnerDashboardPanels data={partnerData} />}
          {appData && <AppDashboardPanels data={appData} />}
          <AccountCards account={account} />
        </>
      )}
    </>
  );
}

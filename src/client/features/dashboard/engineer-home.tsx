// The engineer's home (issue 28), from GET /api/dashboard/mine: quick actions, leave balances, how
// their own leave, claims, time sheets and requests stand (with what each waits for, in the words the
// definitions declare), and their documents to read or return. Each panel keeps its height while its
// data loads, so nothing below it moves. The quick actions open the forms, which queue offline (decision 033).
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { useSnapshot } from 'valtio';
import { hasPermission } from '../../../shared/permissions';
import { resourceByName } from '../../../shared/resources/registry';
import { routePath, routesByName } from '../../../shared/routes';
import type { Home, HomeItem } from '../../../shared/schemas/home';
import { api } from '../../lib/api';
import { queryClient, queryKeys } from '../../lib/query';
import { isBuilt } from '../../routes';
import { auth } from '../../stores/auth';
import { Badge, type Tone } from '../../ui/badge';
import { focusRing } from '../../ui/button';
import { cx } from '../../ui/cx';
import { Icon } from '../../ui/icons';
import { Skeleton } from '../../ui/loading';
import { DashboardPanel, PanelEmpty, PanelGrid, PanelList, PanelRow } from './dashboard-panel';

const routeOf = (name: string | undefined) => (name && routesByName[name] && isBuilt(name) ? name : null);

/** The three things an engineer does most, each only when its screen exists and they may. */
const quickActions = [
  { key: 'leave', label: 'Apply for leave', route: resourceByName['leave-application']?.routes.create, permission: 'can-create-leave-application', icon: 'plus' },
  { key: 'time-sheet', label: 'Upload a time sheet', route: resourceByName['time-sheet']?.routes.index, permission: 'can-add-time-sheet', icon: 'clock' },
  { key: 'expense', label: 'File an expense', route: resourceByName.expense?.routes.create, permission: 'can-add-expense', icon: 'plus' },
] as const;

const badgeTones: Record<string, Tone> = { red: 'red', yellow: 'yellow', green: 'green', gray: 'gray', indigo: 'indigo', amber: 'amber' };

function itemHref(item: HomeItem): string | null {
  const routes = resourceByName[item.resource]?.routes;
  const show = routeOf(routes?.show);
  if (show) return routePath(show, { id: item.id });
  const index = routeOf(routes?.index);
  return index ? `${routePath(index)}?highlight=${item.id}` : null;
}

const days = (value: number | null) => (value === null ? 'No limit' : `${value.toLocaleString('en', { maximumFractionDigits: 1 })} ${value === 1 ? 'day' : 'days'}`);

export function QuickActions() {
  const { permissions } = useSnapshot(auth.app);
  const actions = quickActions.filter((action) => routeOf(action.route) && hasPermission(permissions.permissions, action.permission));
  if (!actions.length) return null;
  return (
    <div className="mb-6 grid grid-cols-1 gap-3 sm:grid-cols-3" data-testid="quick-actions">
      {actions.map((action) => (
        <Link key={action.key} href={routePath(action.route!)}
          className={cx('flex min-h-12 items-center gap-3 rounded-xl border border-slate-200 bg-white px-4 py-3 text-sm font-medium text-slate-800 shadow-sm hover:border-indigo-300 dark:border-slate-800 dark:bg-slate-900 dark:text-slate-100 dark:hover:border-indigo-500/50', focusRing)}>
          <span className="flex size-8 items-center justify-center rounded-lg bg-indigo-50 text-indigo-600 dark:bg-indigo-500/10 dark:text-indigo-300"><Icon name={action.icon} className="size-4" /></span>
          {action.label}
        </Link>
      ))}
    </div>
  );
}

function BalancesPanel({ balances }: { balances: Home['leave_balances'] | undefined }) {
  return (
    <DashboardPanel title="Your leave" description={balances ? `What is left of ${balances.year}, after approved and pending leave.` : 'What is left this year.'}>
      {balances === undefined ? (
        <div className="min-h-40 space-y-3 px-5 py-5" aria-busy="true">{[0, 1, 2].map((i) => <Skeleton key={i} className="h-5 w-full" />)}</div>
      ) : (
        <PanelList className="min-h-40" testId="leave-balances">
          {balances!.items.map((row) => (
            <li key={row.leave_type_id} className="flex items-center justify-between gap-3 px-5 py-3 text-sm">
              <span className="text-slate-700 dark:text-slate-200">{row.name}</span>
              <span className="text-right text-slate-900 tabular-nums dark:text-white">
                {row.remaining === null ? 'No limit' : `${days(row.remaining)} left`}
                {row.pending > 0 && <span className="block text-xs text-slate-500 dark:text-slate-400">{days(row.pending)} waiting for a decision</span>}
              </span>
            </li>
          ))}
        </PanelList>
      )}
    </DashboardPanel>
  );
}

function ItemsPanel({ items, documents }: { items: HomeItem[] | undefined; documents: Home['documents'] | undefined }) {
  const documentsHref = routeOf(resourceByName['document-assign-history']?.routes.index);
  return (
    <DashboardPanel title="Your requests" description="Your leave, claims, time sheets and requests, and what each waits for.">
      {items === undefined ? (
        <div className="min-h-40 space-y-3 px-5 py-5" aria-busy="true">{[0, 1, 2].map((i) => <Skeleton key={i} className="h-8 w-full" />)}</div>
      ) : (
        <div className="min-h-40" data-testid="my-items">
          {documents && (documents.to_read > 0 || documents.to_return_again > 0) && (
            <p className="border-b border-slate-100 px-5 py-3 text-sm text-slate-700 dark:border-slate-800 dark:text-slate-200">
              {documentsHref ? <Link href={routePath(documentsHref)} className={cx('font-medium text-indigo-600 dark:text-indigo-400', focusRing)}>{documentSentence(documents)}</Link> : documentSentence(documents)}
            </p>
          )}
          {items.length === 0 ? (
            <PanelEmpty>Nothing of yours is waiting for anyone.</PanelEmpty>
          ) : (
            <PanelList>
              {items.map((item) => (
                <PanelRow key={`${item.resource}-${item.id}`} href={itemHref(item)}>
                  <span className="min-w-0">
                    <span className="line-clamp-2 text-sm font-medium break-words text-slate-800 dark:text-slate-100">{item.title}</span>
                    {item.waits_for && <span className="block text-xs text-slate-500 dark:text-slate-400">{item.waits_for}.</span>}
                  </span>
                  <Badge tone={badgeTones[item.tone] ?? 'gray'} className="shrink-0">{item.status_label}</Badge>
                </PanelRow>
              ))}
            </PanelList>
          )}
        </div>
      )}
    </DashboardPanel>
  );
}

/** "2 documents to read or return; 1 returned copy to send again." */
function documentSentence({ to_read: read, to_return_again: again }: NonNullable<Home['documents']>): string {
  const first = read > 0 ? `${read} ${read === 1 ? 'document' : 'documents'} to read or return` : '';
  const second = again > 0 ? `${again} returned ${again === 1 ? 'copy' : 'copies'} to send again` : '';
  const sentence = [first, second].filter(Boolean).join('; ');
  return `${sentence[0].toUpperCase()}${sentence.slice(1)}.`;
}

/** GET /api/dashboard/mine, shared with the dashboard, which waits for it before it shows its panels. */
export const homeQuery = {
  queryKey: queryKeys.dashboard('app', 'mine'),
  queryFn: ({ signal }: { signal: AbortSignal }) => api.get<{ data: Home }>('/dashboard/mine', { account: 'app', signal }).then((answer) => answer.data),
};

/** The engineer's own panels, each in its reserved space until GET /api/dashboard/mine answers. */
export function EngineerHome() {
  const { data, isError } = useQuery(homeQuery, queryClient);
  if (isError && !data) return null;
  return (
    <>
      <QuickActions />
      <PanelGrid testId="engineer-home">
        {data?.leave_balances !== null && <BalancesPanel balances={data?.leave_balances ?? undefined} />}
        <ItemsPanel items={data?.items} documents={data?.documents} />
      </PanelGrid>
    </>
  );
}

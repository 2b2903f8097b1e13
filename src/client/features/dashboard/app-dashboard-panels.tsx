// The panels of the main application's dashboard (issue 13), from GET /api/dashboard: what waits for
// the viewer, lists of what expires or is overdue, counts by status or stage as bars, the weighted
// pipeline and the partner invoices awaiting payment. The server only sends what the viewer may open;
// every figure links to the list (with its filter) that it counts.
import { Link } from 'wouter';
import type { AppDashboard, Breakdown, DashboardList, WaitingItem } from '../../../shared/schemas/dashboard';
import type { PipelineAmount } from '../../../shared/resources/deal-tracking';
import { formatMoney } from '../../../shared/resources/expense';
import { humanize } from '../../lib/format';
import { resourceByName } from '../../../shared/resources/registry';
import { routePath, routesByName } from '../../../shared/routes';
import { formatDate } from '../../lib/format';
import { isBuilt } from '../../routes';
import { Badge } from '../../ui/badge';
import { BarChart } from '../../ui/bar-chart';
import { focusRing } from '../../ui/button';
import { cx } from '../../ui/cx';
import { Icon } from '../../ui/icons';
import { DashboardPanel, PanelEmpty, PanelGrid, PanelList, PanelRow } from './dashboard-panel';

// The shapes the server declares for GET /api/dashboard (src/shared/schemas/dashboard.ts).
type Query = Record<string, string>;
export type { Breakdown, DashboardList, WaitingItem };
export type Pipeline = NonNullable<AppDashboard['pipeline']>;
export type AppDashboardData = Pick<AppDashboard, 'waiting' | 'lists' | 'breakdowns' | 'pipeline' | 'invoices_awaiting_payment'>;

/** The index of a resource's list with a filter, when that screen exists here. */
export function listHref(resource: string, query: Query = {}): string | null {
  const route = resourceByName[resource]?.routes.index;
  if (!route || !routesByName[route] || !isBuilt(route)) return null;
  const search = new URLSearchParams(query).toString();
  return `${routePath(route)}${search ? `?${search}` : ''}`;
}

function recordHref(resource: string, id: number): string | null {
  const route = resourceByName[resource]?.routes.show;
  return route && routesByName[route] && isBuilt(route) ? routePath(route, { id }) : listHref(resource);
}

const linkClass = cx('inline-flex items-center gap-1 rounded text-sm font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400', focusRing);

function Waiting({ items }: { items: WaitingItem[] }) {
  return (
    <DashboardPanel title="Waiting for you" description="Records in a state you can move on.">
      {items.length === 0 ? (
        <PanelEmpty className="flex items-center gap-2">
          <Icon name="check" className="size-5 text-emerald-500" /> Nothing waits for you. All caught up.
        </PanelEmpty>
      ) : (
        <PanelList>
          {items.map((item) => (
            <PanelRow key={item.key} href={listHref(item.resource, item.query)}>
              <WaitingText item={item} />
              <Badge tone="yellow">{item.count.toLocaleString()}</Badge>
            </PanelRow>
          ))}
        </PanelList>
      )}
    </DashboardPanel>
  );
}

/** The list's name over where its records stand: "Expenses" / "Waiting for finance to approve". */
function WaitingText({ item }: { item: WaitingItem }) {
  return (
    <span className="min-w-0">
      <span className="block truncate text-sm text-slate-700 dark:text-slate-200" title={item.label}>{item.label}</span>
      {item.detail && <span className="block truncate text-xs text-slate-500 dark:text-slate-400" title={item.detail}>{item.detail}</span>}
    </span>
  );
}

function ListPanel({ list }: { list: DashboardList }) {
  const allHref = list.all ? listHref(list.all.resource, list.all.query) : null;
  const hasMore = list.all && allHref && (list.all.label ? list.all.count > 0 : list.all.count > list.items.length);
  return (
    <DashboardPanel title={list.title} description={list.description}
      footer={hasMore && <Link href={allHref} className={linkClass}>{list.all!.label ?? `See all ${list.all!.count.toLocaleString()}`} <Icon name="chevron-right" className="size-4" /></Link>}>
      {list.items.length === 0 ? (
        <PanelEmpty>{list.empty}</PanelEmpty>
      ) : (
        <PanelList>
          {list.items.map((item) => (
            <PanelRow key={`${item.resource}-${item.id}`} href={recordHref(item.resource, item.id)}>
              <span className="min-w-0">
                <span className="block truncate text-sm font-medium text-slate-800 dark:text-slate-100" title={item.title}>{item.title}</span>
                {item.detail && <span className="block truncate text-xs text-slate-500 dark:text-slate-400" title={item.detail}>{item.detail}</span>}
              </span>
              <span className="flex shrink-0 flex-col items-end gap-1">
                {item.badge && <Badge tone={item.badge.tone}>{item.badge.label}</Badge>}
                {item.date && <span className="text-xs text-slate-500 tabular-nums dark:text-slate-400">{formatDate(item.date)}</span>}
              </span>
            </PanelRow>
          ))}
        </PanelList>
      )}
    </DashboardPanel>
  );
}

function BreakdownPanel({ breakdown }: { breakdown: Breakdown }) {
  const total = breakdown.items.reduce((sum, item) => sum + item.count, 0);
  return (
    <DashboardPanel title={breakdown.title} description={breakdown.description}>
      <div className="px-5 py-5">
        {total === 0
          ? <p className="text-sm text-slate-500 dark:text-slate-400">None yet.</p>
          : <BarChart label={breakdown.title} bars={breakdown.items.map((item) => ({
            // A bar of nothing is said, not a link to an empty list (as the figures' zeros).
            key: item.value, label: item.label, value: item.count, href: item.count > 0 ? listHref(breakdown.resource, item.query) : null,
          }))} />}
      </div>
    </DashboardPanel>
  );
}

const money = (totals: { currency: string; amount: number }[]) => totals.length ? totals.map((t) => formatMoney(t.amount, t.currency)).join(' · ') : '—';

function PipelinePanel({ pipeline }: { pipeline: Pipeline }) {
  // One bar scale across currencies would mislead: bars follow the first currency's weighted amounts.
  const currency = pipeline.by_stage.flatMap((stage) => stage.amounts)[0]?.currency;
  const weightedIn = (amounts: PipelineAmount[]) => amounts.find((a) => a.currency === currency)?.weighted ?? 0;
  const weighted = (amounts: PipelineAmount[]) => money(amounts.map((a) => ({ currency: a.currency, amount: a.weighted })));
  const title = 'Weighted pipeline';
  const description = `Deal value × the stage's probability${currency ? `; bars in ${currency}` : ''}.`;
  // No deal at all: one sentence, rather than six empty bars each worth "—".
  if (pipeline.by_stage.every((stage) => stage.count === 0)) {
    return (
      <DashboardPanel className="lg:col-span-2" title={title} description={description}>
        <PanelEmpty>No deals recorded yet. Deals added under Deal Tracking are weighted here by their stage.</PanelEmpty>
      </DashboardPanel>
    );
  }
  return (
    <DashboardPanel className="lg:col-span-2" title={title} description={description}>
      {/* grid-cols-1, not the implicit column: an owner's long name would widen it past a phone's width. */}
      <div className="grid grid-cols-1 gap-6 px-5 py-5 md:grid-cols-2" data-testid="pipeline-charts">
        <div>
          <h3 className="mb-3 text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">By stage</h3>
          <BarChart label="Weighted pipeline by stage" tone="emerald" bars={pipeline.by_stage.map((stage) => ({
            key: stage.stage, label: `${humanize(stage.stage)} (${stage.probability}%) · ${stage.count}`, value: weightedIn(stage.amounts),
            display: weighted(stage.amounts), href: stage.count > 0 ? listHref(pipeline.resource, { stage: stage.stage }) : null,
          }))} />
        </div>
        <div>
          <h3 className="mb-3 text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400">By owner</h3>
          {pipeline.by_owner.length === 0
            ? <p className="text-sm text-slate-500 dark:text-slate-400">No open deals.</p>
            : <BarChart label="Weighted pipeline by owner" tone="emerald" bars={pipeline.by_owner.map((row) => ({
              key: String(row.owner.id), label: `${row.owner.name} · ${row.count} open`, value: weightedIn(row.amounts),
              display: weighted(row.amounts), href: listHref(pipeline.resource, { owner_id: String(row.owner.id) }),
            }))} />}
        </div>
      </div>
    </DashboardPanel>
  );
}

function InvoicesPanel({ invoices }: { invoices: NonNullable<AppDashboardData['invoices_awaiting_payment']> }) {
  const href = listHref(invoices.resource, invoices.query);
  return (
    <DashboardPanel title="Partner invoices awaiting payment" description="Approved and not yet paid in full: what is outstanding, tax included."
      footer={href && invoices.count > 0 && <Link href={href} className={linkClass}>Open the list <Icon name="chevron-right" className="size-4" /></Link>}>
      {/* Nothing to pay is said in words, not as a "0" over a dash. */}
      {invoices.count === 0 ? <PanelEmpty>No approved invoice is waiting for payment.</PanelEmpty> : (
        <div className="px-5 py-5">
          <p className="text-3xl font-semibold tracking-tight text-slate-900 tabular-nums dark:text-white">{invoices.count.toLocaleString()}</p>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{money(invoices.totals)}</p>
        </div>
      )}
    </DashboardPanel>
  );
}

export function AppDashboardPanels({ data }: { data: AppDashboardData }) {
  return (
    <PanelGrid testId="dashboard-panels">
      {data.waiting && <Waiting items={data.waiting} />}
      {data.lists?.map((list) => <ListPanel key={list.key} list={list} />)}
      {data.breakdowns?.map((breakdown) => <BreakdownPanel key={breakdown.key} breakdown={breakdown} />)}
      {data.pipeline && <PipelinePanel pipeline={data.pipeline} />}
      {data.invoices_awaiting_payment && <InvoicesPanel invoices={data.invoices_awaiting_payment} />}
    </PanelGrid>
  );
}

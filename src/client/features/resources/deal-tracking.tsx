// Deal tracking beside the generic screens (issue 13): values with their currency, the board by
// stage with the weighted pipeline above the list (same filters), the open pipeline by owner, and
// from a won deal the way to open a position or a service request prefilled from it.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { invalidateAfterWrite, queryClient, queryKeys } from '../../lib/query';
import { Link } from 'wouter';
import {
  DEAL_STAGE_PROBABILITY, DEAL_STAGES, dealStageOptions, dealTracking, formatMoney, type DealPipeline, type PipelineAmount,
} from '../../../shared/resources/deal-tracking';
import { abilitiesOf, badgeTone } from '../../../shared/resources/define';
import { routePath } from '../../../shared/routes';
import { api } from '../../lib/api';
import { notify } from '../../lib/toast';
import { Badge } from '../../ui/badge';
import { focusRing } from '../../ui/button';
import { cx } from '../../ui/cx';
import { Icon } from '../../ui/icons';
import { iconAction, usePermissionCheck } from '../../ui/resources/resource-list';
import { listQueryToParams, useListQuery, type Row } from '../../ui/resources/use-resource-query';

const BOARD_LIMIT = 100;

const money = (value: unknown, currency: unknown) => (typeof value === 'number' && typeof currency === 'string' ? formatMoney(value, currency) : String(value ?? ''));
const stageLabel = (stage: string) => dealStageOptions.find((o) => o.value === stage)?.label ?? stage;
const amountsText = (amounts: PipelineAmount[], key: 'value' | 'weighted') => amounts.map((a) => formatMoney(a[key], a.currency)).join(' + ') || '—';

export function DealValue({ row }: { row: Row }) {
  return <span className="font-medium whitespace-nowrap tabular-nums">{money(row.value, row.currency)}</span>;
}

export function DealWeightedValue({ row }: { row: Row }) {
  return (
    <span className="whitespace-nowrap tabular-nums" title={`${String(row.probability)}% of ${money(row.value, row.currency)}`}>
      {money(row.weighted_value, row.currency)}
    </span>
  );
}

/** The list's filters without paging and sorting: what the pipeline and the board summarise. */
function useFilterParams() {
  const { query } = useListQuery(dealTracking);
  const params = listQueryToParams({ ...query, page: 1 });
  for (const key of ['page', 'per_page', 'sort', 'direction']) delete params[key];
  return JSON.stringify(params);
}

/**
 * Above the list: the board by stage (each column with its count, value and weighted value, its deals
 * as cards that move between stages) and the open pipeline by owner.
 */
export function DealBoard() {
  const key = useFilterParams();
  // A summary of the deals: moving a card, a save or a live event about a deal refetches it.
  const { data: board } = useQuery({
    queryKey: queryKeys.summary('deal-tracking', 'board', key),
    queryFn: async ({ signal }) => {
      const params = JSON.parse(key) as Record<string, string | number>;
      const [totals, list] = await Promise.all([
        api.get<{ data: DealPipeline }>('/deal-tracking/pipeline', { params, silent: true, signal }),
        api.get<{ data: Row[]; meta: { total: number } }>('/deal-tracking', { params: { ...params, per_page: BOARD_LIMIT, sort: 'expected_close_date' }, silent: true, signal }),
      ]);
      return { pipeline: totals.data, cards: { rows: list.data, total: list.meta.total } };
    },
    placeholderData: keepPreviousData,
  }, queryClient);
  const pipeline = board?.pipeline ?? null;
  const cards = board?.cards ?? null;

  const move = async (row: Row, stage: string) => {
    try {
      const answer = await api.patch<{ message: string }>(`/deal-tracking/${String(row.id)}`, { stage });
      notify.success(`${String(row.title)}: ${stageLabel(stage)}. ${answer.message}`);
      invalidateAfterWrite('deal-tracking', Number(row.id));
    } catch { /* the api wrapper shows the server's message */ }
  };

  if (!pipeline || !cards) {
    return <div role="status" aria-label="Loading the pipeline" className="mb-4 h-48 animate-pulse rounded-xl bg-slate-100 dark:bg-slate-800/60" />;
  }
  return (
    <div className="mb-4 space-y-4">
      {/* The board scrolls inside itself: `contain` keeps its width from widening the page, `relative` keeps the
          cards' visually hidden labels (absolutely placed) inside it too. */}
      <section aria-label="Board by stage" className="relative -mx-1 overflow-x-auto px-1 pb-2 [contain:inline-size]">
        <ol className="grid min-w-[58rem] grid-cols-6 gap-2">
          {DEAL_STAGES.map((stage) => {
            const column = pipeline.by_stage.find((s) => s.stage === stage)!;
            const deals = cards.rows.filter((row) => row.stage === stage);
            return (
              <li key={stage} aria-label={`${stageLabel(stage)}: ${column.count} deals`}
                className="flex flex-col rounded-xl border border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900/60">
                <header className="border-b border-slate-200 px-3 py-2.5 dark:border-slate-800">
                  <p className="flex items-center justify-between gap-2">
                    <Badge tone={badgeTone(dealTracking.fields.stage, stage)}>{stage[0].toUpperCase() + stage.slice(1)}</Badge>
                    <span className="text-xs text-slate-500 tabular-nums dark:text-slate-400">{DEAL_STAGE_PROBABILITY[stage]}% · {column.count}</span>
                  </p>
                  <p className="mt-1.5 text-xs text-slate-600 tabular-nums dark:text-slate-300">
                    <span className="block">Value {amountsText(column.amounts, 'value')}</span>
                    <span className="block font-semibold text-slate-900 dark:text-white">Weighted {amountsText(column.amounts, 'weighted')}</span>
                  </p>
                </header>
                <ul className="flex max-h-96 flex-col gap-2 overflow-y-auto p-2">
                  {deals.length === 0 && <li className="px-1 py-3 text-center text-xs text-slate-400 dark:text-slate-500">No deals</li>}
                  {deals.map((row) => (
                    <li key={String(row.id)} className="rounded-lg bg-white p-2.5 text-sm shadow-sm ring-1 ring-slate-200 dark:bg-slate-800 dark:ring-slate-700">
                      <Link href={routePath('deal-tracking.show', { id: String(row.id) })} className={cx('block font-medium text-slate-900 hover:underline dark:text-white', focusRing)}>
                        {String(row.title)}
                      </Link>
                      <p className="mt-0.5 truncate text-xs text-slate-500 dark:text-slate-400">{String((row.client as { name?: string } | null)?.name ?? '')}</p>
                      <p className="mt-1 text-xs tabular-nums text-slate-700 dark:text-slate-200">{money(row.value, row.currency)}</p>
                      {abilitiesOf(row).update && (
                        <label className="mt-2 block text-xs text-slate-500 dark:text-slate-400">
                          <span className="sr-only">Stage of {String(row.title)}</span>
                          <select value={String(row.stage)} onChange={(event) => void move(row, event.target.value)}
                            className={cx('w-full rounded-md border-0 bg-slate-50 py-1 pr-7 pl-2 text-xs text-slate-800 ring-1 ring-inset ring-slate-300 dark:bg-slate-900 dark:text-slate-100 dark:ring-slate-600', focusRing)}>
                            {/* The column header says each stage's probability; the card's choice stays short. */}
                            {DEAL_STAGES.map((value) => <option key={value} value={value}>{value[0].toUpperCase() + value.slice(1)}</option>)}
                          </select>
                        </label>
                      )}
                    </li>
                  ))}
                </ul>
              </li>
            );
          })}
        </ol>
        {cards.total > cards.rows.length && (
          <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">The board shows the first {cards.rows.length} of {cards.total} deals by close date; filter the list to narrow it.</p>
        )}
      </section>
      <section aria-label="Open pipeline by owner" className="rounded-xl border border-slate-200 bg-white px-4 py-3 text-sm dark:border-slate-800 dark:bg-slate-900">
        <h2 className="font-semibold text-slate-900 dark:text-white">Open pipeline by owner</h2>
        <p className="text-xs text-slate-500 dark:text-slate-400">Lead to negotiation; weighted by each stage&apos;s probability.</p>
        {pipeline.by_owner.length === 0
          ? <p className="mt-2 text-slate-500 dark:text-slate-400">No open deals.</p>
          : (
            <ul className="mt-2 grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
              {pipeline.by_owner.map((owner) => (
                <li key={owner.owner.id} className="flex items-baseline justify-between gap-3 rounded-lg bg-slate-50 px-3 py-2 dark:bg-slate-800/60">
                  <span className="min-w-0 truncate text-slate-800 dark:text-slate-100">{owner.owner.name} <span className="text-xs text-slate-500 dark:text-slate-400">({owner.count})</span></span>
                  <span className="text-right font-semibold tabular-nums text-slate-900 dark:text-white">{amountsText(owner.amounts, 'weighted')}</span>
                </li>
              ))}
            </ul>
          )}
      </section>
    </div>
  );
}

/** Where a won deal leads: the create forms of a position and of a request, started with its details. */
export function wonDealLinks(row: Row) {
  const client = row.client as { id: number; name: string } | null;
  const position = new URLSearchParams({ title: String(row.title ?? '') });
  if (client) { position.set('client_id', String(client.id)); position.set('client_id_label', client.name); }
  const request = new URLSearchParams({ title: String(row.title ?? ''), ...(client ? { client_name: client.name } : {}) });
  return { position: `${routePath('position.create')}?${position}`, request: `${routePath('request.create')}?${request}` };
}

export function WonDealActions({ row, can }: { row: Row; can: (permission?: string) => boolean }) {
  if (row.stage !== 'won') return null;
  const links = wonDealLinks(row);
  return (
    <>
      {can('can-add-position') && (
        <Link href={links.position} className={iconAction} aria-label={`Open a position from ${String(row.title)}`} title="Open position">
          <Icon name="briefcase" className="size-4" />
        </Link>
      )}
      {can('can-add-request') && (
        <Link href={links.request} className={iconAction} aria-label={`Open a request from ${String(row.title)}`} title="Open request">
          <Icon name="inbox" className="size-4" />
        </Link>
      )}
    </>
  );
}

const linkButton = cx('inline-flex h-10 items-center justify-center gap-2 rounded-lg bg-white px-4 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50 dark:bg-slate-800 dark:text-slate-100 dark:ring-slate-700 dark:hover:bg-slate-700', focusRing);

/** On a won deal's page: the next steps it opens. */
export function WonDealSection({ row }: { row: Row }) {
  const can = usePermissionCheck('app');
  if (row.stage !== 'won' || !(can('can-add-position') || can('can-add-request'))) return null;
  const links = wonDealLinks(row);
  return (
    <section aria-label="Won deal" className="mt-6 flex flex-col gap-3 rounded-xl border border-emerald-200 bg-emerald-50 px-5 py-4 sm:flex-row sm:items-center sm:justify-between dark:border-emerald-500/30 dark:bg-emerald-500/10">
      <p className="text-sm text-emerald-900 dark:text-emerald-100"><strong>Won.</strong> Open the positions to staff it or a service request to deliver it.</p>
      <div className="flex flex-wrap gap-2">
        {can('can-add-position') && <Link href={links.position} className={linkButton}><Icon name="briefcase" className="size-4" />Open position</Link>}
        {can('can-add-request') && <Link href={links.request} className={linkButton}><Icon name="inbox" className="size-4" />Open request</Link>}
      </div>
    </section>
  );
}

// Deal tracking beside the generic screens (issue 13): values with their currency, the board by
// stage with the weighted pipeline above the list (same filters), the open pipeline by owner, and
// from a won deal the way to open a position or a service request prefilled from it.
import { useState, type DragEvent } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { invalidateAfterWrite, queryClient, queryKeys } from '../../lib/query';
import { Link } from 'wouter';
import {
  DEAL_LOST_REASON_REQUIRED, DEAL_MOVES, DEAL_STAGE_PROBABILITY, DEAL_STAGES, dealStageOptions, dealTracking, formatMoney, type DealPipeline, type DealStage, type PipelineAmount,
} from '../../../shared/resources/deal-tracking';
import { abilitiesOf, badgeTone } from '../../../shared/resources/define';
import { routePath } from '../../../shared/routes';
import { api, isApiError } from '../../lib/api';
import { notify } from '../../lib/toast';
import { Badge } from '../../ui/badge';
import { Button, focusRing } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { Modal } from '../../ui/modal';
import { TextAreaField } from '../../ui/textarea-field';
import { cx } from '../../ui/cx';
import { Icon } from '../../ui/icons';
import { type Move, MoveMenu } from '../../ui/move-menu';
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

  const [dragged, setDragged] = useState<Row | null>(null);
  const [dropTarget, setDropTarget] = useState<DealStage | null>(null);
  const [pending, setPending] = useState<{ row: Row; stage: DealStage } | null>(null);
  const [won, setWon] = useState<Row | null>(null);

  /**
   * Issue 24: a card moves by drag and drop or its Move menu, as the candidate board's do. Won asks to
   * confirm first (it closes the deal at its full value) and then offers the next step; Lost asks why.
   */
  const startMove = (row: Row, stage: DealStage) => {
    if (row.stage === stage) return;
    if (stage === 'won' || stage === 'lost') setPending({ row, stage });
    else void move(row, stage);
  };
  const move = async (row: Row, stage: DealStage, extra: Record<string, unknown> = {}): Promise<boolean> => {
    try {
      const answer = await api.patch<{ data: Row; message: string }>(`/deal-tracking/${String(row.id)}`, { stage, ...extra }, { form: true });
      notify.success(DEAL_MOVES[stage].done(String(row.title)));
      invalidateAfterWrite('deal-tracking', Number(row.id));
      if (stage === 'won') setWon(answer.data ?? { ...row, stage });
      return true;
    } catch (failure) {
      if (isApiError(failure) && failure.status === 422) throw failure;
      return false; // the api wrapper showed the server's message
    }
  };
  const onDrop = (event: DragEvent, stage: DealStage) => {
    event.preventDefault();
    setDropTarget(null);
    const row = dragged;
    setDragged(null);
    if (row) startMove(row, stage);
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
                onDragOver={(event) => { if (dragged && dragged.stage !== stage) { event.preventDefault(); event.dataTransfer.dropEffect = 'move'; setDropTarget(stage); } }}
                onDragLeave={() => setDropTarget((current) => (current === stage ? null : current))}
                onDrop={(event) => onDrop(event, stage)}
                className={cx('flex flex-col rounded-xl border border-slate-200 bg-slate-50 transition-colors dark:border-slate-800 dark:bg-slate-900/60',
                  dragged && dragged.stage !== stage && 'ring-2 ring-indigo-300 dark:ring-indigo-500/50',
                  dropTarget === stage && 'bg-indigo-50 ring-indigo-500 dark:bg-indigo-500/10')}>
                <header className="border-b border-slate-200 px-3 py-2.5 dark:border-slate-800">
                  {/* A phone's narrow column puts the figures under the stage rather than breaking them. */}
                  <p className="flex flex-wrap items-center justify-between gap-x-2 gap-y-1">
                    <Badge tone={badgeTone(dealTracking.fields.stage, stage)}>{stage[0].toUpperCase() + stage.slice(1)}</Badge>
                    <span className="text-xs whitespace-nowrap text-slate-500 tabular-nums dark:text-slate-400">
                      {DEAL_STAGE_PROBABILITY[stage]}% · {column.count} {column.count === 1 ? 'deal' : 'deals'}
                    </span>
                  </p>
                  <p className="mt-1.5 text-xs text-slate-600 tabular-nums dark:text-slate-300">
                    <span className="block">Value {amountsText(column.amounts, 'value')}</span>
                    <span className="block font-semibold text-slate-900 dark:text-white">Weighted {amountsText(column.amounts, 'weighted')}</span>
                  </p>
                </header>
                <ul className="flex max-h-96 flex-col gap-2 overflow-y-auto p-2">
                  {deals.length === 0 && <li className="px-1 py-3 text-center text-xs text-slate-400 dark:text-slate-500">No deals</li>}
                  {deals.map((row) => (
                    <li key={String(row.id)} draggable={abilitiesOf(row).update} data-deal-id={String(row.id)}
                      onDragStart={(event) => { event.dataTransfer.effectAllowed = 'move'; event.dataTransfer.setData('text/plain', String(row.id)); setDragged(row); }}
                      onDragEnd={() => { setDragged(null); setDropTarget(null); }}
                      className={cx('rounded-lg bg-white p-2.5 text-sm shadow-sm ring-1 ring-slate-200 dark:bg-slate-800 dark:ring-slate-700',
                        abilitiesOf(row).update && 'cursor-grab active:cursor-grabbing', dragged?.id === row.id && 'opacity-50')}>
                      <Link href={routePath('deal-tracking.show', { id: String(row.id) })} className={cx('block font-medium text-slate-900 hover:underline dark:text-white', focusRing)}>
                        {String(row.title)}
                      </Link>
                      <p className="mt-0.5 truncate text-xs text-slate-500 dark:text-slate-400">{String((row.client as { name?: string } | null)?.name ?? '')}</p>
                      <p className="mt-1 text-xs tabular-nums text-slate-700 dark:text-slate-200">{money(row.value, row.currency)}</p>
                      {abilitiesOf(row).update && <MoveMenu title={String(row.title)} moves={dealMoves(row, startMove)} className="mt-2" />}
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
            // grid-cols-1, not the implicit column: an owner's long name would widen it past a phone's width.
            <ul className="mt-2 grid grid-cols-1 gap-2 sm:grid-cols-2 lg:grid-cols-3">
              {pipeline.by_owner.map((owner) => (
                // The name keeps its width (a phone cut it to "Manager …"); amounts in two currencies go to the next line instead.
                <li key={owner.owner.id} className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5 rounded-lg bg-slate-50 px-3 py-2 dark:bg-slate-800/60">
                  <span className="max-w-full shrink-0 truncate text-slate-800 dark:text-slate-100">
                    {owner.owner.name} <span className="text-xs text-slate-500 dark:text-slate-400">({owner.count} {owner.count === 1 ? 'deal' : 'deals'})</span>
                  </span>
                  <span className="ml-auto text-right font-semibold tabular-nums text-slate-900 dark:text-white">{amountsText(owner.amounts, 'weighted')}</span>
                </li>
              ))}
            </ul>
          )}
      </section>
      <LostReasons reasons={pipeline.lost_reasons ?? []} />
      {pending?.stage === 'won' && (
        <WonConfirm row={pending.row} onClose={() => setPending(null)} onConfirm={async () => { if (await move(pending.row, 'won')) setPending(null); }} />
      )}
      {pending?.stage === 'lost' && (
        <LostDialog row={pending.row} onClose={() => setPending(null)}
          onSubmit={async (reason) => { if (await move(pending.row, 'lost', { lost_reason: reason })) setPending(null); }} />
      )}
      {won && <NextStepDialog row={won} onClose={() => setWon(null)} />}
    </div>
  );
}

/** A card's moves: every other stage, in the definition's words; Won and Lost ask before they move. */
function dealMoves(row: Row, onMove: (row: Row, stage: DealStage) => void): Move[] {
  return DEAL_STAGES.filter((stage) => stage !== row.stage).map((stage) => ({
    key: stage, label: DEAL_MOVES[stage].button, isDanger: stage === 'lost', onSelect: () => onMove(row, stage),
  }));
}

function WonConfirm({ row, onConfirm, onClose }: { row: Row; onConfirm: () => Promise<void>; onClose: () => void }) {
  const [isSending, setSending] = useState(false);
  const party = (row.client as { name?: string } | null)?.name ?? (typeof row.prospect_name === 'string' ? row.prospect_name : null);
  return (
    <ConfirmDialog open tone="primary" title={`Mark “${String(row.title)}” as won?`} confirmLabel="Mark as won" isLoading={isSending}
      message={`It closes the deal at its full value, ${money(row.value, row.currency)}${party ? `, with ${party}` : ''}.${row.client ? '' : ' The prospect becomes a client.'}`}
      onClose={onClose} onConfirm={() => { setSending(true); void onConfirm().finally(() => setSending(false)); }} />
  );
}

/** Lost asks why (issue 24); the reason is kept on the deal and reported under the board. */
function LostDialog({ row, onSubmit, onClose }: { row: Row; onSubmit: (reason: string) => Promise<void>; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<string[] | undefined>();
  const [isSending, setSending] = useState(false);
  const send = async () => {
    if (!reason.trim()) { setErrors([DEAL_LOST_REASON_REQUIRED]); return; }
    setSending(true);
    try {
      await onSubmit(reason.trim());
    } catch (failure) {
      setErrors(isApiError(failure) ? failure.errors.lost_reason ?? [failure.message] : [String(failure)]);
    } finally {
      setSending(false);
    }
  };
  return (
    <Modal open title={`Why was “${String(row.title)}” lost?`} onClose={onClose}>
      <form noValidate className="space-y-4 px-5 py-5" onSubmit={(event) => { event.preventDefault(); void send(); }}>
        <TextAreaField name="lost_reason" data-field="lost_reason" label={dealTracking.fields.lost_reason.label} rows={3} required data-autofocus
          value={reason} errors={errors} hint="For example: price, timing, chose an incumbent. The pipeline reports the reasons."
          onChange={(event) => { setReason(event.target.value); setErrors(undefined); }} />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={isSending}>Cancel</Button>
          <Button type="submit" variant="danger" isLoading={isSending}>Mark as lost</Button>
        </div>
      </form>
    </Modal>
  );
}

/** After a deal is won: what comes next (the won deal's page offers the same). */
function NextStepDialog({ row, onClose }: { row: Row; onClose: () => void }) {
  const can = usePermissionCheck('app');
  const links = wonDealLinks(row);
  return (
    <Modal open title={`“${String(row.title)}” is won`} onClose={onClose}>
      <div className="space-y-4 px-5 py-5">
        <p className="text-sm text-slate-700 dark:text-slate-200">Next, open the positions to staff it or a service request to deliver it.</p>
        <div className="flex flex-wrap gap-2">
          {can('can-add-position') && <Link href={links.position} className={linkButton}><Icon name="briefcase" className="size-4" />Open position</Link>}
          {can('can-add-request') && <Link href={links.request} className={linkButton}><Icon name="inbox" className="size-4" />Open request</Link>}
          <Button variant="ghost" onClick={onClose}>Later</Button>
        </div>
      </div>
    </Modal>
  );
}

/** Why deals were lost, the most frequent first (GET …/pipeline `lost_reasons`, same filters as the list). */
function LostReasons({ reasons }: { reasons: DealPipeline['lost_reasons'] }) {
  if (!reasons.length) return null;
  return (
    <section aria-label="Why deals were lost" className="rounded-xl border border-slate-200 bg-white px-4 py-3 text-sm dark:border-slate-800 dark:bg-slate-900">
      <h2 className="font-semibold text-slate-900 dark:text-white">Why deals were lost</h2>
      <ul className="mt-2 grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
        {reasons.map((reason) => (
          <li key={reason.reason} className="flex items-baseline justify-between gap-3 rounded-lg bg-slate-50 px-3 py-2 dark:bg-slate-800/60">
            <span className="min-w-0 break-words text-slate-800 dark:text-slate-100">{reason.reason} <span className="text-xs text-slate-500 dark:text-slate-400">({reason.count})</span></span>
            <span className="shrink-0 text-right tabular-nums text-slate-700 dark:text-slate-200">{amountsText(reason.amounts, 'value')}</span>
          </li>
        ))}
      </ul>
    </section>
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

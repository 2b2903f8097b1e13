// The candidates' board (issue 12): one column per hiring stage, a card per candidate, filtered by
// position. A card moves by drag and drop or by its "Move" menu (keyboard), both through the same
// transition routes and dialog as the detail page's buttons: only what the card's
// `available_transitions` offers is offered, and the server decides.
import { useCallback, useState, type DragEvent } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useLocation, useSearch } from 'wouter';
import { transitionButton, type AvailableTransition } from '../../../shared/resources/define';
import { BOARD_STAGES, candidate, durationText, transitionTarget } from '../../../shared/resources/candidate';
import { routePath } from '../../../shared/routes';
import { api, isApiError } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { invalidateAfterWrite, queryClient, queryKeys } from '../../lib/query';
import { notify } from '../../lib/toast';
import type { ScreenProps } from '../../routes';
import { Badge } from '../../ui/badge';
import { Button, focusRing } from '../../ui/button';
import { PageHeader } from '../../ui/card';
import { type ChoiceOption, SearchableSelect } from '../../ui/combobox';
import { cx } from '../../ui/cx';
import { Icon } from '../../ui/icons';
import { MoveMenu } from '../../ui/move-menu';
import { Skeleton } from '../../ui/loading';
import { labelFor, loadOptions } from '../../ui/resources/resource-api';
import { availableTransitions } from '../../ui/resources/resource-values';
import { useTransitionRunner } from '../../ui/resources/workflow';
import type { Row } from '../../ui/resources/use-resource-query';

/** Cards per column; the column says how many more there are and links to its list. */
const COLUMN_SIZE = 50;

interface Column { rows: Row[]; total: number }
type Columns = Record<string, Column | undefined>;

const workflow = candidate.workflow!;
const columnId = (stage: string) => `stage-${stage.toLowerCase().replace(/[^a-z]+/g, '-')}`;

/** The transition that takes this card to `stage`, if the card offers one. */
const moveTo = (row: Row, stage: string): AvailableTransition | undefined =>
  availableTransitions(row).find((t) => transitionTarget(t.name, row) === stage);

export default function CandidateBoard(_props: ScreenProps) {
  const search = useSearch();
  const [, navigate] = useLocation();
  const positionId = new URLSearchParams(search).get('position_id');
  const [chosen, setChosen] = useState<ChoiceOption | null>(null);
  const [dragged, setDragged] = useState<Row | null>(null);
  const [dropTarget, setDropTarget] = useState<string | null>(null);
  // A card moved here (or anywhere): the candidates' lists and summaries refetch, this board among them.
  const reload = useCallback(() => invalidateAfterWrite(candidate.name), []);
  const transitions = useTransitionRunner(candidate, reload);

  // The position in the address (a link, a reload) is named by its label; one just chosen shows at once.
  const { data: positionLabel = null } = useQuery({
    queryKey: queryKeys.recordPart('position', positionId ?? '', 'label'),
    queryFn: () => labelFor('position', positionId!),
    enabled: !!positionId,
  }, queryClient);
  const position = !positionId ? null : chosen && String(chosen.id) === positionId ? chosen : positionLabel;

  // One summary of the candidates: each column's first cards and total. Another position keeps the
  // columns shown until its own arrive.
  const { data: columns = {}, error: failure, refetch } = useQuery<Columns>({
    queryKey: queryKeys.summary(candidate.name, 'board', positionId),
    queryFn: ({ signal }) => Promise.all(BOARD_STAGES.map((stage) => api.get<{ data: Row[]; meta: { total: number } }>('/candidate', {
      params: { stage, per_page: COLUMN_SIZE, ...(positionId ? { position_id: positionId } : {}) }, silent: true, signal,
    }).then((answer) => [stage, { rows: answer.data, total: answer.meta.total }] as const)))
      .then((loaded): Columns => Object.fromEntries(loaded)),
    placeholderData: keepPreviousData,
  }, queryClient);
  const error = failure ? (isApiError(failure) ? failure.message : 'An error occurred.') : null;

  const choosePosition = (choice: ChoiceOption | null) => {
    setChosen(choice);
    navigate(choice ? `${routePath('candidate.board')}?position_id=${encodeURIComponent(String(choice.id))}` : routePath('candidate.board'), { replace: true });
  };

  const start = (row: Row, transition: AvailableTransition) => transitions.start(transition, [row], String(row.name ?? `#${String(row.id)}`));

  const onDrop = (event: DragEvent, stage: string) => {
    event.preventDefault();
    setDropTarget(null);
    const row = dragged;
    setDragged(null);
    if (!row || row.stage === stage) return;
    const transition = moveTo(row, stage);
    if (transition) start(row, transition);
    else notify.warning(`${String(row.name)} cannot move from ${String(row.stage)} to ${stage}.`);
  };

  const isLoading = !error && BOARD_STAGES.some((stage) => !columns[stage]);

  return (
    <>
      <PageHeader title="Candidate Board" description="Drag a card to the next stage, or use its Move menu. Rejecting asks for the reason."
        actions={(
          <Link href={routePath('candidate.index')}
            className={cx('inline-flex h-10 items-center gap-2 rounded-lg bg-white px-3 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-slate-300 ring-inset hover:bg-slate-50 sm:px-4 dark:bg-slate-800 dark:text-slate-100 dark:ring-slate-700 dark:hover:bg-slate-700', focusRing)}>
            <Icon name="list" className="size-4" /><span>List</span>
          </Link>
        )} />
      <div className="mb-4 max-w-sm">
        <SearchableSelect name="position_id" label="Position" value={position} onChange={choosePosition}
          load={(term) => loadOptions('position', term)} placeholder="All positions" />
      </div>
      {error && (
        <div role="alert" className="mb-4 flex items-center justify-between gap-3 rounded-lg bg-rose-50 px-4 py-3 text-sm text-rose-800 ring-1 ring-rose-200 ring-inset dark:bg-rose-500/10 dark:text-rose-200 dark:ring-rose-500/30">
          <span>{error}</span><Button size="sm" variant="secondary" onClick={() => void refetch()}>Try again</Button>
        </div>
      )}
      {/* More stages than fit side by side: each count jumps to its column. */}
      <nav aria-label="Stages" className="mb-3 flex flex-wrap gap-1.5">
        {BOARD_STAGES.map((stage) => (
          <button key={stage} type="button" onClick={() => document.getElementById(columnId(stage))?.scrollIntoView({ behavior: 'smooth', inline: 'start', block: 'nearest' })}
            className={cx('inline-flex h-7 items-center gap-1.5 rounded-full bg-white px-2.5 text-xs font-medium text-slate-700 ring-1 ring-slate-200 ring-inset hover:bg-slate-50 dark:bg-slate-800 dark:text-slate-200 dark:ring-slate-700 dark:hover:bg-slate-700', focusRing)}>
            {stage}<span className="text-slate-500 tabular-nums dark:text-slate-400">{columns[stage]?.total ?? '…'}</span>
          </button>
        ))}
      </nav>
      <div className="-mx-4 flex snap-x snap-mandatory scroll-px-4 gap-4 overflow-x-auto px-4 pb-4 sm:mx-0 sm:scroll-px-0 sm:px-0" aria-busy={isLoading || undefined}>
        {BOARD_STAGES.map((stage) => {
          const column = columns[stage];
          const state = workflow.states[stage];
          const canDrop = !!dragged && dragged.stage !== stage && !!moveTo(dragged, stage);
          return (
            <section key={stage} id={columnId(stage)} aria-label={`${stage} column`}
              onDragOver={(event) => { if (canDrop) { event.preventDefault(); event.dataTransfer.dropEffect = 'move'; setDropTarget(stage); } }}
              onDragLeave={() => setDropTarget((current) => (current === stage ? null : current))}
              onDrop={(event) => onDrop(event, stage)}
              className={cx('flex w-64 shrink-0 snap-start flex-col rounded-xl bg-slate-100 p-2 ring-1 ring-slate-200 ring-inset transition-colors dark:bg-slate-900 dark:ring-slate-800',
                dragged && !canDrop && dragged.stage !== stage && 'opacity-60',
                canDrop && 'ring-2 ring-indigo-300 dark:ring-indigo-500/50',
                dropTarget === stage && 'bg-indigo-50 ring-indigo-500 dark:bg-indigo-500/10')}>
              <h2 className="flex items-center justify-between gap-2 px-2 py-1.5 text-sm font-semibold text-slate-800 dark:text-slate-100">
                <span className="flex items-center gap-2">
                  <span className={cx('size-2 rounded-full', state.tone === 'red' ? 'bg-rose-500' : state.tone === 'green' ? 'bg-emerald-500' : 'bg-slate-400')} aria-hidden="true" />
                  {stage}
                </span>
                <span className="rounded-full bg-white px-2 text-xs font-medium text-slate-600 tabular-nums ring-1 ring-slate-200 dark:bg-slate-800 dark:text-slate-300 dark:ring-slate-700"
                  aria-label={`${column?.total ?? 0} candidates`}>{column?.total ?? '…'}</span>
              </h2>
              <ul className="mt-1 flex min-h-24 flex-col gap-2" aria-label={`Candidates in ${stage}`}>
                {!column && [0, 1].map((i) => <li key={i}><Skeleton className="h-20 rounded-lg" /></li>)}
                {column && !column.rows.length && (
                  <li className="rounded-lg border border-dashed border-slate-300 px-3 py-6 text-center text-xs text-slate-500 dark:border-slate-700 dark:text-slate-400">No candidates</li>
                )}
                {column?.rows.map((row) => (
                  <CandidateCard key={row.id} row={row} onStart={start} isDragged={dragged?.id === row.id}
                    onDragStart={() => setDragged(row)} onDragEnd={() => { setDragged(null); setDropTarget(null); }} />
                ))}
              </ul>
              {column && column.total > column.rows.length && (
                <Link href={`${routePath('candidate.index')}?stage=${encodeURIComponent(stage)}${positionId ? `&position_id=${positionId}` : ''}`}
                  className={cx('mt-2 rounded px-2 py-1 text-xs font-medium text-indigo-600 hover:underline dark:text-indigo-300', focusRing)}>
                  {column.total - column.rows.length} more in the list
                </Link>
              )}
            </section>
          );
        })}
      </div>
      {transitions.dialog}
    </>
  );
}

function CandidateCard({ row, onStart, isDragged, onDragStart, onDragEnd }: {
  row: Row; onStart: (row: Row, transition: AvailableTransition) => void; isDragged: boolean; onDragStart: () => void; onDragEnd: () => void;
}) {
  const moves = availableTransitions(row);
  const name = String(row.name ?? `#${String(row.id)}`);
  const position = (row.position as { title?: string } | null)?.title;
  const recruiter = (row.recruiter as { name?: string } | null)?.name;
  // The time in the stage as of when the card was drawn (the board reloads after every move).
  const [now] = useState(() => Date.now());
  const since = typeof row.stage_changed_at === 'string' ? now - Date.parse(row.stage_changed_at) : null;
  const isDraggable = moves.length > 0;
  return (
    <li draggable={isDraggable} data-candidate-id={row.id}
      onDragStart={(event) => { event.dataTransfer.effectAllowed = 'move'; event.dataTransfer.setData('text/plain', String(row.id)); onDragStart(); }}
      onDragEnd={onDragEnd}
      className={cx('rounded-lg bg-white p-3 text-sm shadow-sm ring-1 ring-slate-200 dark:bg-slate-800 dark:ring-slate-700',
        isDraggable && 'cursor-grab active:cursor-grabbing', isDragged && 'opacity-50')}>
      <div className="flex items-start justify-between gap-2">
        <Link href={routePath('candidate.show', { id: row.id })} className={cx('min-w-0 rounded font-medium break-words text-slate-900 hover:text-indigo-600 dark:text-white dark:hover:text-indigo-300', focusRing)}>
          {name}
        </Link>
        <MoveMenu title={name} align="end" className="shrink-0" moves={moves.map((transition) => ({
          key: transition.name, isDanger: transition.tone === 'danger', onSelect: () => onStart(row, transition),
          label: `${transitionButton(workflow, transition, row)}${transition.requires_comment ? '…' : ''}`,
        }))} />
      </div>
      {position && <p className="mt-1 truncate text-xs text-slate-600 dark:text-slate-300">{position}</p>}
      <div className="mt-2 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-500 dark:text-slate-400">
        {recruiter && <span className="inline-flex items-center gap-1"><Icon name="user" className="size-3.5" />{recruiter}</span>}
        {since !== null && (
          <span title={`In this stage since ${formatDateTime(String(row.stage_changed_at))}`} className="inline-flex items-center gap-1">
            <Icon name="clock" className="size-3.5" />{durationText(since)} in this stage
          </span>
        )}
        {row.stage === 'Rejected' && typeof row.previous_stage === 'string' && <Badge tone="red">at {row.previous_stage}</Badge>}
      </div>
    </li>
  );
}

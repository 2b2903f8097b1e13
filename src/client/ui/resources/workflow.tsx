// The generic screens' part of a definition's workflow (docs/resources.md "Workflows, files, ..."):
// the state badge with its step, buttons from the row's `available_transitions` (the server decides
// who may do what; nothing here repeats the rules), one dialog for single and bulk transitions, the
// bulk bar of the list, and the history timeline of the detail page.
import { useId, useState } from 'react';
import { useForm as useHookForm } from 'react-hook-form';
import { Dialog, DialogPanel, DialogTitle, Description, Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import {
  historyLine, PUBLIC_FORM_ACTOR, transitionCommentSchema, workflowState, type AvailableTransition, type BadgeTone, type HistoryEntry, type ResourceDefinition, type WorkflowDefinition,
} from '../../../shared/resources/define';
import { isApiError } from '../../lib/api';
import { useDirtyGuard } from '../../lib/dirty-guard';
import { formMessage, formResolver, messagesAt, submitForm } from '../../lib/form';
import { formatDateTime, inSentence } from '../../lib/format';
import { notify } from '../../lib/toast';
import { Badge } from '../badge';
import { Button, focusRing } from '../button';
import { Card, CardHeader } from '../card';
import { cx } from '../cx';
import { EmptyState } from '../empty-state';
import { FormAlert } from '../field';
import { Icon } from '../icons';
import { Skeleton } from '../loading';
import { TextAreaField } from '../textarea-field';
import type { AuditEntryView } from '../../../shared/schemas/audit';
import { AuditChanges } from './audit-changes';
import { initialTransitionValues, missingTransitionFields, TransitionFields, transitionFieldsOf, transitionPayload } from './transition-fields';
import { runBulkTransition, runTransition, useRecordTimeline, type BulkResult, type TransitionAnswer } from './resource-api';
import { availableTransitions } from './resource-values';
import type { Row } from './use-resource-query';


/**
 * The state's badge and, while the record is not final, its step ("Waiting for the manager").
 * `note` is what the state alone does not say about this record, the row's `status_note`: why it is
 * there and who decided ("Rejected by Maria Manager: Receipt missing.", decision 063), or a module's
 * own ("Starts on 2026-12-06", "Partly paid: …"); it takes the step's place, written as typed.
 */
export function WorkflowStatus({ workflow, value, note }: { workflow: WorkflowDefinition; value: unknown; note?: string | null }) {
  const state = workflowState(workflow, value);
  const step = note ?? (!state.isFinal ? state.step : undefined);
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
      <Badge tone={state.tone} className="px-2.5 py-1 text-sm">{state.label}</Badge>
      {step && <span className="min-w-0 text-sm break-words whitespace-pre-line text-slate-600 dark:text-slate-300">{step}</span>}
    </div>
  );
}

const buttonVariant = (tone: AvailableTransition['tone']) => (tone === 'danger' ? 'danger' : tone === 'neutral' ? 'secondary' : 'primary');

/** Full-size buttons (detail page), one per available transition. */
/** Why a transition cannot be used now (offline, a decision: lib/outbox-actions), or null. */
type Unavailable = (transition: AvailableTransition) => string | null;

/** Full-size buttons (detail page), one per available transition; one unavailable now says why beside them. */
export function TransitionButtons({ transitions, onStart, disabled, unavailable }: {
  transitions: AvailableTransition[]; onStart: (transition: AvailableTransition) => void; disabled?: boolean; unavailable?: Unavailable;
}) {
  if (!transitions.length) return null;
  const reason = transitions.map((transition) => unavailable?.(transition)).find(Boolean);
  return (
    <div className="flex flex-col gap-2 sm:items-end">
      <div role="group" aria-label="Actions" className="flex flex-wrap gap-2">
        {transitions.map((transition) => {
          const why = unavailable?.(transition);
          return (
            <Button key={transition.name} variant={buttonVariant(transition.tone)} disabled={disabled || !!why} title={why ?? undefined}
              aria-describedby={why ? 'transition-unavailable' : undefined} onClick={() => onStart(transition)}>
              {transition.label}
            </Button>
          );
        })}
      </div>
      {reason && <p id="transition-unavailable" className="max-w-sm text-xs text-slate-500 sm:text-right dark:text-slate-400">{reason}</p>}
    </div>
  );
}

const compactTones = {
  danger: 'text-rose-700 ring-rose-300 hover:bg-rose-50 dark:text-rose-300 dark:ring-rose-500/40 dark:hover:bg-rose-500/10',
  neutral: 'text-slate-700 ring-slate-300 hover:bg-slate-100 dark:text-slate-200 dark:ring-slate-600 dark:hover:bg-slate-800',
  primary: 'text-indigo-700 ring-indigo-300 hover:bg-indigo-50 dark:text-indigo-300 dark:ring-indigo-500/40 dark:hover:bg-indigo-500/10',
};

/** More than this many choices on a row become one "Decide" menu, so the actions column stays narrow. */
const INLINE_ROW_TRANSITIONS = 2;

const menuItemClass = 'flex w-full items-center rounded-md px-3 py-2 text-left text-sm data-focus:bg-slate-100 dark:data-focus:bg-slate-800';
const menuItemTones = { danger: 'text-rose-700 dark:text-rose-300', neutral: 'text-slate-700 dark:text-slate-200', primary: 'text-slate-900 dark:text-white' };

/**
 * A list row's transitions: small text buttons, each naming the row for screen readers ("Approve
 * 2024-05-01"), or a "Decide" menu when there are more than fit beside the row's other actions.
 */
export function RowTransitions({ row, title, onStart, unavailable }: { row: Row; title: string; onStart: (transition: AvailableTransition, row: Row) => void; unavailable?: Unavailable }) {
  const transitions = availableTransitions(row);
  if (transitions.length > INLINE_ROW_TRANSITIONS) {
    return (
      <Menu as="div" className="relative">
        <MenuButton aria-label={`Decide ${title}`}
          className={cx('inline-flex h-7 items-center gap-1 rounded-md px-2 text-xs font-medium whitespace-nowrap ring-1 ring-inset transition-colors', focusRing, compactTones.primary)}>
          Decide<Icon name="chevron-down" className="size-3.5" />
        </MenuButton>
        <MenuItems anchor={{ to: 'bottom end', gap: 6 }}
          className="z-50 min-w-48 rounded-xl border border-slate-200 bg-white p-1 shadow-lg focus:outline-none dark:border-slate-800 dark:bg-slate-900">
          {transitions.map((transition) => (
            <MenuItem key={transition.name}>
              <button type="button" onClick={() => onStart(transition, row)} disabled={!!unavailable?.(transition)} title={unavailable?.(transition) ?? undefined}
                className={cx(menuItemClass, menuItemTones[transition.tone ?? 'primary'], 'disabled:cursor-not-allowed disabled:opacity-50')}>
                {transition.label}{transition.requires_comment ? '…' : ''}
              </button>
            </MenuItem>
          ))}
        </MenuItems>
      </Menu>
    );
  }
  return (
    <>
      {transitions.map((transition) => (
        <button key={transition.name} type="button" aria-label={`${transition.label} ${title}`} onClick={() => onStart(transition, row)}
          disabled={!!unavailable?.(transition)} title={unavailable?.(transition) ?? undefined}
          className={cx('inline-flex h-7 items-center rounded-md px-2 text-xs font-medium whitespace-nowrap ring-1 ring-inset transition-colors disabled:cursor-not-allowed disabled:opacity-50', focusRing,
            compactTones[transition.tone ?? 'primary'])}>
          {transition.label}
        </button>
      ))}
    </>
  );
}

/** The transitions offered on every one of the rows (by name, in the first row's order). */
export function commonTransitions(rows: readonly Row[]): AvailableTransition[] {
  if (!rows.length) return [];
  const [first, ...rest] = rows.map(availableTransitions);
  return first
    .filter((transition) => rest.every((list) => list.some((other) => other.name === transition.name)))
    .map((transition) => ({ ...transition, requires_comment: transition.requires_comment || rest.some((list) => list.some((o) => o.name === transition.name && o.requires_comment)) }));
}

/** "2 were left as they were: …": how many of a bulk step did not happen, and why. */
const leftAsTheyWere = (count: number, reason: string) =>
  `${count === 1 ? '1 was left as it was' : `${count} were left as they were`}: ${/[.!?]$/.test(reason) ? reason : `${reason}.`}`;

/**
 * "You approved 3 leave applications. 1 was left as it was: This leave application is no longer pending."
 * and the toast kind it deserves: the transition's declared `doneMany`, never a state's label.
 */
export function bulkSummary(results: readonly BulkResult[], transition: AvailableTransition, workflow?: WorkflowDefinition): { kind: 'success' | 'warning' | 'error'; text: string } {
  const succeeded = results.filter((result) => result.status >= 200 && result.status < 300).length;
  const failures = new Map<string, number>();
  for (const result of results) {
    if (result.status >= 200 && result.status < 300) continue;
    const message = result.message?.trim() || 'An error occurred.';
    failures.set(message, (failures.get(message) ?? 0) + 1);
  }
  const words = workflow?.transitions.find((t) => t.name === transition.name)?.words;
  const parts: string[] = [];
  // Without the definition (never on a screen that offers the step), the count of those done.
  if (succeeded > 0) parts.push(words ? words.doneMany(succeeded) : `${transition.label}: ${succeeded} done.`);
  for (const [message, count] of failures) parts.push(leftAsTheyWere(count, message));
  return { kind: failures.size === 0 ? 'success' : succeeded > 0 ? 'warning' : 'error', text: parts.join(' ') };
}

/** The transition's own question about this record ("Move Jane Candidate to Interview?"), or about how many. */
export function confirmQuestion(definition: ResourceDefinition, transition: AvailableTransition, rows: readonly Row[], isBulk: boolean): string | null {
  const words = definition.workflow?.transitions.find((t) => t.name === transition.name)?.words;
  if (!words) return null;
  return isBulk || rows.length !== 1 ? words.confirmMany(rows.length) : words.confirm(rows[0]);
}

type Target = { transition: AvailableTransition; rows: readonly Row[]; title: string; isBulk: boolean };

/**
 * One dialog for every transition. A required comment (or a danger transition's optional one) is asked
 * for; other transitions get a plain confirmation. Single: POST /{id}/transitions/{name}; bulk: POST
 * /transitions/{name} with the ids and a per-row report. `onChanged` refetches what the screen shows.
 */
export function useTransitionRunner(definition: ResourceDefinition, onChanged: (answer: TransitionAnswer | undefined, target: { isBulk: boolean }) => void) {
  const [target, setTarget] = useState<Target | null>(null);
  const start = (transition: AvailableTransition, rows: readonly Row[], title: string, isBulk = false) =>
    setTarget({ transition, rows, title, isBulk });
  const dialog = target && (
    <TransitionDialog key={`${target.transition.name}-${target.rows.map((row) => row.id).join(',')}`} definition={definition} target={target}
      onClose={() => setTarget(null)} onChanged={onChanged} />
  );
  return { start, dialog, isOpen: !!target };
}

function TransitionDialog({ definition, target, onClose, onChanged }: {
  definition: ResourceDefinition; target: Target; onClose: () => void; onChanged: (answer: TransitionAnswer | undefined, target: { isBulk: boolean }) => void;
}) {
  const { transition, rows, isBulk } = target;
  const row = rows.length === 1 ? rows[0] : null;
  // Issue 24: what the transition asks for besides the comment (a back-fill person), kept as data.
  const askedFields = transitionFieldsOf(definition, transition.name);
  const [asked, setAsked] = useState(() => initialTransitionValues(definition, askedFields, row));
  const [askedErrors, setAskedErrors] = useState<Record<string, string[] | undefined>>({});
  const ids = rows.map((one) => one.id);
  const form = useHookForm<{ comment: string }>({
    defaultValues: { comment: '' },
    resolver: formResolver(transitionCommentSchema(transition.requires_comment)),
  });
  const comment = form.watch('comment');
  const commentErrors = messagesAt(form.formState.errors, 'comment');
  const { isDirty, isSubmitting: isSending } = form.formState;
  const guard = useDirtyGuard(isDirty);
  const hasComment = transition.requires_comment || transition.tone === 'danger';
  const isDanger = transition.tone === 'danger';
  const commentId = useId();
  const question = confirmQuestion(definition, transition, rows, isBulk) ?? `${transition.label}: ${target.title}?`;

  const close = () => { if (!isSending) guard.confirm(onClose); };

  // The comment as typed is sent (the schema only checks that a required one is not blank).
  const onSubmit = form.handleSubmit(() => submitForm(form, async () => {
    const missing = missingTransitionFields(definition, askedFields, asked);
    if (Object.keys(missing).length) { setAskedErrors(missing); return; }
    const values = askedFields.length ? transitionPayload(asked) : undefined;
    if (isBulk) {
      const results = await runBulkTransition(definition, ids, transition.name, comment, values);
      const summary = bulkSummary(results, transition, definition.workflow);
      notify[summary.kind](summary.text);
      onClose();
      onChanged(undefined, { isBulk });
    } else {
      const answer = await runTransition(definition, ids[0], transition.name, comment, values, row);
      notify.success(answer?.message || `${transition.label}: done.`);
      onClose();
      onChanged(answer, { isBulk });
    }
  }, {
    // The comment's own error sits under it; anything else above the form.
    isField: (path) => (hasComment && path === 'comment') || askedFields.some((field) => field.key === path),
    // 403 / 404 / 409 (someone else decided first): the wrapper toasted the server's message; show what is true now.
    onFailure: (error) => {
      onClose();
      if (isApiError(error) && error.status !== null) onChanged(undefined, { isBulk });
    },
  }));

  return (
    <Dialog open onClose={close} className="relative z-50">
      <div className="fixed inset-0 bg-slate-950/40 backdrop-blur-[2px] dark:bg-black/60" aria-hidden="true" />
      <div className="fixed inset-0 flex items-end justify-center p-4 sm:items-center">
        <DialogPanel as="form" noValidate onSubmit={onSubmit}
          className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-xl dark:border-slate-800 dark:bg-slate-900">
          <div className="flex gap-4">
            <div className={cx('flex size-10 shrink-0 items-center justify-center rounded-full',
              isDanger ? 'bg-rose-100 text-rose-600 dark:bg-rose-500/15 dark:text-rose-400' : 'bg-indigo-100 text-indigo-600 dark:bg-indigo-500/15 dark:text-indigo-300')}>
              <Icon name={isDanger ? 'alert' : 'check'} className="size-5" />
            </div>
            <div className="min-w-0 flex-1">
              <DialogTitle className="text-base font-semibold break-words text-slate-900 dark:text-white">{question}</DialogTitle>
              {hasComment && (
                <Description className="mt-2 text-sm text-slate-600 dark:text-slate-300">
                  {transition.requires_comment ? 'The comment is kept in the history and sent with the notification.' : 'You may add a comment: it is kept in the history.'}
                </Description>
              )}
            </div>
          </div>
          <div className="mt-5 space-y-4 empty:hidden">
            <FormAlert message={formMessage(form)} />
            <TransitionFields definition={definition} fields={askedFields} values={asked} row={row}
              errors={Object.fromEntries(askedFields.map(({ key }) => [key, askedErrors[key] ?? messagesAt(form.formState.errors, key)]))}
              onChange={(key, value) => { setAsked((current) => ({ ...current, [key]: value })); setAskedErrors((current) => ({ ...current, [key]: undefined })); form.clearErrors(key as never); }} />
            {hasComment && (
              <TextAreaField id={commentId} name="comment" data-field="comment" label="Comment" rows={3} value={comment} data-autofocus
                required={transition.requires_comment} errors={commentErrors}
                hint={transition.requires_comment ? 'Required: say why.' : 'Optional.'}
                onChange={(event) => { form.setValue('comment', event.target.value, { shouldDirty: true }); form.clearErrors('comment'); }} />
            )}
          </div>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={close} disabled={isSending}>Cancel</Button>
            <Button type="submit" variant={isDanger ? 'danger' : 'primary'} isLoading={isSending}>{transition.label}</Button>
          </div>
          {guard.prompt}
        </DialogPanel>
      </div>
    </Dialog>
  );
}

/** The list's bar over selected rows: the transitions all of them allow. */
export function BulkBar({ definition, rows, onStart, onClear }: {
  definition: ResourceDefinition; rows: readonly Row[]; onStart: (transition: AvailableTransition) => void; onClear: () => void;
}) {
  const common = commonTransitions(rows);
  const noun = rows.length === 1 ? inSentence(definition.label) : inSentence(definition.pluralLabel);
  return (
    <div role="region" aria-label="Bulk actions"
      className="flex flex-wrap items-center gap-2 border-b border-indigo-200 bg-indigo-50/70 px-4 py-2.5 dark:border-indigo-500/30 dark:bg-indigo-500/10">
      <p aria-live="polite" className="mr-1 text-sm font-medium text-indigo-900 dark:text-indigo-100">{rows.length} selected</p>
      {common.length
        ? common.map((transition) => (
          <Button key={transition.name} size="sm" variant={buttonVariant(transition.tone)} onClick={() => onStart(transition)}
            aria-label={`${transition.label} ${rows.length} selected ${noun}`}>
            {transition.label}
          </Button>
        ))
        : <p className="text-sm text-slate-600 dark:text-slate-300">No action applies to all selected {noun}.</p>}
      <Button variant="ghost" size="sm" className="ml-auto" onClick={onClear}><Icon name="x" className="size-4" />Clear selection</Button>
    </div>
  );
}

const dotTones: Record<BadgeTone, string> = {
  green: 'bg-emerald-500 dark:bg-emerald-400',
  yellow: 'bg-amber-400 dark:bg-amber-300',
  red: 'bg-rose-500 dark:bg-rose-400',
  gray: 'bg-slate-400 dark:bg-slate-500',
};

/**
 * The record's History tab: its workflow steps and its edits (issue 20) on one timeline, oldest first
 * as the steps always were; `reloadKey` changes after each transition.
 */
export function RecordHistory({ definition, id, reloadKey, className }: { definition: ResourceDefinition; id: number; reloadKey: unknown; className?: string }) {
  const { entries, error, retry } = useRecordTimeline(definition, id, reloadKey);
  const { workflow } = definition;
  return (
    <Card className={className}>
      <CardHeader title="History" id={`history-${definition.name}-${id}`} />
      {error && !entries && (
        <EmptyState icon="alert" title="The history could not be loaded" description={error}
          action={<Button variant="secondary" size="sm" onClick={retry}>Try again</Button>} />
      )}
      {!entries && !error && (
        <div role="status" aria-label="Loading history" className="space-y-5 p-5">
          {Array.from({ length: 3 }, (_, i) => <div key={i} className="space-y-2 pl-7"><Skeleton className="h-3.5 w-1/2" /><Skeleton className="h-3 w-1/3" /></div>)}
        </div>
      )}
      {entries && !entries.length && (
        <EmptyState icon="clock" title="No history yet" description={workflow ? 'Changes of status and edits will be listed here.' : 'Edits will be listed here.'} />
      )}
      {entries && entries.length > 0 && (
        <ol aria-labelledby={`history-${definition.name}-${id}`} className="px-5 py-5">
          {entries.map((entry, index) => {
            const isLast = index === entries.length - 1;
            const tone = entry.kind === 'step' && workflow ? workflowState(workflow, entry.to).tone : 'gray';
            return (
              <li key={`${entry.kind}-${entry.created_at}-${index}`} className={cx('relative pl-7', !isLast && 'pb-6')}>
                {!isLast && <span className="absolute top-4 bottom-0 left-[5px] w-px bg-slate-200 dark:bg-slate-700" aria-hidden="true" />}
                <span className={cx('absolute top-1.5 left-0 size-3 rounded-full ring-4 ring-white dark:ring-slate-900', dotTones[tone])} aria-hidden="true" />
                {entry.kind === 'step' && workflow ? <StepEntry workflow={workflow} entry={entry} /> : entry.kind === 'edit' ? <EditEntry entry={entry} /> : null}
              </li>
            );
          })}
        </ol>
      )}
    </Card>
  );
}

/** An entry's sentence ("Maria Manager approved the claim") and when. */
function EntryHeading({ sentence, at }: { sentence: string; at: string }) {
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5">
      <p className="text-sm font-medium text-slate-900 dark:text-white">{sentence}</p>
      <time dateTime={at} className="text-xs text-slate-500 tabular-nums dark:text-slate-400">{formatDateTime(at)}</time>
    </div>
  );
}

function StepEntry({ workflow, entry }: { workflow: WorkflowDefinition; entry: HistoryEntry }) {
  const to = workflowState(workflow, entry.to);
  return (
    <>
      <EntryHeading sentence={historyLine(workflow, entry)} at={entry.created_at} />
      <p className="mt-1.5 flex flex-wrap items-center gap-1.5 text-xs text-slate-500 dark:text-slate-400">
        {/* A step that keeps the state (a payment recorded on an approved invoice) shows it once, not "Approved → Approved". */}
        {entry.from !== null && entry.from !== entry.to && (
          <>
            <Badge tone={workflowState(workflow, entry.from).tone}>{workflowState(workflow, entry.from).label}</Badge>
            <Icon name="arrow-right" className="size-3.5" />
            <span className="sr-only">to</span>
          </>
        )}
        <Badge tone={to.tone}>{to.label}</Badge>
      </p>
      {entry.comment && (
        <blockquote className="mt-2 rounded-lg bg-slate-50 px-3 py-2 text-sm whitespace-pre-line text-slate-700 ring-1 ring-slate-200 ring-inset dark:bg-slate-800/60 dark:text-slate-200 dark:ring-slate-700">
          {entry.comment}
        </blockquote>
      )}
    </>
  );
}

function EditEntry({ entry }: { entry: AuditEntryView }) {
  return (
    <>
      <EntryHeading sentence={`${entry.actor?.name ?? PUBLIC_FORM_ACTOR} ${entry.action === 'create' ? 'created it' : 'edited it'}`} at={entry.created_at} />
      <AuditChanges entry={entry} className="mt-1.5" />
    </>
  );
}

// Candidates beside the generic screens (issue 12): the form that links a refused duplicate to the
// candidate it duplicates, the stage with how long the candidate has been in it, the detail page's
// time per stage and assessment links, and the recruiter's links to the public candidate form (copied
// with the spec §8 copy helper; per position, with an expiry, revocable). Lives beside the other
// resource customisations because the resource screen may not import another feature.
import { useState } from 'react';
import { useForm as useHookForm } from 'react-hook-form';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { workflowState } from '../../../shared/resources/define';
import {
  candidate, type CandidateFormLink, candidateFormLinkSchema, type CreatedCandidateFormLink, durationText, FORM_LINK_EXPIRY_DAYS, stageTimes,
} from '../../../shared/resources/candidate';
import { routePath } from '../../../shared/routes';
import { api, isApiError, type FieldErrors } from '../../lib/api';
import { copyToClipboard } from '../../lib/copy';
import { useDirtyGuard } from '../../lib/dirty-guard';
import { formMessage, submitForm } from '../../lib/form';
import { flattenErrors, payloadResolver } from '../../lib/form-errors';
import { FormAlert } from '../../ui/field';
import { formatDateTime } from '../../lib/format';
import { invalidateAfterWrite, queryClient, queryKeys } from '../../lib/query';
import { notify } from '../../lib/toast';
import { isBuilt } from '../../routes';
import { Badge } from '../../ui/badge';
import { Button, focusRing } from '../../ui/button';
import { Card, CardHeader } from '../../ui/card';
import { type ChoiceOption, SearchableSelect } from '../../ui/combobox';
import { cx } from '../../ui/cx';
import { SelectField } from '../../ui/form-fields';
import { Icon } from '../../ui/icons';
import { Skeleton } from '../../ui/loading';
import { Modal } from '../../ui/modal';
import { SwitchField } from '../../ui/switch-field';
import { loadOptions, saveForm, useHistory } from '../../ui/resources/resource-api';
import {
  ResourceForm, type ResourceFormProps,
} from '../../ui/resources/resource-form';
import { usePermissionCheck } from '../../ui/resources/resource-list';
import type { Row } from '../../ui/resources/use-resource-query';
import { useEmptyChoices } from '../../ui/resources/empty-choices';

const linkClass = cx('rounded font-medium text-indigo-600 hover:underline dark:text-indigo-300', focusRing);

/** A link that looks like the secondary button beside it. */
const linkButton = cx('inline-flex h-10 items-center justify-center gap-2 rounded-lg bg-white px-3 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-slate-300 ring-inset transition-colors hover:bg-slate-50 sm:px-4 dark:bg-slate-800 dark:text-slate-100 dark:ring-slate-700 dark:hover:bg-slate-700', focusRing);

// ---- The stage cell: the badge and how long the candidate has been in it ----

export function CandidateStage({ row }: { row: Row }) {
  const state = workflowState(candidate.workflow!, row.stage);
  const [now] = useState(() => Date.now());
  const since = typeof row.stage_changed_at === 'string' ? now - Date.parse(row.stage_changed_at) : null;
  return (
    <span className="inline-flex flex-wrap items-center gap-x-2 gap-y-1">
      <Badge tone={state.tone} canWrap>{state.label}</Badge>
      {since !== null && !state.isFinal && (
        <span className="text-xs whitespace-nowrap text-slate-500 dark:text-slate-400" title={`In this stage since ${formatDateTime(String(row.stage_changed_at))}`}>
          for {durationText(since)}
        </span>
      )}
    </span>
  );
}

// ---- The form ----

interface DuplicateLink { id: number; name: string; url: string }
const isWide = (key: string) => ['skills', 'notes', 'cv'].includes(key);

/**
 * The generic form's fields and checks; a refused duplicate (same email or phone) also shows a link
 * to the candidate it duplicates, so the recruiter opens that one instead of retyping.
 */
export function CandidateForm(props: ResourceFormProps) {
  const { definition, row } = props;
  const [duplicate, setDuplicate] = useState<DuplicateLink | null>(null);
  return (
    <ResourceForm {...props} label="candidate"
      send={async (payload, form, onProgress) => {
        setDuplicate(null);
        try {
          return await saveForm(definition, payload, form.files, row, onProgress);
        } catch (error) {
          // The 422 of a duplicate also names the record to open instead.
          const found = isApiError(error) ? (error.data as { duplicate?: DuplicateLink } | undefined)?.duplicate : undefined;
          if (found && typeof found.id === 'number') setDuplicate(found);
          throw error;
        }
      }}
      layout={({ field, keys }) => (
        <>
          {duplicate && (
            <div role="alert" className="flex flex-wrap items-center gap-x-2 gap-y-1 rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200 ring-inset dark:bg-amber-500/10 dark:text-amber-100 dark:ring-amber-500/30">
              <Icon name="alert" className="size-4 shrink-0" />
              <span>This person is already a candidate:</span>
              <Link href={duplicate.url} className={linkClass}>{duplicate.name}</Link>
            </div>
          )}
          <div className="grid gap-5 sm:grid-cols-2">
            {keys.map((key) => <div key={key} className={cx(isWide(key) && 'sm:col-span-2')}>{field(key)}</div>)}
          </div>
        </>
      )} />
  );
}

// ---- The detail page ----

/** Below the candidate's fields: the assessments and the time spent in each stage. */
export function CandidateDetail({ row }: { row: Row }) {
  const can = usePermissionCheck('app');
  const id = row.id;
  const { entries, error } = useHistory(candidate, id, `${String(row.stage)}:${String(row.updated_at)}`);
  const times = entries ? stageTimes(entries) : [];
  const longest = Math.max(1, ...times.map((time) => time.ms));
  const showAssessments = isBuilt('candidate.assessments') && can('can-view-candidate');
  const showSend = isBuilt('candidate.send-assessment-link') && can('can-edit-candidate');
  return (
    <div className="mt-6 grid items-start gap-6 lg:grid-cols-3">
      <Card className="lg:col-span-2">
        <CardHeader title="Time in each stage" description="From the stage history; the current stage counts up to now." />
        {error && <p className="px-5 py-4 text-sm text-rose-600 dark:text-rose-400">{error}</p>}
        {!entries && !error && <div role="status" aria-label="Loading" className="space-y-3 px-5 py-4">{[0, 1, 2].map((i) => <Skeleton key={i} className="h-4" />)}</div>}
        {entries && (
          <ul aria-label="Time in each stage" className="divide-y divide-slate-200 dark:divide-slate-800">
            {times.map((time) => (
              <li key={time.stage} className="grid grid-cols-[minmax(0,9rem)_1fr_auto] items-center gap-3 px-5 py-3 text-sm">
                <span className="font-medium text-slate-800 dark:text-slate-100">{time.stage}</span>
                <span className="h-2 overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800" aria-hidden="true">
                  <span className={cx('block h-full rounded-full', time.isCurrent ? 'bg-indigo-500 dark:bg-indigo-400' : 'bg-slate-400 dark:bg-slate-500')}
                    style={{ width: `${Math.max(2, Math.round((time.ms / longest) * 100))}%` }} />
                </span>
                <span className="text-right whitespace-nowrap text-slate-600 tabular-nums dark:text-slate-300">
                  {durationText(time.ms)}{time.visits > 1 ? ` (${time.visits}×)` : ''}{time.isCurrent ? ' · now' : ''}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Card>
      {(showAssessments || showSend) && (
        <Card>
          <CardHeader title="Assessments" description="Online skill tests sent to the candidate." />
          <div className="flex flex-col gap-2 px-5 py-4">
            {showSend && (
              <Link href={routePath('candidate.send-assessment-link', { id })} className={cx(linkButton, 'w-full')}>
                <Icon name="mail" className="size-4" />Send assessment link
              </Link>
            )}
            {showAssessments && (
              <Link href={routePath('candidate.assessments', { id })} className={cx(linkButton, 'w-full')}>
                <Icon name="list" className="size-4" />Assessments
              </Link>
            )}
          </div>
        </Card>
      )}
    </div>
  );
}

// ---- Links to the public candidate form ----

const linkState = (link: CandidateFormLink): { label: string; tone: 'green' | 'gray' | 'red' | 'yellow' } => {
  if (link.revoked_at) return { label: 'Revoked', tone: 'red' };
  if (Date.parse(link.expires_at) <= Date.now()) return { label: 'Expired', tone: 'gray' };
  if (link.max_uses !== null && link.uses >= link.max_uses) return { label: 'Used', tone: 'gray' };
  return { label: 'Active', tone: 'green' };
};

/**
 * The button that opens the link dialog: on the candidate list (any open position) or on a position's
 * row (that position). A link's token is shown once, right after it is made: copy it then.
 */
export function CandidateFormLinkButton({ position, isIconOnly }: { position?: ChoiceOption; isIconOnly?: boolean }) {
  const [isOpen, setOpen] = useState(false);
  const label = position ? `Candidate form link for ${position.label}` : 'Candidate form link';
  return (
    <>
      {isIconOnly ? (
        <button type="button" onClick={() => setOpen(true)} aria-label={label} title="Candidate form link"
          className={cx('inline-flex size-8 items-center justify-center rounded-lg text-slate-500 transition-colors hover:bg-slate-100 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white', focusRing)}>
          <Icon name="link" className="size-4" />
        </button>
      ) : (
        <button type="button" onClick={() => setOpen(true)} className={linkButton} aria-label={label} title="Candidate form link">
          <Icon name="link" className="size-4" /><span className="hidden sm:inline">Candidate form link</span>
        </button>
      )}
      <Modal open={isOpen} title="Link to the candidate form" onClose={() => setOpen(false)} size="lg">
        {isOpen && <CandidateFormLinks initialPosition={position ?? null} />}
      </Modal>
    </>
  );
}

interface LinkValues { position_id: ChoiceOption | null; expires_in_days: string; is_single_use: boolean }

const linkPayload = (values: LinkValues) =>
  ({ position_id: values.position_id ? Number(values.position_id.id) : undefined, expires_in_days: Number(values.expires_in_days), is_single_use: values.is_single_use });

function CandidateFormLinks({ initialPosition }: { initialPosition: ChoiceOption | null }) {
  const noPositions = useEmptyChoices('position');
  const form = useHookForm<LinkValues>({
    defaultValues: { position_id: initialPosition, expires_in_days: '7', is_single_use: true },
    resolver: payloadResolver<LinkValues>(candidateFormLinkSchema, linkPayload,
      (values): FieldErrors => (values.position_id ? {} : { position_id: ['Choose the position the link is for.'] })),
  });
  const { position_id: position, expires_in_days: days, is_single_use: isSingleUse } = form.watch();
  const errors = flattenErrors(form.formState.errors);
  const { isDirty, isSubmitting: isMaking } = form.formState;
  const guard = useDirtyGuard(isDirty);
  const [created, setCreated] = useState<CreatedCandidateFormLink | null>(null);
  const set = <K extends keyof LinkValues>(key: K, value: LinkValues[K]) => { form.setValue(key, value as never, { shouldDirty: true }); form.clearErrors(key); };

  // A link made or revoked here, or a candidate applying through one (it is spent), refetches them
  // (query.ts EXTRA_COUNTS). Another position keeps the links shown until its own arrive.
  const { data: loaded, isError } = useQuery<CandidateFormLink[]>({
    queryKey: queryKeys.screen('candidate-form-links', position?.id ?? null),
    queryFn: ({ signal }) => api.get<{ data: CandidateFormLink[] }>('/candidate/form-links', { params: { position_id: position!.id }, silent: true, signal })
      .then((answer) => answer.data),
    enabled: !!position,
    placeholderData: keepPreviousData,
  }, queryClient);
  const links = !position ? null : isError ? [] : loaded ?? null;

  const make = form.handleSubmit((checked) => submitForm(form,
    () => api.post<{ data: CreatedCandidateFormLink }>('/candidate/form-links', linkPayload(checked), { form: true }), {
      onSaved: (answer) => {
        // The link is made: what was chosen is the form's clean state (closing asks nothing).
        form.reset(checked);
        setCreated(answer.data);
        invalidateAfterWrite('candidate-form-link', answer.data.id);
        void copyToClipboard(answer.data.url);
      },
    }));

  const revoke = async (link: CandidateFormLink) => {
    try {
      const answer = await api.delete<{ message: string }>(`/candidate/form-links/${link.id}`);
      notify.success(answer.message);
      if (created?.id === link.id) setCreated(null);
      invalidateAfterWrite('candidate-form-link', link.id);
    } catch { /* the wrapper showed the message */ }
  };

  return (
    <div className="space-y-6 px-5 py-5">
      <form noValidate onSubmit={make} aria-label="Make a candidate form link" className="space-y-4">
        <p className="text-sm text-slate-600 dark:text-slate-300">
          The candidate fills in their details and uploads a CV without an account. They start in Screening for this position, and you are told at once.
        </p>
        <FormAlert message={formMessage(form)} />
        <SearchableSelect name="position_id" label="Position" required value={position} errors={errors.position_id}
          onChange={(choice) => { set('position_id', choice); setCreated(null); form.clearErrors(); }}
          load={(search) => loadOptions('position', search, { status: 'open' })} placeholder="Search open positions…" emptyChoices={noPositions} />
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField name="expires_in_days" label="Expires after" value={days} errors={errors.expires_in_days} emptyLabel="Choose…"
            options={FORM_LINK_EXPIRY_DAYS.map((d) => ({ value: d, label: d === 1 ? '1 day' : `${d} days` }))}
            onChange={(event) => set('expires_in_days', event.target.value)} />
          <SwitchField name="is_single_use" label="One candidate only" checked={isSingleUse} onChange={(on) => set('is_single_use', on)}
            description={isSingleUse ? 'Spent once a candidate has applied.' : 'Any number of candidates until it expires (a job posting).'} />
        </div>
        <div className="flex justify-end">
          <Button type="submit" isLoading={isMaking}><Icon name="link" className="size-4" />Make and copy link</Button>
        </div>
      </form>

      {created && (
        <div className="rounded-lg bg-emerald-50 p-4 ring-1 ring-emerald-200 ring-inset dark:bg-emerald-500/10 dark:ring-emerald-500/30">
          <p className="text-sm font-medium text-emerald-900 dark:text-emerald-100">Link made. It is shown only now: copy it before closing.</p>
          <div className="mt-2 flex flex-col gap-2 sm:flex-row">
            <input readOnly value={created.url} aria-label="Candidate form link" onFocus={(event) => event.target.select()}
              className="min-w-0 flex-1 rounded-lg border-0 bg-white px-3 py-2 font-mono text-xs text-slate-800 ring-1 ring-slate-300 ring-inset dark:bg-slate-900 dark:text-slate-100 dark:ring-slate-700" />
            <Button variant="secondary" onClick={() => { void copyToClipboard(created.url); }}><Icon name="copy" className="size-4" />Copy</Button>
          </div>
          <p className="mt-2 text-xs text-emerald-800 dark:text-emerald-200">Expires {formatDateTime(created.expires_at)}.</p>
        </div>
      )}

      {position && (
        <section aria-label="Links of this position">
          <h3 className="mb-2 text-sm font-semibold text-slate-900 dark:text-white">Links of this position</h3>
          {!links && <Skeleton className="h-10" />}
          {links && !links.length && <p className="text-sm text-slate-500 dark:text-slate-400">No links made for this position yet.</p>}
          {links && links.length > 0 && (
            <ul className="divide-y divide-slate-200 rounded-lg ring-1 ring-slate-200 dark:divide-slate-800 dark:ring-slate-800">
              {links.map((link) => {
                const state = linkState(link);
                return (
                  <li key={link.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-sm">
                    <Badge tone={state.tone}>{state.label}</Badge>
                    <span className="text-slate-700 dark:text-slate-200">
                      {link.max_uses === null ? `${link.uses} applied` : `${link.uses} of ${link.max_uses} used`} · expires {formatDateTime(link.expires_at)}
                    </span>
                    <span className="text-xs text-slate-500 dark:text-slate-400">by {link.created_by?.name ?? 'someone'}</span>
                    {state.label === 'Active' && (
                      <Button variant="secondary" size="sm" className="ml-auto text-rose-600 dark:text-rose-400" onClick={() => { void revoke(link); }}
                        aria-label={`Revoke the link made ${formatDateTime(link.created_at)}`}>Revoke</Button>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
        </section>
      )}
      {guard.prompt}
    </div>
  );
}

/** The list's header: the board, and a link to the candidate form. */
export function CandidateHeaderActions() {
  const can = usePermissionCheck('app');
  return (
    <>
      <Link href={routePath('candidate.board')} className={linkButton} aria-label="Board" title="Board">
        <Icon name="columns" className="size-4" /><span className="hidden sm:inline">Board</span>
      </Link>
      {can('can-add-candidate') && <CandidateFormLinkButton />}
    </>
  );
}

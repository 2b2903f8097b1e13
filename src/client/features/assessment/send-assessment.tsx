// Send an assessment link (route candidate.send-assessment-link, can-edit-candidate): the recruiter
// picks question categories, how many questions per skill level, the duration and the link's expiry.
// The server mails the link; this screen shows it once more to copy (only its hash is kept, so it
// cannot be shown again later). GET/POST /candidate/{id}/send-assessment-link.
import { useEffect, useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { routePath } from '../../../shared/routes';
import { MAX_DURATION_MINUTES, MAX_QUESTIONS_PER_LEVEL, type SendAssessmentForm, sendAssessmentSchema, type SentAssessment } from '../../../shared/schemas/assessment';
import { skillLevels } from '../../../shared/resources/question';
import { api, isApiError } from '../../lib/api';
import { copyToClipboard } from '../../lib/copy';
import { useDirtyGuard } from '../../lib/dirty-guard';
import { formMessage, messagesAt, submitForm } from '../../lib/form';
import { payloadResolver } from '../../lib/form-errors';
import { invalidateAfterWrite, queryClient, queryKeys } from '../../lib/query';
import { notify } from '../../lib/toast';
import type { ScreenProps } from '../../routes';
import { Button } from '../../ui/button';
import { Card, CardHeader, PageHeader } from '../../ui/card';
import { FormAlert, TextField } from '../../ui/field';
import { EmptyState } from '../../ui/empty-state';
import { Icon } from '../../ui/icons';
import { Skeleton } from '../../ui/loading';
import { BackLink } from '../../ui/resources/resource-detail';

type Level = '1' | '2' | '3';

const LEVELS: Level[] = ['1', '2', '3'];
const DEFAULT_EXPIRY_DAYS = 3;
/** How many of each level a link asks for, when the chosen categories hold that many (issue 24). */
const SUGGESTED: Record<Level, number> = { 1: 5, 2: 3, 3: 2 };

/** A datetime-local value (the browser's local time) some days from now. */
function localDateTime(daysFromNow: number): string {
  const date = new Date(Date.now() + daysFromNow * 86_400_000);
  date.setSeconds(0, 0);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

const linkClass = 'font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400 dark:hover:text-indigo-300';

/** The form as react-hook-form holds it: the chosen categories, and the number inputs' texts. */
interface SendValues { question_category_ids: number[]; questions_per_level: Record<Level, string>; duration_minutes: string; expires_at: string }

const textToCount = (text: string) => (text === '' ? Number.NaN : Number(text));

/** What the server reads (sendAssessmentSchema): numbers, and the expiry as an instant. */
const toPayload = (values: SendValues) => ({
  question_category_ids: values.question_category_ids,
  // A level the bank holds none of is a disabled input, which the form may leave out: it asks for 0.
  questions_per_level: Object.fromEntries(LEVELS.map((level) => [level, textToCount(values.questions_per_level?.[level] ?? '0')])),
  duration_minutes: values.duration_minutes === '' ? Number.NaN : Number(values.duration_minutes),
  expires_at: values.expires_at ? new Date(values.expires_at).toISOString() : '',
});

const resolver = payloadResolver<SendValues>(sendAssessmentSchema as never, toPayload);

export default function SendAssessment({ params }: ScreenProps) {
  const candidateId = params.id;
  // On the form engine (decision 013): the shared schema over the payload, submitForm, a 422 on its field.
  const form = useForm<SendValues>({
    defaultValues: { question_category_ids: [], questions_per_level: { 1: '0', 2: '0', 3: '0' }, duration_minutes: '30', expires_at: localDateTime(DEFAULT_EXPIRY_DAYS) },
    resolver,
  });
  const { errors, isDirty, isSubmitting, isSubmitSuccessful } = form.formState;
  const guard = useDirtyGuard(isDirty && !isSubmitSuccessful);
  const chosen = form.watch('question_category_ids');
  const [sentUrl, setSentUrl] = useState<string | null>(null);
  const categoriesId = useId();
  const sentTitleId = useId();
  // The form (and its Send button) gives way to the link: focus moves to the link, selected to copy,
  // rather than falling back to the page's top where a keyboard or screen-reader user loses their place.
  const sentLink = useRef<HTMLInputElement>(null);
  useEffect(() => { if (sentUrl) sentLink.current?.focus(); }, [sentUrl]);
  const fieldError = (path: string) => messagesAt(errors, path);
  /** A text field of the form: registered (a failed check focuses it), its old error gone once changed. */
  const field = (path: 'duration_minutes' | 'expires_at' | `questions_per_level.${Level}`) => ({
    ...form.register(path, { onChange: () => form.clearErrors(path.startsWith('questions_per_level') ? [path, 'questions_per_level'] : path) }),
    errors: fieldError(path),
  });

  // A part of the candidate's record: what may be asked (categories) and who it goes to.
  const { data = null, error: failure } = useQuery({
    queryKey: queryKeys.recordPart('candidate', candidateId, 'send-assessment-link'),
    queryFn: ({ signal }) => api.get<{ data: SendAssessmentForm }>(`/candidate/${candidateId}/send-assessment-link`, { signal }).then((answer) => answer.data),
  }, queryClient);
  const loadError = failure ? (isApiError(failure) ? failure.message : 'The form could not be loaded.') : null;

  // What the chosen categories can supply, so the recruiter sees the limits before sending.
  const availableFor = (ids: number[]) => {
    const sums: Record<Level, number> = { 1: 0, 2: 0, 3: 0 };
    for (const category of data?.categories ?? []) {
      if (!ids.includes(category.id)) continue;
      for (const level of LEVELS) sums[level] += category.questions_per_level[level];
    }
    return sums;
  };
  const available = availableFor(chosen);
  /**
   * Issue 24: never more than the bank holds. A level the recruiter has not typed in follows the
   * suggestion capped by what the chosen categories have, so no form arrives filled with questions
   * that do not exist.
   */
  const choose = (ids: number[]) => {
    form.setValue('question_category_ids', ids, { shouldDirty: true });
    const holds = availableFor(ids);
    for (const level of LEVELS) {
      if (!form.getFieldState(`questions_per_level.${level}`).isDirty) {
        form.setValue(`questions_per_level.${level}`, String(Math.min(SUGGESTED[level], holds[level])));
      }
    }
    form.clearErrors(['question_category_ids', 'questions_per_level']);
  };

  const onSubmit = form.handleSubmit((values) => submitForm(form,
    () => api.post<{ data: SentAssessment; message: string }>(`/candidate/${candidateId}/send-assessment-link`, toPayload(values), { form: true }),
    {
      onSaved: (answer) => {
        invalidateAfterWrite('candidate', candidateId); // its assessments list the one just sent
        form.reset(values);
        setSentUrl(answer.data.url);
        notify.success(answer.message);
      },
    }));

  const resultsHref = routePath('candidate.assessments', { id: candidateId });
  if (loadError) {
    return (
      <Card><EmptyState icon="alert" title="This candidate cannot be loaded" description={loadError} /></Card>
    );
  }
  if (!data) {
    return (
      <div aria-busy="true" aria-label="Loading the form" className="space-y-4">
        <Skeleton className="h-8 w-72" />
        <Skeleton className="h-64 w-full" />
      </div>
    );
  }


  return (
    <div className="mx-auto max-w-3xl">
      {/* The way back to the candidate this link is for, as on every other page under a record. */}
      <BackLink href={routePath('candidate.show', { id: candidateId })}>Back to {data.candidate.name}</BackLink>
      <PageHeader title="Send Assessment Link" description={<>For <strong className="font-medium text-slate-700 dark:text-slate-200">{data.candidate.name}</strong> ({data.candidate.email})</>}
        actions={<Link href={resultsHref} className={linkClass}>Assessments</Link>} />

      {sentUrl ? (
        <Card>
          <CardHeader id={sentTitleId} title="Link sent" description={`${data.candidate.email} has it by mail. The link works once; copy it now if you want to send it another way: it cannot be shown again.`} />
          <div className="space-y-4 px-5 py-5">
            <div className="flex flex-col gap-2 sm:flex-row">
              <input ref={sentLink} readOnly value={sentUrl} aria-label="Assessment link" aria-describedby={sentTitleId} onFocus={(event) => event.currentTarget.select()}
                className="min-w-0 flex-1 rounded-lg border-0 bg-slate-50 px-3 py-2 font-mono text-xs text-slate-700 ring-1 ring-slate-300 ring-inset dark:bg-slate-800 dark:text-slate-200 dark:ring-slate-700" />
              <Button variant="secondary" onClick={() => void copyToClipboard(sentUrl)}><Icon name="file" className="size-4" />Copy link</Button>
            </div>
            <div className="flex flex-wrap gap-3">
              <Link href={resultsHref} className={linkClass}>See the candidate's assessments</Link>
              <button type="button" className={linkClass} onClick={() => setSentUrl(null)}>Send another link</button>
            </div>
          </div>
        </Card>
      ) : (
        <Card>
          <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-6 px-5 py-5" aria-label="Send assessment link">
            <FormAlert message={formMessage(form)} />
            <fieldset aria-describedby={`${categoriesId}-error`}>
              <legend className="mb-1.5 text-sm font-medium text-slate-700 dark:text-slate-200">Question categories <span className="text-rose-600">*</span></legend>
              {data.categories.length === 0 ? (
                <p className="text-sm text-slate-500 dark:text-slate-400">There are no active question categories yet: add categories and questions first.</p>
              ) : (
                <ul className="grid gap-2 sm:grid-cols-2">
                  {data.categories.map((category, index) => (
                    <li key={category.id}>
                      <label className="flex cursor-pointer items-start gap-3 rounded-lg px-3 py-2 ring-1 ring-slate-200 ring-inset has-checked:bg-indigo-50 has-checked:ring-indigo-300 dark:ring-slate-700 dark:has-checked:bg-indigo-500/10 dark:has-checked:ring-indigo-500/40">
                        <input type="checkbox" name="question_category_ids" data-field={index === 0 ? 'question_category_ids' : undefined}
                          checked={chosen.includes(category.id)}
                          onChange={(event) => {
                            choose(event.target.checked ? [...chosen, category.id] : chosen.filter((id) => id !== category.id));
                          }}
                          className="mt-0.5 size-4 rounded border-slate-300 accent-indigo-600 dark:border-slate-600" />
                        <span className="min-w-0">
                          <span className="block text-sm font-medium text-slate-800 dark:text-slate-100">{category.name}</span>
                          <span className="block text-xs text-slate-500 dark:text-slate-400">
                            {LEVELS.map((level) => `${category.questions_per_level[level]} ${String(skillLevels[Number(level) - 1].label).toLowerCase()}`).join(' · ')}
                          </span>
                        </span>
                      </label>
                    </li>
                  ))}
                </ul>
              )}
              <div id={`${categoriesId}-error`} aria-live="polite">
                {fieldError('question_category_ids')?.map((m) => <p key={m} className="mt-1.5 text-sm text-rose-600 dark:text-rose-400">{m}</p>)}
              </div>
            </fieldset>

            <fieldset>
              <legend className="mb-1.5 text-sm font-medium text-slate-700 dark:text-slate-200">Questions per skill level</legend>
              <div className="grid gap-4 sm:grid-cols-3">
                {LEVELS.map((level) => (
                  <TextField key={level} label={String(skillLevels[Number(level) - 1].label)} type="number" inputMode="numeric"
                    min={0} max={Math.min(MAX_QUESTIONS_PER_LEVEL, available[level])} {...field(`questions_per_level.${level}`)}
                    disabled={available[level] === 0 && form.watch(`questions_per_level.${level}`) === '0'}
                    hint={!chosen.length ? 'Choose categories first.' : available[level] ? `The chosen categories hold ${available[level]}.` : 'None in the chosen categories.'} />
                ))}
              </div>
              {(errors.questions_per_level?.message ? [String(errors.questions_per_level.message)] : undefined)?.map((m) => <p key={m} className="mt-1.5 text-sm text-rose-600 dark:text-rose-400" aria-live="polite">{m}</p>)}
              <p className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">The questions are drawn at random when the candidate starts.</p>
            </fieldset>

            <div className="grid gap-4 sm:grid-cols-2">
              <TextField label="Duration (minutes)" type="number" inputMode="numeric" min={1} max={MAX_DURATION_MINUTES} required {...field('duration_minutes')} />
              <TextField label="Link expires" type="datetime-local" required {...field('expires_at')}
                hint="The candidate must start before then." />
            </div>

            <div className="flex justify-end gap-3 border-t border-slate-200 pt-5 dark:border-slate-800">
              <Link href={resultsHref} className="inline-flex h-10 items-center rounded-lg px-4 text-sm font-medium text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800">Cancel</Link>
              <Button type="submit" isLoading={isSubmitting}><Icon name="mail" className="size-4" />Send link</Button>
            </div>
          </form>
          {guard.prompt}
        </Card>
      )}
    </div>
  );
}

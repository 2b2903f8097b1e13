// Send an assessment link (route candidate.send-assessment-link, can-edit-candidate): the recruiter
// picks question categories, how many questions per skill level, the duration and the link's expiry.
// The server mails the link; this screen shows it once more to copy (only its hash is kept, so it
// cannot be shown again later). GET/POST /candidate/{id}/send-assessment-link.
import { useId, useMemo, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { routePath } from '../../../shared/routes';
import { MAX_DURATION_MINUTES, MAX_QUESTIONS_PER_LEVEL, sendAssessmentSchema } from '../../../shared/schemas/assessment';
import { skillLevels } from '../../../shared/resources/question';
import { api, fieldErrorsOf, isApiError, type FieldErrors } from '../../lib/api';
import { copyToClipboard } from '../../lib/copy';
import { invalidateAfterWrite, queryClient, queryKeys } from '../../lib/query';
import { notify } from '../../lib/toast';
import type { ScreenProps } from '../../routes';
import { Button } from '../../ui/button';
import { Card, CardHeader, PageHeader } from '../../ui/card';
import { FormAlert, TextField } from '../../ui/field';
import { EmptyState } from '../../ui/empty-state';
import { Icon } from '../../ui/icons';
import { Skeleton } from '../../ui/loading';

type Level = '1' | '2' | '3';
interface Category { id: number; name: string; questions_per_level: Record<Level, number> }
interface FormData { candidate: { id: number; name: string; email: string }; categories: Category[] }

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

export default function SendAssessment({ params }: ScreenProps) {
  const candidateId = params.id;
  const [chosen, setChosen] = useState<number[]>([]);
  /** The counts the recruiter typed; a level not typed follows what the chosen categories hold. */
  const [typed, setTyped] = useState<Partial<Record<Level, string>>>({});
  const [duration, setDuration] = useState('30');
  const [expiresAt, setExpiresAt] = useState(() => localDateTime(DEFAULT_EXPIRY_DAYS));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [isSending, setSending] = useState(false);
  const [sentUrl, setSentUrl] = useState<string | null>(null);
  const categoriesId = useId();
  /** A changed field's old error goes (the server or the next submit says again what is still wrong). */
  const clearError = (...keys: string[]) => setErrors((current) => Object.fromEntries(Object.entries(current).filter(([key]) => !keys.includes(key))));

  // A part of the candidate's record: what may be asked (categories) and who it goes to.
  const { data = null, error: failure } = useQuery({
    queryKey: queryKeys.recordPart('candidate', candidateId, 'send-assessment-link'),
    queryFn: ({ signal }) => api.get<{ data: FormData }>(`/candidate/${candidateId}/send-assessment-link`, { signal }).then((answer) => answer.data),
  }, queryClient);
  const loadError = failure ? (isApiError(failure) ? failure.message : 'The form could not be loaded.') : null;

  // What the chosen categories can supply, so the recruiter sees the limits before sending.
  const available = useMemo(() => {
    const sums: Record<Level, number> = { 1: 0, 2: 0, 3: 0 };
    for (const category of data?.categories ?? []) {
      if (!chosen.includes(category.id)) continue;
      for (const level of LEVELS) sums[level] += category.questions_per_level[level];
    }
    return sums;
  }, [data, chosen]);
  // Issue 24: never more than the bank holds: the suggestion is capped by what the chosen categories
  // have, so no form arrives filled with questions that do not exist.
  const counts = Object.fromEntries(LEVELS.map((level) => [level, typed[level] ?? String(Math.min(SUGGESTED[level], available[level]))])) as Record<Level, string>;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const payload = {
      question_category_ids: chosen,
      questions_per_level: Object.fromEntries(LEVELS.map((level) => [level, counts[level] === '' ? Number.NaN : Number(counts[level])])),
      duration_minutes: duration === '' ? Number.NaN : Number(duration),
      expires_at: expiresAt ? new Date(expiresAt).toISOString() : '',
    };
    const checked = sendAssessmentSchema.safeParse(payload);
    if (!checked.success) {
      const found: FieldErrors = {};
      for (const issue of checked.error.issues) (found[issue.path.join('.')] ??= []).push(issue.message);
      setErrors(found);
      return;
    }
    setSending(true);
    try {
      const answer = await api.post<{ data: { id: number; url: string }; message: string }>(`/candidate/${candidateId}/send-assessment-link`, checked.data, { form: true });
      setErrors({});
      invalidateAfterWrite('candidate', candidateId); // its assessments list the one just sent
      setSentUrl(answer.data.url);
      notify.success(answer.message);
    } catch (error) {
      setErrors(fieldErrorsOf(error));
    } finally {
      setSending(false);
    }
  };

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

  const fieldError = (key: string) => errors[key];
  const otherErrors = Object.entries(errors).filter(([key]) => !['question_category_ids', 'questions_per_level', 'duration_minutes', 'expires_at', ...LEVELS.map((l) => `questions_per_level.${l}`)].includes(key));

  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title="Send Assessment Link" description={<>For <strong className="font-medium text-slate-700 dark:text-slate-200">{data.candidate.name}</strong> ({data.candidate.email})</>}
        actions={<Link href={resultsHref} className={linkClass}>Assessments</Link>} />

      {sentUrl ? (
        <Card>
          <CardHeader title="Link sent" description={`${data.candidate.email} has it by mail. The link works once; copy it now if you want to send it another way: it cannot be shown again.`} />
          <div className="space-y-4 px-5 py-5">
            <div className="flex flex-col gap-2 sm:flex-row">
              <input readOnly value={sentUrl} aria-label="Assessment link" onFocus={(event) => event.currentTarget.select()}
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
            {otherErrors.length > 0 && <FormAlert message={otherErrors[0][1][0]} />}
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
                            const isChecked = event.target.checked;
                            setChosen((current) => (isChecked ? [...current, category.id] : current.filter((id) => id !== category.id)));
                            clearError('question_category_ids', ...LEVELS.map((level) => `questions_per_level.${level}`));
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
                  <TextField key={level} name={`questions_per_level.${level}`} label={String(skillLevels[Number(level) - 1].label)} type="number" inputMode="numeric"
                    min={0} max={Math.min(MAX_QUESTIONS_PER_LEVEL, available[level])} value={counts[level]}
                    disabled={available[level] === 0 && (typed[level] ?? '0') === '0'}
                    onChange={(event) => { setTyped((current) => ({ ...current, [level]: event.target.value })); clearError(`questions_per_level.${level}`, 'questions_per_level'); }}
                    errors={fieldError(`questions_per_level.${level}`)}
                    hint={!chosen.length ? 'Choose categories first.' : available[level] ? `The chosen categories hold ${available[level]}.` : 'None in the chosen categories.'} />
                ))}
              </div>
              {fieldError('questions_per_level')?.map((m) => <p key={m} className="mt-1.5 text-sm text-rose-600 dark:text-rose-400" aria-live="polite">{m}</p>)}
              <p className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">The questions are drawn at random when the candidate starts.</p>
            </fieldset>

            <div className="grid gap-4 sm:grid-cols-2">
              <TextField name="duration_minutes" label="Duration (minutes)" type="number" inputMode="numeric" min={1} max={MAX_DURATION_MINUTES} required
                value={duration} onChange={(event) => { setDuration(event.target.value); clearError('duration_minutes'); }} errors={fieldError('duration_minutes')} />
              <TextField name="expires_at" label="Link expires" type="datetime-local" required
                value={expiresAt} onChange={(event) => { setExpiresAt(event.target.value); clearError('expires_at'); }} errors={fieldError('expires_at')}
                hint="The candidate must start before then." />
            </div>

            <div className="flex justify-end gap-3 border-t border-slate-200 pt-5 dark:border-slate-800">
              <Link href={resultsHref} className="inline-flex h-10 items-center rounded-lg px-4 text-sm font-medium text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800">Cancel</Link>
              <Button type="submit" isLoading={isSending}><Icon name="mail" className="size-4" />Send link</Button>
            </div>
          </form>
        </Card>
      )}
    </div>
  );
}

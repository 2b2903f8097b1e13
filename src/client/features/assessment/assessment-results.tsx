// A candidate's assessments (route candidate.assessments, can-view-candidate): every link sent, its
// state, and the attempt's score overall, per category and per skill level, the time taken, the
// tab-leave count and each question with the given and the correct answer. Reloads when the
// recruiter's bell hears that this candidate submitted. GET /candidate/{id}/assessments.
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { routePath } from '../../../shared/routes';
import type { AssessmentResult, CandidateAssessments } from '../../../shared/schemas/assessment';
import { api, isApiError } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { invalidateAfterWrite, queryClient, queryKeys } from '../../lib/query';
import { notify } from '../../lib/toast';
import type { ScreenProps } from '../../routes';
import { useCan } from '../../stores/auth';
import { useUnread } from '../../lib/unread';
import { Badge, type Tone } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Card, PageHeader } from '../../ui/card';
import { cx } from '../../ui/cx';
import { EmptyState } from '../../ui/empty-state';
import { Icon } from '../../ui/icons';
import { Skeleton } from '../../ui/loading';

type Attempt = NonNullable<AssessmentResult['attempt']>;

const linkTones: Record<AssessmentResult['link_status'], Tone> = { unused: 'indigo', used: 'green', expired: 'gray', revoked: 'red' };
const linkLabels: Record<AssessmentResult['link_status'], string> = { unused: 'Link not used yet', used: 'Started', expired: 'Link expired', revoked: 'Link revoked' };

function duration(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${String(seconds % 60).padStart(2, '0')} s`;
}

function ScoreTable({ title, rows }: { title: string; rows: { key: string | number; label: string; correct: number; total: number }[] }) {
  return (
    <div>
      <h4 className="mb-2 text-sm font-semibold text-slate-800 dark:text-slate-100">{title}</h4>
      <ul className="space-y-2">
        {rows.map((row) => {
          const percent = row.total ? Math.round((row.correct / row.total) * 100) : 0;
          return (
            <li key={row.key}>
              <div className="flex justify-between text-sm text-slate-700 dark:text-slate-300"><span>{row.label}</span><span className="tabular-nums">{row.correct} / {row.total}</span></div>
              <div className="mt-1 h-1.5 rounded-full bg-slate-100 dark:bg-slate-800" aria-hidden="true">
                <div className="h-1.5 rounded-full bg-indigo-500" style={{ width: `${percent}%` }} />
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function AttemptResult({ attempt }: { attempt: Attempt }) {
  const isOpen = attempt.status === 'in progress';
  return (
    <div className="space-y-5 border-t border-slate-200 px-5 py-5 dark:border-slate-800">
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
        <div>
          <dt className="text-xs text-slate-500 dark:text-slate-400">{isOpen ? 'Score so far' : 'Score'}</dt>
          <dd className="text-2xl font-semibold text-slate-900 tabular-nums dark:text-white" data-testid="overall-score">
            {attempt.scores.overall.correct} / {attempt.scores.overall.total}
            <span className="ml-1.5 text-sm font-normal text-slate-500 dark:text-slate-400">{attempt.scores.overall.percent}%</span>
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500 dark:text-slate-400">Time taken</dt>
          <dd className="text-sm font-medium text-slate-800 dark:text-slate-100">{attempt.time_taken_seconds === null ? 'Still running' : duration(attempt.time_taken_seconds)}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500 dark:text-slate-400">Answered</dt>
          <dd className="text-sm font-medium text-slate-800 dark:text-slate-100">{attempt.answered_count} of {attempt.question_count}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500 dark:text-slate-400">Tab leaves</dt>
          <dd data-testid="tab-leaves">
            <Badge tone={attempt.tab_leaves ? 'amber' : 'green'}>{attempt.tab_leaves === 1 ? 'Left the tab once' : attempt.tab_leaves ? `Left the tab ${attempt.tab_leaves} times` : 'Never left the tab'}</Badge>
          </dd>
        </div>
      </dl>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        Started {formatDateTime(attempt.started_at)} · {attempt.submitted_at ? `submitted ${formatDateTime(attempt.submitted_at)}` : `deadline ${formatDateTime(attempt.deadline)}`}
      </p>
      <div className="grid gap-6 sm:grid-cols-2">
        <ScoreTable title="By category" rows={attempt.scores.by_category.map((row) => ({ key: row.question_category_id, label: row.name, correct: row.correct, total: row.total }))} />
        <ScoreTable title="By skill level" rows={attempt.scores.by_skill_level.map((row) => ({ key: row.skill_level, label: row.label, correct: row.correct, total: row.total }))} />
      </div>
      <details className="group rounded-lg ring-1 ring-slate-200 dark:ring-slate-800">
        <summary className="flex cursor-pointer items-center justify-between rounded-lg px-4 py-3 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-slate-100 dark:hover:bg-slate-800/60">
          Questions and answers
          <Icon name="chevron-down" className="size-4 transition-transform group-open:rotate-180" />
        </summary>
        <ol className="divide-y divide-slate-200 dark:divide-slate-800">
          {attempt.questions.map((question) => (
            <li key={question.question_id} className="px-4 py-3 text-sm">
              <p className="font-medium text-slate-800 dark:text-slate-100">{question.position}. {question.question}</p>
              <p className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">{question.category} · {['', 'Beginner', 'Intermediate', 'Advanced'][question.skill_level]}</p>
              <div className="mt-1.5 flex flex-wrap gap-x-6 gap-y-1">
                <span className={cx(question.is_correct ? 'text-emerald-700 dark:text-emerald-400' : 'text-rose-700 dark:text-rose-400')}>
                  <Icon name={question.is_correct ? 'check' : 'x'} className="mr-1 inline size-4" aria-hidden="true" />
                  Given: {question.answer ?? <em>no answer</em>}
                </span>
                <span className="text-slate-600 dark:text-slate-300">Correct: {question.correct_answer}</span>
              </div>
            </li>
          ))}
        </ol>
      </details>
    </div>
  );
}

export default function AssessmentResults({ params }: ScreenProps) {
  const candidateId = params.id;
  const canSend = useCan('app')('can-edit-candidate');
  const path = routePath('candidate.assessments', { id: candidateId });
  const { unread } = useUnread('app');
  const latestForHere = unread.find((item) => item.data.url === path)?.id;

  // A part of the candidate's record: a revoke here or a change to the candidate refetches it.
  const { data: answer = null, error: failure } = useQuery({
    queryKey: queryKeys.recordPart('candidate', candidateId, 'assessments'),
    queryFn: ({ signal }) => api.get<CandidateAssessments>(`/candidate/${candidateId}/assessments`, { signal }),
  }, queryClient);
  const loadError = failure ? (isApiError(failure) ? failure.message : 'The assessments could not be loaded.') : null;

  // A submission arrives live in the bell: show its result here too.
  useEffect(() => {
    if (latestForHere) void queryClient.invalidateQueries({ queryKey: queryKeys.recordPart('candidate', candidateId, 'assessments') });
  }, [candidateId, latestForHere]);

  const revoke = async (assessment: AssessmentResult) => {
    try {
      const result = await api.post<{ message: string }>(`/candidate/${candidateId}/assessments/${assessment.id}/revoke`);
      notify.success(result.message);
      invalidateAfterWrite('candidate', candidateId);
    } catch { /* the api wrapper has told the user */ }
  };

  const sendHref = routePath('candidate.send-assessment-link', { id: candidateId });
  const sendLink = canSend && (
    <Link href={sendHref} className="inline-flex h-10 items-center gap-2 rounded-lg bg-indigo-600 px-4 text-sm font-medium text-white shadow-sm hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:bg-indigo-500 dark:hover:bg-indigo-400">
      <Icon name="mail" className="size-4" />Send assessment link
    </Link>
  );

  if (loadError && !answer) return <Card><EmptyState icon="alert" title="The assessments cannot be loaded" description={loadError} /></Card>;
  if (!answer) {
    return (
      <div aria-busy="true" aria-label="Loading the assessments" className="space-y-4">
        <Skeleton className="h-8 w-72" />
        <Skeleton className="h-40 w-full" />
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader title="Assessments" description={<>Online assessments of <Link href={routePath('candidate.show', { id: candidateId })} className="font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400">{answer.candidate.name}</Link></>} actions={sendLink} />
      {answer.data.length === 0 ? (
        <Card><EmptyState icon="clock" title="No assessment sent yet" description="Send the candidate a link to a timed online assessment; the result appears here when they submit." /></Card>
      ) : (
        <div className="space-y-5">
          {answer.data.map((assessment) => (
            <Card key={assessment.id}>
              <div data-testid={`assessment-${assessment.id}`} className="flex flex-wrap items-start justify-between gap-3 px-5 py-4">
                <div className="min-w-0">
                  <h2 className="text-base font-semibold text-slate-900 dark:text-white">{assessment.categories.map((category) => category.name).join(', ')}</h2>
                  <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">
                    {assessment.duration_minutes} min · sent {formatDateTime(assessment.created_at)}{assessment.sent_by ? ` by ${assessment.sent_by.name}` : ''}
                    {!assessment.attempt && ` · link valid until ${formatDateTime(assessment.link_expires_at)}`}
                  </p>
                </div>
                <div className="flex items-center gap-2">
                  {assessment.attempt
                    ? <Badge tone={assessment.attempt.status === 'submitted' ? 'green' : 'yellow'}>{assessment.attempt.status === 'submitted' ? (assessment.attempt.closed_reason === 'time-up' ? 'Submitted (time ran out)' : 'Submitted') : 'In progress'}</Badge>
                    : <Badge tone={linkTones[assessment.link_status]}>{linkLabels[assessment.link_status]}</Badge>}
                  {canSend && assessment.link_status === 'unused' && <Button variant="ghost" size="sm" onClick={() => void revoke(assessment)}>Revoke</Button>}
                </div>
              </div>
              {assessment.attempt && <AttemptResult attempt={assessment.attempt} />}
            </Card>
          ))}
        </div>
      )}
    </div>
  );
}

// The assessment's start page (route candidate-assessment, public: the link is the permission).
// It shows the instructions, the duration and the number of questions; opening it starts nothing.
// Start spends the link's one use and opens the window under the attempt's own link, which this
// browser remembers, so coming back to the mailed link resumes instead of saying "already used".
import { useEffect, useState } from 'react';
import { routePath } from '../../../shared/routes';
import type { AssessmentLinkInfo, StartedAttempt } from '../../../shared/schemas/assessment';
import { api, isApiError } from '../../lib/api';
import { navigate } from '../../lib/navigation';
import type { ScreenProps } from '../../routes';
import { Button } from '../../ui/button';
import { Icon } from '../../ui/icons';
import { Skeleton } from '../../ui/loading';
import { AssessmentShell, attemptTokenKey, LinkProblem } from './assessment-shell';

export default function AssessmentStart({ params }: ScreenProps) {
  const token = params.token;
  const [info, setInfo] = useState<AssessmentLinkInfo | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [isStarting, setStarting] = useState(false);

  useEffect(() => {
    let isCurrent = true;
    api.get<{ data: AssessmentLinkInfo }>(`/public/assessment/${encodeURIComponent(token)}`, { silent: true })
      .then((answer) => { if (isCurrent) setInfo(answer.data); })
      .catch((error: unknown) => {
        if (!isCurrent) return;
        const resumeToken = localStorage.getItem(attemptTokenKey(token));
        if (isApiError(error) && error.status === 410 && resumeToken) {
          navigate(routePath('candidate-assessment-window', { token: resumeToken }), { replace: true });
          return;
        }
        setProblem(isApiError(error) && error.status ? error.message : 'The assessment could not be loaded. Check your connection and reload the page.');
      });
    return () => { isCurrent = false; };
  }, [token]);

  const start = async () => {
    setStarting(true);
    try {
      const answer = await api.post<{ data: StartedAttempt }>(`/public/assessment/${encodeURIComponent(token)}/start`, {}, { silent: true });
      localStorage.setItem(attemptTokenKey(token), answer.data.token);
      navigate(routePath('candidate-assessment-window', { token: answer.data.token }), { replace: true });
    } catch (error) {
      setProblem(isApiError(error) && error.status ? error.message : 'The assessment could not be started. Check your connection and try again.');
      setStarting(false);
    }
  };

  if (problem) return <AssessmentShell><LinkProblem message={problem} /></AssessmentShell>;
  return (
    <AssessmentShell>
      {!info ? (
        <div aria-busy="true" aria-label="Loading the assessment" className="space-y-3 p-6">
          <Skeleton className="h-7 w-2/3" />
          <Skeleton className="h-24 w-full" />
        </div>
      ) : (
        <div className="p-6 sm:p-8">
          <h1 className="text-xl font-semibold text-slate-900 dark:text-white">Online assessment</h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">Hello {info.candidate_name}. {info.categories.length ? `Topics: ${info.categories.join(', ')}.` : ''}</p>
          <dl className="mt-6 grid grid-cols-2 gap-4">
            <div className="rounded-lg bg-slate-50 px-4 py-3 dark:bg-slate-800/60">
              <dt className="text-xs text-slate-500 dark:text-slate-400">Duration</dt>
              <dd className="text-lg font-semibold text-slate-900 dark:text-white" data-testid="duration">{info.duration_minutes} {info.duration_minutes === 1 ? 'minute' : 'minutes'}</dd>
            </div>
            <div className="rounded-lg bg-slate-50 px-4 py-3 dark:bg-slate-800/60">
              <dt className="text-xs text-slate-500 dark:text-slate-400">Questions</dt>
              <dd className="text-lg font-semibold text-slate-900 dark:text-white" data-testid="question-count">{info.question_count}</dd>
            </div>
          </dl>
          <h2 className="mt-6 text-sm font-semibold text-slate-800 dark:text-slate-100">Before you start</h2>
          <ul className="mt-2 space-y-1.5 text-sm text-slate-600 dark:text-slate-300">
            {[
              'The clock starts when you press Start and keeps running if you close the page.',
              'Each answer is saved as soon as you choose it. If you reload or lose the connection, your answers and the time left are kept.',
              'When the time runs out, the assessment is submitted with the answers given so far.',
              'Leaving this tab or window is recorded and shown to the recruiter.',
              'The link works once: you cannot start again after starting.',
            ].map((line) => (
              <li key={line} className="flex gap-2"><Icon name="check" className="mt-0.5 size-4 shrink-0 text-indigo-500" />{line}</li>
            ))}
          </ul>
          <Button className="mt-8 w-full sm:w-auto" isLoading={isStarting} onClick={() => void start()}>Start the assessment</Button>
        </div>
      )}
    </AssessmentShell>
  );
}

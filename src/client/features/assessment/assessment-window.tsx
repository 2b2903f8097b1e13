// The assessment window (route candidate-assessment-window, public: the attempt's link). The server
// owns the clock: the countdown runs from its deadline and its time (a reload or a second device
// shows the same remaining time). Each answer is saved as it is given; when the network is gone the
// answers wait in this browser (localStorage, so a reload keeps them too) and go out when it returns.
// At zero the page submits by itself; the server closes the attempt anyway if the page is gone.
import { useCallback, useEffect, useRef, useState } from 'react';
import { COUNTDOWN_INTERVAL_MS, type AttemptState } from '../../../shared/schemas/assessment';
import { api, isApiError } from '../../lib/api';
import type { ScreenProps } from '../../routes';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { cx } from '../../ui/cx';
import { Icon } from '../../ui/icons';
import { Skeleton } from '../../ui/loading';
import { AssessmentShell, LinkProblem } from './assessment-shell';

type Pending = Map<number, string | null>;
type SaveStatus = 'saved' | 'saving' | 'offline';
/** How often queued answers are retried while the network is away (besides the browser's `online` event). */
const RETRY_MS = 3000;
const LEVEL_LABELS = ['', 'Beginner', 'Intermediate', 'Advanced'];

const pendingKey = (token: string) => `assessment-pending:${token}`;

function readPending(token: string): Pending {
  try {
    const stored = JSON.parse(localStorage.getItem(pendingKey(token)) ?? '[]') as [number, string | null][];
    return new Map(stored.filter(([id]) => Number.isInteger(id)));
  } catch {
    return new Map();
  }
}

function clock(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(seconds / 3600);
  const rest = `${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
  return hours ? `${hours}:${rest}` : rest;
}

export default function AssessmentWindow({ params }: ScreenProps) {
  const token = params.token;
  const base = `/public/assessment-attempt/${encodeURIComponent(token)}`;
  const [state, setState] = useState<AttemptState | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [answers, setAnswers] = useState<Record<number, string | null>>({});
  /** The server's clock minus ours, so the countdown follows the server's deadline. */
  const [offset, setOffset] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const [isOneAtATime, setOneAtATime] = useState(true);
  const [index, setIndex] = useState(0);
  const [saveStatus, setSaveStatus] = useState<SaveStatus>('saved');
  const [saveError, setSaveError] = useState<string | null>(null);
  const [isConfirming, setConfirming] = useState(false);
  const [isSubmitting, setSubmitting] = useState(false);
  const pending = useRef<Pending>(readPending(token));
  const flushing = useRef<Promise<void> | null>(null);
  const hasAutoSubmitted = useRef(false);
  const questionHeading = useRef<HTMLHeadingElement>(null);

  const persistPending = useCallback(() => {
    if (pending.current.size) localStorage.setItem(pendingKey(token), JSON.stringify([...pending.current]));
    else localStorage.removeItem(pendingKey(token));
  }, [token]);

  const applyState = useCallback((next: AttemptState) => {
    setOffset(new Date(next.server_time).getTime() - Date.now());
    setState(next);
    // Answers still queued here are newer than the server's.
    setAnswers({ ...Object.fromEntries(next.questions.map((q) => [q.id, q.answer])), ...Object.fromEntries(pending.current) });
    if (next.status === 'submitted') { pending.current.clear(); persistPending(); }
  }, [persistPending]);

  const load = useCallback(async () => {
    try {
      const answer = await api.get<{ data: AttemptState }>(base, { silent: true });
      applyState(answer.data);
    } catch (error) {
      setProblem(isApiError(error) && error.status ? error.message : 'The assessment could not be loaded. Check your connection and reload the page.');
    }
  }, [applyState, base]);

  useEffect(() => { void load(); }, [load]);

  /** Sends the queued answers one by one; a network failure leaves them queued for the next try. */
  const flush = useCallback(async (): Promise<void> => {
    // One sender at a time; a caller that must wait for the queue (submit) waits for the running one.
    if (flushing.current) return flushing.current;
    const run = (async () => {
      while (pending.current.size) {
        setSaveStatus('saving');
        const [questionId, answer] = pending.current.entries().next().value as [number, string | null];
        try {
          await api.put(`${base}/answers/${questionId}`, { answer }, { silent: true });
          // A newer choice made while this one travelled stays queued.
          if (pending.current.get(questionId) === answer) pending.current.delete(questionId);
          persistPending();
          setSaveError(null);
        } catch (error) {
          if (isApiError(error) && error.status === null) { setSaveStatus('offline'); return; }
          pending.current.delete(questionId);
          persistPending();
          if (isApiError(error) && error.status === 409) { setSaveError(error.message); await load(); return; }
          setSaveError(isApiError(error) ? error.message : 'Your answer could not be saved.');
        }
      }
      setSaveStatus('saved');
    })();
    flushing.current = run.finally(() => { flushing.current = null; });
    return flushing.current;
  }, [base, load, persistPending]);

  /** Tab leaves that could not be sent for lack of network; they go out with the next retry. */
  const unsentLeaves = useRef(0);
  const sendLeaves = useCallback(async () => {
    while (unsentLeaves.current > 0) {
      unsentLeaves.current -= 1;
      try {
        await api.post(`${base}/tab-leave`, {}, { silent: true });
      } catch (error) {
        // Only a missing network keeps it for later; a refusal (the attempt is closed) drops it.
        if (isApiError(error) && error.status === null) { unsentLeaves.current += 1; return; }
      }
    }
  }, [base]);

  // Answers and tab leaves queued before a reload, and retries while offline.
  useEffect(() => {
    const retry = () => { if (pending.current.size) void flush(); if (unsentLeaves.current) void sendLeaves(); };
    retry();
    window.addEventListener('online', retry);
    const timer = window.setInterval(retry, RETRY_MS);
    return () => { window.removeEventListener('online', retry); window.clearInterval(timer); };
  }, [flush, sendLeaves]);

  const isRunning = state?.status === 'in progress';

  // spec §9: the countdown ticks every second.
  useEffect(() => {
    if (!isRunning) return undefined;
    const timer = window.setInterval(() => setNow(Date.now()), COUNTDOWN_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [isRunning]);

  // Leaving the tab for another one is counted on the server and shown to the recruiter. A reload
  // hides the page too (beforeunload comes first): that is no leave, the attempt simply resumes.
  useEffect(() => {
    if (!isRunning) return undefined;
    let isUnloading = false;
    const onBeforeUnload = () => { isUnloading = true; };
    const onVisibility = () => {
      if (document.visibilityState === 'hidden' && !isUnloading) { unsentLeaves.current += 1; void sendLeaves(); }
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('visibilitychange', onVisibility);
    return () => { window.removeEventListener('beforeunload', onBeforeUnload); document.removeEventListener('visibilitychange', onVisibility); };
  }, [isRunning, sendLeaves]);

  const submit = useCallback(async () => {
    setSubmitting(true);
    await flush();
    try {
      const answer = await api.post<{ data: AttemptState }>(`${base}/submit`, {}, { silent: true });
      applyState(answer.data);
    } catch (error) {
      // Offline at the end: the server closes the attempt at its deadline with what it has; look again shortly.
      setSaveError(isApiError(error) && error.status ? error.message : 'You are offline: your assessment will be submitted with the answers the server received.');
      window.setTimeout(() => void load(), RETRY_MS);
    } finally {
      setSubmitting(false);
      setConfirming(false);
    }
  }, [applyState, base, flush, load]);

  const remaining = state ? new Date(state.deadline).getTime() - (now + offset) : 0;

  useEffect(() => {
    if (isRunning && remaining <= 0 && !hasAutoSubmitted.current) {
      hasAutoSubmitted.current = true;
      void submit();
    }
  }, [isRunning, remaining, submit]);

  const choose = (questionId: number, answer: string) => {
    setAnswers((current) => ({ ...current, [questionId]: answer }));
    pending.current.set(questionId, answer);
    persistPending();
    void flush();
  };

  const goTo = (next: number) => {
    setIndex(next);
    requestAnimationFrame(() => questionHeading.current?.focus());
  };

  if (problem) return <AssessmentShell><LinkProblem message={problem} /></AssessmentShell>;
  if (!state) {
    return (
      <AssessmentShell wide>
        <div aria-busy="true" aria-label="Loading the assessment" className="space-y-3 p-6">
          <Skeleton className="h-7 w-1/2" />
          <Skeleton className="h-40 w-full" />
        </div>
      </AssessmentShell>
    );
  }

  const answeredCount = state.questions.filter((q) => answers[q.id] != null).length;

  if (state.status === 'submitted') {
    return (
      <AssessmentShell>
        <div role="status" className="flex flex-col items-center px-6 py-12 text-center" data-testid="assessment-submitted">
          <div className="mb-4 flex size-12 items-center justify-center rounded-full bg-emerald-100 text-emerald-700 dark:bg-emerald-500/15 dark:text-emerald-300">
            <Icon name="check" className="size-6" />
          </div>
          <h1 className="text-lg font-semibold text-slate-900 dark:text-white">
            {state.closed_reason === 'time-up' ? 'Time is up: your assessment has been submitted.' : 'Your assessment has been submitted.'}
          </h1>
          <p className="mt-2 max-w-sm text-sm text-slate-500 dark:text-slate-400">
            You answered {answeredCount} of {state.questions.length} questions. Thank you, {state.candidate_name}: your recruiter has been told and will be in touch.
          </p>
        </div>
      </AssessmentShell>
    );
  }

  const isLow = remaining <= 60_000;
  const shown = isOneAtATime ? [state.questions[Math.min(index, state.questions.length - 1)]] : state.questions;
  const statusText = saveStatus === 'offline'
    ? `Offline: ${pending.current.size} answer${pending.current.size === 1 ? '' : 's'} waiting to be sent`
    : saveStatus === 'saving' ? 'Saving…' : 'All answers saved';

  return (
    <AssessmentShell wide>
      <div className="sticky top-0 z-10 flex flex-wrap items-center justify-between gap-3 rounded-t-xl border-b border-slate-200 bg-white/95 px-4 py-3 backdrop-blur sm:px-6 dark:border-slate-800 dark:bg-slate-900/95">
        <div className="min-w-0">
          <p className="text-sm font-semibold text-slate-900 dark:text-white">Online assessment</p>
          <p className="text-xs text-slate-500 dark:text-slate-400" aria-live="polite" data-testid="save-status">
            <span className={cx('mr-1.5 inline-block size-2 rounded-full', saveStatus === 'offline' ? 'bg-amber-500' : saveStatus === 'saving' ? 'bg-indigo-400' : 'bg-emerald-500')} aria-hidden="true" />
            {statusText}
          </p>
        </div>
        <div role="timer" aria-label={`Time left ${clock(remaining)}`} data-testid="countdown"
          className={cx('rounded-lg px-3 py-1.5 font-mono text-lg font-semibold tabular-nums', isLow ? 'bg-rose-100 text-rose-700 dark:bg-rose-500/15 dark:text-rose-300' : 'bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-100')}>
          {clock(remaining)}
        </div>
      </div>

      <div className="space-y-5 px-4 py-5 sm:px-6">
        {saveError && <p role="alert" className="rounded-lg bg-rose-50 px-3 py-2 text-sm text-rose-700 dark:bg-rose-500/10 dark:text-rose-300">{saveError}</p>}
        <div className="flex flex-wrap items-center justify-between gap-3 text-sm">
          <span className="text-slate-600 dark:text-slate-300" data-testid="answered-count">{answeredCount} of {state.questions.length} answered</span>
          <div role="group" aria-label="Show" className="inline-flex rounded-lg bg-slate-100 p-0.5 dark:bg-slate-800">
            {[true, false].map((value) => (
              <button key={String(value)} type="button" aria-pressed={isOneAtATime === value} onClick={() => setOneAtATime(value)}
                className={cx('rounded-md px-3 py-1 text-xs font-medium focus-visible:outline-2 focus-visible:outline-indigo-500',
                  isOneAtATime === value ? 'bg-white text-slate-900 shadow-sm dark:bg-slate-700 dark:text-white' : 'text-slate-600 dark:text-slate-300')}>
                {value ? 'One at a time' : 'All questions'}
              </button>
            ))}
          </div>
        </div>

        {isOneAtATime && (
          <nav aria-label="Questions" className="flex flex-wrap gap-1.5">
            {state.questions.map((question, position) => (
              <button key={question.id} type="button" onClick={() => goTo(position)} aria-current={position === index ? 'step' : undefined}
                aria-label={`Question ${position + 1}${answers[question.id] != null ? ', answered' : ''}`}
                className={cx('size-8 rounded-md text-xs font-medium focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-500',
                  position === index ? 'ring-2 ring-indigo-500' : '',
                  answers[question.id] != null ? 'bg-indigo-600 text-white dark:bg-indigo-500' : 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200')}>
                {position + 1}
              </button>
            ))}
          </nav>
        )}

        {shown.map((question) => (
          <fieldset key={question.id} className="rounded-lg p-4 ring-1 ring-slate-200 dark:ring-slate-800" data-testid={`question-${question.position}`}>
            <legend className="sr-only">Question {question.position}</legend>
            <h2 ref={isOneAtATime ? questionHeading : undefined} tabIndex={-1} className="text-base font-medium text-slate-900 focus:outline-none dark:text-white">
              <span className="text-slate-400 dark:text-slate-500">{question.position}.</span> {question.question}
            </h2>
            <p className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">{question.category} · {LEVEL_LABELS[question.skill_level]}</p>
            <div className="mt-3 space-y-2">
              {question.options.map((option) => (
                <label key={option} className="flex cursor-pointer items-start gap-3 rounded-lg px-3 py-2.5 text-sm text-slate-800 ring-1 ring-slate-200 ring-inset has-checked:bg-indigo-50 has-checked:ring-indigo-400 has-focus-visible:ring-2 has-focus-visible:ring-indigo-500 dark:text-slate-100 dark:ring-slate-700 dark:has-checked:bg-indigo-500/10 dark:has-checked:ring-indigo-400/60">
                  <input type="radio" name={`question-${question.id}`} value={option} checked={answers[question.id] === option}
                    onChange={() => choose(question.id, option)} className="mt-0.5 size-4 accent-indigo-600" />
                  <span className="min-w-0 break-words">{option}</span>
                </label>
              ))}
            </div>
          </fieldset>
        ))}

        <div className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 pt-5 dark:border-slate-800">
          {isOneAtATime ? (
            <div className="flex gap-2">
              <Button variant="secondary" disabled={index === 0} onClick={() => goTo(index - 1)}><Icon name="arrow-left" className="size-4" />Previous</Button>
              <Button variant="secondary" disabled={index >= state.questions.length - 1} onClick={() => goTo(index + 1)}>Next<Icon name="arrow-right" className="size-4" /></Button>
            </div>
          ) : <span />}
          <Button onClick={() => setConfirming(true)} isLoading={isSubmitting}>Submit</Button>
        </div>
        <p className="text-xs text-slate-500 dark:text-slate-400">Leaving this tab is recorded. When the time runs out your answers are submitted automatically.</p>
      </div>

      <ConfirmDialog open={isConfirming} tone="primary" title="Submit your assessment?"
        message={`You answered ${answeredCount} of ${state.questions.length} questions. You cannot change your answers after submitting.`}
        confirmLabel="Submit" isLoading={isSubmitting} onConfirm={() => void submit()} onClose={() => setConfirming(false)} />
    </AssessmentShell>
  );
}

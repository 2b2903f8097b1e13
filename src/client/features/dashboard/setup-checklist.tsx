// The first-run setup checklist on an admin's dashboard (issue 22), from GET /api/setup-checklist:
// each step links to the screen that does it and is ticked by the server from the data, never by a
// visit. The lists a fresh install starts with are kept with "Keep these" (a recorded confirmation).
// The panel disappears once every step is done.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { routePath, routesByName } from '../../../shared/routes';
import type { SetupChecklist, SetupStep } from '../../../shared/schemas/setup';
import { api } from '../../lib/api';
import { invalidateAfterWrite, queryClient, queryKeys } from '../../lib/query';
import { notify } from '../../lib/toast';
import { isBuilt } from '../../routes';
import { Button, focusRing } from '../../ui/button';
import { Card, CardHeader } from '../../ui/card';
import { cx } from '../../ui/cx';
import { Icon } from '../../ui/icons';
import { SkeletonList } from '../../ui/loading';

const stepHref = (step: SetupStep) => (routesByName[step.route] && isBuilt(step.route) ? routePath(step.route) : null);

function Step({ step, onConfirm, isConfirming }: { step: SetupStep; onConfirm: () => void; isConfirming: boolean }) {
  const href = stepHref(step);
  return (
    <li className="flex items-start gap-3 px-5 py-4" data-testid={`setup-step-${step.key}`} data-done={step.is_done}>
      <span className={cx('mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-full',
        step.is_done ? 'bg-emerald-500 text-white dark:bg-emerald-500/90' : 'ring-2 ring-slate-300 ring-inset dark:ring-slate-600')}>
        {step.is_done && <Icon name="check" className="size-4" aria-hidden="true" />}
        <span className="sr-only">{step.is_done ? 'Done:' : 'To do:'}</span>
      </span>
      <div className="min-w-0 flex-1 sm:flex sm:items-start sm:gap-4">
        <div className="min-w-0 flex-1">
          <p id={`setup-step-${step.key}-title`} className={cx('text-sm font-medium', step.is_done ? 'text-slate-500 dark:text-slate-400' : 'text-slate-900 dark:text-white')}>
            {href
              ? <Link href={href} className={cx('rounded hover:text-indigo-600 dark:hover:text-indigo-300', focusRing)}>{step.title}</Link>
              : step.title}
          </p>
          <p className="mt-0.5 text-sm text-slate-500 dark:text-slate-400">{step.description}</p>
          {step.is_done && step.confirmed && (
            <p className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">Kept by {step.confirmed.by} on {step.confirmed.at.slice(0, 10)}.</p>
          )}
        </div>
        {!step.is_done && (
          <div className="mt-2 flex shrink-0 gap-2 sm:mt-0">
            {step.can_confirm && (
              <Button size="sm" variant="secondary" isLoading={isConfirming} onClick={onConfirm}
                aria-describedby={`setup-step-${step.key}-title`}>
                Keep these
              </Button>
            )}
            {href && (
              <Link href={href} className={cx('inline-flex h-8 items-center gap-1 rounded-lg px-3 text-sm font-medium text-indigo-600 hover:bg-indigo-50 dark:text-indigo-300 dark:hover:bg-indigo-500/10', focusRing)}
                aria-label={`Open ${step.title}`}>
                Open <Icon name="chevron-right" className="size-4" />
              </Link>
            )}
          </div>
        )}
      </div>
    </li>
  );
}

/**
 * The checklist's query, shared with the dashboard, which waits for it before it shows its panels.
 * Refetched when the admin saves the firm profile, loads holidays, adds or imports people or keeps a
 * step (query.ts EXTRA_COUNTS). An answer without steps counts as a failure.
 */
export const setupChecklistQuery = {
  queryKey: queryKeys.screen('setup-checklist'),
  queryFn: async ({ signal }: { signal: AbortSignal }) => {
    const answer = await api.get<{ data: SetupChecklist }>('/setup-checklist', { silent: true, signal });
    if (!Array.isArray(answer?.data?.steps)) throw new Error('The setup checklist could not be read.');
    return answer.data;
  },
};

export function SetupChecklistPanel() {
  const [confirming, setConfirming] = useState<string | null>(null);

  const { data: checklist = null, isError } = useQuery(setupChecklistQuery, queryClient);
  const hasFailed = isError && !checklist;

  const confirm = async (step: SetupStep) => {
    setConfirming(step.key);
    try {
      const answer = await api.post<{ data: SetupChecklist; message: string }>(`/setup-checklist/${step.key}/confirm`, {});
      queryClient.setQueryData(queryKeys.screen('setup-checklist'), answer.data);
      invalidateAfterWrite('setup-checklist', step.key);
      notify.success(answer.message);
    } catch {
      // The wrapper has shown the server's reason (nothing active to keep).
    } finally {
      setConfirming(null);
    }
  };

  // Nothing to show once the firm is set up, or when the checklist cannot be read (the rest of the dashboard still works).
  if (hasFailed || checklist?.is_done) return null;
  const done = checklist?.steps.filter((step) => step.is_done).length ?? 0;
  const total = checklist?.steps.length ?? 0;
  return (
    <section aria-labelledby="setup-checklist-title" className="mb-6" data-testid="setup-checklist">
      <Card>
        <CardHeader id="setup-checklist-title" title="Set up your firm"
          description={checklist ? `${done} of ${total} steps done. Each step is ticked when it is done, and this list goes away when all are.` : 'Loading the setup steps…'} />
        {checklist && (
          <div className="border-b border-slate-200 px-5 py-3 dark:border-slate-800">
            <div role="progressbar" aria-label="Setup progress" aria-valuemin={0} aria-valuemax={total} aria-valuenow={done}
              className="h-1.5 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800">
              <div className="h-full rounded-full bg-emerald-500 transition-[width]" style={{ width: `${total ? (done / total) * 100 : 0}%` }} />
            </div>
          </div>
        )}
        {!checklist
          ? <div className="p-5"><SkeletonList rows={3} /></div>
          : (
            <ol className="divide-y divide-slate-200 dark:divide-slate-800">
              {checklist.steps.map((step) => (
                <Step key={step.key} step={step} isConfirming={confirming === step.key} onConfirm={() => { void confirm(step); }} />
              ))}
            </ol>
          )}
      </Card>
    </section>
  );
}

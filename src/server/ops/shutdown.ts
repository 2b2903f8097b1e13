// Issue 30: how a node stops (SIGTERM from an orchestrator, an upgrade). Readiness turns 503 at once,
// so the load balancer sends no more; the listener closes; requests in flight finish; websocket clients
// are told to reconnect (to another node); a job still running after a grace is released for another
// node; all within `timeoutMs`, after which main.ts ends the process whatever is left.
import type { FastifyInstance } from 'fastify';

export interface ShutdownOptions {
  /** The whole stop, at most. */
  timeoutMs?: number;
  /** How long a running job may take to finish before it is handed back. */
  jobGraceMs?: number;
}

/** Resolves true when everything closed in time, false when the time ran out. */
export async function shutdown(app: FastifyInstance, { timeoutMs = 10_000, jobGraceMs = Math.min(5_000, timeoutMs / 2) }: ShutdownOptions = {}): Promise<boolean> {
  app.stopping = true;
  const stop = (async () => {
    // The job first and alongside the requests: app.close() waits for the job queue too (onClose).
    const jobs = app.jobs.stop({ releaseAfterMs: jobGraceMs });
    await Promise.all([jobs, app.close()]);
  })();
  const outcome = await Promise.race([
    stop.then(() => true),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), timeoutMs).unref()),
  ]);
  if (!outcome) app.log.warn(`stopping took longer than ${timeoutMs} ms; ending with work still open`);
  return outcome;
}

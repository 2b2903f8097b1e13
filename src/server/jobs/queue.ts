// The job queue (ARCHITECTURE "Jobs"): rows of the `jobs` table, run by whichever node claims them
// first. A claim is one UPDATE over a `FOR UPDATE SKIP LOCKED` subselect, so concurrent claimers
// never take the same row, and it sets a lease (`locked_until`) instead of holding a lock while the
// handler runs: a node that dies lets its job go when the lease passes. The claim increments
// `attempts`, and the (id, attempts) pair is the claim's identity: a node whose lease was taken over
// cannot finish or fail the new claimer's run. A job is given up after max_attempts claims (a claim
// whose node died counts as one). PGlite (one connection) runs the same statements.
import { and, asc, eq, inArray, isNull, lt, lte, notInArray, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client';
import { jobs } from '../db/schema/workflow';
import { jobHandlers, recurringJobs } from './registry';
import { dayOf, zonedInstant } from '../../shared/dates';

declare module 'fastify' {
  interface FastifyInstance {
    jobs: JobQueue;
  }
}

export type Job = typeof jobs.$inferSelect;

/** Runs one job; a throw (or a rejected promise) fails the attempt. */
export type JobHandler = (app: FastifyInstance, payload: unknown, job: Job) => Promise<unknown> | unknown;

/**
 * A job every node's scheduler enqueues once a day at `hour`:`minute` on the firm's clock (its time
 * zone setting), keyed `name:YYYY-MM-DD` by the firm's day, so N nodes enqueue it once.
 */
export interface RecurringJob {
  name: string;
  hour: number;
  minute?: number;
  /**
   * A yearly job instead (issue 22: next year's public holidays): enqueued on the firm's first day on or
   * after this month and day of each year that any node schedules, keyed `name:YYYY`, so it runs once a
   * year even when no node was up on the day itself.
   */
  yearlyFrom?: { month: number; day: number };
}

/** The unique key of a recurring job's run on the firm's `day`, or null when it is not due that day (a yearly job before its date). */
export function recurringKey(job: RecurringJob, day: string): string | null {
  if (!job.yearlyFrom) return `${job.name}:${day}`;
  const from = `${String(job.yearlyFrom.month).padStart(2, '0')}-${String(job.yearlyFrom.day).padStart(2, '0')}`;
  return day.slice(5) >= from ? `${job.name}:${day.slice(0, 4)}` : null;
}

export interface EnqueueOptions {
  /** Not before this time (default: now). */
  runAt?: Date;
  /** A second enqueue with the same key is ignored (returns null). */
  uniqueKey?: string;
  maxAttempts?: number;
}

/** Adds a job; its id, or null when a job with the same unique key already exists. */
export async function enqueue(db: Db, name: string, payload: unknown = {}, options: EnqueueOptions = {}): Promise<number | null> {
  const [row] = await db.insert(jobs).values({
    name, payload: payload ?? {}, unique_key: options.uniqueKey ?? null,
    ...(options.runAt ? { run_at: options.runAt } : {}),
    ...(options.maxAttempts ? { max_attempts: options.maxAttempts } : {}),
  }).onConflictDoNothing({ target: jobs.unique_key }).returning({ id: jobs.id });
  return row?.id ?? null;
}

export interface JobQueueOptions {
  /** The jobs this node runs, by name; a node claims only names it knows (an older node leaves newer jobs alone). */
  handlers?: Readonly<Record<string, JobHandler>>;
  recurring?: readonly RecurringJob[];
  /** How often the loop of `start()` looks for due jobs. */
  pollMs?: number;
  /** How long a claim holds a job; renewed every third of it while the handler runs. */
  leaseMs?: number;
  /** Delay before retry number `attempts` (1 after the first failure). */
  backoffMs?: (attempts: number) => number;
}

export interface JobQueue {
  /** Claims one due job (or null): attempts + 1, leased until now + leaseMs. */
  claim(options?: { exceptIds?: readonly number[] }): Promise<Job | null>;
  /** Runs a claimed job's handler and records done_at, or last_error and the retry time. */
  run(job: Job): Promise<void>;
  /** Runs every job due now once (a failure rescheduled for now is not run again in this call); resolves with how many ran. */
  runDue(): Promise<number>;
  /** Enqueues today's run of each recurring job (once per node per day; once overall through the unique key; yearly ones once a year). */
  schedule(now?: Date): Promise<void>;
  /** Starts the polling loop (main.ts; never in tests). */
  start(): void;
  /**
   * Stops the loop and waits for the job that is running; with `releaseAfterMs`, a job still running
   * then is let go (its lease ends now, so another node claims it; this claim can no longer finish it).
   */
  stop(options?: { releaseAfterMs?: number }): Promise<void>;
}

const DEFAULTS = {
  pollMs: 5_000,
  leaseMs: 60_000,
  // 30 s, 1 min, 2 min, ... at most an hour.
  backoffMs: (attempts: number) => Math.min(30_000 * 2 ** (attempts - 1), 3_600_000),
};

export function createJobQueue(app: FastifyInstance, options: JobQueueOptions = {}): JobQueue {
  const handlers = options.handlers ?? jobHandlers;
  const recurring = options.recurring ?? recurringJobs;
  const pollMs = options.pollMs ?? DEFAULTS.pollMs;
  const leaseMs = options.leaseMs ?? DEFAULTS.leaseMs;
  const backoffMs = options.backoffMs ?? DEFAULTS.backoffMs;
  const names = Object.keys(handlers);
  const lease = sql`now() + ${leaseMs} * interval '1 millisecond'`;
  const scheduled = new Set<string>();
  let scheduledDay = '';
  const running = new Set<Promise<unknown>>();
  /** Jobs this node is running, each with the way to stop renewing its lease. */
  const claimed = new Map<Job, () => void>();
  let timer: NodeJS.Timeout | undefined;
  let isStopping = false;

  const ofClaim = (job: Job) => and(eq(jobs.id, job.id), eq(jobs.attempts, job.attempts));

  const queue: JobQueue = {
    async claim({ exceptIds = [] } = {}) {
      if (!names.length) return null;
      const due = app.db.select({ id: jobs.id }).from(jobs).where(and(
        isNull(jobs.done_at),
        lte(jobs.run_at, sql`now()`),
        or(isNull(jobs.locked_until), lte(jobs.locked_until, sql`now()`)),
        lt(jobs.attempts, jobs.max_attempts),
        inArray(jobs.name, names),
        exceptIds.length ? notInArray(jobs.id, [...exceptIds]) : undefined,
      )).orderBy(asc(jobs.run_at), asc(jobs.id)).limit(1).for('update', { skipLocked: true });
      // `id = (one row)`, not `id IN (...)`: the planner may run an IN subquery more than once and lock more rows than it returns.
      const [job] = await app.db.update(jobs)
        .set({ locked_until: lease, attempts: sql`${jobs.attempts} + 1` })
        .where(eq(jobs.id, sql`(${due})`))
        .returning();
      return job ?? null;
    },

    async run(job) {
      const handler = handlers[job.name];
      let renewing: Promise<unknown> = Promise.resolve();
      const renew = setInterval(() => {
        renewing = app.db.update(jobs).set({ locked_until: lease }).where(and(ofClaim(job), isNull(jobs.done_at)))
          .catch((error: unknown) => app.log.warn({ err: error, job: job.id }, 'job lease not renewed'));
      }, Math.max(leaseMs / 3, 10));
      renew.unref();
      // A renewal still in flight must not land after the outcome (it would re-lease a failed job).
      const stopRenewing = async () => { clearInterval(renew); await renewing; };
      claimed.set(job, () => clearInterval(renew));
      try {
        if (!handler) throw new Error(`no handler for job ${job.name}`);
        await handler(app, job.payload, job);
        await stopRenewing();
        await app.db.update(jobs).set({ done_at: sql`now()`, locked_until: null }).where(ofClaim(job));
      } catch (error) {
        await stopRenewing();
        const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
        const isLast = job.attempts >= job.max_attempts;
        await app.db.update(jobs).set({
          last_error: message.slice(0, 10_000),
          locked_until: null,
          ...(isLast ? {} : { run_at: sql`now() + ${backoffMs(job.attempts)} * interval '1 millisecond'` }),
        }).where(ofClaim(job));
        app.log[isLast ? 'error' : 'warn']({ err: error, job: job.id, name: job.name, attempts: job.attempts },
          isLast ? 'job failed for the last time' : 'job failed; it will be retried');
      } finally {
        claimed.delete(job);
      }
    },

    runDue() {
      const work = (async () => {
        const seen: number[] = [];
        while (!isStopping) {
          const job = await queue.claim({ exceptIds: seen });
          if (!job) break;
          seen.push(job.id);
          await queue.run(job);
        }
        return seen.length;
      })();
      running.add(work);
      return work.finally(() => running.delete(work));
    },

    async schedule(now = new Date()) {
      const day = dayOf(now);
      if (day !== scheduledDay) { scheduled.clear(); scheduledDay = day; }
      for (const job of recurring) {
        const uniqueKey = recurringKey(job, day);
        if (!uniqueKey || scheduled.has(uniqueKey)) continue;
        const runAt = zonedInstant(day, job.hour, job.minute ?? 0);
        await enqueue(app.db, job.name, {}, { runAt, uniqueKey });
        scheduled.add(uniqueKey);
      }
    },

    start() {
      if (timer || isStopping) return;
      const tick = async () => {
        try {
          await queue.schedule();
          await queue.runDue();
        } catch (error) {
          app.log.error({ err: error }, 'job loop failed; trying again at the next poll');
        }
      };
      const next = (delay: number) => {
        timer = setTimeout(() => {
          if (isStopping) return;
          // Tracked as a whole, so stop() also waits for a schedule() insert in flight.
          const work = tick();
          running.add(work);
          void work.finally(() => { running.delete(work); if (!isStopping) next(pollMs); });
        }, delay).unref();
      };
      next(0);
    },

    stop(options = {}) {
      // Once: a later call (app.close()'s onClose after shutdown) waits for the first, as it asked.
      return (stopped ??= stopOnce(options));
    },
  };

  let stopped: Promise<void> | undefined;
  const stopOnce = async ({ releaseAfterMs }: { releaseAfterMs?: number }) => {
    isStopping = true;
    clearTimeout(timer);
    const settled = Promise.allSettled([...running]).then(() => true);
    if (releaseAfterMs === undefined) { await settled; return; }
    const done = await Promise.race([settled, new Promise<false>((resolve) => setTimeout(() => resolve(false), releaseAfterMs).unref())]);
    if (done) return;
    // The process is about to end: the claim goes back now rather than when its lease runs out.
    // The attempt counts, as it would for a node that died; the lease renewal stops with the claim.
    const abandoned = [...claimed];
    claimed.clear();
    running.clear();
    for (const [job, stopRenewal] of abandoned) {
      stopRenewal();
      await app.db.update(jobs).set({ locked_until: sql`now()` }).where(and(ofClaim(job), isNull(jobs.done_at)));
      app.log.warn({ job: job.id, name: job.name }, 'node stopping: job released for another node');
    }
  };
  return queue;
}

// Issue 30: what a load balancer asks. GET /api/health: the process answers. GET /api/ready: this
// node can serve (database reachable, migrations current, Redis and the object store when configured).
// Both public and cheap; they say which part is down, never an address, a user or a message from it.
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { codeMigrations, databaseMigrations } from '../db/migration-state';
import { migrationsFolder } from '../db/client';

/** A check slower than this counts as down: a load balancer must not wait on a hung dependency. */
const CHECK_TIMEOUT_MS = 2_000;

type Status = 'ok' | 'down' | 'behind';

function within<T>(work: Promise<T>): Promise<T> {
  return Promise.race([work, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS).unref())]);
}

export function registerHealthRoutes(app: FastifyInstance): void {
  const code = codeMigrations(migrationsFolder);
  const open = { config: { auth: 'none' as const }, logLevel: 'warn' as const };

  app.get('/api/health', open, async (_request, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }));

  app.get('/api/ready', open, async (_request, reply) => {
    const checks: Record<string, Status> = {};
    const run = async (name: string, check: () => Promise<Status | void>) => {
      try {
        checks[name] = (await within(check())) ?? 'ok';
      } catch (error) {
        checks[name] = 'down';
        app.log.warn({ err: error, check: name }, 'readiness check failed');
      }
    };
    await Promise.all([
      run('database', async () => { await app.db.execute(sql`SELECT 1`); }),
      run('migrations', async () => {
        const applied = await databaseMigrations(app.db);
        return applied.count === code.count && applied.last === code.last ? 'ok' : 'behind';
      }),
      app.redis ? run('redis', async () => { await app.redis!.ping(); }) : undefined,
      app.config.storageUrl ? run('storage', () => app.storage.check()) : undefined,
    ]);
    // A node that has begun to stop takes no new work: the balancer moves on before it closes.
    if (app.stopping) checks.stopping = 'down';
    const ready = Object.values(checks).every((status) => status === 'ok');
    return reply.status(ready ? 200 : 503).header('cache-control', 'no-store').send({ status: ready ? 'ok' : 'unavailable', checks });
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Set when SIGTERM arrived (ops/shutdown.ts): readiness answers 503 from then on. */
    stopping: boolean;
  }
}

// Issue 30: Prometheus metrics through prom-client, on a port of their own (METRICS_PORT, for a private
// network) or at /metrics on the app's port behind a bearer token (METRICS_TOKEN); neither set, none.
// Each app has its own registry, so that tests can build several in one process.
import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { rowsOf } from '../db/migration-state';

export function registerMetrics(app: FastifyInstance): void {
  const { metricsPort, metricsToken } = app.config;
  if (!metricsPort && !metricsToken) return;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered, by route and status', labelNames: ['method', 'route', 'status'], registers: [registry] });
  const errors = new Counter({ name: 'http_request_errors_total', help: 'HTTP requests answered with a server error (5xx)', labelNames: ['method', 'route'], registers: [registry] });
  const duration = new Histogram({
    name: 'http_request_duration_seconds', help: 'Time to answer, by route', labelNames: ['method', 'route'], registers: [registry],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  });
  const replays = new Counter({ name: 'idempotent_replays_total', help: 'Mutations answered from a stored answer (a retried Idempotency-Key)', registers: [registry] });
  const mailFailures = new Counter({ name: 'mail_failures_total', help: 'Messages the mail transport refused or could not deliver', registers: [registry] });

  app.addHook('onResponse', async (request, reply) => {
    // The route's pattern (/api/leave-application/:id), never the address itself: ids and tokens stay out.
    const route = request.routeOptions.url ?? 'unmatched';
    const labels = { method: request.method, route };
    requests.inc({ ...labels, status: String(reply.statusCode) });
    duration.observe(labels, reply.elapsedTime / 1000);
    if (reply.statusCode >= 500) errors.inc(labels);
    if (reply.getHeader('idempotent-replayed') === 'true') replays.inc();
  });

  const send = app.mailer.send.bind(app.mailer);
  app.mailer.send = async (message) => {
    try {
      await send(message);
    } catch (error) {
      mailFailures.inc();
      throw error;
    }
  };

  new Gauge({
    name: 'websocket_connections', help: 'Open websocket connections on this node', registers: [registry],
    collect() { this.set(app.realtimeStats().connections); },
  });
  new Gauge({
    name: 'websocket_channels', help: 'Channels with a subscriber on this node', registers: [registry],
    collect() { this.set(app.realtimeStats().channels); },
  });
  new Gauge({
    name: 'db_pool_connections', help: 'PostgreSQL pool connections of this node by state (embedded database: none)', labelNames: ['state'], registers: [registry],
    collect() {
      const pool = app.database.pool?.();
      if (!pool) return;
      this.set({ state: 'total' }, pool.total);
      this.set({ state: 'idle' }, pool.idle);
      this.set({ state: 'waiting' }, pool.waiting);
    },
  });
  // The queue as the database holds it, the same from every node: read once per scrape.
  let queue: Promise<{ due: number; lag: number; failed: number; retrying: number }> | null = null;
  const readQueue = () => (queue ??= app.db.execute(sql`
    SELECT count(*) FILTER (WHERE done_at IS NULL AND run_at <= now() AND attempts < max_attempts)::int AS due,
           coalesce(extract(epoch FROM now() - min(run_at) FILTER (WHERE done_at IS NULL AND run_at <= now() AND attempts < max_attempts)), 0)::float AS lag,
           count(*) FILTER (WHERE done_at IS NULL AND attempts >= max_attempts)::int AS failed,
           count(*) FILTER (WHERE done_at IS NULL AND last_error IS NOT NULL AND attempts < max_attempts)::int AS retrying
    FROM jobs`).then((result) => {
    const row = rowsOf(result)[0] as Record<string, number>;
    return { due: Number(row.due), lag: Number(row.lag), failed: Number(row.failed), retrying: Number(row.retrying) };
  }).finally(() => setImmediate(() => { queue = null; })));
  for (const [name, help, field] of [
    ['jobs_due', 'Jobs due and not yet run', 'due'],
    ['jobs_lag_seconds', 'How long the oldest due job has waited', 'lag'],
    ['jobs_failed', 'Jobs given up after their last attempt', 'failed'],
    ['jobs_retrying', 'Jobs whose last attempt failed and that will be tried again', 'retrying'],
  ] as const) {
    new Gauge({ name, help, registers: [registry], async collect() { this.set((await readQueue())[field]); } });
  }

  const answer = async () => ({ type: registry.contentType, body: await registry.metrics() });

  if (metricsToken) {
    const expected = Buffer.from(`Bearer ${metricsToken}`);
    app.get('/metrics', { logLevel: 'warn' }, async (request, reply) => {
      const given = Buffer.from(request.headers.authorization ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return reply.status(401).send({ message: 'Unauthenticated.' });
      const { type, body } = await answer();
      return reply.type(type).send(body);
    });
  }
  if (metricsPort) {
    let server: Server | undefined;
    app.addHook('onReady', async () => {
      server = createServer((request, response) => {
        if (request.url !== '/metrics') { response.writeHead(404).end(); return; }
        answer().then(({ type, body }) => response.writeHead(200, { 'content-type': type }).end(body),
          (error: unknown) => { app.log.error({ err: error }, 'metrics failed'); response.writeHead(500).end(); });
      });
      await new Promise<void>((resolve, reject) => server!.once('error', reject).listen(metricsPort, app.config.host, resolve));
    });
    app.addHook('onClose', async () => { await new Promise((resolve) => server ? server.close(resolve) : resolve(undefined)); });
  }
}

// @vitest-environment node
// Issue 30 across two nodes on one PostgreSQL and one Redis: files in a real S3-protocol store (s3rver)
// reach every node; a node stopped during 50 requests and a running job answers every request and hands
// the job to the other node, which runs it once; nodes starting together migrate once; a node refuses a
// database newer than its code. Skipped, with a visible message, without REDIS_URL and TEST_DATABASE_URL.
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { openDatabase } from '../../src/server/db/client';
import { codeMigrations, DatabaseNewerError, rowsOf } from '../../src/server/db/migration-state';
import { jobs } from '../../src/server/db/schema/workflow';
import { createJobQueue, enqueue } from '../../src/server/jobs/queue';
import { shutdown } from '../../src/server/ops/shutdown';
import { migrationsFolder } from '../../src/server/db/client';
import { freshPostgresDatabase } from '../helpers/app';
import { clusterCanRun, clusterPusher, createUploadTeam, portOf, signIn, startNode } from '../helpers/cluster';
import { multipart, PDF } from '../helpers/multipart';
import { startS3Server } from '../helpers/s3';

const canRun = clusterCanRun('tests/realtime/cluster-ops.test.ts', 'the two-node operations tests');
const pusher = clusterPusher('ops');
const port = portOf;

async function until(condition: () => boolean | Promise<boolean>, what: string, ms = 10_000) {
  const end = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(!canRun)('two nodes: files, stopping, migrations (issue 30)', () => {
  let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  const nodes: FastifyInstance[] = [];
  const build = async (before?: (node: FastifyInstance) => void) => {
    const node = await startNode({ databaseUrl: database.url, pusher, storageUrl: s3.storageUrl }, before);
    nodes.push(node);
    return node;
  };
  const login = (node: FastifyInstance, email: string) => signIn(node, email);

  beforeAll(async () => {
    [database, s3] = await Promise.all([freshPostgresDatabase(), startS3Server()]);
  });
  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.close()));
    await database?.drop();
    await s3?.close();
  });

  it('stores a file uploaded through node A in the object store; node B serves it; a refused or repeated upload leaves no object', async () => {
    const [nodeA, nodeB] = [await build(), await build()];
    const { manager, engineer, client } = await createUploadTeam(nodeA);
    const [engineerOnA, managerOnB] = [await login(nodeA, engineer.email), await login(nodeB, manager.email)];

    const content = Buffer.concat([PDF, randomBytes(4096)]);
    const form = multipart({ client_id: client.id, period_type: 'month', period_start: '2026-10-01', hours: 168 }, { name: 'october.pdf', type: 'application/pdf', content });
    const upload = await nodeA.inject({ method: 'POST', url: '/api/time-sheet', payload: form.body, headers: { ...form.headers, authorization: `Bearer ${engineerOnA}`, 'idempotency-key': 'october-upload' } });
    expect(upload.statusCode).toBe(201);
    expect(await s3.keys()).toHaveLength(1);

    const download = await fetch(`http://127.0.0.1:${port(nodeB)}/api/time-sheet/${upload.json().data.id}/file`, { headers: { authorization: `Bearer ${managerOnB}` } });
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(content)).toBe(true);

    // The outbox's retry of the same upload, through node B: replayed, and its copy of the file is gone.
    const engineerOnB = await login(nodeB, engineer.email);
    const again = await nodeB.inject({ method: 'POST', url: '/api/time-sheet', payload: form.body, headers: { ...form.headers, authorization: `Bearer ${engineerOnB}`, 'idempotency-key': 'october-upload' } });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    // Refused: not a PDF inside, whatever its name says.
    const fake = multipart({ client_id: client.id, period_type: 'month', period_start: '2026-11-01', hours: 160 }, { name: 'november.pdf', type: 'application/pdf', content: 'not a pdf at all' });
    const refused = await nodeB.inject({ method: 'POST', url: '/api/time-sheet', payload: fake.body, headers: { ...fake.headers, authorization: `Bearer ${engineerOnB}` } });
    expect(refused.statusCode).toBe(422);
    expect(await s3.keys()).toHaveLength(1);

    // Both nodes are ready, the object store among what they checked.
    for (const node of [nodeA, nodeB]) {
      const ready = await node.inject({ method: 'GET', url: '/api/ready' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json().checks).toEqual({ database: 'ok', migrations: 'ok', redis: 'ok', storage: 'ok' });
    }
  });

  it('a node stopped during 50 requests and a running job answers every request, tells its sockets to reconnect, and the other node runs the job once', async () => {
    let arrived = 0;
    const nodeA = await build((node) => {
      node.addHook('onRequest', async () => { arrived++; });
      node.get('/test/slow', async () => { await new Promise((resolve) => setTimeout(resolve, 300)); return { ok: true }; });
    });
    const nodeB = await build();
    const portA = port(nodeA);
    const finished: string[] = [];
    let startedOnA!: () => void;
    const started = new Promise<void>((resolve) => { startedOnA = resolve; });
    // On node A the job is still running when the node stops (and never ends: the process would exit); node B finishes it.
    nodeA.jobs = createJobQueue(nodeA, { handlers: { 'ops-test': async () => { startedOnA(); await new Promise(() => undefined); } } });
    nodeB.jobs = createJobQueue(nodeB, { handlers: { 'ops-test': () => { finished.push('B'); } } });
    const jobId = (await enqueue(nodeA.db, 'ops-test'))!;
    void nodeA.jobs.runDue();
    await started;

    const socket = new WebSocket(`ws://127.0.0.1:${port(nodeA)}/app/${pusher.key}?protocol=7`);
    const frames: { event: string; data?: string }[] = [];
    socket.on('message', (data) => frames.push(JSON.parse(String(data))));
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    await until(() => frames.some((frame) => frame.event === 'pusher:connection_established'), 'the socket to connect');

    const requests = Array.from({ length: 50 }, () => fetch(`http://127.0.0.1:${port(nodeA)}/test/slow`).then(async (response) => ({ status: response.status, body: await response.json() })));
    await until(() => arrived >= 50, 'all 50 requests to reach node A');
    const stopped = shutdown(nodeA, { timeoutMs: 10_000, jobGraceMs: 200 });

    const answers = await Promise.all(requests);
    expect(answers.filter((answer) => answer.status === 200 && answer.body.ok)).toHaveLength(50);
    expect(await stopped).toBe(true);
    expect(await closed).toBe(4200);
    expect(frames.at(-1)).toMatchObject({ event: 'pusher:error', data: { code: 4200 } });
    // Node A takes no new connection.
    await expect(fetch(`http://127.0.0.1:${portA}/api/health`)).rejects.toThrow();

    expect(await nodeB.jobs.runDue()).toBe(1);
    expect(await nodeB.jobs.runDue()).toBe(0);
    expect(finished).toEqual(['B']);
    const [row] = await nodeB.db.select().from(jobs).where(eq(jobs.id, jobId));
    expect(row.done_at).not.toBeNull();
    expect(row.attempts).toBe(2);
    socket.terminate();
  });

  it('two nodes starting at once on an empty database apply the migrations once; a node refuses a database newer than its code', async () => {
    const empty = await freshPostgresDatabase({ empty: true });
    try {
      const both = await Promise.all([openDatabase({ databaseUrl: empty.url, dataDir: '.' }), openDatabase({ databaseUrl: empty.url, dataDir: '.' })]);
      const applied = rowsOf(await both[0].db.execute(sql`SELECT count(*)::int AS count FROM drizzle.__drizzle_migrations`))[0];
      expect(applied.count).toBe(codeMigrations(migrationsFolder).count);
      // A later version's migration, as its nodes would have left it.
      await both[0].db.execute(sql`INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ('future', ${codeMigrations(migrationsFolder).last + 1000})`);
      await Promise.all(both.map((opened) => opened.close()));
      const refused = openDatabase({ databaseUrl: empty.url, dataDir: '.' });
      await expect(refused).rejects.toBeInstanceOf(DatabaseNewerError);
      await expect(refused).rejects.toThrow(/^The database has migrations this version does not know \(\d+ applied, this code has \d+\)/);
    } finally {
      await empty.drop();
    }
  });
});

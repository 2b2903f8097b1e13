// Issue 30 on one node: health and readiness for a load balancer, Prometheus metrics behind a token,
// and JSON log lines that carry a request id and the account, never a password, token, reset link or file.
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients } from '../../src/server/db/schema/master-data';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';
import { multipart, PDF } from '../helpers/multipart';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';
const lines: string[] = [];
const logStream = new Writable({ write(chunk, _encoding, done) { lines.push(...String(chunk).split('\n').filter(Boolean)); done(); } });
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ metricsToken: METRICS_TOKEN }, { logStream });
});
afterAll(async () => { await t?.close(); });

describe('health and readiness', () => {
  it('answers /api/health and /api/ready without a token, naming only which parts are up', async () => {
    const health = await t.call('GET', '/api/health');
    expect(health).toMatchObject({ status: 200, body: { status: 'ok' } });
    const ready = await t.call('GET', '/api/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ok', checks: { database: 'ok', migrations: 'ok' } });
    expect(ready.headers['cache-control']).toBe('no-store');
  });

  it('is not ready when the object store cannot be reached, nor once the node has begun to stop', async () => {
    const unreachable = await createTestApp({ storageUrl: 's3+http://key:secret@127.0.0.1:1/files?region=us-east-1' });
    try {
      const ready = await unreachable.call('GET', '/api/ready');
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ status: 'unavailable', checks: { database: 'ok', migrations: 'ok', storage: 'down' } });
      expect(JSON.stringify(ready.body)).not.toContain('secret');
      unreachable.app.stopping = true;
      expect((await unreachable.call('GET', '/api/ready')).body.checks.stopping).toBe('down');
      expect((await unreachable.call('GET', '/api/health')).status).toBe(200);
    } finally {
      await unreachable.close();
    }
  });
});

describe('metrics', () => {
  it('serves Prometheus metrics only with the token: requests per route, jobs, sockets, replays', async () => {
    const token = await t.login(ADMIN.email, ADMIN.password);
    await t.call('GET', '/api/user', { token });
    const body = { status: 'on', message: 'Metrics are on' };
    await t.call('PUT', '/api/setting/announcement', { token, body, headers: { 'idempotency-key': 'metrics-1' } });
    expect((await t.call('PUT', '/api/setting/announcement', { token, body, headers: { 'idempotency-key': 'metrics-1' } })).headers['idempotent-replayed']).toBe('true');

    expect((await t.call('GET', '/metrics')).status).toBe(401);
    expect((await t.call('GET', '/metrics', { token })).status).toBe(401);
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.headers['content-type']).toContain('text/plain');
    const text = metrics.body;
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/api\/user",status="200"\} 1/);
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/api\/user"\} 1/);
    expect(text).toMatch(/idempotent_replays_total 1/);
    for (const name of ['jobs_due', 'jobs_lag_seconds', 'jobs_failed', 'websocket_connections', 'websocket_channels', 'mail_failures_total', 'http_request_errors_total']) {
      expect(text).toContain(`# TYPE ${name} `);
    }
  });
});

describe('logs', () => {
  it('writes JSON lines with the request id and the account, and no password, token, reset link or file content', async () => {
    const [{ id: clientId }] = await t.app.db.insert(clients).values({ name: 'Log Client' }).returning();
    const engineer = await t.createUser({ email: 'logged@example.com', name: 'Logged Engineer', user_type: 'user' });
    const password = 'secret-password';
    const token = await engineer.token();

    const marker = `FILE-CONTENT-${randomBytes(6).toString('hex')}`;
    const form = multipart({ client_id: clientId, period_type: 'month', period_start: '2026-03-01', hours: 160 }, { name: 'march.pdf', type: 'application/pdf', content: Buffer.concat([PDF, Buffer.from(marker)]) }, 'time-sheet');
    const upload = await t.app.inject({ method: 'POST', url: '/api/time-sheet', payload: form.body, headers: { ...form.headers, authorization: `Bearer ${token}` } });
    expect(upload.statusCode).toBe(201);
    const listed = await t.app.inject({ method: 'GET', url: '/api/time-sheet?search=abcdefabcdefabcdefabcdefabcdef', headers: { authorization: `Bearer ${token}` } });
    expect(listed.statusCode).toBe(200);

    await t.call('POST', '/api/forgot-password', { body: { email: 'logged@example.com' } });
    const mail = await t.smtp.waitFor('logged@example.com', /password/i);
    const link = mail.links.find((candidate) => /token=|reset/.test(candidate))!;
    const resetToken = new URL(link).searchParams.get('token') ?? link.split('/').pop()!;
    await t.call('POST', '/api/reset-password', { body: { token: resetToken, email: 'logged@example.com', password: 'new-secret-password', password_confirmation: 'new-secret-password' } });

    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const ofList = parsed.filter((line) => line.request_id === listed.headers['x-request-id']);
    expect(ofList.length).toBeGreaterThan(0);
    expect(ofList.find((line) => line.msg === 'request completed')).toMatchObject({ account_id: engineer.id, account_type: 'app' });
    const all = lines.join('\n');
    for (const secret of [password, 'new-secret-password', token, token.split('|').pop()!, resetToken, link, marker, 'abcdefabcdefabcdefabcdefabcdef']) {
      expect(all).not.toContain(secret);
    }
  });
});

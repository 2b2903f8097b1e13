// npm run bench:document-assign — assigning one document to 5,000 people (issue 10) on PostgreSQL:
// the time POST /api/document-assign takes to answer (target: under 2 s), and the notifications
// delivered live to 1,000 of them connected over the Pusher protocol (raw `ws` clients as in
// bench/ws.ts, each subscribed to its own private-App.Models.User.{id} with a valid signature).
// Each run assigns a fresh document: odd runs name the 5,000 people one by one, even runs as their
// employee type. Method and results: docs/benchmarks.md "Assigning a document to 5,000 people".
import { fork } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { WebSocket } from 'ws';
import { printResult } from './measure';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const CONNECTED = Number(process.env.BENCH_CONNECTED ?? 1_000);
const NOTIFICATION_EVENT = 'Illuminate\\Notifications\\Events\\BroadcastNotificationCreated';

interface Served { port: number; token: string; employeeTypeId: number; userIds: number[]; documentIds: number[]; pusher: { key: string; secret: string } }

/** A protocol-speaking client subscribed to one user's notification channel; resolves once subscribed. */
function subscribe(served: Served, userId: number, onNotification: (at: number) => void): Promise<WebSocket> {
  const channel = `private-App.Models.User.${userId}`;
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${served.port}/app/${served.pusher.key}?protocol=7&client=js&version=8.6.0`, { perMessageDeflate: false });
    ws.on('message', (raw) => {
      const at = performance.now();
      const frame = JSON.parse(raw.toString()) as { event: string; data?: string };
      if (frame.event === 'pusher:connection_established') {
        const socketId = (JSON.parse(frame.data!) as { socket_id: string }).socket_id;
        const auth = `${served.pusher.key}:${createHmac('sha256', served.pusher.secret).update(`${socketId}:${channel}`).digest('hex')}`;
        ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel, auth } }));
      } else if (frame.event === 'pusher_internal:subscription_succeeded') resolve(ws);
      else if (frame.event === 'pusher:ping') ws.send('{"event":"pusher:pong","data":{}}');
      else if (frame.event === NOTIFICATION_EVENT) onNotification(at);
      else if (frame.event === 'pusher:error' || frame.event === 'pusher:subscription_error') reject(new Error(String(frame.data)));
    });
    ws.once('error', reject);
  });
}

async function assign(served: Served, body: Record<string, unknown>): Promise<{ data: { assigned: number } }> {
  const response = await fetch(`http://127.0.0.1:${served.port}/api/document-assign`, {
    method: 'POST', headers: { authorization: `Bearer ${served.token}`, 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body),
  });
  const answer = await response.json() as { data: { assigned: number } };
  if (response.status !== 201) throw new Error(`assign answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
  const name = `bench_assign_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const child = fork(fileURLToPath(new URL('./document-assign.server.ts', import.meta.url)), [url.toString()], { execArgv: ['--import', 'tsx'] });
  const sockets: WebSocket[] = [];
  try {
    const served = await new Promise<Served>((resolve, reject) => {
      child.once('message', (message) => resolve(message as Served));
      child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    });
    let delivered: number[] = [];
    const connected = served.userIds.slice(0, CONNECTED);
    for (let i = 0; i < connected.length; i += 250) {
      sockets.push(...await Promise.all(connected.slice(i, i + 250).map((id) => subscribe(served, id, (at) => delivered.push(at)))));
    }
    console.log(`${sockets.length} clients subscribed; ${served.userIds.length} people; PostgreSQL, one node\n`);
    const due = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
    const results: { run: number; by: string; answerMs: number; assigned: number; delivered: number; lastDeliveryMs: number }[] = [];
    const [warmUp, ...measured] = served.documentIds;
    // One run not counted: a server that has just started compiles its code paths on the first one.
    await assign(served, { document_ids: [warmUp], due_date: due, user_ids: served.userIds });
    while (delivered.length < sockets.length) await new Promise((resolve) => setTimeout(resolve, 5));
    for (const [index, documentId] of measured.entries()) {
      delivered = [];
      const by = index % 2 === 0 ? 'people' : 'employee type';
      const body = { document_ids: [documentId], due_date: due, message: 'Benchmark', ...(by === 'people' ? { user_ids: served.userIds } : { employee_type_ids: [served.employeeTypeId] }) };
      const started = performance.now();
      const answer = await assign(served, body);
      const answerMs = performance.now() - started;
      const deadline = performance.now() + 30_000;
      while (delivered.length < sockets.length && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
      results.push({ run: index + 1, by, answerMs, assigned: answer.data!.assigned, delivered: delivered.length, lastDeliveryMs: Math.max(...delivered) - started });
    }
    console.table(results.map((r) => ({ ...r, answerMs: Math.round(r.answerMs), lastDeliveryMs: Math.round(r.lastDeliveryMs) })));
    const answers = results.map((r) => r.answerMs);
    console.log(`\nanswer: median ${Math.round(median(answers))} ms, max ${Math.round(Math.max(...answers))} ms (target < 2000 ms)`);
    console.log(`live: ${results.map((r) => r.delivered).join(', ')} of ${sockets.length} delivered per run; last delivery median ${Math.round(median(results.map((r) => r.lastDeliveryMs)))} ms after the request started`);
    printResult('document_assign_answer_median', median(answers), 'ms', 2000, true);
  } finally {
    for (const ws of sockets) ws.terminate();
    child.kill();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error) => { console.error(error); process.exit(1); });

// npm run bench:dashboard — issue 13's dashboard with 100,000 records in each list it reads, on
// PostgreSQL: GET /api/dashboard for the admin (who sees every panel: waiting for you over every
// decision list, expiring documents and contracts, overdue onboarding tasks, the hiring funnel,
// requests by status, the weighted pipeline, partner invoices awaiting payment) at 10 concurrent
// connections after a warm-up, beside GET /api/me. Target (issue 13): p95 at most 100 ms.
// The machine's load average is sampled during the run (/proc/loadavg). A fresh database is created
// and dropped here (BENCH_DATABASE_URL names the server; BENCH_KEEP=1 keeps it to EXPLAIN queries).
// Method and results: docs/benchmarks.md "Dashboard".
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { measure, printResult, printTable } from './measure';
import { withServedDatabase } from './served';

const CONNECTIONS = 10;
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);

const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number);

/** `work` while sampling the 1-minute load average every second: its mean and max over the run. */
async function withLoad<T>(work: () => Promise<T>): Promise<T & { load: { mean: number; max: number; before: number[] } }> {
  const before = loadAverage();
  const samples: number[] = [];
  const timer = setInterval(() => samples.push(loadAverage()[0]), 1000);
  try {
    const result = await work();
    return { ...result, load: { mean: samples.reduce((a, b) => a + b, 0) / Math.max(1, samples.length), max: Math.max(...samples), before } };
  } finally {
    clearInterval(timer);
  }
}

async function main() {
  await withServedDatabase<{ port: number; token: string; counts: Record<string, string>; seconds: number }>('bench_dashboard', new URL('./dashboard.server.ts', import.meta.url), async (served) => {
    console.log(`seeded in ${served.seconds.toFixed(0)} s:`, served.counts);
    const base = `http://127.0.0.1:${served.port}`;
    const headers = { authorization: `Bearer ${served.token}` };
    const targets = { me: `${base}/api/me`, dashboard: `${base}/api/dashboard` };
    // Every panel is there, and its figures reflect the seeded lists, before anything is timed.
    const answer = await fetch(targets.dashboard, { headers });
    const { data } = await answer.json() as { data: Record<string, any> };
    if (answer.status !== 200) throw new Error(`dashboard: ${answer.status} ${JSON.stringify(data).slice(0, 300)}`);
    const panels = ['waiting', 'lists', 'breakdowns', 'pipeline', 'invoices_awaiting_payment'];
    const missing = panels.filter((key) => !(key in data));
    if (missing.length || data.lists.length !== 3 || data.breakdowns.length !== 2) throw new Error(`missing panels: ${missing.join(', ')} ${JSON.stringify(data).slice(0, 500)}`);
    const deals = data.pipeline.by_stage.reduce((sum: number, stage: { count: number }) => sum + stage.count, 0);
    if (deals !== ROWS) throw new Error(`pipeline counts ${deals} deals`);
    console.log('waiting:', data.waiting.map((w: { key: string; count: number }) => `${w.key}=${w.count}`).join(', '));
    console.log('lists:', data.lists.map((l: { key: string; all?: { count: number } }) => `${l.key}=${l.all?.count}`).join(', '));
    console.log('breakdowns:', data.breakdowns.map((b: { key: string; items: { count: number }[] }) => `${b.key}=${b.items.map((i) => i.count).join('/')}`).join(', '));
    console.log('invoices awaiting payment:', data.invoices_awaiting_payment.count, `(${Buffer.byteLength(JSON.stringify(data))} bytes of JSON)`);
    // Warm-up: plans cached, pages in memory, the JIT settled.
    for (const target of Object.values(targets)) await autocannon({ url: target, connections: CONNECTIONS, duration: 5, headers });
    const me = await withLoad(() => measure('token-only route (GET /api/me)', { connections: CONNECTIONS, duration: Math.min(10, DURATION_SECONDS), url: targets.me, headers }));
    const dashboard = await withLoad(() => measure(`GET /api/dashboard (admin, every panel, ${ROWS.toLocaleString('en')} records per list)`, { connections: CONNECTIONS, duration: DURATION_SECONDS, url: targets.dashboard, headers }));
    console.log(`\n${CONNECTIONS} connections, ${DURATION_SECONDS} s, PostgreSQL, one node\n`);
    printTable([me, dashboard]);
    for (const run of [me, dashboard]) console.log(`load average during "${run.name}": mean ${run.load.mean.toFixed(2)}, max ${run.load.max.toFixed(2)} (before: ${run.load.before.join(' ')})`);
    console.log(`\ndashboard p95 = ${dashboard.p95.toFixed(1)} ms (target <= 100 ms): ${dashboard.p95 <= 100 ? 'met' : 'not met'}`);
    printResult('dashboard_p95', dashboard.p95, 'ms', 100, true);
  });
}

main().catch((error) => { console.error(error); process.exit(1); });

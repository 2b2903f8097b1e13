// npm run bench:partner-invoices — a partner's own invoice list (GET /api/partner/invoice, the first
// page) with 1,000 partner firms of 100 invoices each, at 50 connections on PostgreSQL, beside the
// partner's GET /api/partner/me of the same server in the same run (the list's reference), and the
// partner's token-only route (GET /api/partner/get-laravel-permission-to-vue-js: the session alone,
// no statement), to compare with the staff one of bench:pipeline (issue 27).
// Target (issue 11): the list reaches at least 50% of /api/partner/me's throughput.
// Method and results: docs/benchmarks.md "Partner invoice list".
import autocannon from 'autocannon';
import { measure, printRatioResult, printTable } from './measure';
import { cpuPerRequest, withServedDatabase } from './served';

const CONNECTIONS = 50;
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
// Requests sent after the timed runs to read Node's and PostgreSQL's CPU per request (/proc).
const CPU_REQUESTS = Number(process.env.BENCH_CPU_REQUESTS ?? 5000);

async function main() {
  await withServedDatabase<{ port: number; token: string }>('bench_partner_invoices', new URL('./partner-invoices.server.ts', import.meta.url), async (served, databaseUrl, pid) => {
    const base = `http://127.0.0.1:${served.port}`;
    const headers = { authorization: `Bearer ${served.token}` };
    const check = await fetch(`${base}/api/partner/invoice`, { headers });
    const page = await check.json() as { data: unknown[]; meta: { total: number } };
    if (check.status !== 200 || page.meta.total !== Number(process.env.BENCH_INVOICES ?? 100)) throw new Error(`unexpected list answer: ${check.status} ${JSON.stringify(page).slice(0, 200)}`);
    const paths = ['/api/partner/get-laravel-permission-to-vue-js', '/api/partner/me', '/api/partner/invoice'];
    for (const path of paths) await autocannon({ url: `${base}${path}`, connections: CONNECTIONS, duration: 3, headers });
    const run = (name: string, path: string) => measure(name, { connections: CONNECTIONS, duration: DURATION_SECONDS, url: `${base}${path}`, headers });
    const session = await run('partner token-only route (GET /api/partner/get-laravel-permission-to-vue-js)', paths[0]);
    const token = await run('reference: GET /api/partner/me (session + the announcement)', paths[1]);
    const list = await run('partner invoice list (GET /api/partner/invoice)', paths[2]);
    console.log(`\n${CONNECTIONS} connections, ${DURATION_SECONDS} s each, PostgreSQL, one node; ${page.meta.total} invoices of the caller's firm among ${process.env.BENCH_PARTNERS ?? 1000} firms\n`);
    printTable([session, token, list]);
    for (const path of ['/api/partner/me', '/api/partner/invoice']) {
      const cpu = await cpuPerRequest(pid, databaseUrl, CPU_REQUESTS, () => autocannon({ url: `${base}${path}`, connections: CONNECTIONS, amount: CPU_REQUESTS, headers, timeout: 30 }));
      console.log(`CPU per request of ${path} over ${CPU_REQUESTS} requests: Node ${cpu.nodeMicros.toFixed(0)} µs, PostgreSQL ${cpu.postgresMicros.toFixed(0)} µs`);
    }
    console.log(`\nlist throughput = ${((list.rps / token.rps) * 100).toFixed(1)}% of GET /api/partner/me (target >= 50%), ${((list.rps / session.rps) * 100).toFixed(1)}% of the partner's token-only route`);
    printRatioResult('partner_invoice_list', list, token, 50, 'percent_of_token_route');
  }, process.env.BENCH_PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof-pi'] : []);
}

main().catch((error) => { console.error(error); process.exit(1); });

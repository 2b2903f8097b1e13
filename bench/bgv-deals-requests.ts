// npm run bench:bgv-deals-requests — the figures issue 13's dashboard takes from background checks,
// deals and service requests, with 100,000 records in each list on PostgreSQL: the weighted
// pipeline of every deal by stage and by owner (GET /api/deal-tracking/pipeline, what dealPipeline()
// answers the dashboard), the requests of one status (GET /api/request?status=Requested, the link
// behind "open requests by status"), and the checks with a discrepancy (GET /api/bgv-check?result=
// discrepancy), beside GET /api/me. Target (issue 13): p95 at most 100 ms at 10 connections.
// Method and results: docs/benchmarks.md "Background checks, deals and requests".
import autocannon from 'autocannon';
import { measure, printResult, printTable } from './measure';
import { withServedDatabase } from './served';

const CONNECTIONS = 10;
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);

async function main() {
  await withServedDatabase<{ port: number; token: string }>('bench_bgv_deals_requests', new URL('./bgv-deals-requests.server.ts', import.meta.url), async (served) => {
    const base = `http://127.0.0.1:${served.port}`;
    const headers = { authorization: `Bearer ${served.token}` };
    const targets = {
      me: `${base}/api/me`,
      pipeline: `${base}/api/deal-tracking/pipeline`,
      requests: `${base}/api/request?status=Requested`,
      checks: `${base}/api/bgv-check?result=discrepancy`,
    };
    // The answers are what they should be before anything is timed.
    const pipeline = await (await fetch(targets.pipeline, { headers })).json() as { data: { by_stage: { count: number }[]; by_owner: unknown[] } };
    const deals = pipeline.data.by_stage.reduce((sum, stage) => sum + stage.count, 0);
    if (deals !== ROWS || pipeline.data.by_owner.length !== 20) throw new Error(`unexpected pipeline: ${JSON.stringify(pipeline).slice(0, 300)}`);
    const requests = await (await fetch(targets.requests, { headers })).json() as { meta: { total: number } };
    const checks = await (await fetch(targets.checks, { headers })).json() as { meta: { total: number } };
    for (const target of Object.values(targets)) await autocannon({ url: target, connections: CONNECTIONS, duration: 2, headers });
    const results = [
      await measure('token-only route (GET /api/me)', { connections: CONNECTIONS, duration: DURATION_SECONDS, url: targets.me, headers }),
      await measure(`weighted pipeline of ${deals.toLocaleString('en')} deals`, { connections: CONNECTIONS, duration: DURATION_SECONDS, url: targets.pipeline, headers }),
      await measure(`requests of one status (page 1 of ${requests.meta.total.toLocaleString('en')})`, { connections: CONNECTIONS, duration: DURATION_SECONDS, url: targets.requests, headers }),
      await measure(`checks with a discrepancy (page 1 of ${checks.meta.total.toLocaleString('en')})`, { connections: CONNECTIONS, duration: DURATION_SECONDS, url: targets.checks, headers }),
    ];
    console.log(`\n${CONNECTIONS} connections, ${DURATION_SECONDS} s each, PostgreSQL, one node; ${ROWS.toLocaleString('en')} deals, requests and checks\n`);
    printTable(results);
    const worst = Math.max(...results.slice(1).map((r) => r.p95));
    console.log(`\nworst p95 = ${worst.toFixed(1)} ms (target <= 100 ms): ${worst <= 100 ? 'met' : 'not met'}`);
    printResult('bgv_deals_requests_worst_p95', worst, 'ms', 100, true);
  });
}

main().catch((error) => { console.error(error); process.exit(1); });

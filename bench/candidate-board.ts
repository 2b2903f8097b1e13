// npm run bench:candidate-board — the candidate board's column request (GET /api/candidate?stage=…
// &per_page=50, what the board asks eight of at once) with 20,000 candidates on PostgreSQL, for a
// busy column, for the Rejected column of one position (its cards carry the stage they left, a
// subquery on the workflow history), beside the token-only route GET /api/me of the same server.
// Target (issue 12, set here): a column's p95 at most 100 ms at 16 connections (two boards loading).
// Method and results: docs/benchmarks.md "Candidate board".
import autocannon from 'autocannon';
import { measure, printResult, printTable } from './measure';
import { withServedDatabase } from './served';

const CONNECTIONS = 16;
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

async function main() {
  await withServedDatabase<{ port: number; token: string; positionId: number }>('bench_candidate_board', new URL('./candidate-board.server.ts', import.meta.url), async (served) => {
    const base = `http://127.0.0.1:${served.port}`;
    const headers = { authorization: `Bearer ${served.token}` };
    const busy = `${base}/api/candidate?stage=Screening&per_page=50`;
    const rejected = `${base}/api/candidate?stage=Rejected&position_id=${served.positionId}&per_page=50`;
    const check = await (await fetch(rejected, { headers })).json() as { data: { previous_stage: string }[]; meta: { total: number } };
    if (!check.data.length || check.data.some((row) => row.previous_stage !== 'Interview')) throw new Error(`unexpected column: ${JSON.stringify(check).slice(0, 300)}`);
    for (const target of [`${base}/api/me`, busy, rejected]) await autocannon({ url: target, connections: CONNECTIONS, duration: 2, headers });
    // One request at a time first: what one board's column costs the server on its own.
    const alone: string[] = [];
    for (const [label, target] of [['GET /api/me', `${base}/api/me`], ['busy column', busy], ['Rejected column', rejected]] as const) {
      const times: number[] = [];
      for (let i = 0; i < 100; i += 1) {
        const started = performance.now();
        await (await fetch(target, { headers })).arrayBuffer();
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      alone.push(`| ${label} | ${times[50].toFixed(1)} | ${times[95].toFixed(1)} |`);
    }
    console.log('\none request at a time (100 each)\n| target | p50 ms | p95 ms |\n|---|---|---|');
    console.log(alone.join('\n'));
    const results = [
      await measure('token-only route (GET /api/me)', { connections: CONNECTIONS, duration: DURATION_SECONDS, url: `${base}/api/me`, headers }),
      await measure('busy column (stage=Screening, 6,000 candidates)', { connections: CONNECTIONS, duration: DURATION_SECONDS, url: busy, headers }),
      await measure(`Rejected column of one position (${check.meta.total} candidates)`, { connections: CONNECTIONS, duration: DURATION_SECONDS, url: rejected, headers }),
    ];
    console.log(`\n${CONNECTIONS} connections, ${DURATION_SECONDS} s each, PostgreSQL, one node; ${process.env.BENCH_CANDIDATES ?? 20_000} candidates\n`);
    printTable(results);
    const worst = Math.max(results[1].p95, results[2].p95);
    console.log(`\nworst column p95 = ${worst.toFixed(1)} ms (target <= 100 ms): ${worst <= 100 ? 'met' : 'not met'}`);
    printResult('candidate_board_worst_p95', worst, 'ms', 100, true);
  });
}

main().catch((error) => { console.error(error); process.exit(1); });

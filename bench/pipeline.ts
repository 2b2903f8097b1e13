// npm run bench:pipeline — the app's request pipeline with no database (GET /sanctum/csrf-cookie)
// beside a bare Fastify route, then the authenticated token-only route (session cache) beside that
// pipeline, at 50 connections, in one run, each server in a process of its own (the app on
// PostgreSQL). Targets (issue 27): the pipeline reaches at least 50% of bare; the token-only route
// at least 50% of the pipeline (the last line). BENCH_LOG=info runs the app with request logging on;
// Also the server's CPU time per request (from /proc, over BENCH_CPU_REQUESTS requests), which stays
// readable on a shared, busy machine. BENCH_PROF=<dir> writes a CPU profile of the app process there (node --cpu-prof).
// Method and results: docs/benchmarks.md "Request pipeline".
import autocannon from 'autocannon';
import { type Measured, printResult, printTable, warmAndMeasure } from './measure';
import { cpuSeconds, createDatabase, withServer } from './served';

const CONNECTIONS = 50;
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const CPU_REQUESTS = Number(process.env.BENCH_CPU_REQUESTS ?? 20_000);
const TOKEN_ROUTE = '/api/get-laravel-permission-to-vue-js';

interface Served { port: number; token?: string }

/** Measured, then the server's CPU time per request over a fixed number of requests (µs). */
async function run(name: string, pid: number, url: string, token?: string): Promise<Measured & { cpuMicros: number }> {
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  const measured = await warmAndMeasure(name, { url, connections: CONNECTIONS, duration: DURATION_SECONDS, headers });
  const before = cpuSeconds(pid);
  await autocannon({ url, connections: CONNECTIONS, amount: CPU_REQUESTS, headers, timeout: 30 });
  return { ...measured, cpuMicros: ((cpuSeconds(pid) - before) / CPU_REQUESTS) * 1e6 };
}

async function main() {
  const database = await createDatabase('bench_pipeline');
  const profile = process.env.BENCH_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF}`] : [];
  try {
    const bare = await withServer<Served, Measured & { cpuMicros: number }>(new URL('./bare.server.ts', import.meta.url), [], (s, pid) => run('bare Fastify route', pid, `http://127.0.0.1:${s.port}/bare`));
    const [pipeline, token] = await withServer<Served, (Measured & { cpuMicros: number })[]>(new URL('./session.server.ts', import.meta.url), ['cached', database.url], async (s, pid) => [
      await run('no-database pipeline (GET /sanctum/csrf-cookie)', pid, `http://127.0.0.1:${s.port}/sanctum/csrf-cookie`),
      await run(`token-only route, session cache (${TOKEN_ROUTE})`, pid, `http://127.0.0.1:${s.port}${TOKEN_ROUTE}`, s.token),
    ], profile);
    console.log(`\n${CONNECTIONS} connections, ${DURATION_SECONDS} s each after a 3 s warm-up; request logging ${process.env.BENCH_LOG === 'info' ? 'on' : 'off'}\n`);
    printTable([bare, pipeline, token]);
    console.log(`\nserver CPU per request (${CPU_REQUESTS} requests): ${[bare, pipeline, token].map((r) => `${r.name}: ${r.cpuMicros.toFixed(1)} µs`).join('; ')}`);
    console.log(`by CPU: pipeline = ${((bare.cpuMicros / pipeline.cpuMicros) * 100).toFixed(1)}% of bare, token-only route = ${((pipeline.cpuMicros / token.cpuMicros) * 100).toFixed(1)}% of the pipeline`);
    const pipelineRatio = (pipeline.rps / bare.rps) * 100;
    const tokenRatio = (token.rps / pipeline.rps) * 100;
    console.log(`\npipeline = ${pipelineRatio.toFixed(1)}% of bare (target >= 50%); token-only route = ${tokenRatio.toFixed(1)}% of the pipeline (target >= 50%), ${((token.rps / bare.rps) * 100).toFixed(1)}% of bare`);
    printResult('token_route', tokenRatio, 'percent_of_no_database_pipeline', 50);
    printResult('no_database_pipeline', pipelineRatio, 'percent_of_bare', 50);
  } finally {
    await database.drop();
  }
}

main().catch((error) => { console.error(error); process.exit(1); });

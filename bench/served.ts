// The scaffolding every server benchmark shares: a fresh PostgreSQL database (BENCH_DATABASE_URL
// names the server), the benchmark's own server script forked on it, its "ready" message awaited,
// and both cleaned up whatever happens (BENCH_KEEP=1 keeps the database to look at).
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A new, empty database named `<prefix>_<random>`; `drop` removes it (unless BENCH_KEEP=1). */
export async function createDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      if (process.env.BENCH_KEEP === '1') { console.log(`kept ${name}`); return; }
      const client = new pg.Client({ connectionString: ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/**
 * Runs `work` with what `serverScript` (forked with `args`, in a process of its own so the load
 * generator does not share its event loop) posts once it is ready; the process is ended afterwards.
 */
export async function withServer<Ready, T>(serverScript: URL, args: string[], work: (ready: Ready, pid: number) => Promise<T>, execArgv: string[] = []): Promise<T> {
  const child: ChildProcess = fork(fileURLToPath(serverScript), args, { execArgv: ['--import', 'tsx', ...execArgv] });
  try {
    const ready = await new Promise<Ready>((resolve, reject) => {
      child.once('message', (message) => resolve(message as Ready));
      child.once('exit', (code) => reject(new Error(`${fileURLToPath(serverScript)} ${args[0] ?? ''} exited with ${code}`)));
    });
    return await work(ready, child.pid!);
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    if (child.exitCode === null) { child.kill('SIGTERM'); await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2000))]); }
  }
}

/**
 * CPU seconds (user + system) the process has used so far, from /proc (Linux): what a request costs
 * the server, which stays readable when other work shares the machine and throughput does not.
 */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 per second on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Runs `work` with what `serverScript` (forked on a new database) posts once it is ready. */
export async function withServedDatabase<Ready>(prefix: string, serverScript: URL, work: (ready: Ready, databaseUrl: string, pid: number) => Promise<void>, execArgv: string[] = []): Promise<void> {
  const database = await createDatabase(prefix);
  console.log(`database ${database.url}`);
  try {
    await withServer<Ready, void>(serverScript, [database.url], (ready, pid) => work(ready, database.url, pid), execArgv);
  } finally {
    await database.drop();
  }
}

/** CPU seconds so far of each PostgreSQL backend connected to `databaseUrl`'s database, by pid (from /proc). */
async function backendCpu(databaseUrl: string): Promise<Map<number, number>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
    const cpu = new Map<number, number>();
    for (const { pid } of rows) { try { cpu.set(pid, cpuSeconds(pid)); } catch { /* ended meanwhile */ } }
    return cpu;
  } finally {
    await client.end();
  }
}

/**
 * Node's and PostgreSQL's CPU time per request of `load` (which sends `requests` requests), in µs: the
 * server process from /proc, and the backends of the benchmark's own database (so other databases'
 * work on a shared server is left out). Backends that end during the load are missed, so the
 * PostgreSQL figure is a floor; the pool keeps its connections while it is busy.
 */
export async function cpuPerRequest(pid: number, databaseUrl: string, requests: number, load: () => Promise<unknown>): Promise<{ nodeMicros: number; postgresMicros: number }> {
  const [nodeBefore, postgresBefore] = [cpuSeconds(pid), await backendCpu(databaseUrl)];
  await load();
  const [nodeAfter, postgresAfter] = [cpuSeconds(pid), await backendCpu(databaseUrl)];
  const postgres = [...postgresAfter].reduce((sum, [backend, after]) => sum + after - (postgresBefore.get(backend) ?? 0), 0);
  return { nodeMicros: ((nodeAfter - nodeBefore) / requests) * 1e6, postgresMicros: (postgres / requests) * 1e6 };
}

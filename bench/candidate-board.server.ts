// The server side of bench/candidate-board.ts, in its own process: the real app on a fresh
// PostgreSQL database with CANDIDATES candidates over POSITIONS positions, spread over the hiring
// stages (a tenth rejected, each with the history row the board reads the stage it left from).
// Reports {port, token, positionId} of the seeded admin over IPC.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/server/app';
import { ADMIN, testConfig } from '../tests/helpers/app';

const [databaseUrl] = process.argv.slice(2);
const CANDIDATES = Number(process.env.BENCH_CANDIDATES ?? 20_000);
const POSITIONS = Number(process.env.BENCH_POSITIONS ?? 50);

async function main() {
  const app = await buildApp(testConfig({ dataDir: mkdtempSync(join(tmpdir(), 'bench-candidate-board-')), inMemoryDatabase: false, logLevel: 'silent', databaseUrl }));
  await app.db.execute(sql`insert into clients (name) values ('Bench Client')`);
  await app.db.execute(sql`insert into positions (title, client_id, location, count)
    select 'Position ' || p, (select id from clients limit 1), 'Pune', 5 from generate_series(1, ${POSITIONS}) p`);
  // Stage i % 10: the seven hiring stages, more of them early on, and Rejected for one in ten.
  await app.db.execute(sql`insert into candidates (name, email, phone, position_id, stage, recruiter_id, created_at)
    select 'Candidate ' || c, 'candidate' || c || '@bench.test', '+91 ' || (9000000000 + c)::text,
      (select id from positions order by id offset ((c / 10) % ${POSITIONS}) limit 1),
      (array['Screening', 'Screening', 'Screening', 'Interview', 'Interview', 'Client Interview', 'Cost Negotiations', 'Background Check', 'Offer Letter Review', 'Rejected'])[1 + c % 10],
      1, now() - make_interval(mins => c)
    from generate_series(1, ${CANDIDATES}) c`);
  await app.db.execute(sql`insert into workflow_history (resource, record_id, transition, from_status, to_status, actor_type, actor_id, actor_name, comment)
    select 'candidate', id, 'create', null, 'Screening', 'app', 1, 'Admin', null from candidates`);
  await app.db.execute(sql`insert into workflow_history (resource, record_id, transition, from_status, to_status, actor_type, actor_id, actor_name, comment)
    select 'candidate', id, 'reject', 'Interview', 'Rejected', 'app', 1, 'Admin', 'Not a fit' from candidates where stage = 'Rejected'`);
  await app.db.execute(sql`vacuum analyze`);
  const [{ id: positionId }] = ((await app.db.execute(sql`select id from positions order by id offset ${Math.floor(POSITIONS / 2)} limit 1`)) as unknown as { rows: { id: number }[] }).rows;
  await app.listen({ port: 0, host: '127.0.0.1' });
  const answer = await app.inject({ method: 'POST', url: '/api/login', payload: { email: ADMIN.email, password: ADMIN.password } });
  process.send!({ port: (app.server.address() as { port: number }).port, token: answer.json().access_token, positionId });
}

process.on('SIGTERM', () => process.exit(0));
main().catch((error) => { console.error(error); process.exit(1); });

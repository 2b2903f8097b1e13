// The server side of bench/api.ts, in its own process so the load generator does not share its
// event loop. `bare`: a Fastify route answering static JSON. `pglite` / `postgres`: the real app
// (buildApp) on a fresh database seeded with 100,000 users. Reports {port, token, seedSeconds} over IPC.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hash } from '@node-rs/argon2';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { buildApp } from '../src/server/app';
import { seedUsers } from '../tests/helpers/seed-resources';
import { ADMIN, testConfig } from '../tests/helpers/app';

const [kind, databaseUrl] = process.argv.slice(2);
const USERS = Number(process.env.BENCH_USERS ?? 100_000);

async function main() {
  if (kind === 'bare') {
    const bare = Fastify({ logger: false });
    bare.get('/bare', async () => ({ data: [{ id: 1, name: 'Bare Route' }], meta: { total: 1 } }));
    await bare.listen({ port: 0, host: '127.0.0.1' });
    process.send!({ port: (bare.server.address() as { port: number }).port });
    return;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-api-'));
  const app = await buildApp(testConfig({
    dataDir, inMemoryDatabase: false, logLevel: 'silent',
    ...(kind === 'postgres' ? { databaseUrl } : {}),
  }));
  const started = Date.now();
  await seedUsers(app.db, USERS, { passwordHash: await hash('bench-password'), batch: 2000 });
  // Planner statistics and the visibility map, as autovacuum would leave them on a settled database.
  await app.db.execute(sql`vacuum analyze users`);
  const seedSeconds = (Date.now() - started) / 1000;
  await app.listen({ port: 0, host: '127.0.0.1' });
  const login = await app.inject({ method: 'POST', url: '/api/login', payload: ADMIN });
  process.send!({ port: (app.server.address() as { port: number }).port, token: login.json().access_token, seedSeconds });
}

main().catch((error) => { console.error(error); process.exit(1); });

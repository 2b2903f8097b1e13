// Migrate and seed once per run, not once per suite (docs/decisions/003-test-database-snapshot.md).
// The embedded database: a PGlite dump (dumpDataDir) on disk that each suite's in-memory database
// starts from. PostgreSQL: a template database that each suite's database is created from.
// Both are named by a hash of what they hold (the migrations, the seed and its data, the PGlite
// version and the first admin's login), so a changed migration or seed builds a new one; the app
// still runs its migrations on each start, which find nothing left to apply on a current snapshot.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase } from '../../src/server/db/client';
import { seed } from '../../src/server/db/seed';

const root = fileURLToPath(new URL('../../', import.meta.url));
const sources = ['src/server/db/migrations', 'src/server/db/seed.ts', 'src/shared/permissions.ts', 'src/shared/resources/leave-type.ts', 'node_modules/@electric-sql/pglite/package.json'];

function filesUnder(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).sort().flatMap((name) => filesUnder(join(path, name)));
}

/** A hash of everything a freshly migrated and seeded database depends on. */
export function snapshotKey(admin: { email: string; password: string }): string {
  const hash = createHash('sha256').update(`${admin.email}\n${admin.password}\n`);
  for (const file of sources.flatMap((source) => filesUnder(join(root, source)))) {
    hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

let pglite: { key: string; dump: Promise<Blob> } | undefined;

/** The migrated and seeded embedded database as a PGlite dump, built by the first suite that needs it. */
export function pgliteSnapshot(admin: { email: string; password: string }): Promise<Blob> {
  const key = snapshotKey(admin);
  if (pglite?.key !== key) pglite = { key, dump: loadOrBuildPglite(key, admin) };
  return pglite.dump;
}

async function loadOrBuildPglite(key: string, admin: { email: string; password: string }): Promise<Blob> {
  const path = join(tmpdir(), `bo-test-pglite-${key}.tar`);
  if (existsSync(path)) return new Blob([readFileSync(path)]);
  const database = await openDatabase({ dataDir: '', inMemory: true });
  await seed(database.db, admin, { withFirmDefaults: false });
  const dump = await database.dump!();
  await database.close();
  // Written aside and renamed: a suite in the other worker never reads half a file.
  const partial = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, path);
  return dump;
}

/** The PostgreSQL template database (migrated and seeded) for this key, built once on this server. */
export async function postgresTemplate(adminUrl: string, admin: { email: string; password: string }): Promise<string> {
  const name = `bo_tpl_${snapshotKey(admin)}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    if ((await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount) return name;
    // Built under a name of its own and renamed when done: a run beside this one (another worker,
    // another checkout on the same server) never copies a half-built template.
    const building = `${name}_${randomBytes(4).toString('hex')}`;
    await client.query(`CREATE DATABASE ${building}`);
    const url = new URL(adminUrl);
    url.pathname = `/${building}`;
    const database = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
    await seed(database.db, admin, { withFirmDefaults: false });
    await database.close();
    try {
      await client.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    } catch (error) {
      await client.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      // Another worker or run built it first: 42P04 (duplicate database), or 23505 when both renames
      // reached the catalogue's unique index at once.
      if (!['42P04', '23505'].includes((error as { code?: string }).code ?? '')) throw error;
    }
    return name;
  } finally {
    await client.end();
  }
}

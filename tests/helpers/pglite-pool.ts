// Embedded databases for the tests, started once per worker and handed from one suite to the next
// (decision 039). Starting PGlite from the run's snapshot costs about 2.5 s of CPU (its WebAssembly
// PostgreSQL boots and reads 45 MB of files); putting a used one back as the snapshot left it costs a
// fraction of that: every table is emptied and refilled from a copy of its seeded rows taken when the
// instance first started, and every sequence is set back. A suite still gets a database of its own:
// only one suite holds an instance at a time, and a suite that changed the schema (a dropped trigger,
// a new table) gets its instance closed rather than reused.
import type { PGlite } from '@electric-sql/pglite';
import type { Database } from '../../src/server/db/client';
import { openDatabase } from '../../src/server/db/client';

interface Pooled {
  client: PGlite;
  /** The schema's fingerprint when the seeded rows were copied: a change means "do not reuse". */
  fingerprint: string;
  /** One statement that empties the tables, refills them from the copies and sets the sequences back. */
  reset: string;
}

/** At most this many idle instances are kept per worker (a suite rarely holds more than two at once). */
const KEEP = 2;
const idle: Pooled[] = [];

const FINGERPRINT = `SELECT concat_ws(',',
  (SELECT count(*) || ':' || max(oid::int8) FROM pg_class),
  (SELECT count(*) || ':' || coalesce(max(oid::int8), 0) FROM pg_trigger),
  (SELECT count(*) || ':' || max(oid::int8) FROM pg_proc),
  (SELECT count(*) || ':' || coalesce(max(oid::int8), 0) FROM pg_constraint)) AS fingerprint`;

async function fingerprintOf(client: PGlite): Promise<string> {
  return (await client.query<{ fingerprint: string }>(FINGERPRINT)).rows[0].fingerprint;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Copies every table's seeded rows into the schema `seeded` and writes the statement that puts them back. */
async function prepare(client: PGlite): Promise<Pooled> {
  const tables = (await client.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name",
  )).rows.map((row) => row.table_name);
  const columns = (await client.query<{ table_name: string; column_name: string }>(
    "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' AND is_generated = 'NEVER' ORDER BY table_name, ordinal_position",
  )).rows;
  const sequences = (await client.query<{ name: string; value: string | null; called: boolean }>(
    "SELECT quote_ident(schemaname) || '.' || quote_ident(sequencename) AS name, last_value::text AS value, last_value IS NOT NULL AS called FROM pg_sequences WHERE schemaname = 'public'",
  )).rows;
  const counts = new Map<string, number>();
  await client.exec('CREATE SCHEMA seeded');
  for (const table of tables) {
    await client.exec(`CREATE TABLE seeded.${quote(table)} AS TABLE public.${quote(table)}`);
    counts.set(table, Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM seeded.${quote(table)}`)).rows[0].n));
  }
  const refills = tables.filter((table) => counts.get(table)).map((table) => {
    const list = columns.filter((column) => column.table_name === table).map((column) => quote(column.column_name)).join(', ');
    return `INSERT INTO public.${quote(table)} (${list}) OVERRIDING SYSTEM VALUE SELECT ${list} FROM seeded.${quote(table)};`;
  });
  const setvals = sequences.map((sequence) => (sequence.value === null
    ? `SELECT setval('${sequence.name}', 1, false);`
    : `SELECT setval('${sequence.name}', ${sequence.value}, true);`));
  const reset = [
    // No trigger fires while the seeded rows go back (the kept counts are copied as they were) and no
    // foreign key is checked row by row: the copies were consistent when taken.
    'SET session_replication_role = replica;',
    `TRUNCATE ${tables.map((table) => `public.${quote(table)}`).join(', ')};`,
    ...refills,
    ...setvals,
    'SET session_replication_role = DEFAULT;',
  ].join('\n');
  return { client, fingerprint: await fingerprintOf(client), reset };
}

/**
 * A migrated and seeded embedded database, the suite's own until it closes it: an idle one of this
 * worker if there is one, else a new one from the snapshot.
 */
export async function pooledDatabase(dataDir: string, snapshot: () => Promise<Blob>): Promise<Database> {
  const pooled = idle.pop() ?? await (async () => {
    const database = await openDatabase({ dataDir, inMemory: true, loadDataDir: await snapshot() });
    // A commit need not wait for its WAL in a test's throw-away database (about a sixth of a write's CPU).
    await database.pglite!.exec('SET synchronous_commit = off');
    return prepare(database.pglite!);
  })();
  // openDatabase again over the same client: the app's drizzle instance, its turn-taking and its
  // migration check (nothing to apply), as a fresh start would have.
  const database = await openDatabase({ dataDir, inMemory: true, pglite: pooled.client });
  let closed = false;
  return {
    ...database,
    async close() {
      if (closed) return;
      closed = true;
      await giveBack(pooled);
    },
  };
}

async function giveBack(pooled: Pooled): Promise<void> {
  const { client } = pooled;
  try {
    if (idle.length >= KEEP || client.closed) throw new Error('not kept');
    // A suite's session state goes: prepared statements, settings, LISTENs, temporary tables, locks.
    await client.exec('DISCARD ALL; SET synchronous_commit = off');
    if (await fingerprintOf(client) !== pooled.fingerprint) throw new Error('the schema changed');
    await client.exec(pooled.reset);
    idle.push(pooled);
  } catch {
    if (!client.closed) await client.close();
  }
}

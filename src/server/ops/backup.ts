// Issue 30: one archive (tar.gz) holding the database and every stored file, from the embedded database
// or PostgreSQL, and its way back (docs/decisions/023). The rows are read in one REPEATABLE READ, READ
// ONLY transaction: one snapshot, while the app keeps writing. Files are listed after it, so every file
// a row of the snapshot names is there (a file is stored before its row commits); a file uploaded after
// the snapshot comes along unnamed, and is harmless. The archive is the same for both databases, so a
// backup of one restores into the other.
import { createHash } from 'node:crypto';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import * as tar from 'tar-stream';
import type { Db } from '../db/client';
import { codeMigrations, databaseMigrations, type MigrationMark, rowsOf } from '../db/migration-state';
import { migrationsFolder } from '../db/client';
import type { Storage } from '../plugins/storage';

export const BACKUP_FORMAT = 1;

export interface Manifest {
  format: number;
  created_at: string;
  database: string;
  migrations: MigrationMark;
  /** Table -> rows in the archive. */
  tables: Record<string, number>;
  /** Storage key -> sha256 of its bytes. */
  files: Record<string, string>;
}

/** The app's tables (drizzle's own bookkeeping is the migrations, restored by migrating). */
export async function tableNames(db: Db): Promise<string[]> {
  const result = await db.execute(sql`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`);
  return rowsOf(result).map((row) => String(row.name));
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Each table's rows as JSON lines, all from one snapshot. */
async function snapshot(db: Db): Promise<{ migrations: MigrationMark; tables: Map<string, string[]> }> {
  return db.transaction(async (tx) => {
    const txDb = tx as unknown as Db;
    const tables = new Map<string, string[]>();
    for (const name of await tableNames(txDb)) {
      const result = await txDb.execute(sql.raw(`SELECT row_to_json(t)::text AS row FROM ${quoted(name)} t`));
      tables.set(name, rowsOf(result).map((row) => String(row.row)));
    }
    return { migrations: await databaseMigrations(txDb), tables };
  }, { isolationLevel: 'repeatable read', accessMode: 'read only' });
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Writes the archive to `out`; resolves with its manifest. */
export async function writeBackup(db: Db, storage: Storage, out: Writable, databaseKind: string): Promise<Manifest> {
  const { migrations, tables } = await snapshot(db);
  const pack = tar.pack();
  const written = pipeline(pack, createGzip(), out);
  const manifest: Manifest = { format: BACKUP_FORMAT, created_at: new Date().toISOString(), database: databaseKind, migrations, tables: {}, files: {} };
  const add = (name: string, content: Buffer) => new Promise<void>((resolve, reject) => {
    pack.entry({ name, size: content.length, mode: 0o600 }, content, (error) => (error ? reject(error) : resolve()));
  });
  for (const [name, rows] of tables) {
    manifest.tables[name] = rows.length;
    await add(`database/${name}.jsonl`, Buffer.from(rows.map((row) => `${row}\n`).join('')));
  }
  for await (const key of storage.keys()) {
    let content: Buffer;
    try {
      content = await readAll(storage.read(key));
    } catch {
      continue; // removed since it was listed: its row was deleted after the snapshot began, or it never had one
    }
    manifest.files[key] = createHash('sha256').update(content).digest('hex');
    await add(`files/${key}`, content);
  }
  // Last, so that an archive with a manifest is a whole one.
  await add('manifest.json', Buffer.from(JSON.stringify(manifest, null, 2)));
  pack.finalize();
  await written;
  return manifest;
}

export class RestoreError extends Error {}

/** Tables in an order that satisfies their foreign keys (a table after those it points to). */
async function insertOrder(db: Db, names: string[]): Promise<string[]> {
  const result = await db.execute(sql`
    SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent
    FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
    WHERE c.contype = 'f' AND n.nspname = 'public'`);
  const parents = new Map<string, Set<string>>(names.map((name) => [name, new Set()]));
  for (const row of rowsOf(result)) {
    const [child, parent] = [String(row.child).replace(/"/g, ''), String(row.parent).replace(/"/g, '')];
    if (child !== parent) parents.get(child)?.add(parent);
  }
  const order: string[] = [];
  const visiting = new Set<string>();
  const visit = (name: string) => {
    if (order.includes(name) || visiting.has(name)) return;
    visiting.add(name);
    for (const parent of parents.get(name) ?? []) visit(parent);
    order.push(name);
  };
  names.forEach(visit);
  return order;
}

/**
 * Loads an archive into a database migrated to the archive's migration and an empty store. Rows go in
 * one transaction (all or nothing), then the sequences move past the restored ids, then the files,
 * each checked against its hash.
 */
export async function restoreBackup(db: Db, storage: Storage, input: Readable): Promise<Manifest> {
  const tables = new Map<string, string>();
  const files = new Map<string, Buffer>();
  let manifest: Manifest | undefined;
  const extract = tar.extract();
  extract.on('entry', (header, stream, next) => {
    readAll(stream as unknown as Readable).then((content) => {
      if (header.name === 'manifest.json') manifest = JSON.parse(content.toString('utf8')) as Manifest;
      else if (header.name.startsWith('database/')) tables.set(header.name.slice('database/'.length, -'.jsonl'.length), content.toString('utf8'));
      else if (header.name.startsWith('files/')) files.set(header.name.slice('files/'.length), content);
      next();
    }, next);
  });
  await pipeline(input, createGunzip(), extract);
  if (!manifest) throw new RestoreError('This file is not a whole backup: it has no manifest.');
  if (manifest.format !== BACKUP_FORMAT) throw new RestoreError(`This backup's format (${manifest.format}) is not one this version reads.`);
  const code = codeMigrations(migrationsFolder);
  if (manifest.migrations.count !== code.count || manifest.migrations.last !== code.last) {
    throw new RestoreError(`This backup was taken at migration ${manifest.migrations.count}; this version is at ${code.count}. Restore it with the version that took it, then upgrade.`);
  }

  await db.transaction(async (tx) => {
    const txDb = tx as unknown as Db;
    const present = await tableNames(txDb);
    const unknown = [...tables.keys()].filter((name) => !present.includes(name));
    if (unknown.length) throw new RestoreError(`This backup has tables this database lacks: ${unknown.join(', ')}.`);
    // The rows go back as they were: no trigger adds to them (roles' rows bump the permissions stamp in
    // settings). That takes a superuser (PGlite's user is one); without it, triggers run, the order below
    // keeps the foreign keys satisfied, and a row a trigger wrote first stays (the stamp: any new value serves).
    const replica = await tx.transaction(async (savepoint) => { await savepoint.execute(sql`SET LOCAL session_replication_role = replica`); })
      .then(() => true, () => false);
    // The migrations' own rows (permissions, defaults) are in the backup as they were then.
    await txDb.execute(sql.raw(`TRUNCATE ${present.map(quoted).join(', ')} RESTART IDENTITY CASCADE`));
    for (const name of await insertOrder(txDb, [...tables.keys()])) {
      const rows = tables.get(name)!.split('\n').filter(Boolean);
      for (let start = 0; start < rows.length; start += 500) {
        const batch = `[${rows.slice(start, start + 500).join(',')}]`;
        await txDb.execute(sql`INSERT INTO ${sql.raw(quoted(name))} OVERRIDING SYSTEM VALUE SELECT * FROM json_populate_recordset(NULL::${sql.raw(quoted(name))}, ${batch}::json)${sql.raw(replica ? '' : ' ON CONFLICT DO NOTHING')}`);
      }
    }
    const sequences = rowsOf(await txDb.execute(sql`
      SELECT table_name, column_name, pg_get_serial_sequence(quote_ident(table_name), column_name) AS sequence
      FROM information_schema.columns WHERE table_schema = 'public' AND pg_get_serial_sequence(quote_ident(table_name), column_name) IS NOT NULL`));
    for (const row of sequences) {
      const [table, column] = [quoted(String(row.table_name)), quoted(String(row.column_name))];
      await txDb.execute(sql.raw(`SELECT setval('${String(row.sequence)}', coalesce((SELECT max(${column}) FROM ${table}), 0) + 1, false)`));
    }
  });

  for (const [key, content] of files) {
    if (createHash('sha256').update(content).digest('hex') !== manifest.files[key]) throw new RestoreError(`The file ${key} in this backup is damaged.`);
    await storage.write(key, Readable.from([content]));
  }
  return manifest;
}

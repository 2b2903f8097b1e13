// Issue 30: a backup of a seeded instance restores elsewhere with every table's rows and every file's
// bytes; one taken while the app writes restores to a consistent state. On the embedded database, and
// on PostgreSQL in the api-postgres project (the restore then goes into a new, empty PostgreSQL database).
// On the embedded database too: a snapshot and a restore of the embedded database.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/server/db/client';
import { rowsOf } from '../../src/server/db/migration-state';
import { clients } from '../../src/server/db/schema/master-data';
import { type Db } from '../../src/server/db/client';
import { restoreBackup, tableNames, writeBackup } from '../../src/server/ops/backup';
import { rotateBackups } from '../../src/server/ops/backup-files';
import { localStorage, type Storage } from '../../src/server/plugins/storage';
import { ADMIN, createTestApp, freshPostgresDatabase, type TestApp } from '../helpers/app';
import { pgliteSnapshot } from '../helpers/snapshot';
import { multipart, PDF } from '../helpers/multipart';

let t: TestApp;
const folder = mkdtempSync(join(tmpdir(), 'backup-test-'));

beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

/** Another place to restore into: the same kind of database as the suite's, migrated, and an empty folder of files. */
async function elsewhere(): Promise<{ database: Database; storage: Storage; close(): Promise<void> }> {
  const storage = localStorage(mkdtempSync(join(tmpdir(), 'restored-files-')));
  if (process.env.TEST_DB === 'postgres') {
    const other = await freshPostgresDatabase();
    const database = await openDatabase({ databaseUrl: other.url, dataDir: folder });
    return { database, storage, async close() { await database.close(); await other.drop(); } };
  }
  // Migrated from the run's snapshot (quicker than migrating); the restore replaces every row.
  const database = await openDatabase({ dataDir: folder, inMemory: true, loadDataDir: await pgliteSnapshot(ADMIN) });
  return { database, storage, close: () => database.close() };
}

async function everyRow(db: Db): Promise<Record<string, string[]>> {
  const result: Record<string, string[]> = {};
  for (const name of await tableNames(db)) {
    result[name] = rowsOf(await db.execute(sql.raw(`SELECT row_to_json(t)::text AS row FROM "${name}" t`))).map((row) => String(row.row)).sort();
  }
  return result;
}

async function everyFile(storage: Storage): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for await (const key of storage.keys()) {
    const chunks: Buffer[] = [];
    for await (const chunk of storage.read(key)) chunks.push(chunk as Buffer);
    result[key] = createHash('sha256').update(Buffer.concat(chunks)).digest('hex');
  }
  return result;
}

async function uploadSheet(token: string, clientId: number, month: number) {
  const form = multipart({ client_id: clientId, period_type: 'month', period_start: `2026-${String(month).padStart(2, '0')}-01`, hours: 160 },
    { name: `sheet-${month}.pdf`, type: 'application/pdf', content: Buffer.concat([PDF, randomBytes(2048)]) }, 'time-sheet');
  return t.app.inject({ method: 'POST', url: '/api/time-sheet', payload: form.body, headers: { ...form.headers, authorization: `Bearer ${token}` } });
}

describe('backup and restore', () => {
  it('restores a seeded instance elsewhere with every row of every table and every file', async () => {
    const [client] = await t.app.db.insert(clients).values({ name: 'Backup Client' }).returning();
    const engineer = await t.createUser({ email: 'backed-up@example.com', name: 'Backed Up', user_type: 'user' });
    const token = await engineer.token();
    for (const month of [1, 2, 3]) expect((await uploadSheet(token, client.id, month)).statusCode).toBe(201);

    const file = join(folder, 'seeded.tar.gz');
    const manifest = await writeBackup(t.app.db, t.app.storage, createWriteStream(file), t.app.database.kind);
    expect(Object.keys(manifest.files)).toHaveLength(3);

    const target = await elsewhere();
    try {
      await restoreBackup(target.database.db, target.storage, createReadStream(file));
      expect(await everyRow(target.database.db)).toEqual(await everyRow(t.app.db));
      expect(await everyFile(target.storage)).toEqual(await everyFile(t.app.storage));
      // The sequences moved past the restored ids: a new row takes the next one.
      const [next] = await target.database.db.insert(clients).values({ name: 'After restore' }).returning();
      expect(next.id).toBeGreaterThan(client.id);
    } finally {
      await target.close();
    }
  });

  it('restores a backup taken while the app writes to a consistent state', async () => {
    const [client] = await t.app.db.insert(clients).values({ name: 'Busy Client' }).returning();
    const engineer = await t.createUser({ email: 'busy@example.com', name: 'Busy Engineer', user_type: 'user' });
    const token = await engineer.token();
    // Writers: pairs of clients in one transaction each, and uploads (a file, then its row), until the backup is done.
    let writing = true;
    let pairs = 0;
    const pairWriter = (async () => {
      while (writing) {
        await t.app.db.transaction(async (tx) => {
          await tx.insert(clients).values({ name: `Pair ${pairs} A` });
          await tx.insert(clients).values({ name: `Pair ${pairs} B` });
        });
        pairs++;
      }
    })();
    let month = 0;
    const uploader = (async () => { while (writing) await uploadSheet(token, client.id, (month++ % 12) + 1); })();
    while (pairs < 3 || month < 2) await new Promise((resolve) => setTimeout(resolve, 10));

    const file = join(folder, 'busy.tar.gz');
    await writeBackup(t.app.db, t.app.storage, createWriteStream(file), t.app.database.kind);
    writing = false;
    await Promise.all([pairWriter, uploader]);

    const target = await elsewhere();
    try {
      await restoreBackup(target.database.db, target.storage, createReadStream(file));
      const names = rowsOf(await target.database.db.execute(sql`SELECT name FROM clients WHERE name LIKE 'Pair %'`)).map((row) => String(row.name));
      const counted = new Map<string, number>();
      for (const name of names) counted.set(name.slice(0, -2), (counted.get(name.slice(0, -2)) ?? 0) + 1);
      expect([...counted.values()].every((count) => count === 2)).toBe(true);
      expect(counted.size).toBeGreaterThanOrEqual(3);
      // Every stored sheet's file came along.
      const keys = rowsOf(await target.database.db.execute(sql`SELECT file_key FROM time_sheets`)).map((row) => String(row.file_key));
      expect(keys.length).toBeGreaterThan(0);
      const restored = await everyFile(target.storage);
      expect(keys.filter((key) => !restored[key])).toEqual([]);
    } finally {
      await target.close();
    }
  });

  it('keeps the last BACKUP_KEEP daily backups', async () => {
    const daily = join(folder, 'daily');
    const written: string[] = [];
    for (let day = 0; day < 3; day++) {
      written.push(await rotateBackups(t.app.db, t.app.storage, t.app.database.kind, daily, 2));
      await new Promise((resolve) => setTimeout(resolve, 5)); // names carry the millisecond
    }
    expect(readdirSync(daily).sort()).toEqual(written.slice(1).map((file) => file.split('/').pop()).sort());
  });
});

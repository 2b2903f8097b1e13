// Issue 30: the commands an operator runs. On PostgreSQL (the api-postgres project), as processes:
// `npm run backup` while it serves, `npm run restore` into an empty database, and its refusal of one
// that has tables. On the embedded database, the command's way through the running app (its control socket).
// On the embedded database too: the operator's command reaches the running app through its control socket.
import { execFile } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../src/server/db/client';
import { rowsOf } from '../../src/server/db/migration-state';
import { tableNames } from '../../src/server/ops/backup';
import { buildApp } from '../../src/server/app';
import { askRunningApp } from '../../src/server/ops/control';
import { ADMIN, freshPostgresDatabase, testConfig } from '../helpers/app';
import { pgliteSnapshot } from '../helpers/snapshot';

const folder = mkdtempSync(join(tmpdir(), 'backup-cli-'));

async function everyRow(db: Db): Promise<Record<string, string[]>> {
  const result: Record<string, string[]> = {};
  for (const name of await tableNames(db)) {
    result[name] = rowsOf(await db.execute(sql.raw(`SELECT row_to_json(t)::text AS row FROM "${name}" t`))).map((row) => String(row.row)).sort();
  }
  return result;
}

describe('backup commands', () => {
  it.skipIf(process.env.TEST_DB !== 'postgres')('npm run backup, then npm run restore into an empty PostgreSQL database; restore refuses a database with tables', async () => {
    const source = await freshPostgresDatabase();
    const empty = await freshPostgresDatabase({ empty: true });
    const run = promisify(execFile);
    const cli = (args: string[], databaseUrl: string) => run(process.execPath, ['--import', 'tsx', 'src/server/ops/backup-cli.ts', ...args], {
      env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: mkdtempSync(join(tmpdir(), 'cli-')), LOG_LEVEL: 'silent' },
    });
    try {
      const file = join(folder, 'cli.tar.gz');
      expect((await cli(['backup', file], source.url)).stdout).toMatch(/^Backup written to .*cli\.tar\.gz: \d+ rows in \d+ tables, 0 files/);
      expect((await cli(['restore', file], empty.url)).stdout).toMatch(/^Restored /);
      const [from, to] = [await openDatabase({ databaseUrl: source.url, dataDir: folder }), await openDatabase({ databaseUrl: empty.url, dataDir: folder })];
      try {
        expect(await everyRow(to.db)).toEqual(await everyRow(from.db));
      } finally {
        await Promise.all([from.close(), to.close()]);
      }
      await expect(cli(['restore', file], source.url)).rejects.toMatchObject({ stderr: 'DATABASE_URL names a database that already has tables: restore into a new, empty database.\n' });
    } finally {
      await Promise.all([source.drop(), empty.drop()]);
    }
  });

  it.skipIf(process.env.TEST_DB === 'postgres')('npm run backup reaches the running app of an embedded database through its control socket', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'embedded-'));
    const database = await openDatabase({ dataDir, loadDataDir: await pgliteSnapshot(ADMIN) });
    const app = await buildApp(testConfig({ dataDir, inMemoryDatabase: false }), { database });
    await app.ready();
    try {
      const file = join(folder, 'through-the-app.tar.gz');
      const answer = await askRunningApp(dataDir, file);
      expect(answer).toMatchObject({ file, manifest: { database: 'pglite', tables: { users: 1 } } });
      const rows = await everyRow(app.db);
      expect((answer!.manifest as { tables: Record<string, number> }).tables).toEqual(Object.fromEntries(Object.entries(rows).map(([name, list]) => [name, list.length])));
      expect(statSync(file).size).toBeGreaterThan(0);
    } finally {
      await app.close();
      await database.close();
    }
    // Closed: the socket is gone, and the command would open the files itself.
    expect(await askRunningApp(dataDir, join(folder, 'none.tar.gz'))).toBeNull();
  });
});

// Issue 30: the commands an operator runs, as processes: `npm run backup` from PostgreSQL while it
// serves, `npm run restore` into an empty database, and its refusal of one that has tables. PostgreSQL
// only (the api-postgres project); the embedded database's path through the running app is in docs/deploy.md.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../src/server/db/client';
import { rowsOf } from '../../src/server/db/migration-state';
import { tableNames } from '../../src/server/ops/backup';
import { freshPostgresDatabase } from '../helpers/app';

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
});

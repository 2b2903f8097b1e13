// `npm run backup [-- file]` and `npm run restore -- file` (issue 30, docs/deploy.md "Backups").
// Backup: from PostgreSQL directly (one snapshot, while the nodes serve); from the embedded database
// through the running app when there is one (control.ts), else by opening its files. Restore: into an
// empty DATA_DIR or an empty PostgreSQL database and an empty file store, never over live data.
import { createReadStream, existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { ConfigError, loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { DatabaseNewerError } from '../db/migration-state';
import { openStorage } from '../plugins/storage';
import { RestoreError, restoreBackup } from './backup';
import { backupName, writeBackupFile } from './backup-files';
import { askRunningApp } from './control';

class Refused extends Error {}

async function backup(file: string | undefined) {
  const config = loadConfig();
  const target = resolve(file ?? join(config.dataDir, 'backups', backupName()));
  if (!config.databaseUrl) {
    const answer = await askRunningApp(config.dataDir, target);
    if (answer?.error) throw new Refused(`The running app could not write the backup: ${answer.error}`);
    if (answer) return `Backup written by the running app to ${target}`;
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const manifest = await writeBackupFile(database.db, await openStorage(config), database.kind, target);
    const rows = Object.values(manifest.tables).reduce((sum, count) => sum + count, 0);
    return `Backup written to ${target}: ${rows} rows in ${Object.keys(manifest.tables).length} tables, ${Object.keys(manifest.files).length} files`;
  } finally {
    await database.close();
  }
}

async function restore(file: string | undefined) {
  if (!file || !existsSync(file)) throw new Refused('Name the backup file to restore: npm run restore -- path/to/backup.tar.gz');
  const config = loadConfig();
  if (config.databaseUrl) {
    const client = new pg.Client({ connectionString: config.databaseUrl });
    await client.connect();
    const { rows } = await client.query(`SELECT count(*)::int AS count FROM information_schema.tables WHERE table_schema IN ('public', 'drizzle')`);
    await client.end();
    if (rows[0].count > 0) throw new Refused('DATABASE_URL names a database that already has tables: restore into a new, empty database.');
  } else if (existsSync(join(config.dataDir, 'db')) && readdirSync(join(config.dataDir, 'db')).length > 0) {
    throw new Refused(`${join(config.dataDir, 'db')} already holds a database: restore into an empty DATA_DIR.`);
  }
  const storage = await openStorage(config);
  for await (const key of storage.keys()) throw new Refused(`The file store (${storage.description}) already holds files (${key}): restore into an empty one.`);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const manifest = await restoreBackup(database.db, storage, createReadStream(file));
    return `Restored ${file} (taken ${manifest.created_at}): ${Object.keys(manifest.tables).length} tables, ${Object.keys(manifest.files).length} files`;
  } finally {
    await database.close();
  }
}

const [command, file] = process.argv.slice(2);
try {
  if (command !== 'backup' && command !== 'restore') throw new Refused('Use: backup-cli.ts backup [file] | restore file');
  console.log(await (command === 'backup' ? backup(file) : restore(file)));
  process.exit(0);
} catch (error) {
  if (error instanceof Refused || error instanceof RestoreError || error instanceof ConfigError || error instanceof DatabaseNewerError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

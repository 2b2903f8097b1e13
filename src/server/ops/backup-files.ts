// Backups as files: written whole or not at all (a temporary name, then renamed), and the embedded
// database's daily backup that keeps the last BACKUP_KEEP.
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client';
import type { Storage } from '../plugins/storage';
import { type Manifest, writeBackup } from './backup';

export async function writeBackupFile(db: Db, storage: Storage, databaseKind: string, file: string): Promise<Manifest> {
  await mkdir(dirname(file), { recursive: true });
  const partial = `${file}.partial`;
  try {
    const manifest = await writeBackup(db, storage, createWriteStream(partial, { mode: 0o600 }), databaseKind);
    await rename(partial, file);
    return manifest;
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

export const backupName = (at = new Date()) => `backup-${at.toISOString().replace(/[:.]/g, '-')}.tar.gz`;

/** Writes today's backup into `folder` and removes all but the newest `keep`; resolves with the file. */
export async function rotateBackups(db: Db, storage: Storage, databaseKind: string, folder: string, keep: number): Promise<string> {
  const file = join(folder, backupName());
  await writeBackupFile(db, storage, databaseKind, file);
  const backups = (await readdir(folder)).filter((name) => /^backup-.*\.tar\.gz$/.test(name)).sort().reverse();
  for (const old of backups.slice(keep)) await rm(join(folder, old), { force: true });
  return file;
}

/** The daily job: the embedded database backs itself up into DATA_DIR/backups; PostgreSQL has its own tools. */
export async function dailyBackup(app: FastifyInstance): Promise<void> {
  const keep = app.config.backupKeep ?? 0;
  if (app.database.kind !== 'pglite' || app.config.inMemoryDatabase || keep === 0) return;
  const file = await rotateBackups(app.db, app.storage, app.database.kind, join(app.config.dataDir, 'backups'), keep);
  app.log.info({ file }, 'daily backup written');
}

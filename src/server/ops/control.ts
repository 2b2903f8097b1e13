// The embedded database is one process's (PGlite): while the app runs, `npm run backup` cannot open it
// beside the app. So the app listens on a Unix socket in DATA_DIR (only this machine's user who owns
// DATA_DIR can reach it) and takes the backup itself, from its own consistent snapshot.
import { rmSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { createConnection, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { writeBackupFile } from './backup-files';

export const controlSocketPath = (dataDir: string) => join(dataDir, 'control.sock');

export function listenForControl(app: FastifyInstance): void {
  if (app.database.kind !== 'pglite' || app.config.inMemoryDatabase) return;
  const path = controlSocketPath(app.config.dataDir);
  let server: Server | undefined;
  app.addHook('onReady', async () => {
    rmSync(path, { force: true }); // left by a process that did not stop cleanly
    server = createServer((connection) => {
      let request = '';
      connection.on('data', (chunk) => {
        request += String(chunk);
        if (!request.includes('\n')) return;
        const { command, file } = JSON.parse(request) as { command: string; file: string };
        if (command !== 'backup') { connection.end(`${JSON.stringify({ error: `Unknown command ${command}` })}\n`); return; }
        writeBackupFile(app.db, app.storage, app.database.kind, file).then(
          (manifest) => connection.end(`${JSON.stringify({ file, manifest })}\n`),
          (error: unknown) => { app.log.error({ err: error }, 'backup failed'); connection.end(`${JSON.stringify({ error: String(error) })}\n`); },
        );
      });
    });
    try {
      await new Promise<void>((resolve, reject) => server!.once('error', reject).listen(path, resolve));
      await chmod(path, 0o600);
    } catch (error) {
      // A DATA_DIR path too long for a socket, a read-only folder: the app serves; only this way in is lost.
      app.log.warn({ err: error }, `no control socket at ${path}: stop the app to run npm run backup`);
      server = undefined;
    }
  });
  app.addHook('onClose', async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    rmSync(path, { force: true });
  });
}

/** Asks the app running on this DATA_DIR to write a backup; null when no app is running there. */
export function askRunningApp(dataDir: string, file: string): Promise<{ file: string; manifest?: unknown; error?: string } | null> {
  return new Promise((resolve, reject) => {
    const connection = createConnection(controlSocketPath(dataDir));
    let answer = '';
    connection.on('connect', () => connection.write(`${JSON.stringify({ command: 'backup', file })}\n`));
    connection.on('data', (chunk) => { answer += String(chunk); });
    connection.on('end', () => resolve(JSON.parse(answer) as { file: string }));
    connection.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') resolve(null);
      else reject(error);
    });
  });
}

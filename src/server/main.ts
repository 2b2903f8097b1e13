// Process entry: read config, build the app, listen. One line on a bad configuration, then exit.
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { DatabaseNewerError } from './db/migration-state';
import { shutdown } from './ops/shutdown';

try {
  const config = loadConfig();
  const app = await buildApp(config);
  // Issue 30: finish what is in flight, hand the running job back, then go (docs/deploy.md "Upgrades").
  const close = async () => { process.exit(await shutdown(app, { timeoutMs: config.shutdownTimeoutMs }) ? 0 : 1); };
  process.once('SIGINT', close);
  process.once('SIGTERM', close);
  await app.listen({ port: config.port, host: config.host });
  // Due jobs and the recurring schedule (daily reminders); every node runs the loop, the claims keep each job to one.
  app.jobs.start();
  app.log.info(`${config.appName} at ${config.appUrl} (database: ${app.database.kind}${config.redisUrl ? ', redis' : ''})`);
} catch (error) {
  if (error instanceof ConfigError || error instanceof DatabaseNewerError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

// Process entry: read config, build the app, listen. One line on a bad configuration, then exit.
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';

try {
  const config = loadConfig();
  const app = await buildApp(config);
  const close = async () => { await app.close(); process.exit(0); };
  process.on('SIGINT', close);
  process.on('SIGTERM', close);
  await app.listen({ port: config.port, host: config.host });
  // Due jobs and the recurring schedule (daily reminders); every node runs the loop, the claims keep each job to one.
  app.jobs.start();
  app.log.info(`${config.appName} at ${config.appUrl} (database: ${app.database.kind}${config.redisUrl ? ', redis' : ''})`);
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

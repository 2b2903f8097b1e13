// Environment -> typed configuration, validated once at start (ARCHITECTURE "Configuration").
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { isTimeZone, runtimeTimeZone } from '../shared/dates';

const url = (name: string) => z.string().url(`${name} must be a URL`);

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().default('0.0.0.0'),
  APP_URL: url('APP_URL').optional(),
  APP_NAME: z.string().min(1).default('Staffing Back Office'),
  APP_ENV: z.string().min(1).default('local'),
  // The firm's time zone until an admin sets one on the settings screen; unset, the server's own.
  APP_TIMEZONE: z.string().refine(isTimeZone, 'APP_TIMEZONE must be a time zone name such as Europe/London').optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres://').optional(),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'REDIS_URL must start with redis://').optional(),
  MAIL_URL: z.string().regex(/^smtps?:\/\//, 'MAIL_URL must start with smtp:// or smtps://').optional(),
  MAIL_FROM: z.string().default('Staffing Back Office <no-reply@example.com>'),
  ADMIN_EMAIL: z.string().email('ADMIN_EMAIL must be an email address').default('admin@example.com'),
  ADMIN_PASSWORD: z.string().min(8, 'ADMIN_PASSWORD must have at least 8 characters').default('password'),
  // Signs links in mail: the same on every node of a cluster (unset, generated into DATA_DIR).
  APP_KEY: z.string().min(32, 'APP_KEY must have at least 32 characters').optional(),
  PUSHER_APP_ID: z.string().optional(),
  PUSHER_APP_KEY: z.string().optional(),
  PUSHER_APP_SECRET: z.string().optional(),
  // Which proxies may set X-Forwarded-For: unset trusts none (the address limits are per real peer); `true`,
  // or a comma-separated list of the load balancers' addresses / CIDRs.
  TRUST_PROXY: z.string().regex(/^(true|false|[0-9a-fA-F.:/,\s]+)$/, 'TRUST_PROXY must be true, false or addresses').optional(),
  // Issue 30: files in an S3-compatible store (s3://key:secret@host/bucket), else on local disk under DATA_DIR.
  STORAGE_URL: z.string().regex(/^(s3|s3\+http|file):\/\//, 'STORAGE_URL must start with s3://, s3+http:// or file://').optional(),
  // Prometheus metrics: on their own port (bind it to a private network), or at /metrics with this bearer token.
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must have at least 16 characters').optional(),
  // The embedded database's own daily backups under DATA_DIR/backups: how many to keep (0: none).
  BACKUP_KEEP: z.coerce.number().int().min(0).default(7),
  // How long a stopping node (SIGTERM) may take to finish its requests and hand back its job.
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).default(10_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface Config {
  port: number;
  host: string;
  appUrl: string;
  appName: string;
  appEnv: string;
  /** The firm's time zone when the setting has never been saved (APP_TIMEZONE, else the server's zone). */
  timeZone?: string;
  dataDir: string;
  /** In-memory embedded database (tests): nothing is written under dataDir/db. */
  databaseUrl?: string;
  inMemoryDatabase?: boolean;
  redisUrl?: string;
  mailUrl?: string;
  mailFrom: string;
  adminEmail: string;
  adminPassword: string;
  pusher: { appId: string; key: string; secret: string };
  logLevel: string;
  storageUrl?: string;
  metricsPort?: number;
  metricsToken?: string;
  /** Daily backups the embedded database keeps (0: it takes none). */
  backupKeep?: number;
  shutdownTimeoutMs?: number;
  /** Fastify's trustProxy: whose X-Forwarded-For decides `request.ip` (rate limits per address). */
  trustProxy: boolean | string;
  /** Where the built client lives; absent in API-only tests. */
  clientDir?: string;
  /**
   * Check every JSON answer against its route's declared response schema, and answer 500 when it
   * disagrees (decision 029). The tests' apps turn it on; production sends without checking.
   */
  checkResponses?: boolean;
  /**
   * The pause between two invitations of an import's job (INVITATION_INTERVAL_MS unless set): the
   * tests' apps send without one, as a test's SMTP server needs no trickle.
   */
  invitationIntervalMs?: number;
  /** Secret for signed links (verification), generated into DATA_DIR when unset. */
  appKey: string;
}

export class ConfigError extends Error {}

/** Reads and validates the environment; throws ConfigError with one line naming the bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`Invalid configuration: ${String(issue.path[0])}: ${issue.message}`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const secrets = loadOrCreateSecrets(dataDir);
  return {
    port: e.PORT,
    host: e.HOST,
    appUrl: (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    appName: e.APP_NAME,
    appEnv: e.APP_ENV,
    timeZone: e.APP_TIMEZONE ?? runtimeTimeZone(),
    dataDir,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    mailUrl: e.MAIL_URL,
    mailFrom: e.MAIL_FROM,
    adminEmail: e.ADMIN_EMAIL.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    pusher: {
      appId: e.PUSHER_APP_ID ?? secrets.pusherAppId,
      key: e.PUSHER_APP_KEY ?? secrets.pusherKey,
      secret: e.PUSHER_APP_SECRET ?? secrets.pusherSecret,
    },
    logLevel: e.LOG_LEVEL,
    storageUrl: e.STORAGE_URL,
    metricsPort: e.METRICS_PORT,
    metricsToken: e.METRICS_TOKEN,
    backupKeep: e.BACKUP_KEEP,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    clientDir: resolve('dist'),
    appKey: e.APP_KEY ?? secrets.appKey,
  };
}

function parseTrustProxy(value: string | undefined): boolean | string {
  if (value === undefined || value === 'false') return false;
  return value === 'true' ? true : value;
}

interface Secrets { appKey: string; pusherAppId: string; pusherKey: string; pusherSecret: string }

/** Secrets generated once per installation and kept in DATA_DIR, so restarts keep links and sockets valid. */
function loadOrCreateSecrets(dataDir: string): Secrets {
  const file = join(dataDir, 'secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as Secrets;
  const secrets: Secrets = {
    appKey: randomBytes(32).toString('hex'),
    pusherAppId: String(100000 + Math.floor(Math.random() * 900000)),
    pusherKey: randomBytes(10).toString('hex'),
    pusherSecret: randomBytes(20).toString('hex'),
  };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

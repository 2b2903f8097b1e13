// Builds the real app on a fresh database: in-memory PGlite, or a new PostgreSQL database per
// suite when TEST_DB=postgres (the api-postgres project, given TEST_DATABASE_URL). Either starts
// already migrated and seeded, from the run's snapshot (helpers/snapshot.ts), and is the suite's own.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hash } from '@node-rs/argon2';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pg from 'pg';
import { type BuildOptions, buildApp } from '../../src/server/app';
import type { Config } from '../../src/server/config';
import { type Database, openDatabase } from '../../src/server/db/client';
import { assignRoles } from '../../src/server/db/seed';
import { partnerAccounts, partners, users } from '../../src/server/db/schema/accounts';
import { pooledDatabase } from './pglite-pool';
import { pgliteSnapshot, postgresTemplate } from './snapshot';
import { startSmtpServer } from './smtp';

export const ADMIN = { email: 'admin@example.com', password: 'password' };

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    port: 0, host: '127.0.0.1', appUrl: 'http://localhost:8000', appName: 'Test Back Office', appEnv: 'testing',
    dataDir: mkdtempSync(join(tmpdir(), 'bo-test-')), inMemoryDatabase: true, mailFrom: 'Test <test@example.com>',
    adminEmail: ADMIN.email, adminPassword: ADMIN.password,
    pusher: { appId: '1', key: 'test-key', secret: 'test-secret' }, logLevel: 'silent', appKey: 'test-app-key', trustProxy: false,
    clientDir: undefined,
    // Every answer any test receives is checked against its route's declared schema (decision 029).
    checkResponses: true,
    // The invitations of an import go out without the production's pause between two: a test's mail
    // server needs no trickle, and the first-run journey's 50 would wait 10 s for it.
    invitationIntervalMs: 0,
    ...overrides,
  };
}

/**
 * A fresh PostgreSQL database: created here, dropped when the suite closes. It is a copy of the run's
 * template, migrated and seeded with ADMIN as the first admin, unless `empty` (for another admin).
 */
export async function freshPostgresDatabase(options: { empty?: boolean } = {}): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `bo_test_${randomBytes(6).toString('hex')}`;
  const template = options.empty ? null : await postgresTemplate(adminUrl, { email: ADMIN.email, password: ADMIN.password });
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
        break;
      } catch (error) {
        // 55006: the template is in use (a copy starting beside this one); it is free a moment later.
        if ((error as { code?: string }).code !== '55006' || attempt === 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
    // A suite's database is dropped when it closes: its commits need not wait for the disk (about 4 ms
    // each on the shared machine). Visibility and transactions stay as they are; only a crash of the
    // machine could lose the last commits, of a database nobody keeps.
    await admin.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  close(): Promise<void>;
  /** app.inject with JSON and an optional bearer token. */
  call(method: InjectOptions['method'], url: string, options?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
  login(email: string, password: string, type?: 'app' | 'partner'): Promise<string>;
  createUser(values: Partial<typeof users.$inferInsert> & { email: string }, roleNames?: string[]): Promise<{ id: number; token: () => Promise<string> }>;
  /** A signed-in person for a suite: `key@example.com`, named `name`, with their token. */
  signedIn(key: string, name: string, values: Partial<typeof users.$inferInsert>): Promise<{ id: number; token: string }>;
  /** A partner login; of a new firm named like it unless `partner_id` names one. */
  createPartner(values: Partial<typeof partnerAccounts.$inferInsert> & { email: string }): Promise<{ id: number; partnerId: number; token: () => Promise<string> }>;
}

/** The embedded database from the run's snapshot, when the suite asks for the usual one (and its admin). */
async function embeddedFromSnapshot(config: Config): Promise<Database | undefined> {
  if (config.databaseUrl || !config.inMemoryDatabase) return undefined;
  const admin = { email: config.adminEmail, password: config.adminPassword };
  // The worker's pool holds databases of the usual admin's snapshot; another admin's starts its own.
  if (admin.email !== ADMIN.email || admin.password !== ADMIN.password) {
    return openDatabase({ dataDir: config.dataDir, inMemory: true, loadDataDir: await pgliteSnapshot(admin) });
  }
  return pooledDatabase(config.dataDir, () => pgliteSnapshot(admin));
}

export async function createTestApp(overrides: Partial<Config> = {}, options: Pick<BuildOptions, 'logStream'> = {}): Promise<TestApp> {
  const smtp = await startSmtpServer();
  const usualAdmin = (overrides.adminEmail ?? ADMIN.email) === ADMIN.email && (overrides.adminPassword ?? ADMIN.password) === ADMIN.password;
  const postgres = process.env.TEST_DB === 'postgres' && !overrides.databaseUrl ? await freshPostgresDatabase({ empty: !usualAdmin }) : null;
  const config = testConfig({ mailUrl: smtp.url, ...(postgres ? { databaseUrl: postgres.url, inMemoryDatabase: false } : {}), ...overrides });
  // Handed to buildApp, which then leaves closing it to close() below.
  const database = await embeddedFromSnapshot(config);
  const app = await buildApp(config, { database, ...options });
  await app.ready();

  const call: TestApp['call'] = async (method, url, options = {}) => {
    const response = await app.inject({
      method, url,
      headers: { ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...options.headers },
      ...(options.body !== undefined ? { payload: options.body as InjectOptions['payload'] } : {}),
    });
    let body: unknown = response.body;
    try { body = JSON.parse(response.body); } catch { /* not JSON */ }
    return { status: response.statusCode, body, headers: response.headers };
  };
  const login = async (email: string, password: string, type: 'app' | 'partner' = 'app') => {
    const response = await call('POST', type === 'partner' ? '/api/partner/login' : '/api/login', { body: { email, password } });
    if (response.status !== 200) throw new Error(`login failed: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.access_token as string;
  };
  const password = 'secret-password';
  const passwordHash = await hash(password);

  return {
    app, smtp, call, login,
    async createUser(values, roleNames) {
      const [row] = await app.db.insert(users).values({
        name: 'Test User', password: passwordHash, email_verified_at: new Date(), ...values,
      }).returning();
      await assignRoles(app.db, 'app', row.id, roleNames ?? [row.user_type]);
      return { id: row.id, token: () => login(values.email, password) };
    },
    async signedIn(key, name, values) {
      const created = await (this as TestApp).createUser({ email: `${key}@example.com`, name, ...values });
      return { id: created.id, token: await created.token() };
    },
    async createPartner(values) {
      const partnerId = values.partner_id ?? (await app.db.insert(partners).values({ name: `${values.name ?? 'Test Partner'} ${values.email}`, email: values.email }).returning())[0].id;
      const [row] = await app.db.insert(partnerAccounts).values({
        name: 'Test Partner', password: passwordHash, email_verified_at: new Date(), ...values, partner_id: partnerId,
      }).returning();
      await assignRoles(app.db, 'partner', row.id, ['partner']);
      return { id: row.id, partnerId, token: () => login(values.email, password, 'partner') };
    },
    async close() {
      await app.close();
      await database?.close();
      await smtp.close();
      await postgres?.drop();
    },
  };
}

export const TEST_PASSWORD = 'secret-password';

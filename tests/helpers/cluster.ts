// Two or more nodes of the real app on one PostgreSQL and one Redis (tests/realtime/cluster-*.test.ts):
// whether they can run here, the nodes' shared Pusher app, a node on a port, a sign-in, and the
// engineer, manager and client that an upload between two nodes needs.
import { randomBytes } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import type { Config } from '../../src/server/config';
import { users } from '../../src/server/db/schema/accounts';
import { clients } from '../../src/server/db/schema/master-data';
import { assignRoles } from '../../src/server/db/seed';
import { testConfig } from './app';

export const redisUrl = process.env.REDIS_URL;
const databaseUrl = process.env.TEST_DATABASE_URL;

/** Whether a cluster test can run (.ci/run sets both); says so visibly when it cannot. */
export function clusterCanRun(file: string, what: string): boolean {
  const canRun = !!redisUrl && !!databaseUrl;
  if (!canRun) console.warn(`\n*** ${file} SKIPPED: set REDIS_URL and TEST_DATABASE_URL to run ${what} ***\n`);
  return canRun;
}

/** The nodes' Pusher app: a fresh app id keeps their Redis topics apart from any other suite's. */
export const clusterPusher = (prefix: string) => ({ appId: `${prefix}-${randomBytes(4).toString('hex')}`, key: `${prefix}-key`, secret: `${prefix}-secret` });

export const CLUSTER_PASSWORD = 'cluster-password';

export const portOf = (node: FastifyInstance) => (node.server.address() as { port: number }).port;

/** A node of the app on the database at `databaseUrl`, listening on a free port. */
export async function startNode(config: Partial<Config> & { databaseUrl: string }, before?: (node: FastifyInstance) => void): Promise<FastifyInstance> {
  const node = await buildApp(testConfig({ inMemoryDatabase: false, redisUrl, ...config }));
  before?.(node);
  await node.listen({ port: 0, host: '127.0.0.1' });
  return node;
}

/** Signs in through a node's login route; the bearer token. */
export const signIn = async (node: FastifyInstance, email: string, password = CLUSTER_PASSWORD) =>
  (await node.inject({ method: 'POST', url: '/api/login', payload: { email, password } })).json().access_token as string;

/** Maya, a manager, and Eli, an engineer who reports to her, both with CLUSTER_PASSWORD, and a client to book time to. */
export async function createUploadTeam(node: FastifyInstance) {
  const password = await hash(CLUSTER_PASSWORD);
  const [manager] = await node.db.insert(users).values({ name: 'Maya Manager', email: 'maya@example.com', password, user_type: 'manager', email_verified_at: new Date() }).returning();
  const [engineer] = await node.db.insert(users).values({ name: 'Eli Engineer', email: 'eli@example.com', password, user_type: 'user', parent_id: manager.id, email_verified_at: new Date() }).returning();
  await assignRoles(node.db, 'app', manager.id, ['manager']);
  await assignRoles(node.db, 'app', engineer.id, ['user']);
  const [client] = await node.db.insert(clients).values({ name: 'Acme' }).returning();
  return { manager, engineer, client };
}

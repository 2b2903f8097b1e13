// @vitest-environment node
// Issue 3: two nodes of the real app on one PostgreSQL and one Redis. An engineer uploads a time
// sheet through node A; their manager, signed in with a real token and listening through
// laravel-echo on node B, gets the TimeSheetUploadEvent exactly once, and node B lists the stored
// notification. Skipped, with a visible message, without REDIS_URL and TEST_DATABASE_URL (.ci/run sets both).
import { hash } from '@node-rs/argon2';
import type { FastifyInstance } from 'fastify';
import Echo from 'laravel-echo';
import Pusher from 'pusher-js';
import PusherServer from 'pusher';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { modelHasRoles, personalAccessTokens, users } from '../../src/server/db/schema/accounts';
import { bearerHash } from '../../src/server/modules/auth/accounts';
import { ANNOUNCEMENT_KEY } from '../../src/server/modules/setting/announcement';
import { assignRoles } from '../../src/server/db/seed';
import { timeSheetUploadChannel } from '../../src/server/realtime/events';
import { freshPostgresDatabase } from '../helpers/app';
import { CLUSTER_PASSWORD, clusterCanRun, clusterPusher, createUploadTeam, portOf, signIn, startNode } from '../helpers/cluster';
import { multipart, PDF } from '../helpers/multipart';
import { statementsOf } from '../helpers/statements';
import { once } from './helpers';

const canRun = clusterCanRun('tests/realtime/cluster-app.test.ts', 'the two-node app test');
const PASSWORD = CLUSTER_PASSWORD;
const pusher = clusterPusher('cluster');

describe.skipIf(!canRun)('two app nodes on one PostgreSQL and one Redis', () => {
  let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  let nodeA: FastifyInstance;
  let nodeB: FastifyInstance;
  let echo: Echo<'reverb'> | undefined;
  const port = portOf;
  const start = () => startNode({ databaseUrl: database.url, pusher });
  const login = signIn;

  beforeAll(async () => {
    database = await freshPostgresDatabase();
    // One after the other: the first applies the migrations, the second finds them applied.
    nodeA = await start();
    nodeB = await start();
  });
  afterAll(async () => {
    echo?.disconnect();
    await Promise.all([nodeA?.close(), nodeB?.close()]);
    await database?.drop();
  });

  it("delivers the engineer's upload on node A to the manager on node B once, and stores the notification", async () => {
    const { manager, engineer, client } = await createUploadTeam(nodeA);
    const [managerToken, engineerToken] = [await login(nodeB, manager.email), await login(nodeA, engineer.email)];

    // The manager's browser, as the app sets it up: Echo with the bearer token, authorised by node B.
    echo = new Echo({
      broadcaster: 'reverb', key: pusher.key, wsHost: '127.0.0.1', wsPort: port(nodeB), forceTLS: false, enabledTransports: ['ws'],
      authEndpoint: `http://127.0.0.1:${port(nodeB)}/api/broadcasting/auth`, bearerToken: managerToken, auth: { headers: {} }, Pusher,
    });
    const seen: unknown[] = [];
    echo.private(`time-sheet-upload-event.${manager.id}`).listen('TimeSheetUploadEvent', (payload: unknown) => seen.push(payload));
    const channel = (echo.connector as unknown as { pusher: Pusher }).pusher.channel(timeSheetUploadChannel(manager.id));
    await once((done) => channel.bind('pusher:subscription_succeeded', done), 5000, 'subscription on node B');
    const first = once((done) => channel.bind('App\\Events\\TimeSheetUploadEvent', done), 5000, 'TimeSheetUploadEvent on node B');

    const form = multipart({ client_id: client.id, period_type: 'month', period_start: '2026-10-01', hours: 168 }, { name: 'october.pdf', type: 'application/pdf', content: PDF });
    const upload = await nodeA.inject({ method: 'POST', url: '/api/time-sheet', payload: form.body, headers: { ...form.headers, authorization: `Bearer ${engineerToken}` } });
    expect(upload.statusCode).toBe(201);

    await first;
    // Exactly once: a sentinel published after it on node A arrives on node B behind any duplicate.
    const sentinel = once((done) => channel.bind('sentinel', done), 5000, 'sentinel');
    await new PusherServer({ ...pusher, host: '127.0.0.1', port: String(port(nodeA)), useTLS: false }).trigger(timeSheetUploadChannel(manager.id), 'sentinel', {});
    await sentinel;
    expect(seen).toEqual([{
      message: expect.objectContaining({ title: 'A time sheet waits for your review', url: expect.stringContaining('/time-sheet') }),
      user: { id: engineer.id, name: 'Eli Engineer', parent_id: manager.id },
    }]);

    // The notification row was stored (on the shared database) before the broadcast: node B lists it.
    const unread = await nodeB.inject({ method: 'GET', url: '/api/notification', headers: { authorization: `Bearer ${managerToken}` } });
    expect(unread.json().data.map((n: { data: { title: string } }) => n.data.title)).toEqual(['A time sheet waits for your review']);
  });

  it('closes the sockets on node B of a session revoked on node A: a logout, then a deactivation (issue 15)', async () => {
    const password = await hash(PASSWORD);
    const [lead] = await nodeA.db.insert(users).values({ name: 'Lea Lead', email: 'lea@example.com', password, user_type: 'manager', email_verified_at: new Date() }).returning();
    await assignRoles(nodeA.db, 'app', lead.id, ['manager']);
    const echoes: Echo<'reverb'>[] = [];
    /** Lea's browser on node B with this token, subscribed to her time-sheet channel; resolves with the pusher:error code that ends it. */
    const openOnB = async (token: string) => {
      const browser = new Echo({
        broadcaster: 'reverb', key: pusher.key, wsHost: '127.0.0.1', wsPort: port(nodeB), forceTLS: false, enabledTransports: ['ws'],
        authEndpoint: `http://127.0.0.1:${port(nodeB)}/api/broadcasting/auth`, bearerToken: token, auth: { headers: {} }, Pusher,
      });
      echoes.push(browser);
      const client = (browser.connector as unknown as { pusher: Pusher }).pusher;
      browser.private(`time-sheet-upload-event.${lead.id}`).listen('TimeSheetUploadEvent', () => undefined);
      await once((done) => client.channel(timeSheetUploadChannel(lead.id)).bind('pusher:subscription_succeeded', done), 5000, 'subscription on node B');
      const ended = once<number>((done) => client.connection.bind('error', (error: { data?: { code?: number } }) => { if (error?.data?.code) done(error.data.code); }), 5000, 'the socket on node B to close');
      ended.catch(() => undefined); // awaited below; a failure earlier in the test must not leave it unhandled
      return { client, ended };
    };
    try {
      const phoneToken = await login(nodeA, lead.email);
      const laptopToken = await login(nodeA, lead.email);
      const [phone, laptop] = [await openOnB(phoneToken), await openOnB(laptopToken)];

      expect((await nodeA.inject({ method: 'POST', url: '/api/logout', headers: { authorization: `Bearer ${phoneToken}` } })).statusCode).toBe(200);
      expect(await phone.ended).toBe(4009);
      expect(laptop.client.connection.state).toBe('connected');

      const adminToken = (await nodeA.inject({ method: 'POST', url: '/api/login', payload: { email: 'admin@example.com', password: 'password' } })).json().access_token as string;
      const deactivated = await nodeA.inject({ method: 'PATCH', url: `/api/manager/${lead.id}`, payload: { status: 'inactive' }, headers: { authorization: `Bearer ${adminToken}` } });
      expect(deactivated.statusCode).toBe(200);
      expect(await laptop.ended).toBe(4009);

      // A revocation a node's listener missed (its connection was cut) is caught when it reconnects.
      await nodeA.db.update(users).set({ status: 'active' }).where(eq(users.id, lead.id));
      const tabletToken = await login(nodeA, lead.email);
      const tablet = await openOnB(tabletToken);
      await nodeA.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and query ilike 'LISTEN sessions_revoked%'`);
      // Deleted behind the app's back: no notice is sent at all.
      await nodeA.db.delete(personalAccessTokens).where(eq(personalAccessTokens.account_id, lead.id));
      expect(await tablet.ended).toBe(4009);
    } finally {
      for (const browser of echoes) browser.disconnect();
    }
  });

  it('refuses on node B, within one second, a token that node B had cached and node A revoked or stripped (issue 27)', async () => {
    const password = await hash(PASSWORD);
    const [rae] = await nodeA.db.insert(users).values({ name: 'Rae Revoked', email: 'rae@example.com', password, user_type: 'manager', email_verified_at: new Date() }).returning();
    await assignRoles(nodeA.db, 'app', rae.id, ['manager']);
    const adminToken = await login(nodeA, 'admin@example.com', 'password');
    const onB = async (token: string, url = '/api/me') => (await nodeB.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } })).statusCode;
    /** Node B answers `status` to this request within one second of the change on node A (issue 27's figure). */
    const answersOnB = async (token: string, status: number, url?: string) => {
      const deadline = Date.now() + 1000;
      let last = await onB(token, url);
      while (last !== status && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        last = await onB(token, url);
      }
      expect(last).toBe(status);
    };
    /**
     * Node B answers `status` and then holds the session in its cache. The notice of the sign-in (its
     * last_login_at) or of a role change may reach node B just after an answer and empty its entry
     * once more, so the request is repeated until the entry stays.
     */
    const cachedOnB = (token: string, url?: string, status = 200) => vi.waitFor(async () => {
      expect(await onB(token, url)).toBe(status);
      expect(nodeB.sessions.cache.get(bearerHash(token)!)).toBeDefined();
    }, { timeout: 1000, interval: 20 });

    // A logout through node A.
    const phone = await login(nodeA, rae.email);
    await cachedOnB(phone);
    expect((await nodeA.inject({ method: 'POST', url: '/api/logout', headers: { authorization: `Bearer ${phone}` } })).statusCode).toBe(200);
    await answersOnB(phone, 401);

    // A permission taken away on node A: her roles are withdrawn.
    const laptop = await login(nodeA, rae.email);
    await cachedOnB(laptop, '/api/time-sheet');
    await nodeA.db.delete(modelHasRoles).where(and(eq(modelHasRoles.account_type, 'app'), eq(modelHasRoles.account_id, rae.id)));
    await answersOnB(laptop, 403, '/api/time-sheet');

    // A deactivation through node A.
    await assignRoles(nodeA.db, 'app', rae.id, ['manager']);
    await answersOnB(laptop, 200, '/api/time-sheet');
    await cachedOnB(laptop, '/api/time-sheet');
    const deactivated = await nodeA.inject({ method: 'PATCH', url: `/api/manager/${rae.id}`, payload: { status: 'inactive' }, headers: { authorization: `Bearer ${adminToken}` } });
    expect(deactivated.statusCode).toBe(200);
    await answersOnB(laptop, 401);
  });

  it("shows on node B's /me, within one second, an announcement saved through node A, and node B then reads it no more (decision 053)", async () => {
    const adminOnA = await login(nodeA, 'admin@example.com', 'password');
    const adminOnB = await login(nodeB, 'admin@example.com', 'password');
    const shownOnB = async () => (await nodeB.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${adminOnB}` } })).json().announcement;
    /** Node B's /me answers `shown` within one second (issue 27's figure), and node B holds the setting again. */
    const heldOnB = async (shown: object) => {
      const deadline = Date.now() + 1000;
      let last = await shownOnB();
      while ((JSON.stringify(last) !== JSON.stringify(shown) || !nodeB.nodeSettings.has(ANNOUNCEMENT_KEY)) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        last = await shownOnB();
      }
      expect(last).toEqual(shown);
      expect(nodeB.nodeSettings.has(ANNOUNCEMENT_KEY)).toBe(true);
    };
    const save = async (message: string) => {
      const saved = await nodeA.inject({ method: 'PUT', url: '/api/setting/announcement', payload: { status: 'on', message }, headers: { authorization: `Bearer ${adminOnA}` } });
      expect(saved.statusCode).toBe(200);
    };

    await save('Before node B read it');
    await heldOnB({ status: 'on', message: 'Before node B read it' });
    // Held: node B answers from its copy, which a save on node A must replace.
    expect(await statementsOf(nodeB.db, async () => expect(await shownOnB()).toEqual({ status: 'on', message: 'Before node B read it' }))).toEqual([]);
    await save('Saved through node A');
    await heldOnB({ status: 'on', message: 'Saved through node A' });
  });
});

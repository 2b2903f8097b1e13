// The job queue and the daily reminders (ARCHITECTURE "Jobs"), on the embedded database and, in the
// api-postgres project, on PostgreSQL, where two app nodes on one database also race each other.
// On the embedded database too: the queue on one node's one connection.
import { and, count, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../../src/server/app';
import type { Db } from '../../src/server/db/client';
import { assignRoles } from '../../src/server/db/seed';
import { users } from '../../src/server/db/schema/accounts';
import { leaveApplications, leaveTypes } from '../../src/server/db/schema/hr';
import { notifications } from '../../src/server/db/schema/notifications';
import { jobs, remindersSent } from '../../src/server/db/schema/workflow';
import { createJobQueue, enqueue, type JobHandler } from '../../src/server/jobs/queue';
import { sendDueReminders } from '../../src/server/jobs/reminders';
import type { ResourceOptions } from '../../src/server/resources/register';
import { defineResource, type ReminderDefinition } from '../../src/shared/resources/define';
import { ADMIN, createTestApp, freshPostgresDatabase, testConfig, type TestApp } from '../helpers/app';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

const jobRow = async (id: number) => (await t.app.db.select().from(jobs).where(eq(jobs.id, id)))[0];
/** The firm's time zone, as an admin sets it on the settings screen. */
async function setFirmTimeZone(zone: string) {
  const token = await t.login(ADMIN.email, ADMIN.password);
  const saved = await t.call('PUT', '/api/setting/time-zone', { token, body: { time_zone: zone } });
  expect(saved.status).toBe(200);
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('job queue', () => {
  it('runs a due job once and records done_at; a job due later waits', async () => {
    const payloads: unknown[] = [];
    const queue = createJobQueue(t.app, { handlers: { 'record-payload': (_app, payload) => { payloads.push(payload); } } });
    const id = (await enqueue(t.app.db, 'record-payload', { n: 1 }))!;
    const later = (await enqueue(t.app.db, 'record-payload', { n: 2 }, { runAt: new Date(Date.now() + 3_600_000) }))!;

    expect(await queue.runDue()).toBe(1);
    expect(await queue.runDue()).toBe(0);
    expect(payloads).toEqual([{ n: 1 }]);
    expect(await jobRow(id)).toMatchObject({ attempts: 1, locked_until: null, last_error: null });
    expect((await jobRow(id)).done_at).toBeInstanceOf(Date);
    expect(await jobRow(later)).toMatchObject({ attempts: 0, done_at: null });
  });

  it('ignores a second enqueue with the same unique key', async () => {
    const first = await enqueue(t.app.db, 'record-payload', {}, { uniqueKey: 'once-only', runAt: new Date(Date.now() + 3_600_000) });
    const second = await enqueue(t.app.db, 'record-payload', {}, { uniqueKey: 'once-only' });
    expect(first).toBeTypeOf('number');
    expect(second).toBeNull();
    expect((await t.app.db.select({ n: count() }).from(jobs).where(eq(jobs.unique_key, 'once-only')))[0].n).toBe(1);
  });

  it('retries a failing job, recording last_error, and stops after max_attempts', async () => {
    let calls = 0;
    const fail: JobHandler = () => { calls += 1; throw new Error(`boom ${calls}`); };
    const queue = createJobQueue(t.app, { handlers: { 'always-fails': fail }, backoffMs: () => 0 });
    const id = (await enqueue(t.app.db, 'always-fails', {}, { maxAttempts: 3 }))!;

    // runDue runs each due job once per call, even when a failure is due again at once.
    expect(await queue.runDue()).toBe(1);
    expect(await jobRow(id)).toMatchObject({ attempts: 1, done_at: null, locked_until: null });
    expect((await jobRow(id)).last_error).toContain('boom 1');
    await queue.runDue();
    await queue.runDue();
    expect(await queue.runDue()).toBe(0);
    expect(calls).toBe(3);
    const row = await jobRow(id);
    expect(row).toMatchObject({ attempts: 3, done_at: null, locked_until: null });
    expect(row.last_error).toContain('boom 3');
  });

  it('waits before a retry (backoff)', async () => {
    const queue = createJobQueue(t.app, { handlers: { 'fails-once': () => { throw new Error('not yet'); } } });
    const id = (await enqueue(t.app.db, 'fails-once'))!;
    await queue.runDue();
    const row = await jobRow(id);
    expect(row.run_at.getTime()).toBeGreaterThan(Date.now() + 20_000);
    expect(await queue.runDue()).toBe(0);
  });

  it('does not hand a job with a live lease to a second claimer', async () => {
    const handlers = { 'leased-job': () => undefined };
    const nodeA = createJobQueue(t.app, { handlers });
    const nodeB = createJobQueue(t.app, { handlers });
    const id = (await enqueue(t.app.db, 'leased-job'))!;
    const claimed = await nodeA.claim();
    expect(claimed).toMatchObject({ id, attempts: 1 });
    expect(claimed!.locked_until!.getTime()).toBeGreaterThan(Date.now() + 30_000);
    expect(await nodeB.claim()).toBeNull();
    expect(await nodeB.runDue()).toBe(0);
    await nodeA.run(claimed!);
    expect((await jobRow(id)).done_at).toBeInstanceOf(Date);
  });

  it('takes a job again once the lease of a node that died has passed; the dead claim cannot finish it', async () => {
    const runs: string[] = [];
    const handler = (node: string): JobHandler => () => { runs.push(node); };
    const dying = createJobQueue(t.app, { handlers: { 'orphaned-job': handler('dying') }, leaseMs: 200 });
    const survivor = createJobQueue(t.app, { handlers: { 'orphaned-job': handler('survivor') } });
    const id = (await enqueue(t.app.db, 'orphaned-job'))!;
    const stale = (await dying.claim())!;
    expect(await survivor.claim()).toBeNull();

    await sleep(400);
    const retaken = await survivor.claim();
    expect(retaken).toMatchObject({ id, attempts: 2 });
    // The first node wakes up and finishes late: its claim (attempts 1) no longer holds the row.
    await dying.run(stale);
    expect((await jobRow(id)).done_at).toBeNull();
    await survivor.run(retaken!);
    expect((await jobRow(id)).done_at).toBeInstanceOf(Date);
    expect(runs).toEqual(['dying', 'survivor']);
  });

  it('renews the lease while a long job runs, so no other node takes it', async () => {
    let runs = 0;
    const handler: JobHandler = async () => { runs += 1; await sleep(2_000); };
    const nodeA = createJobQueue(t.app, { handlers: { 'long-job': handler }, leaseMs: 1_000 });
    const nodeB = createJobQueue(t.app, { handlers: { 'long-job': handler }, leaseMs: 1_000 });
    const id = (await enqueue(t.app.db, 'long-job'))!;
    const running = nodeA.runDue();
    await sleep(1_400); // past the first lease
    expect(await nodeB.claim()).toBeNull();
    expect(await running).toBe(1);
    expect(runs).toBe(1);
    expect((await jobRow(id)).done_at).toBeInstanceOf(Date);
  });

  it('enqueues a recurring job once per day however often and on however many nodes the scheduler ticks', async () => {
    await setFirmTimeZone('UTC');
    const recurring = [{ name: 'nightly-test', hour: 6 }];
    const nodes = [createJobQueue(t.app, { recurring }), createJobQueue(t.app, { recurring })];
    const morning = new Date('2030-05-17T03:00:00Z');
    for (let tick = 0; tick < 3; tick++) {
      await Promise.all(nodes.map((node) => node.schedule(new Date(morning.getTime() + tick * 3_600_000))));
    }
    const rows = await t.app.db.select().from(jobs).where(eq(jobs.name, 'nightly-test'));
    expect(rows).toHaveLength(1);
    expect(rows[0].unique_key).toBe('nightly-test:2030-05-17');
    expect(rows[0].run_at.toISOString()).toBe('2030-05-17T06:00:00.000Z');

    await nodes[0].schedule(new Date('2030-05-18T01:00:00Z'));
    expect(await t.app.db.select().from(jobs).where(eq(jobs.name, 'nightly-test'))).toHaveLength(2);
  });

  it("runs a recurring job on the firm's clock: its day and hour are the firm's, not UTC's", async () => {
    await setFirmTimeZone('Pacific/Auckland'); // UTC+12 in May
    const queue = createJobQueue(t.app, { recurring: [{ name: 'firm-clock-test', hour: 6, minute: 30 }] });
    // 13:00 UTC on the 17th is already 01:00 on the 18th in Auckland.
    await queue.schedule(new Date('2030-05-17T13:00:00Z'));
    const [row] = await t.app.db.select().from(jobs).where(eq(jobs.name, 'firm-clock-test'));
    expect(row.unique_key).toBe('firm-clock-test:2030-05-18');
    expect(row.run_at.toISOString()).toBe('2030-05-17T18:30:00.000Z');
    await setFirmTimeZone('UTC');
  });

  it("schedules the app's daily reminders (app.jobs) once for today", async () => {
    await setFirmTimeZone('UTC');
    await t.app.jobs.schedule();
    await t.app.jobs.schedule();
    const today = new Date().toISOString().slice(0, 10);
    const rows = await t.app.db.select().from(jobs).where(eq(jobs.unique_key, `daily-reminders:${today}`));
    expect(rows).toHaveLength(1);
    expect(rows[0].run_at.toISOString()).toBe(`${today}T06:00:00.000Z`);
  });
});

// A leave-application-like resource declared here, over the real leave_applications table.
const reminder = (name: string): ReminderDefinition => ({
  name, dateField: 'from_date', daysBefore: 3, states: ['pending'], recipients: ['ownerManager'],
  title: 'Leave starts soon', message: '{title} is away from {date}.',
});
const testLeave = (reminderName = 'starts-soon'): ResourceOptions => ({
  table: leaveApplications,
  definition: defineResource({
    name: 'leave-application', label: 'Leave Application', pluralLabel: 'Leave Applications',
    schema: z.object({ from_date: z.string() }),
    fields: {
      user_id: { label: 'Applicant', input: 'reference', reference: { resource: 'user', labelKey: 'name', relation: 'user' } },
      from_date: { label: 'From', input: 'date' },
      status: { label: 'Status', input: 'select' },
    },
    titleKey: 'user_id', search: [], defaultSort: { key: 'from_date', direction: 'asc' },
    permissions: { view: 'can-view-leave-application' },
    routes: { index: 'leave-application.index', show: 'leave-application.show' },
    workflow: {
      field: 'status', initial: 'pending', ownerField: 'user_id', transitions: [], events: { create: { history: (actor) => `${actor} applied` } },
      states: { pending: { label: 'Pending', tone: 'yellow' }, approved: { label: 'Approved', tone: 'green', isFinal: true } },
    },
    reminders: [reminder(reminderName)],
  }) as ResourceOptions['definition'],
});

/** A manager, their report and leave rows `daysAhead` of the database's today, in `status`. */
async function seedLeave(db: Db, rows: { daysAhead: number; status: string }[], tag = '') {
  const [manager] = await db.insert(users).values({ name: `Maya Manager${tag}`, email: `maya${tag}@example.com`, password: 'x', user_type: 'manager' }).returning();
  const [employee] = await db.insert(users).values({ name: `Eli Engineer${tag}`, email: `eli${tag}@example.com`, password: 'x', user_type: 'user', parent_id: manager.id }).returning();
  // The manager role opens the leave applications the reminders link to (a notification goes only to people who can, issue 20).
  await assignRoles(db, 'app', manager.id, ['manager']);
  const [type] = await db.insert(leaveTypes).values({ name: `Reminder test leave${tag}` }).returning();
  const inserted = rows.length ? await db.insert(leaveApplications).values(rows.map(({ daysAhead, status }) => ({
    user_id: employee.id, leave_type_id: type.id, days: 1, status,
    from_date: sql`current_date + ${daysAhead}::int`, to_date: sql`current_date + ${daysAhead}::int`,
  }))).returning({ id: leaveApplications.id, from_date: leaveApplications.from_date }) : [];
  return { manager, employee, leave: inserted };
}

const notificationsOf = (db: Db, userId: number) => db.select().from(notifications)
  .where(and(eq(notifications.notifiable_type, 'app'), eq(notifications.notifiable_id, userId)));

describe('daily reminders', () => {
  it("reminds the owner's manager once of a record in the window and state, across two runs", async () => {
    const { manager, employee, leave } = await seedLeave(t.app.db, [
      { daysAhead: 2, status: 'pending' }, // due
      { daysAhead: 0, status: 'pending' }, // due: today is in the window
      { daysAhead: 4, status: 'pending' }, // beyond daysBefore
      { daysAhead: -1, status: 'pending' }, // past
      { daysAhead: 1, status: 'approved' }, // another state
    ]);
    const publish = vi.spyOn(t.app.broadcaster, 'publish');
    try {
      expect(await sendDueReminders(t.app, [testLeave()])).toEqual([{ resource: 'leave-application', reminder: 'starts-soon', sent: 2 }]);
      expect(await sendDueReminders(t.app, [testLeave()])).toEqual([{ resource: 'leave-application', reminder: 'starts-soon', sent: 0 }]);
      const received = await notificationsOf(t.app.db, manager.id);
      expect(received.map((n) => n.data).sort((a, b) => a.url!.localeCompare(b.url!))).toEqual([leave[0], leave[1]]
        .map(({ id, from_date }) => ({ title: 'Leave starts soon', message: `Eli Engineer is away from ${from_date}.`, url: `/leave-application/${id}` }))
        .sort((a, b) => a.url.localeCompare(b.url)));
      expect(received[0].type).toBe('App\\Notifications\\LeaveApplicationStartsSoonReminder');
      expect(await notificationsOf(t.app.db, employee.id)).toEqual([]);
      // Broadcast live on the manager's Laravel channel after the commit, once per notification.
      const calls = publish.mock.calls.filter(([channels]) => channels[0] === `private-App.Models.User.${manager.id}`);
      expect(calls).toHaveLength(2);
      expect(calls.map(([, , data]) => (data as { id: string }).id).sort()).toEqual(received.map((n) => n.id).sort());
      const sent = await t.app.db.select().from(remindersSent).where(eq(remindersSent.reminder, 'starts-soon'));
      expect(sent.map((row) => row.record_id).sort()).toEqual([leave[0].id, leave[1].id].sort());
    } finally {
      publish.mockRestore();
    }
  });

  it('marks a record whose owner has no manager as reminded without storing a notification', async () => {
    const { employee, leave } = await seedLeave(t.app.db, [{ daysAhead: 1, status: 'pending' }], '-solo');
    await t.app.db.update(users).set({ parent_id: null }).where(eq(users.id, employee.id));
    const before = (await t.app.db.select({ n: count() }).from(notifications))[0].n;
    // A new reminder: the two due records of the test above (with a manager) and this one.
    expect((await sendDueReminders(t.app, [testLeave('no-manager')]))[0].sent).toBe(3);
    expect((await t.app.db.select({ n: count() }).from(notifications))[0].n).toBe(before + 2);
    const sent = await t.app.db.select().from(remindersSent).where(and(eq(remindersSent.reminder, 'no-manager'), eq(remindersSent.record_id, leave[0].id)));
    expect(sent).toHaveLength(1);
  });

  it('skips a resource that declares no reminders', async () => {
    const plain = testLeave();
    const definition = { ...plain.definition, reminders: undefined };
    expect(await sendDueReminders(t.app, [{ ...plain, definition }])).toEqual([]);
  });
});

// Two nodes on one PostgreSQL: only in the api-postgres project (TEST_DATABASE_URL).
const onPostgres = process.env.TEST_DB === 'postgres';
if (!onPostgres && !process.env.TEST_DATABASE_URL) {
  console.warn('\n*** tests/api/jobs.test.ts: the two-node tests run only on PostgreSQL (set TEST_DATABASE_URL) ***\n');
}

describe.skipIf(!onPostgres)('two nodes on one PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  let nodeA: FastifyInstance;
  let nodeB: FastifyInstance;
  const RECORDS = 300;

  beforeAll(async () => {
    database = await freshPostgresDatabase();
    // One after the other: the first applies the migrations.
    nodeA = await buildApp(testConfig({ databaseUrl: database.url, inMemoryDatabase: false }));
    nodeB = await buildApp(testConfig({ databaseUrl: database.url, inMemoryDatabase: false }));
    await seedLeave(nodeA.db, Array.from({ length: RECORDS }, (_, i) => ({ daysAhead: i % 4, status: 'pending' })));
  });
  afterAll(async () => {
    await Promise.all([nodeA?.close(), nodeB?.close()]);
    await database?.drop();
  });

  const remindersFor = async (reminderName: string) => {
    const rows = await nodeA.db.select({ url: sql<string>`${notifications.data}->>'url'`, n: count() }).from(notifications)
      .where(sql`${notifications.type} = ${`App\\Notifications\\LeaveApplication${reminderName}Reminder`}`)
      .groupBy(sql`${notifications.data}->>'url'`);
    return { records: rows.length, most: Math.max(0, ...rows.map((row) => row.n)) };
  };

  it('sends each reminder exactly once when both run the reminders at the same time', async () => {
    const runs = await Promise.all([sendDueReminders(nodeA, [testLeave('race')]), sendDueReminders(nodeB, [testLeave('race')])]);
    expect(runs[0][0].sent + runs[1][0].sent).toBe(RECORDS);
    expect(await remindersFor('Race')).toEqual({ records: RECORDS, most: 1 });
  });

  it("runs today's recurring reminder job on one node only, however both schedule and poll", async () => {
    let runsOfJob = 0;
    const options = {
      handlers: { 'two-node-reminders': async (app: FastifyInstance) => { runsOfJob += 1; await sendDueReminders(app, [testLeave('queued')]); } },
      recurring: [{ name: 'two-node-reminders', hour: 0 }],
    };
    const queues = [createJobQueue(nodeA, options), createJobQueue(nodeB, options)];
    await Promise.all(queues.flatMap((queue) => [queue.schedule(), queue.schedule()]));
    await Promise.all(queues.flatMap((queue) => [queue.runDue(), queue.runDue()]));
    expect(runsOfJob).toBe(1);
    const [job] = await nodeA.db.select().from(jobs).where(eq(jobs.name, 'two-node-reminders'));
    expect(job.done_at).toBeInstanceOf(Date);
    expect(await remindersFor('Queued')).toEqual({ records: RECORDS, most: 1 });
  });
});

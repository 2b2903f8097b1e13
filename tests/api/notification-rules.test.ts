// Issue 24, "Fewer, better notifications": one notification per event and recipient, events about one
// record for one person within minutes coalesce into one, each person's per-kind choice is honoured,
// and mail goes from the job queue (at once, or in the daily digest) through the real SMTP test server.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/server/db/schema/accounts';
import { expenseCategories } from '../../src/server/db/schema/master-data';
import { notifications } from '../../src/server/db/schema/notifications';
import { jobs } from '../../src/server/db/schema/workflow';
import { enqueue } from '../../src/server/jobs/queue';
import { inTransaction } from '../../src/server/lib/transaction';
import { notify } from '../../src/server/modules/notification/notify';
import { createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
let categoryId: number;
const people: Record<string, { id: number; token: string; email: string }> = {};

beforeAll(async () => {
  t = await createTestApp();
  [{ id: categoryId }] = await t.app.db.insert(expenseCategories).values({ name: 'Travel' }).returning();
  const make = async (key: string, values: Partial<typeof users.$inferInsert>, roles?: string[]) => {
    const email = `${key}@rules.example.com`;
    const created = await t.createUser({ email, name: key, ...values }, roles);
    people[key] = { id: created.id, token: await created.token(), email };
  };
  await make('manager', { user_type: 'manager' });
  await make('engineer', { user_type: 'user', parent_id: people.manager.id });
  await make('finance', { user_type: 'user' }, ['finance']);
  await make('finance2', { user_type: 'user' }, ['finance']);
  await make('quiet', { user_type: 'user' });
});
afterAll(async () => { await t?.close(); });

const rowsOf = (who: string) => t.app.db.select().from(notifications)
  .where(and(eq(notifications.notifiable_type, 'app'), eq(notifications.notifiable_id, people[who].id)));
const bell = async (who: string) => (await t.call('GET', '/api/notification?type=all&per_page=100', { token: people[who].token })).body.data as { id: string; data: { title: string; url: string } }[];
const choose = (who: string, body: unknown) => t.call('PUT', '/api/notification/preferences', { token: people[who].token, body });

async function claim(amount: number) {
  const res = await t.call('POST', '/api/expense', {
    token: people.engineer.token,
    body: { description: `Taxi ${amount}`, expense_category_id: categoryId, expense_date: '2026-03-02', amount, currency: 'GBP' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id as number;
}
const act = (who: string, id: number, transition: string) =>
  t.call('POST', `/api/expense/${id}/transitions/${transition}`, { token: people[who].token, body: {} });

describe('one event, one notification per recipient', () => {
  it('tells each person an approval concerns once, in words written for them, and never the one who acted', async () => {
    const id = await claim(20);
    const approved = await act('manager', id, 'approve-manager');
    expect(approved.status).toBe(200);
    expect(approved.body.message).toBe('You approved the claim for finance.');
    const about = async (who: string) => (await rowsOf(who)).filter((row) => row.data.url === `/expense/${id}`);
    expect((await about('engineer')).map((row) => row.data.title)).toEqual(['Your claim was approved by your manager']);
    expect((await about('engineer'))[0].data.message).toBe(`Your claim of GBP\u00a020.00 (Taxi 20) was approved by manager. It now waits for finance.`);
    for (const who of ['finance', 'finance2']) expect((await about(who)).map((row) => row.data.title), who).toEqual(['A claim waits for your review']);
    // The manager was told of the claim when it was filed, and not of their own approval.
    expect((await about('manager')).map((row) => row.data.title)).toEqual(['A claim waits for your approval']);
  });
});

describe('coalescing', () => {
  it('updates one unread notification for events about the same record within minutes; a read one is left as it was', async () => {
    const id = await claim(30);
    await act('manager', id, 'approve-manager');
    await act('finance', id, 'review');
    let about = (await rowsOf('engineer')).filter((row) => row.data.url === `/expense/${id}`);
    expect(about).toHaveLength(1);
    expect(about[0].data.title).toBe('Your claim was reviewed by finance');
    // Its reader opened it: the next event is news, so a new notification.
    const read = await t.call('PUT', `/api/notification/${about[0].id}`, { token: people.engineer.token, body: {} });
    expect(read.status).toBe(200);
    await act('finance2', id, 'approve');
    about = (await rowsOf('engineer')).filter((row) => row.data.url === `/expense/${id}`);
    expect(about.map((row) => row.data.title).sort()).toEqual(['Your claim was approved for reimbursement', 'Your claim was reviewed by finance']);
    // Another record is another notification.
    const other = await claim(31);
    await act('manager', other, 'approve-manager');
    expect((await rowsOf('engineer')).filter((row) => row.data.url === `/expense/${other}`)).toHaveLength(1);
  });

  it('does not coalesce past the window', async () => {
    const id = await claim(32);
    await act('manager', id, 'approve-manager');
    const [first] = (await rowsOf('engineer')).filter((row) => row.data.url === `/expense/${id}`);
    await t.app.db.update(notifications).set({ created_at: new Date(Date.now() - 11 * 60_000) }).where(eq(notifications.id, first.id));
    await act('finance', id, 'review');
    expect((await rowsOf('engineer')).filter((row) => row.data.url === `/expense/${id}`)).toHaveLength(2);
  });
});

describe('preferences', () => {
  it('answers every kind an account may receive, refuses unknown kinds and channels, and keeps the choice', async () => {
    const mine = await t.call('GET', '/api/notification/preferences', { token: people.quiet.token });
    expect(mine.status).toBe(200);
    expect(mine.body.data.is_digest).toBe(false);
    expect(mine.body.data.channels).toMatchObject({ expense: 'app', 'partner-invoice': 'app', other: 'app' });
    expect((await choose('quiet', { channels: { nonsense: 'app' }, is_digest: false })).status).toBe(422);
    expect((await choose('quiet', { channels: { expense: 'loud' }, is_digest: false })).status).toBe(422);
    const saved = await choose('quiet', { channels: { expense: 'email' }, is_digest: true });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ channels: { expense: 'email', other: 'app' }, is_digest: true });
  });

  it('stores nothing for a kind chosen "not at all", and keeps an email-only one out of the bell', async () => {
    await choose('engineer', { channels: { expense: 'none', other: 'email' }, is_digest: false });
    const id = await claim(40);
    await act('manager', id, 'approve-manager');
    expect((await rowsOf('engineer')).filter((row) => row.data.url === `/expense/${id}`)).toEqual([]);

    await inTransaction(t.app, (tx) => notify(tx, [people.engineer.id], { title: 'Office closed on Friday', message: 'The office is closed on Friday.', url: null }));
    const [stored] = (await rowsOf('engineer')).filter((row) => row.data.title === 'Office closed on Friday');
    expect(stored).toMatchObject({ is_in_app: false, kind: 'other' });
    expect((await bell('engineer')).some((n) => n.id === stored.id)).toBe(false);
    // Mailed from the queue: the job ran and the same words arrived.
    const mail = await t.smtp.waitFor(people.engineer.email, /^Office closed on Friday$/);
    expect(mail.raw).toContain('The office is closed on Friday.');
    await choose('engineer', { channels: {}, is_digest: false });
  });

  it('mails from the job queue, once, the words the bell shows', async () => {
    await choose('finance2', { channels: { other: 'both' }, is_digest: false });
    const before = (await t.app.db.select().from(jobs).where(eq(jobs.name, 'notification-mail'))).length;
    await inTransaction(t.app, (tx) => notify(tx, [people.finance2.id], { title: 'Quarter closes', message: 'Submit your claims by Friday.', url: '/expense' }));
    const mail = await t.smtp.waitFor(people.finance2.email, /^Quarter closes$/);
    expect(mail.raw).toContain('Submit your claims by Friday.');
    expect(mail.links).toContain('http://localhost:8000/expense');
    const queued = () => t.app.db.select().from(jobs).where(eq(jobs.name, 'notification-mail'));
    expect((await queued()).length).toBe(before + 1);
    // The job finishes just after its mail is handed over.
    await expect.poll(async () => (await queued()).at(-1)!.done_at).not.toBeNull();
    const [row] = (await rowsOf('finance2')).filter((r) => r.data.title === 'Quarter closes');
    expect(row.mail).toBe('sent');
    expect((await bell('finance2')).find((n) => n.id === row.id)?.data).toMatchObject({ title: 'Quarter closes' });
    // Running the queue again sends nothing more.
    await t.app.jobs.runDue();
    expect(t.smtp.messages.filter((m) => m.subject === 'Quarter closes')).toHaveLength(1);
  });

  it('holds mail for the daily digest and sends it as one mail', async () => {
    await choose('quiet', { channels: { other: 'email' }, is_digest: true });
    for (const title of ['First news', 'Second news']) {
      await inTransaction(t.app, (tx) => notify(tx, [people.quiet.id], { title, message: `${title} for you.`, url: null }));
    }
    expect((await rowsOf('quiet')).map((row) => row.mail)).toEqual(['digest', 'digest']);
    expect(t.smtp.messages.some((m) => m.to.includes(people.quiet.email))).toBe(false);
    await enqueue(t.app.db, 'notification-digest', {});
    await t.app.jobs.runDue();
    const digest = await t.smtp.waitFor(people.quiet.email, /^2 notifications since yesterday$/);
    expect(digest.raw).toContain('First news for you.');
    expect(digest.raw).toContain('Second news for you.');
    expect((await rowsOf('quiet')).map((row) => row.mail)).toEqual(['sent', 'sent']);
  });

  it('mails a decision someone waits for by default, and not once they chose the app only', async () => {
    await inTransaction(t.app, (tx) => notify(tx, [people.finance.id], { title: 'Waited for', message: 'Decided.', url: null }, { isMailed: true }));
    await t.smtp.waitFor(people.finance.email, /^Waited for$/);
    await choose('finance', { channels: { other: 'app' }, is_digest: false });
    await inTransaction(t.app, (tx) => notify(tx, [people.finance.id], { title: 'Waited for again', message: 'Decided again.', url: null }, { isMailed: true }));
    await t.app.jobs.runDue();
    expect((await rowsOf('finance')).find((row) => row.data.title === 'Waited for again')?.mail).toBeNull();
    expect(t.smtp.messages.some((m) => m.subject === 'Waited for again')).toBe(false);
  });
});

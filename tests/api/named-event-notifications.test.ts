// Issue 24 for spec §4's named events: a time sheet uploaded (TimeSheetUploadEvent) and a partner's
// pre-billing submitted or corrected (PartnerPreBillingUploadEvent). Their notifications go the one way
// every notification goes (src/server/modules/notification/notify.ts), in the words their definitions
// declare: one per recipient, each person's choice for the kind honoured (in the app, by email, both,
// neither), coalesced with an unread one about the same record, and mailed from the job queue. The live
// part is the named event on its own channel, for those who see it in the app, instead of the
// notification channel: one toast each.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { partners } from '../../src/server/db/schema/accounts';
import { clients } from '../../src/server/db/schema/master-data';
import { notifications } from '../../src/server/db/schema/notifications';
import { contractPeople, contracts } from '../../src/server/db/schema/onboarding';
import { partnerEngineers } from '../../src/server/db/schema/partner-billing';
import { jobs } from '../../src/server/db/schema/workflow';
import { NOTIFICATION_EVENT } from '../../src/server/modules/notification/notify';
import { formatMoney } from '../../src/shared/money';
import { createTestApp, type TestApp } from '../helpers/app';
import { multipart, PDF } from '../helpers/multipart';

let t: TestApp;
let clientId: number;
let devEngineerId: number;
const people: Record<string, { id: number; token: string; email: string; name: string }> = {};
let firm: { partnerId: number; token: string; name: string };

beforeAll(async () => {
  t = await createTestApp();
  [{ id: clientId }] = await t.app.db.insert(clients).values({ name: 'Contoso' }).returning();
  const make = async (key: string, name: string, values: { user_type: 'manager' | 'user'; parent_id?: number }, roles?: string[]) => {
    const email = `${key}@named.example.com`;
    const created = await t.createUser({ email, name, ...values }, roles);
    people[key] = { id: created.id, token: await created.token(), email, name };
  };
  await make('manager', 'Maria Manager', { user_type: 'manager' });
  await make('engineer', 'Eddie Engineer', { user_type: 'user', parent_id: people.manager.id });
  await make('finance', 'Fiona Finance', { user_type: 'user' }, ['finance']);
  await make('accountManager', 'Adam Account', { user_type: 'manager' });
  await make('dev', 'Dev Placed', { user_type: 'user' });
  const login = await t.createPartner({ email: 'pat@acme.example.com', name: 'Pat Partner' });
  await t.app.db.update(partners).set({ name: 'Acme Partners', account_manager_id: people.accountManager.id }).where(eq(partners.id, login.partnerId));
  firm = { partnerId: login.partnerId, token: await login.token(), name: 'Acme Partners' };
  [{ id: devEngineerId }] = await t.app.db.insert(partnerEngineers)
    .values({ partner_id: firm.partnerId, user_id: people.dev.id, rate_type: 'day', rate: 500, currency: 'EUR', valid_from: '2026-01-01' }).returning();
  const [contract] = await t.app.db.insert(contracts).values({
    po_number: 'PO-NAMED', client_id: clientId, owner_id: people.accountManager.id, start_date: '2026-01-01', end_date: '2026-12-31', value: 1000, currency: 'EUR',
  }).returning();
  await t.app.db.insert(contractPeople).values({ contract_id: contract.id, user_id: people.dev.id });
});
afterAll(async () => { await t?.close(); });

const choose = async (who: string, channels: Record<string, string>, isDigest = false) => {
  const res = await t.call('PUT', '/api/notification/preferences', { token: people[who].token, body: { channels, is_digest: isDigest } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
const rowsAbout = (who: string, url: string) => t.app.db.select().from(notifications)
  .where(and(eq(notifications.notifiable_type, 'app'), eq(notifications.notifiable_id, people[who].id)))
  .then((rows) => rows.filter((row) => row.data.url === url));
const bell = async (who: string) => (await t.call('GET', '/api/notification?type=all&per_page=100', { token: people[who].token })).body.data as { id: string }[];
const mailJobs = () => t.app.db.select().from(jobs).where(eq(jobs.name, 'notification-mail'));

/** What the broadcaster was asked to send while `run` ran: [channels, event, payload] each. */
async function published(run: () => Promise<unknown>) {
  const publish = vi.spyOn(t.app.broadcaster, 'publish');
  try {
    await run();
    // The broadcasts go after the commit; the answer may come back first.
    await new Promise((resolve) => setTimeout(resolve, 100));
    return publish.mock.calls.map(([channels, event, payload]) => ({ channels, event, payload: payload as Record<string, unknown> }));
  } finally {
    publish.mockRestore();
  }
}

let month = 0;
/** Eddie's sheet for another month each time (one sheet per client and period). */
async function upload() {
  month += 1;
  const start = `2026-${String(month).padStart(2, '0')}-01`;
  const form = multipart({ client_id: clientId, period_type: 'week', period_start: start, hours: 40 }, { name: 'week.pdf', type: 'application/pdf', content: PDF }, 'time-sheet');
  const res = await t.call('POST', '/api/time-sheet', { token: people.engineer.token, body: form.body, headers: form.headers });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.data.id as number, url: `/time-sheet?highlight=${res.body.data.id}`, start, end: res.body.data.period_end as string };
}

const uploadWords = (start: string, end: string) => ({
  title: 'A time sheet waits for your review',
  message: `Eddie Engineer uploaded their time sheet for ${start} to ${end} (40 h). Approve it, or reject it with the reason.`,
});

describe('a time sheet uploaded (TimeSheetUploadEvent)', () => {
  it("tells the uploader's manager once, in the definition's words, live on the named event only", async () => {
    let sheet!: Awaited<ReturnType<typeof upload>>;
    const sent = await published(async () => { sheet = await upload(); });
    const rows = await rowsAbout('manager', sheet.url);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ type: 'App\\Notifications\\TimeSheetUploadNotification', kind: 'time-sheet', is_in_app: true, mail: null, data: uploadWords(sheet.start, sheet.end) });
    expect(sent.filter((s) => s.event === 'App\\Events\\TimeSheetUploadEvent')).toEqual([{
      channels: [`private-time-sheet-upload-event.${people.manager.id}`],
      event: 'App\\Events\\TimeSheetUploadEvent',
      payload: { message: { ...uploadWords(sheet.start, sheet.end), url: sheet.url, id: rows[0].id }, user: { id: people.engineer.id, name: 'Eddie Engineer', parent_id: people.manager.id } },
    }]);
    // Not also on the manager's notification channel (two toasts), and nothing to the uploader.
    expect(sent.filter((s) => s.event === NOTIFICATION_EVENT)).toEqual([]);
    expect(await rowsAbout('engineer', sheet.url)).toEqual([]);
  });

  it('honours "not at all": nothing stored, nothing sent', async () => {
    await choose('manager', { 'time-sheet': 'none' });
    let sheet!: Awaited<ReturnType<typeof upload>>;
    const jobsBefore = (await mailJobs()).length;
    const sent = await published(async () => { sheet = await upload(); });
    expect(await rowsAbout('manager', sheet.url)).toEqual([]);
    expect(sent.filter((s) => s.event === 'App\\Events\\TimeSheetUploadEvent' || s.event === NOTIFICATION_EVENT)).toEqual([]);
    expect((await mailJobs()).length).toBe(jobsBefore);
    await choose('manager', {});
  });

  it('honours "by email": kept out of the bell and the live event, mailed from the job queue in the same words', async () => {
    await choose('manager', { 'time-sheet': 'email' });
    const jobsBefore = (await mailJobs()).length;
    let sheet!: Awaited<ReturnType<typeof upload>>;
    const sent = await published(async () => { sheet = await upload(); });
    const [row] = await rowsAbout('manager', sheet.url);
    expect(row).toMatchObject({ is_in_app: false, kind: 'time-sheet' });
    expect((await bell('manager')).some((n) => n.id === row.id)).toBe(false);
    expect(sent.filter((s) => s.event === 'App\\Events\\TimeSheetUploadEvent')).toEqual([]);
    // Queued with the upload, sent by the job: the words the bell would have shown.
    expect((await mailJobs()).length).toBe(jobsBefore + 1);
    const mail = await t.smtp.waitFor(people.manager.email, /^A time sheet waits for your review$/);
    expect(mail.raw).toContain(`uploaded their time sheet for ${sheet.start} to ${sheet.end}`);
    expect(mail.links).toContain(`http://localhost:8000${sheet.url}`);
    await expect.poll(async () => (await rowsAbout('manager', sheet.url))[0].mail).toBe('sent');
    await choose('manager', {});
  });

  it('honours "both" with the daily digest: in the bell and live now, mailed with the digest', async () => {
    await choose('manager', { 'time-sheet': 'both' }, true);
    let sheet!: Awaited<ReturnType<typeof upload>>;
    const sent = await published(async () => { sheet = await upload(); });
    const [row] = await rowsAbout('manager', sheet.url);
    expect(row).toMatchObject({ is_in_app: true, mail: 'digest' });
    expect(sent.filter((s) => s.event === 'App\\Events\\TimeSheetUploadEvent')).toHaveLength(1);
    await choose('manager', {});
  });

  it('keeps one notification per sheet: two sheets uploaded within minutes are two notifications', async () => {
    const [first, second] = [await upload(), await upload()];
    expect(await rowsAbout('manager', first.url)).toHaveLength(1);
    expect(await rowsAbout('manager', second.url)).toHaveLength(1);
  });
});

// ---- pre-billing --------------------------------------------------------------------------------

function statementForm(fields: Record<string, string>, lines: unknown[], withSpreadsheet: boolean) {
  const boundary = `----named${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries({ ...fields, lines: JSON.stringify(lines) })) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="pre-billing[${name}]"\r\n\r\n${value}\r\n`));
  }
  if (withSpreadsheet) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="pre-billing[spreadsheet][]"; filename="statement.csv"\r\nContent-Type: text/csv\r\n\r\n`));
    chunks.push(Buffer.from('engineer,client,days\nDev,Contoso,5\n'), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function submit(monthOf: string) {
  const form = statementForm({ month: monthOf, currency: 'EUR' }, [{ engineer_id: devEngineerId, client_id: clientId, quantity: 5 }], true);
  const res = await t.call('POST', '/api/partner/pre-billing', { token: firm.token, body: form.body, headers: form.headers });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.data.id as number, url: `/ikk-partner/pre-billing/${res.body.data.id}` };
}
async function correct(id: number, quantity: number) {
  const form = statementForm({ note: 'Corrected' }, [{ engineer_id: devEngineerId, client_id: clientId, quantity }], false);
  const res = await t.call('PATCH', `/api/partner/pre-billing/${id}`, { token: firm.token, body: form.body, headers: form.headers });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}
const reject = (id: number) => t.call('POST', `/api/pre-billing/${id}/transitions/reject`, { token: people.finance.token, body: { comment: 'Dev worked 4 days' } });

describe('a pre-billing submitted or corrected (PartnerPreBillingUploadEvent)', () => {
  it('tells finance and the account manager once each, in words written for each, live on the named event only', async () => {
    let statement!: Awaited<ReturnType<typeof submit>>;
    const sent = await published(async () => { statement = await submit('2026-02'); });
    const [toFinance] = await rowsAbout('finance', statement.url);
    const [toManager] = await rowsAbout('accountManager', statement.url);
    expect(await rowsAbout('finance', statement.url)).toHaveLength(1);
    expect(toFinance).toMatchObject({ type: 'App\\Notifications\\PartnerPreBillingUploadNotification', kind: 'pre-billing', data: {
      title: 'A statement waits for your check',
      message: `Pat Partner of Acme Partners submitted their statement for February 2026 (${formatMoney(2500, 'EUR')}). Check it against the time sheets.`,
    } });
    expect(toManager.data).toMatchObject({ title: 'Acme Partners submitted a statement', message: expect.stringMatching(/Accounting checks it next\.$/) });
    const live = sent.filter((s) => s.event === 'App\\Events\\PartnerPreBillingUploadEvent');
    // (The seeded admin checks statements too.)
    expect(live.flatMap((s) => s.channels).filter((channel) => !channel.endsWith('.1')).sort()).toEqual([
      `private-partner-pre-billing-upload-event.${people.finance.id}`, `private-partner-pre-billing-upload-event.${people.accountManager.id}`,
    ].sort());
    const toFinanceLive = live.find((s) => s.channels.includes(`private-partner-pre-billing-upload-event.${people.finance.id}`))!;
    expect(toFinanceLive.payload).toEqual({ message: { ...toFinance.data }, recipients: expect.arrayContaining([{ id: people.finance.id }]) });
    expect(toFinanceLive.payload.recipients).not.toContainEqual({ id: people.accountManager.id });
    expect(sent.filter((s) => s.event === NOTIFICATION_EVENT)).toEqual([]);
  });

  it('coalesces a correction into the unread call to check the statement, and adds one once that was read', async () => {
    const statement = await submit('2026-03');
    const [first] = await rowsAbout('finance', statement.url);
    expect((await reject(statement.id)).status).toBe(200);
    await correct(statement.id, 4);
    const after = await rowsAbout('finance', statement.url);
    expect(after).toHaveLength(1);
    expect(after[0].id).toBe(first.id);
    expect(after[0].data.title).toBe('A corrected statement waits for your check');
    expect(after[0].data.message).toContain('corrected their statement for March 2026 and submitted it again as version 2');
    // Read, then corrected again after another rejection: the read one stays as it was, a new one tells of it.
    expect((await t.call('PUT', `/api/notification/${first.id}`, { token: people.finance.token, body: {} })).status).toBe(200);
    expect((await reject(statement.id)).status).toBe(200);
    await correct(statement.id, 3);
    const again = await rowsAbout('finance', statement.url);
    expect(again).toHaveLength(2);
    expect(again.find((row) => row.id === first.id)?.data.message).toContain('as version 2');
    expect(again.find((row) => row.id !== first.id)?.data.message).toContain('as version 3');
  });

  it('honours each recipient\'s choice: email only for finance (mailed from the queue), the app for the account manager', async () => {
    await choose('finance', { 'pre-billing': 'email' });
    const jobsBefore = (await mailJobs()).length;
    let statement!: Awaited<ReturnType<typeof submit>>;
    const sent = await published(async () => { statement = await submit('2026-04'); });
    const [toFinance] = await rowsAbout('finance', statement.url);
    expect(toFinance.is_in_app).toBe(false);
    expect((await bell('finance')).some((n) => n.id === toFinance.id)).toBe(false);
    const live = sent.filter((s) => s.event === 'App\\Events\\PartnerPreBillingUploadEvent').flatMap((s) => s.channels).filter((channel) => !channel.endsWith('.1'));
    expect(live).toEqual([`private-partner-pre-billing-upload-event.${people.accountManager.id}`]);
    expect((await mailJobs()).length).toBe(jobsBefore + 1);
    const mail = await t.smtp.waitFor(people.finance.email, /^A statement waits for your check$/);
    expect(mail.raw).toContain('Check it against the time sheets.');
    await expect.poll(async () => (await rowsAbout('finance', statement.url))[0].mail).toBe('sent');
    await choose('finance', { 'pre-billing': 'none' });
    const quiet = await submit('2026-05');
    expect(await rowsAbout('finance', quiet.url)).toEqual([]);
    expect(await rowsAbout('accountManager', quiet.url)).toHaveLength(1);
    await choose('finance', {});
  });
});

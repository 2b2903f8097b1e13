// The firm's time zone (issue 21): a setting (APP_TIMEZONE until an admin saves one) that every
// server "today" uses. The date rules are run with the firm in UTC-8 (Los Angeles in December) and
// UTC+13 (Auckland in December) just before and just after the firm's midnight, where the UTC day
// differs from the firm's.
// On the embedded database too: dates and timestamps as the embedded driver parses them.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { clients } from '../../src/server/db/schema/master-data';
import { bgvCheckComponents, bgvChecks } from '../../src/server/db/schema/operations';
import { contracts, onboardings, onboardingTasks } from '../../src/server/db/schema/onboarding';
import { sendDueReminders } from '../../src/server/jobs/reminders';
import { refreshBgvResult } from '../../src/server/modules/bgv-check/service';
import { expireContracts } from '../../src/server/modules/contract/service';
import { registeredResources } from '../../src/server/resources/register';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
let admin: string;
let clientId: number;
beforeAll(async () => {
  t = await createTestApp({ timeZone: 'Asia/Kolkata' });
  admin = await t.login(ADMIN.email, ADMIN.password);
  [{ id: clientId }] = await t.app.db.insert(clients).values({ name: 'Contoso' }).returning();
});
afterAll(async () => { await t?.close(); });
afterEach(() => { vi.useRealTimers(); });

async function setFirmTimeZone(zone: string) {
  const saved = await t.call('PUT', '/api/setting/time-zone', { token: admin, body: { time_zone: zone } });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
}
/** The clock at `iso` (Date only: the database and the sockets keep real time). */
function at(iso: string) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(iso));
}

let serial = 0;
async function contractEnding(endDate: string) {
  const [row] = await t.app.db.insert(contracts).values({
    po_number: `PO-TZ-${(serial += 1)}`, client_id: clientId, owner_id: 1, start_date: '2026-01-01', end_date: endDate, value: 1000, currency: 'INR', status: 'Active',
  }).returning();
  return row;
}
const statusOf = async (id: number) => (await t.app.db.select({ status: contracts.status }).from(contracts).where(eq(contracts.id, id)))[0].status;

describe('the time zone setting', () => {
  it('starts as APP_TIMEZONE, takes an admin’s IANA zone, and refuses anything else', async () => {
    const initial = await t.call('GET', '/api/setting/time-zone', { token: admin });
    expect(initial.body.data).toMatchObject({ time_zone: 'Asia/Kolkata', default_time_zone: 'Asia/Kolkata' });
    const bad = await t.call('PUT', '/api/setting/time-zone', { token: admin, body: { time_zone: 'Mars/Olympus_Mons' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.time_zone).toEqual(['The time zone must be a name such as Europe/London or America/New_York.']);
    const engineer = await t.createUser({ email: 'tz-engineer@example.com', user_type: 'user' });
    expect((await t.call('PUT', '/api/setting/time-zone', { token: await engineer.token(), body: { time_zone: 'UTC' } })).status).toBe(403);

    at('2026-12-05T07:30:00Z');
    await setFirmTimeZone('America/Los_Angeles');
    const saved = await t.call('GET', '/api/setting/time-zone', { token: admin });
    expect(saved.body.data).toEqual({ time_zone: 'America/Los_Angeles', default_time_zone: 'Asia/Kolkata', today: '2026-12-04' });
  });
});

describe('the firm in UTC-8 (Los Angeles), around its midnight', () => {
  beforeAll(async () => { await setFirmTimeZone('America/Los_Angeles'); });

  it('expires a contract on its end date in the firm’s zone, not UTC’s', async () => {
    const contract = await contractEnding('2026-12-05');
    at('2026-12-05T07:30:00Z'); // 23:30 on the 4th in Los Angeles; already the 5th in UTC
    await expireContracts(t.app);
    expect(await statusOf(contract.id)).toBe('Active');
    const panel = (await t.call('GET', '/api/dashboard', { token: admin })).body.data.lists.find((list: { key: string }) => list.key === 'expiring-contracts');
    expect(panel.items.find((item: { id: number }) => item.id === contract.id)?.badge).toEqual({ label: 'In 1 day', tone: 'yellow' });
    at('2026-12-05T08:30:00Z'); // 00:30 on the 5th
    await expireContracts(t.app);
    expect(await statusOf(contract.id)).toBe('Expired');
  });

  it('counts a task overdue, and reminds of an end date, by the firm’s day', async () => {
    const [onboarding] = await t.app.db.insert(onboardings).values({ person_name: 'Late Task', manager_id: 1, start_date: '2026-11-01' }).returning();
    await t.app.db.insert(onboardingTasks).values({ onboarding_id: onboarding.id, phase: 'onboarding', title: 'Laptop', assignee_id: 1, due_date: '2026-12-04' });
    await contractEnding('2026-12-12');
    const contractResource = registeredResources(t.app).filter((r) => r.definition.name === 'contract');
    const overdue = async () => (await t.call('GET', `/api/onboarding?has_overdue=true&search=Late%20Task`, { token: admin })).body.meta.total;
    const weekReminder = async () => (await sendDueReminders(t.app, contractResource)).find((run) => run.reminder === 'end-7')!.sent;

    at('2026-12-05T07:30:00Z'); // the 4th in Los Angeles: due today is not overdue; the end is 8 days away
    expect(await overdue()).toBe(0);
    expect(await weekReminder()).toBe(0);
    at('2026-12-05T08:30:00Z'); // the 5th
    expect(await overdue()).toBe(1);
    expect(await weekReminder()).toBeGreaterThanOrEqual(1);
  });

  it('opens the team calendar on the firm’s month', async () => {
    at('2026-12-01T07:30:00Z'); // still 30 November in Los Angeles
    const calendar = await t.call('GET', '/api/leave-application/calendar', { token: admin });
    expect(calendar.body.data.month).toBe('2026-11');
  });
});

describe('the firm in UTC+13 (Auckland), around its midnight', () => {
  beforeAll(async () => { await setFirmTimeZone('Pacific/Auckland'); });

  it('expires a contract as the firm’s day begins, hours before UTC’s', async () => {
    const contract = await contractEnding('2026-12-05');
    at('2026-12-04T10:30:00Z'); // 23:30 on the 4th in Auckland
    await expireContracts(t.app);
    expect(await statusOf(contract.id)).toBe('Active');
    at('2026-12-04T11:30:00Z'); // 00:30 on the 5th in Auckland, still the 4th in UTC
    await expireContracts(t.app);
    expect(await statusOf(contract.id)).toBe('Expired');
  });

  it('records a task done on the firm’s day and opens the calendar on the firm’s month', async () => {
    const [onboarding] = await t.app.db.insert(onboardings).values({ person_name: 'Done Task', manager_id: 1, start_date: '2026-11-01' }).returning();
    const [task] = await t.app.db.insert(onboardingTasks).values({ onboarding_id: onboarding.id, phase: 'onboarding', title: 'Badge', assignee_id: 1, due_date: '2026-12-10' }).returning();
    at('2026-11-30T11:30:00Z'); // 00:30 on 1 December in Auckland
    const done = await t.call('POST', `/api/onboarding-task/${task.id}/transitions/complete`, { token: admin, body: {} });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data.completion_date).toBe('2026-12-01');
    const calendar = await t.call('GET', '/api/leave-application/calendar', { token: admin });
    expect(calendar.body.data.month).toBe('2026-12');
  });

  it('takes a pre-billing for the month the firm has begun, and refuses it while the firm is still in the month before', async () => {
    const partner = await t.createPartner({ email: 'tz-partner@example.com' });
    const token = await partner.token();
    const boundary = '----time-zone-test';
    const body = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="pre-billing[month]"\r\n\r\n2026-12\r\n`
      + `--${boundary}\r\nContent-Disposition: form-data; name="pre-billing[currency]"\r\n\r\nEUR\r\n`
      + `--${boundary}\r\nContent-Disposition: form-data; name="pre-billing[lines]"\r\n\r\n[]\r\n--${boundary}--\r\n`);
    // No spreadsheet and no lines: always refused, and the month's own error tells the rule's answer.
    const monthErrors = async () => {
      const res = await t.call('POST', '/api/partner/pre-billing', { token, body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      return res.body.errors.month ?? null;
    };
    at('2026-11-30T10:30:00Z'); // 23:30 on 30 November in Auckland
    expect(await monthErrors()).toEqual(['The month may not be in the future: bill a month once it has been worked.']);
    at('2026-11-30T11:30:00Z'); // 00:30 on 1 December in Auckland, still November in UTC
    expect(await monthErrors()).toBeNull();
  });

  it('dates a background check’s completion by the firm’s day', async () => {
    const [check] = await t.app.db.insert(bgvChecks).values({ user_id: 1, vendor: 'First Advantage', initiated_on: '2026-11-20' }).returning();
    await t.app.db.insert(bgvCheckComponents).values({ bgv_check_id: check.id, component: 'education', status: 'clear' });
    at('2026-11-30T11:30:00Z'); // 00:30 on 1 December in Auckland, 30 November in UTC
    expect(await refreshBgvResult(t.app.db, check.id)).toBe('clear');
    const [row] = await t.app.db.select({ completed_on: bgvChecks.completed_on }).from(bgvChecks).where(eq(bgvChecks.id, check.id));
    expect(row.completed_on).toBe('2026-12-01');
  });
});

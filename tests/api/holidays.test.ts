// Public holidays by location and the working week (issue 22): a country's public holidays loaded per
// year from the real offline data set (date-holidays), reloads that keep what the firm decided, the
// firm's own days, the yearly job, who may do it, and the working days a leave then counts.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holidayCountries, holidays, leaveTypes } from '../../src/server/db/schema/hr';
import { cities, countries } from '../../src/server/db/schema/master-data';
import { users } from '../../src/server/db/schema/accounts';
import { jobs } from '../../src/server/db/schema/workflow';
import { createJobQueue, type JobHandler } from '../../src/server/jobs/queue';
import { jobHandlers, recurringJobs } from '../../src/server/jobs/registry';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
let admin: string;
let annual: number;
const people: Record<string, { id: number; token: string }> = {};

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  const [type] = await t.app.db.select().from(leaveTypes).where(eq(leaveTypes.name, 'Annual'));
  annual = type.id;
  const make = async (key: string, user_type: 'manager' | 'user') => {
    const created = await t.createUser({ email: `${key}@example.com`, name: key, user_type });
    people[key] = { id: created.id, token: await created.token() };
  };
  await make('manager', 'manager');
  await make('engineer', 'user');
});
afterAll(async () => { await t?.close(); });

const load = (body: Record<string, unknown>, token = admin) => t.call('POST', '/api/holiday/load', { token, body });
const year = async (code: string, y: number, token = admin) => {
  const res = await t.call('GET', `/api/holiday/year?country_code=${code}&year=${y}`, { token });
  expect(res.status).toBe(200);
  return res.body.data as { country: { id: number } | null; holidays: { id: number; date: string; name: string; source: string; is_removed: boolean }[] };
};
const dayOf = async (code: string, date: string) => (await year(code, Number(date.slice(0, 4)))).holidays.find((h) => h.date === date);
const countryId = async (code: string) => (await t.app.db.select().from(countries).where(eq(countries.code, code)))[0]?.id;

describe('loading public holidays', () => {
  it('loads the United Kingdom\'s 2026 public holidays from the data set, making it one of the firm\'s countries', async () => {
    const res = await load({ country_code: 'gb', year: 2026 });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({ year: 2026, loaded: 8, added: 8, kept_removed: 0, country: { code: 'GB', name: 'United Kingdom' } });
    expect(res.body.message).toBe('8 public holidays loaded for 2026 (United Kingdom).');

    const { holidays: days } = await year('GB', 2026);
    expect(days.map((d) => d.date)).toEqual([
      '2026-01-01', '2026-04-03', '2026-04-06', '2026-05-04', '2026-05-25', '2026-12-25', '2026-12-26', '2026-12-28',
    ]);
    expect(days.find((d) => d.date === '2026-12-25')).toMatchObject({ name: 'Christmas Day', source: 'public', is_removed: false });
    const gb = (await countryId('GB'))!;
    expect(await t.app.db.select().from(holidayCountries).where(eq(holidayCountries.country_id, gb))).toHaveLength(1);
    // The setup checklist's "countries and holidays" step: a holiday dated this year exists.
    expect((await year('GB', 2026)).holidays.length).toBeGreaterThan(0);
  });

  it('loads again idempotently: no second row, nothing new', async () => {
    const again = await load({ country_code: 'GB', year: 2026 });
    expect(again.body.data[0]).toMatchObject({ loaded: 8, added: 0, kept_removed: 0 });
    const gb = (await countryId('GB'))!;
    const rows = await t.app.db.select().from(holidays).where(eq(holidays.country_id, gb));
    expect(rows.filter((row) => row.date.startsWith('2026'))).toHaveLength(8);
  });

  it('without a year loads this year and next', async () => {
    const thisYear = new Date().getUTCFullYear();
    const res = await load({ country_code: 'IE' });
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: { year: number }) => r.year)).toEqual([thisYear, thisYear + 1]);
    expect((await year('IE', thisYear + 1)).holidays.length).toBeGreaterThan(5);
  });

  it('keeps a removed public holiday removed when the year is loaded again, and restores it', async () => {
    const boxing = (await dayOf('GB', '2026-12-26'))!;
    const removed = await t.call('POST', `/api/holiday/${boxing.id}/remove`, { token: admin });
    expect(removed.status).toBe(200);
    expect(removed.body.message).toBe('Boxing Day on 2026-12-26 is removed: it is a working day.');

    const reload = await load({ country_code: 'GB', year: 2026 });
    expect(reload.body.data[0]).toMatchObject({ loaded: 8, added: 0, kept_removed: 1 });
    expect(reload.body.message).toBe('8 public holidays loaded for 2026 (United Kingdom). 1 day the firm works stays removed.');
    expect(await dayOf('GB', '2026-12-26')).toMatchObject({ id: boxing.id, is_removed: true });

    const restored = await t.call('POST', `/api/holiday/${boxing.id}/restore`, { token: admin });
    expect(restored.status).toBe(200);
    expect(await dayOf('GB', '2026-12-26')).toMatchObject({ is_removed: false });
    // A public holiday is removed, never deleted (a reload would bring it back).
    expect((await t.call('DELETE', `/api/holiday/${boxing.id}`, { token: admin })).status).toBe(409);
  });

  it('keeps a firm-added day as the firm\'s, and a reload leaves it alone', async () => {
    const gb = (await countryId('GB'))!;
    const added = await t.call('POST', '/api/holiday', { token: admin, body: { date: '2026-12-24', name: 'Office closed', country_id: gb, source: 'public' } });
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({ source: 'firm', is_removed: false });
    await load({ country_code: 'GB', year: 2026 });
    expect(await dayOf('GB', '2026-12-24')).toMatchObject({ name: 'Office closed', source: 'firm' });
    // A firm's day on a date the data set later brings stays the firm's, under its own name.
    const early = await t.call('POST', '/api/holiday', { token: admin, body: { date: '2028-12-25', name: 'Winter closing', country_id: gb } });
    expect(early.status).toBe(201);
    const later = await load({ country_code: 'GB', year: 2028 });
    expect(later.body.data[0]).toMatchObject({ added: later.body.data[0].loaded - 1 });
    expect(await dayOf('GB', '2028-12-25')).toMatchObject({ id: early.body.data.id, name: 'Winter closing', source: 'firm' });
    // Adding a day on a public holiday says so on the date field.
    const clash = await t.call('POST', '/api/holiday', { token: admin, body: { date: '2026-12-25', name: 'Party', country_id: gb } });
    expect(clash.status).toBe(422);
    expect(clash.body.errors.date).toEqual(['Christmas Day is already a holiday on 2026-12-25 in this country.']);
    // The firm's own day is deleted outright; a public one keeps its date.
    const christmas = (await dayOf('GB', '2026-12-25'))!;
    const moved = await t.call('PUT', `/api/holiday/${christmas.id}`, { token: admin, body: { date: '2026-12-23', name: 'Christmas Day', country_id: gb } });
    expect(moved.status).toBe(422);
    expect((await t.call('DELETE', `/api/holiday/${added.body.data.id}`, { token: admin })).status).toBe(200);
  });

  it('loads a region\'s holidays where the data set has regions, and refuses unknown countries and regions', async () => {
    const bavaria = await load({ country_code: 'DE', year: 2026, region: 'by' });
    expect(bavaria.status).toBe(200);
    expect(bavaria.body.message).toBe('12 public holidays loaded for 2026 (Germany, Bayern).');
    expect(await dayOf('DE', '2026-01-06')).toMatchObject({ source: 'public' });

    const unknown = await load({ country_code: 'ZZ', year: 2026 });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors.country_code).toBeDefined();
    const badRegion = await load({ country_code: 'DE', year: 2026, region: 'XX' });
    expect(badRegion.status).toBe(422);
    expect(badRegion.body.errors.region).toEqual(['The selected region is not one the data set has for this country.']);
    const badYear = await load({ country_code: 'DE', year: 1800 });
    expect(badYear.status).toBe(422);
  });

  it('offers the data set\'s countries with their regions, the firm\'s marked', async () => {
    const res = await t.call('GET', '/api/holiday/countries', { token: admin });
    expect(res.status).toBe(200);
    const options = res.body.data as { code: string; is_firm: boolean; region: string | null; regions: { code: string }[] }[];
    expect(options.length).toBeGreaterThan(190);
    expect(options.find((c) => c.code === 'GB')).toMatchObject({ is_firm: true, region: null });
    expect(options.find((c) => c.code === 'DE')).toMatchObject({ is_firm: true, region: 'BY' });
    expect(options.find((c) => c.code === 'FR')).toMatchObject({ is_firm: false });
    expect(options.find((c) => c.code === 'US')!.regions.length).toBeGreaterThan(50);
  });
});

describe('who may', () => {
  it('lets only admins load, remove and restore; managers read; engineers nothing', async () => {
    const christmas = (await dayOf('GB', '2026-12-25'))!;
    for (const who of ['manager', 'engineer']) {
      const { token } = people[who];
      expect((await load({ country_code: 'GB', year: 2026 }, token)).status).toBe(403);
      expect((await t.call('POST', `/api/holiday/${christmas.id}/remove`, { token })).status).toBe(403);
      expect((await t.call('POST', `/api/holiday/${christmas.id}/restore`, { token })).status).toBe(403);
      expect((await t.call('PUT', '/api/setting/working-week', { token, body: { working_week: ['monday'] } })).status).toBe(403);
    }
    expect((await t.call('GET', '/api/holiday/year?country_code=GB&year=2026', { token: people.manager.token })).status).toBe(200);
    expect((await t.call('GET', '/api/holiday/year?country_code=GB&year=2026', { token: people.engineer.token })).status).toBe(403);
    expect((await t.call('GET', '/api/holiday/countries', { token: people.engineer.token })).status).toBe(403);
    expect((await t.call('POST', '/api/holiday/load', { body: { country_code: 'GB', year: 2026 } })).status).toBe(401);
    expect(await dayOf('GB', '2026-12-25')).toMatchObject({ is_removed: false });
  });
});

describe('the yearly job', () => {
  it('loads next year\'s public holidays for the firm\'s countries once, from 1 December, leaving removed days removed', async () => {
    // 2027 for the United Kingdom was loaded by hand and Christmas removed: the job must not bring it back.
    await load({ country_code: 'GB', year: 2027 });
    const christmas2027 = (await dayOf('GB', '2027-12-25'))!;
    await t.call('POST', `/api/holiday/${christmas2027.id}/remove`, { token: admin });
    expect(await dayOf('DE', '2027-01-06')).toBeUndefined();

    let runs = 0;
    const handler: JobHandler = (app, payload, job) => { runs += 1; return jobHandlers['holidays-next-year'](app, payload, job); };
    const yearly = recurringJobs.filter((job) => job.name === 'holidays-next-year');
    expect(yearly).toHaveLength(1);
    // Two nodes on one database.
    const nodes = [0, 1].map(() => createJobQueue(t.app, { handlers: { 'holidays-next-year': handler }, recurring: yearly }));
    const enqueued = () => t.app.db.select().from(jobs).where(eq(jobs.name, 'holidays-next-year'));

    await Promise.all(nodes.map((node) => node.schedule(new Date('2026-11-30T12:00:00Z'))));
    expect(await enqueued()).toHaveLength(0);
    await Promise.all(nodes.flatMap((node) => [node.schedule(new Date('2026-12-02T12:00:00Z')), node.schedule(new Date('2026-12-02T12:00:00Z'))]));
    await Promise.all(nodes.map((node) => node.schedule(new Date('2026-12-20T12:00:00Z'))));
    const rows = await enqueued();
    expect(rows.map((row) => row.unique_key)).toEqual(['holidays-next-year:2026']);
    // Due now (its run_at passed); both nodes try, one runs it.
    await t.app.db.update(jobs).set({ run_at: new Date(Date.now() - 1000) }).where(eq(jobs.id, rows[0].id));
    await Promise.all(nodes.flatMap((node) => [node.runDue(), node.runDue()]));
    expect(runs).toBe(1);
    expect((await enqueued())[0].done_at).toBeInstanceOf(Date);

    // Germany (Bavaria, its region kept) and Ireland got 2027; the United Kingdom's removed Christmas stays removed.
    expect(await dayOf('DE', '2027-01-06')).toMatchObject({ source: 'public', is_removed: false });
    expect(await dayOf('GB', '2027-12-25')).toMatchObject({ id: christmas2027.id, is_removed: true });
    expect((await year('GB', 2027)).holidays.filter((h) => !h.is_removed)).toHaveLength(8);

    // The next December is another year's run.
    await nodes[0].schedule(new Date('2027-12-01T12:00:00Z'));
    expect((await enqueued()).map((row) => row.unique_key).sort()).toEqual(['holidays-next-year:2026', 'holidays-next-year:2027']);
  });
});

describe('a country that is no longer the firm\'s', () => {
  it('stops loading each year but keeps its holidays; only admins may', async () => {
    const ie = (await countryId('IE'))!;
    expect((await t.call('DELETE', `/api/holiday/countries/${ie}`, { token: people.manager.token })).status).toBe(403);
    const res = await t.call('DELETE', `/api/holiday/countries/${ie}`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe("Ireland is no longer one of the firm's countries: its holidays stay, and next year's will not load by themselves.");
    expect(await t.app.db.select().from(holidayCountries).where(eq(holidayCountries.country_id, ie))).toHaveLength(0);
    expect((await year('IE', new Date().getUTCFullYear())).holidays.length).toBeGreaterThan(5);
    expect((await t.call('DELETE', `/api/holiday/countries/${ie}`, { token: admin })).status).toBe(404);
    const options = (await t.call('GET', '/api/holiday/countries', { token: admin })).body.data as { code: string; is_firm: boolean }[];
    expect(options.find((c) => c.code === 'IE')).toMatchObject({ is_firm: false });
  });
});

describe('working days', () => {
  const apply = (token: string, body: Record<string, unknown>) =>
    t.call('POST', '/api/leave-application', { token, body: { leave_type_id: annual, ...body } });
  const setWeek = (working_week: unknown) => t.call('PUT', '/api/setting/working-week', { token: admin, body: { working_week } });

  it('does not count the public holidays of the person\'s location: 2026-12-24 to 2026-12-29 in the UK is 2 days', async () => {
    const gb = (await countryId('GB'))!;
    const londoner = await t.createUser({ email: 'londoner@example.com', name: 'Londoner', user_type: 'user', country_id: gb });
    const token = await londoner.token();
    // Thu 24 and Tue 29 count; Christmas (Fri), the weekend and Boxing Day's substitute (Mon 28) do not.
    const balance = await t.call('GET', '/api/leave-application/balance?from_date=2026-12-24&to_date=2026-12-29', { token });
    expect(balance.body.data.request).toEqual({ days: 2, error: null });
    const res = await apply(token, { from_date: '2026-12-24', to_date: '2026-12-29' });
    expect(res.status).toBe(201);
    expect(res.body.data.days).toBe(2);
    // Someone with no country of holidays counts all four weekdays.
    const elsewhere = await t.call('GET', '/api/leave-application/balance?from_date=2026-12-24&to_date=2026-12-29', { token: people.engineer.token });
    expect(elsewhere.body.data.request.days).toBe(4);
    // The calendar names the day the office is closed.
    const calendar = await t.call('GET', '/api/leave-application/calendar?month=2026-12', { token });
    const christmas = calendar.body.data.days.find((d: { date: string }) => d.date === '2026-12-25');
    expect(christmas).toMatchObject({ holiday: 'Christmas Day', is_working_weekday: true });
    // A removed public holiday is a working day again.
    const boxing = (await dayOf('GB', '2026-12-28'))!;
    await t.call('POST', `/api/holiday/${boxing.id}/remove`, { token: admin });
    const after = await t.call('GET', '/api/leave-application/balance?from_date=2026-12-24&to_date=2026-12-29', { token });
    expect(after.body.data.request.days).toBe(3);
    await t.call('POST', `/api/holiday/${boxing.id}/restore`, { token: admin });
  });

  it('follows the work location before the person\'s own country: living in Ireland, working in London', async () => {
    const [gb, ie] = [(await countryId('GB'))!, (await countryId('IE'))!];
    const [london] = await t.app.db.insert(cities).values({ name: 'London', country_id: gb }).returning();
    const commuter = await t.createUser({ email: 'commuter@example.com', name: 'Commuter', user_type: 'user', country_id: ie });
    const token = await commuter.token();
    const days = async () => (await t.call('GET', '/api/leave-application/balance?from_date=2026-12-24&to_date=2026-12-29', { token })).body.data.request.days;
    // Ireland: Christmas (Fri) and St Stephen's Day's substitute (Mon 28) are off, so 24 and 29 count.
    const inIreland = await days();
    await t.app.db.update(users).set({ work_location_id: london.id }).where(eq(users.id, commuter.id));
    expect(await days()).toBe(2);
    // Take away London's Boxing Day substitute: only the work location's holidays count, not Ireland's.
    const boxing = (await dayOf('GB', '2026-12-28'))!;
    await t.call('POST', `/api/holiday/${boxing.id}/remove`, { token: admin });
    expect(await days()).toBe(3);
    await t.call('POST', `/api/holiday/${boxing.id}/restore`, { token: admin });
    expect(inIreland).toBeLessThan(4);
  });

  it('keeps at least one working day in the working week, Monday to Friday until saved', async () => {
    const initial = await t.call('GET', '/api/setting/working-week', { token: admin });
    expect(initial.body.data).toEqual({ working_week: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] });
    const none = await setWeek([]);
    expect(none.status).toBe(422);
    expect(none.body.errors.working_week).toEqual(['Choose at least one working day.']);
    const bad = await setWeek(['funday']);
    expect(bad.status).toBe(422);
    expect((await setWeek('monday')).status).toBe(422);
    // Saved in week order, without repeats.
    const saved = await setWeek(['thursday', 'monday', 'tuesday', 'wednesday', 'monday']);
    expect(saved.status).toBe(200);
    expect(saved.body.data.working_week).toEqual(['monday', 'tuesday', 'wednesday', 'thursday']);
  });

  it('does not count a weekday outside a custom working week', async () => {
    // Monday to Thursday (saved above): Mon 2030-03-04 to Sun 2030-03-10 is 4 days, not 5.
    const week = await t.call('GET', '/api/leave-application/balance?from_date=2030-03-04&to_date=2030-03-10', { token: people.engineer.token });
    expect(week.body.data.request).toEqual({ days: 4, error: null });
    const friday = await apply(people.engineer.token, { from_date: '2030-03-08', to_date: '2030-03-08' });
    expect(friday.status).toBe(422);
    expect(friday.body.errors.from_date).toEqual(['The selected dates contain no working day (days outside the working week and public holidays do not count).']);
    const calendar = await t.call('GET', '/api/leave-application/calendar?month=2030-03', { token: people.engineer.token });
    const day = (date: string) => calendar.body.data.days.find((d: { date: string }) => d.date === date);
    expect(day('2030-03-08')).toMatchObject({ is_working_weekday: false });
    expect(day('2030-03-07')).toMatchObject({ is_working_weekday: true });

    // A Sunday-to-Thursday week counts Sunday.
    await setWeek(['sunday', 'monday', 'tuesday', 'wednesday', 'thursday']);
    const sunday = await t.call('GET', '/api/leave-application/balance?from_date=2030-03-08&to_date=2030-03-10', { token: people.engineer.token });
    expect(sunday.body.data.request).toEqual({ days: 1, error: null });
    await setWeek(['monday', 'tuesday', 'wednesday', 'thursday', 'friday']);
    const back = await t.call('GET', '/api/leave-application/balance?from_date=2030-03-08&to_date=2030-03-10', { token: people.engineer.token });
    expect(back.body.data.request.days).toBe(1);
    expect((await t.app.db.select().from(holidays).where(and(eq(holidays.is_removed, true), eq(holidays.date, '2026-12-28'))))).toHaveLength(0);
  });
});

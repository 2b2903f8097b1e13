// Pre-billing (issue 11): a partner files its monthly statement in the portal (lines priced at the
// agreed rates, a spreadsheet attached), every bad statement is refused with a 422 and nothing
// stored, finance decides it (review -> approve; reject -> the partner corrects and resubmits as a
// new version), the upload event reaches finance and the account manager, and the detail's
// comparison with the approved time sheets.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import Echo from 'laravel-echo';
import Pusher from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { partners, permissions, roleHasPermissions, roles } from '../../src/server/db/schema/accounts';
import { clients } from '../../src/server/db/schema/master-data';
import { contractPeople, contracts } from '../../src/server/db/schema/onboarding';
import { notifications } from '../../src/server/db/schema/notifications';
import { partnerEngineers, preBillingLines, preBillings, preBillingVersions } from '../../src/server/db/schema/partner-billing';
import { timeSheets } from '../../src/server/db/schema/time-sheets';
import { attachments } from '../../src/server/db/schema/workflow';
import { formatMoney, HOURS_PER_DAY } from '../../src/shared/resources/pre-billing';
import { createTestApp, type TestApp } from '../helpers/app';
import { PDF } from '../helpers/multipart';
import { once } from '../realtime/helpers';

let t: TestApp;
const people: Record<string, { id: number; token: string }> = {};
const firms: Record<string, { partnerId: number; loginId: number; token: string }> = {};
/** partner_engineers ids: day-rated Dev (EUR), hour-rated Hana (EUR), Uma in USD, and firm B's Bo. */
const engineer: Record<string, number> = {};
const engineerUser: Record<string, number> = {};
let contoso: number;
let fabrikam: number;
/** Firm B's engineer Bo is placed with Northwind; nobody with Tailspin. */
let northwind: number;

const XLSX = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from('xl/workbook.xml fake zip body')]);
const sheet = { name: 'march.xlsx', type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', content: XLSX };

interface Upload { name: string; type: string; content: Buffer | string }
type Line = { engineer_id: unknown; client_id: unknown; quantity: unknown };

/** The portal's multipart body: `pre-billing[month]`, the lines as one JSON part, the spreadsheet. */
function statementForm(fields: Record<string, string>, lines: Line[] | null, files: Upload[]) {
  const boundary = `----test${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  const all = { ...fields, ...(lines ? { lines: JSON.stringify(lines) } : {}) };
  for (const [name, value] of Object.entries(all)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="pre-billing[${name}]"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="pre-billing[spreadsheet][]"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`));
    chunks.push(Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const defaultLines = (): Line[] => [
  { engineer_id: engineer.dev, client_id: contoso, quantity: 20 },
  { engineer_id: engineer.hana, client_id: fabrikam, quantity: 100.5 },
];

async function submit(firm: string, fields: Record<string, string> = {}, lines: Line[] | null = defaultLines(), files: Upload[] = [sheet]) {
  const form = statementForm({ month: '2026-03', currency: 'EUR', note: 'March', ...fields }, lines, files);
  return t.call('POST', '/api/partner/pre-billing', { token: firms[firm].token, body: form.body, headers: form.headers });
}

async function correct(firm: string, id: number, fields: Record<string, string>, lines: Line[] | null, files: Upload[] = []) {
  const form = statementForm(fields, lines, files);
  return t.call('PATCH', `/api/partner/pre-billing/${id}`, { token: firms[firm].token, body: form.body, headers: form.headers });
}

const act = (who: string, id: number, transition: string, comment?: string) =>
  t.call('POST', `/api/pre-billing/${id}/transitions/${transition}`, { token: people[who].token, body: comment === undefined ? {} : { comment } });

const storedFiles = () => {
  try { return readdirSync(join(t.app.config.dataDir, 'files', 'attachments')).length; } catch { return 0; }
};
const counts = async () => ({
  statements: (await t.app.db.select().from(preBillings)).length,
  lines: (await t.app.db.select().from(preBillingLines)).length,
  attachments: (await t.app.db.select().from(attachments)).length,
  files: storedFiles(),
});
const noticesOf = async (type: 'app' | 'partner', id: number) =>
  t.app.db.select().from(notifications).where(and(eq(notifications.notifiable_type, type), eq(notifications.notifiable_id, id)));

beforeAll(async () => {
  t = await createTestApp();
  [{ id: contoso }, { id: fabrikam }] = await t.app.db.insert(clients).values([{ name: 'Contoso' }, { name: 'Fabrikam' }]).returning();
  const make = async (key: string, values: { user_type: 'admin' | 'manager' | 'user' }, roles?: string[]) => {
    const created = await t.createUser({ email: `${key}@example.com`, name: key, ...values }, roles);
    people[key] = { id: created.id, token: await created.token() };
  };
  await make('finance', { user_type: 'user' }, ['finance']);
  await make('accountManager', { user_type: 'manager' });
  await make('plainUser', { user_type: 'user' });
  await make('Dev', { user_type: 'user' });
  await make('Hana', { user_type: 'user' });
  await make('Uma', { user_type: 'user' });
  await make('Bo', { user_type: 'user' });
  for (const [key, email] of [['A', 'firm-a@example.com'], ['B', 'firm-b@example.com']] as const) {
    const login = await t.createPartner({ email, name: `Firm ${key}` });
    firms[key] = { partnerId: login.partnerId, loginId: login.id, token: await login.token() };
  }
  await t.app.db.update(partners).set({ account_manager_id: people.accountManager.id }).where(eq(partners.id, firms.A.partnerId));
  const agree = async (key: string, partnerId: number, values: { rate_type: 'day' | 'hour'; rate: number; currency: string; valid_from: string; valid_to?: string }) => {
    const [row] = await t.app.db.insert(partnerEngineers).values({ partner_id: partnerId, user_id: people[key].id, ...values }).returning();
    engineer[key.toLowerCase()] = row.id;
    engineerUser[key.toLowerCase()] = people[key].id;
  };
  await agree('Dev', firms.A.partnerId, { rate_type: 'day', rate: 500, currency: 'EUR', valid_from: '2026-01-01' });
  await agree('Hana', firms.A.partnerId, { rate_type: 'hour', rate: 60, currency: 'EUR', valid_from: '2026-01-01', valid_to: '2026-12-31' });
  await agree('Uma', firms.A.partnerId, { rate_type: 'day', rate: 450, currency: 'USD', valid_from: '2026-01-01' });
  await agree('Bo', firms.B.partnerId, { rate_type: 'day', rate: 400, currency: 'EUR', valid_from: '2026-01-01' });
  // Where the engineers are placed: the clients each firm may bill (issue 20).
  [{ id: northwind }] = await t.app.db.insert(clients).values([{ name: 'Northwind' }, { name: 'Tailspin' }]).returning();
  const place = async (po: string, client: number, who: string[]) => {
    const [contract] = await t.app.db.insert(contracts).values({
      po_number: po, client_id: client, owner_id: people.accountManager.id, start_date: '2026-01-01', end_date: '2026-12-31', value: 1000, currency: 'EUR',
    }).returning();
    await t.app.db.insert(contractPeople).values(who.map((key) => ({ contract_id: contract.id, user_id: people[key].id })));
  };
  await place('PO-C', contoso, ['Dev', 'Uma']);
  await place('PO-F', fabrikam, ['Hana']);
  await place('PO-N', northwind, ['Bo']);
});
afterAll(async () => { await t?.close(); });

describe('submitting a statement from the portal', () => {
  it('prices the lines at the agreed rates, sets the firm from the login and tells finance and the account manager', async () => {
    const publish = vi.spyOn(t.app.broadcaster, 'publish');
    const form = statementForm({ month: '2026-02', currency: 'EUR', partner_id: String(firms.B.partnerId), status: 'approved', total: '1' }, defaultLines(), [sheet]);
    const res = await t.call('POST', '/api/partner/pre-billing', { token: firms.A.token, body: form.body, headers: form.headers });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.message).toBe('Pre-billing submitted successfully.');
    expect(res.body.data).toMatchObject({
      partner_id: firms.A.partnerId, month: '2026-02-01', currency: 'EUR', status: 'pending', version: 1,
      // 20 days x 500 + 100.5 hours x 60
      total: 16030, submitted_by: firms.A.loginId,
      spreadsheet: [{ id: expect.any(Number), name: 'march.xlsx', size: XLSX.length }],
    });
    expect(res.body.data.lines).toEqual([
      { id: expect.any(Number), engineer_id: engineer.dev, engineer: { id: engineer.dev, name: 'Dev' }, client_id: contoso, client: { id: contoso, name: 'Contoso' },
        quantity: 20, rate_type: 'day', rate: 500, amount: 10000 },
      { id: expect.any(Number), engineer_id: engineer.hana, engineer: { id: engineer.hana, name: 'Hana' }, client_id: fabrikam, client: { id: fabrikam, name: 'Fabrikam' },
        quantity: 100.5, rate_type: 'hour', rate: 60, amount: 6030 },
    ]);

    // spec §4: PartnerPreBillingUploadEvent on each internal recipient's channel, the bell's row stored first.
    const id = res.body.data.id as number;
    // Each in the words the definition declares for them (src/shared/resources/pre-billing.ts `events.create`).
    const told = { finance: ['A statement waits for your check', 'Check it against the time sheets.'], accountManager: ['Firm A firm-a@example.com submitted a statement', 'Accounting checks it next.'] };
    for (const [who, [title, next]] of Object.entries(told)) {
      const rows = await noticesOf('app', people[who].id);
      expect(rows.map((row) => ({ type: row.type, ...row.data }))).toContainEqual({
        type: 'App\\Notifications\\PartnerPreBillingUploadNotification', title,
        message: `Firm A of Firm A firm-a@example.com submitted their statement for February 2026 (${formatMoney(16030, 'EUR')}). ${next}`, url: `/ikk-partner/pre-billing/${id}`,
      });
    }
    const channels = publish.mock.calls.filter(([, name]) => name === 'App\\Events\\PartnerPreBillingUploadEvent').flatMap(([list]) => list);
    expect(channels).toEqual(expect.arrayContaining([`private-partner-pre-billing-upload-event.${people.finance.id}`, `private-partner-pre-billing-upload-event.${people.accountManager.id}`]));
    // Told there instead of on their notification channel: one toast each.
    expect(publish.mock.calls.filter(([, name]) => name === 'Illuminate\\Notifications\\Events\\BroadcastNotificationCreated')).toEqual([]);
    // Nobody without the review permission, nor the partner, is called to it.
    expect(channels).not.toContain(`private-partner-pre-billing-upload-event.${people.plainUser.id}`);
    expect(await noticesOf('app', people.plainUser.id)).toEqual([]);
    publish.mockRestore();
  });

  it('lists and shows a firm only its own statements', async () => {
    const mine = await t.call('GET', '/api/partner/pre-billing', { token: firms.A.token });
    expect(mine.status).toBe(200);
    expect(mine.body.data.length).toBeGreaterThan(0);
    expect(mine.body.data.every((row: { partner_id: number }) => row.partner_id === firms.A.partnerId)).toBe(true);
    const theirs = await t.call('GET', '/api/partner/pre-billing', { token: firms.B.token });
    expect(theirs.body.data).toEqual([]);
    const id = mine.body.data[0].id as number;
    expect((await t.call('GET', `/api/partner/pre-billing/${id}`, { token: firms.B.token })).status).toBe(404);
    expect((await t.call('GET', `/api/partner/pre-billing/${id}/versions`, { token: firms.B.token })).status).toBe(404);
  });
});

describe('refusing a bad statement: 422 and nothing stored', () => {
  const refusals: [string, () => Promise<{ status: number; body: any }>, Record<string, string | RegExp>][] = [
    ['a month already submitted', () => submit('A', { month: '2026-02' }), { month: 'A pre-billing for February 2026 has already been submitted: correct that one instead.' }],
    ['a month not yet worked', () => submit('A', { month: '2027-01' }), { month: /may not be in the future/ }],
    ['a malformed month', () => submit('A', { month: '03/2026' }), { month: 'The month must be a month in the format YYYY-MM.' }],
    ['an empty month', () => submit('A', { month: '' }), { month: 'The month field is required.' }],
    ['a line without its days or hours', () => submit('A', {}, [{ engineer_id: engineer.dev, client_id: contoso, quantity: null }]), { 'lines.0.quantity': 'The days or hours field is required.' }],
    ['an engineer of another firm', () => submit('A', {}, [{ engineer_id: engineer.bo, client_id: contoso, quantity: 5 }]), { 'lines.0.engineer_id': 'The selected engineer is not one of your engineers.' }],
    ['an engineer that does not exist', () => submit('A', {}, [{ engineer_id: 999_999, client_id: contoso, quantity: 5 }]), { 'lines.0.engineer_id': 'The selected engineer is not one of your engineers.' }],
    ['a negative quantity', () => submit('A', {}, [{ engineer_id: engineer.dev, client_id: contoso, quantity: -3 }]), { 'lines.0.quantity': 'The quantity must be greater than 0.' }],
    ['more days than the month has', () => submit('A', {}, [{ engineer_id: engineer.dev, client_id: contoso, quantity: 32 }]), { 'lines.0.quantity': 'The quantity may not be greater than 31 days: March 2026 has 31 days.' }],
    ['more hours than the month has', () => submit('A', { month: '2026-04' }, [{ engineer_id: engineer.hana, client_id: contoso, quantity: 721 }]), { 'lines.0.quantity': 'The quantity may not be greater than 720 hours: April 2026 has 30 days.' }],
    ['more days over all clients than the month has', () => submit('A', {}, [
      { engineer_id: engineer.dev, client_id: contoso, quantity: 20 }, { engineer_id: engineer.dev, client_id: fabrikam, quantity: 12 },
    ]), { 'lines.1.quantity': 'Dev is billed 32 days in March 2026 over all lines, more than the 31 the month allows.' }],
    ['the same engineer and client twice', () => submit('A', {}, [
      { engineer_id: engineer.dev, client_id: contoso, quantity: 2 }, { engineer_id: engineer.dev, client_id: contoso, quantity: 3 },
    ]), { 'lines.1.client_id': 'Dev is already billed for this client on line 1: put the whole month on one line.' }],
    ['a rate in another currency', () => submit('A', {}, [{ engineer_id: engineer.uma, client_id: contoso, quantity: 2 }]), { 'lines.0.engineer_id': /in USD, but this statement is in EUR/ }],
    ['no rate agreed for the month', () => submit('A', { month: '2025-12' }, [{ engineer_id: engineer.dev, client_id: contoso, quantity: 2 }]), { 'lines.0.engineer_id': 'Dev has no rate agreed for December 2025.' }],
    ['an unknown client', () => submit('A', {}, [{ engineer_id: engineer.dev, client_id: 999_999, quantity: 2 }]), { 'lines.0.client_id': 'The client you chose has been removed or cannot be chosen here. Choose another.' }],
    ['no lines', () => submit('A', {}, []), { lines: /Add at least one line/ }],
    ['lines that are not a list', () => submit('A', { lines: '{oops' }, null), { lines: 'The lines field must be a list of lines.' }],
    ['no spreadsheet', () => submit('A', {}, defaultLines(), []), { spreadsheet: /Attach the statement's spreadsheet/ }],
    ['a file of the wrong type', () => submit('A', {}, defaultLines(), [{ name: 'march.exe', type: 'application/octet-stream', content: 'MZ' }]), { spreadsheet: 'march.exe cannot be attached here: choose an XLSX, XLS, CSV or PDF file.' }],
    ['a disguised file', () => submit('A', {}, defaultLines(), [{ name: 'march.xlsx', type: sheet.type, content: PDF }]), { spreadsheet: 'march.xlsx is not a real XLSX file. Choose the original file and try again.' }],
  ];

  it.each(refusals)('refuses %s', async (_what, attempt, expected) => {
    const before = await counts();
    const res = await attempt();
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    for (const [field, message] of Object.entries(expected)) {
      expect(res.body.errors[field]?.[0], `${field} in ${JSON.stringify(res.body.errors)}`).toEqual(message instanceof RegExp ? expect.stringMatching(message) : message);
    }
    expect(await counts()).toEqual(before);
  });

  it('names every wrong line at once', async () => {
    const res = await submit('A', {}, [
      { engineer_id: engineer.dev, client_id: contoso, quantity: 0 }, { engineer_id: 'x', client_id: contoso, quantity: 2 }, { engineer_id: engineer.hana, client_id: contoso, quantity: 1.234 },
    ]);
    expect(res.status).toBe(422);
    expect(res.body.errors).toMatchObject({
      'lines.0.quantity': ['The quantity must be greater than 0.'],
      'lines.1.engineer_id': ['The engineer field is required.'],
      'lines.2.quantity': ['The quantity may have at most 2 decimals.'],
    });
  });

  it('takes the spreadsheet as csv too (served as text, whatever the upload claimed)', async () => {
    const csv = await submit('A', { month: '2026-05' }, defaultLines(), [{ name: 'may.csv', type: 'text/csv', content: 'engineer,days\nDev,20\n' }]);
    expect(csv.status, JSON.stringify(csv.body)).toBe(201);
    expect(csv.body.data.spreadsheet[0]).toMatchObject({ name: 'may.csv', mime: 'text/plain; charset=utf-8' });
  });
});

describe('deciding a statement', () => {
  let id: number;
  beforeAll(async () => {
    const res = await submit('A', { month: '2026-03' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    id = res.body.data.id;
  });

  it('offers finance review, hold and reject on a pending statement, and the partner nothing', async () => {
    const row = (await t.call('GET', `/api/pre-billing/${id}`, { token: people.finance.token })).body.data;
    expect(row.available_transitions.map((a: { name: string }) => a.name).sort()).toEqual(['hold', 'reject', 'review']);
    const own = (await t.call('GET', `/api/partner/pre-billing/${id}`, { token: firms.A.token })).body.data;
    expect(own.available_transitions).toEqual([]);
  });

  it('refuses a staff member without can-view-pre-billing, and staff creating or editing a statement', async () => {
    expect((await t.call('GET', '/api/pre-billing', { token: people.plainUser.token })).status).toBe(403);
    expect((await t.call('GET', `/api/pre-billing/${id}/comparison`, { token: people.plainUser.token })).status).toBe(403);
    expect((await act('plainUser', id, 'review')).status).toBe(403);
    // A user role without the permission sees nothing, though it may be told of nothing either (issue 20).
    expect((await t.call('GET', `/api/pre-billing/${id}`, { token: people.plainUser.token })).status).toBe(403);
    // Statements are the partner's: the app has no create or edit route for them.
    expect((await t.call('POST', '/api/pre-billing', { token: people.finance.token, body: { month: '2026-03', currency: 'EUR', lines: [] } })).status).toBe(404);
    expect((await t.call('PATCH', `/api/pre-billing/${id}`, { token: people.finance.token, body: { note: 'x' } })).status).toBe(404);
  });

  it('requires a reason to hold or reject', async () => {
    const res = await act('finance', id, 'reject');
    expect(res.status).toBe(422);
    expect(res.body.errors.comment).toEqual(['The comment field is required.']);
  });

  it('moves pending -> reviewed by accounting -> approved, telling the partner each time, and then stays as approved', async () => {
    const reviewed = await act('finance', id, 'review');
    expect(reviewed.status, JSON.stringify(reviewed.body)).toBe(200);
    expect(reviewed.body.data.status).toBe('reviewed by accounting');
    const approved = await act('finance', id, 'approve', 'Matches the sheets');
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ status: 'approved', decided_by: people.finance.id });
    const told = (await noticesOf('partner', firms.A.loginId)).map((row) => row.data.title);
    // In the partner's words (owner.states), not the staff labels.
    // Issue 24: both steps within minutes are one notification, saying the latest.
    expect(told).toEqual(expect.arrayContaining(['Your statement was approved']));
    // An approved statement is final: no more decisions, no more corrections.
    expect((await act('finance', id, 'reject', 'Too late')).status).toBe(409);
    expect((await correct('A', id, { note: 'changed' }, null)).status).toBe(409);
    const history = (await t.call('GET', `/api/pre-billing/${id}/history`, { token: people.finance.token })).body.data;
    expect(history.map((h: { transition: string }) => h.transition)).toEqual(['create', 'review', 'approve']);
  });

  it('holds and resumes to the step it was held at', async () => {
    const other = await submit('A', { month: '2026-06' });
    const statement = other.body.data.id as number;
    expect((await act('finance', statement, 'review')).status).toBe(200);
    expect((await act('finance', statement, 'hold', 'Waiting for the client to sign the sheets')).body.data.status).toBe('on hold');
    expect((await act('finance', statement, 'resume')).body.data.status).toBe('reviewed by accounting');
  });
});

describe('rejecting and resubmitting', () => {
  let id: number;
  beforeAll(async () => {
    const res = await submit('A', { month: '2026-07' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    id = res.body.data.id;
  });

  it('sends a rejected statement back; the partner corrects it, the earlier version is kept and it is pending again', async () => {
    const rejected = await act('finance', id, 'reject', 'Dev worked 18 days for Contoso');
    expect(rejected.body.data.status).toBe('rejected');
    const partnerNotice = (await noticesOf('partner', firms.A.loginId)).find((row) => row.data.title === 'Your statement was returned: please correct it');
    expect(partnerNotice?.data.message).toMatch(/Dev worked 18 days for Contoso/);
    expect(partnerNotice?.data.url).toBe(`/partner/pre-billing/${id}`);
    const financeBefore = (await noticesOf('app', people.finance.id)).length;

    const res = await correct('A', id, { note: 'Corrected' }, [{ engineer_id: engineer.dev, client_id: contoso, quantity: 18 }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe('Pre-billing resubmitted as version 2.');
    expect(res.body.data).toMatchObject({ status: 'pending', version: 2, total: 9000, note: 'Corrected', decided_by: null });
    expect(res.body.data.lines).toHaveLength(1);
    // The spreadsheet stays unless the correction replaces it.
    expect(res.body.data.spreadsheet).toHaveLength(1);

    const versions = await t.call('GET', `/api/partner/pre-billing/${id}/versions`, { token: firms.A.token });
    expect(versions.body.data).toEqual([{
      version: 1, total: 16030, currency: 'EUR', created_at: expect.any(String),
      lines: [
        expect.objectContaining({ engineer_id: engineer.dev, quantity: 20, amount: 10000, engineer: { id: engineer.dev, name: 'Dev' } }),
        expect.objectContaining({ engineer_id: engineer.hana, quantity: 100.5, amount: 6030 }),
      ],
    }]);
    expect((await t.call('GET', `/api/pre-billing/${id}/versions`, { token: people.finance.token })).body.data).toHaveLength(1);
    expect(await t.app.db.select().from(preBillingVersions).where(eq(preBillingVersions.pre_billing_id, id))).toHaveLength(1);

    const history = (await t.call('GET', `/api/pre-billing/${id}/history`, { token: people.finance.token })).body.data;
    expect(history.map((h: { transition: string; from: string | null; to: string }) => [h.transition, h.from, h.to])).toEqual([
      ['create', null, 'pending'], ['reject', 'pending', 'rejected'], ['resubmit', 'rejected', 'pending'],
    ]);
    // Finance is called to it again: their unread call to check it (minutes old) now says it was corrected (issue 24: one notification).
    const finance = await noticesOf('app', people.finance.id);
    expect(finance.length).toBe(financeBefore);
    const about = finance.filter((row) => row.data.url === `/ikk-partner/pre-billing/${id}`);
    expect(about.map((row) => row.data.title)).toEqual(['A corrected statement waits for your check']);
    expect(about[0].data.message).toMatch(/corrected their statement for July 2026 and submitted it again as version 2/);
  });

  it('refuses a bad correction with nothing changed', async () => {
    const before = (await t.call('GET', `/api/partner/pre-billing/${id}`, { token: firms.A.token })).body.data;
    const res = await correct('A', id, {}, [{ engineer_id: engineer.bo, client_id: contoso, quantity: 3 }]);
    expect(res.status).toBe(422);
    expect(res.body.errors['lines.0.engineer_id']).toEqual(['The selected engineer is not one of your engineers.']);
    const after = (await t.call('GET', `/api/partner/pre-billing/${id}`, { token: firms.A.token })).body.data;
    expect(after).toEqual(before);
    // Another firm cannot correct it at all.
    expect((await correct('B', id, { note: 'mine now' }, null)).status).toBe(404);
  });

  it('edits a pending statement in place without a new version', async () => {
    const res = await correct('A', id, { note: 'One more look' }, null);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ version: 2, status: 'pending', note: 'One more look', total: 9000 });
  });
});

describe('comparing with the approved time sheets', () => {
  it('puts each line beside the approved hours of the engineer for the client, sheets starting in the month', async () => {
    const res = await submit('A', { month: '2026-08' }, [
      { engineer_id: engineer.dev, client_id: contoso, quantity: 20 }, { engineer_id: engineer.hana, client_id: fabrikam, quantity: 40 },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.data.id as number;
    const sheetFor = (user: number, client: number, start: string, end: string, hours: number, status: 'approved' | 'pending' | 'rejected' = 'approved') => ({
      user_id: user, client_id: client, period_type: 'week' as const, period_start: start, period_end: end, hours, status,
      file_key: 'x', file_name: 'x.pdf', file_size: 1, file_mime: 'application/pdf',
    });
    await t.app.db.insert(timeSheets).values([
      sheetFor(engineerUser.dev, contoso, '2026-08-03', '2026-08-09', 40),
      sheetFor(engineerUser.dev, contoso, '2026-08-31', '2026-09-06', 32), // starts in August: counted whole
      sheetFor(engineerUser.dev, contoso, '2026-07-27', '2026-08-02', 40), // starts in July: not counted
      sheetFor(engineerUser.dev, contoso, '2026-08-10', '2026-08-16', 40, 'pending'), // not approved
      sheetFor(engineerUser.dev, fabrikam, '2026-08-10', '2026-08-16', 8), // another client
      sheetFor(engineerUser.hana, fabrikam, '2026-08-01', '2026-08-31', 40),
    ]);
    const comparison = await t.call('GET', `/api/pre-billing/${id}/comparison`, { token: people.finance.token });
    expect(comparison.status, JSON.stringify(comparison.body)).toBe(200);
    expect(comparison.body.data).toEqual({
      month: '2026-08-01', hours_per_day: HOURS_PER_DAY,
      lines: [
        { line_id: expect.any(Number), engineer: { id: engineer.dev, name: 'Dev', user_id: engineerUser.dev }, client: { id: contoso, name: 'Contoso' },
          quantity: 20, rate_type: 'day', billed_hours: 160, other_statements_hours: 0, time_sheet_hours: 72, difference: 88, time_sheets: 2 },
        { line_id: expect.any(Number), engineer: { id: engineer.hana, name: 'Hana', user_id: engineerUser.hana }, client: { id: fabrikam, name: 'Fabrikam' },
          quantity: 40, rate_type: 'hour', billed_hours: 40, other_statements_hours: 0, time_sheet_hours: 40, difference: 0, time_sheets: 1 },
      ],
      totals: { billed_hours: 200, other_statements_hours: 0, time_sheet_hours: 112, difference: 88 },
    });
    // Partners never see the firm's own time sheets.
    expect((await t.call('GET', `/api/partner/pre-billing/${id}/comparison`, { token: firms.A.token })).status).toBe(404);
  });
});

describe('a supplementary statement for a forgotten line (issue 21)', () => {
  it('is allowed only once the month\'s statement is approved, links to it, and is checked with it against the same time sheets', async () => {
    const original = await submit('A', { month: '2026-10' }, [{ engineer_id: engineer.dev, client_id: contoso, quantity: 10 }]);
    expect(original.status, JSON.stringify(original.body)).toBe(201);
    const originalId = original.body.data.id as number;
    const forgotten = [{ engineer_id: engineer.dev, client_id: contoso, quantity: 1 }, { engineer_id: engineer.hana, client_id: fabrikam, quantity: 16 }];

    const early = await submit('A', { month: '2026-10', is_supplementary: '1' }, forgotten);
    expect(early.status).toBe(422);
    expect(early.body.errors.month).toEqual(['The pre-billing for October 2026 is not approved yet: add the forgotten line to it instead of a supplementary statement.']);
    expect((await submit('A', { month: '2026-11', is_supplementary: '1' }, forgotten)).body.errors.month)
      .toEqual(['There is no pre-billing for November 2026 to supplement: submit an ordinary statement for it.']);

    await act('finance', originalId, 'review');
    await act('finance', originalId, 'approve');
    // Today's way out was none: a second ordinary statement for the month is still refused, saying what to do.
    const again = await submit('A', { month: '2026-10' }, forgotten);
    expect(again.status).toBe(422);
    expect(again.body.errors.month).toEqual(['The pre-billing for October 2026 is already approved: to bill a forgotten line, submit a supplementary statement for October 2026.']);

    // The month's days are counted over the original and the supplement: 10 + 22 days is more than October's 31.
    const tooMany = await submit('A', { month: '2026-10', is_supplementary: '1' }, [{ engineer_id: engineer.dev, client_id: contoso, quantity: 22 }]);
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors['lines.0.quantity']).toEqual(['Dev is billed 32 days in October 2026 over all lines, the month\'s other statements included, more than the 31 the month allows.']);

    const supplement = await submit('A', { month: '2026-10', is_supplementary: '1' }, forgotten);
    expect(supplement.status, JSON.stringify(supplement.body)).toBe(201);
    const id = supplement.body.data.id as number;
    // 1 day x 500 + 16 hours x 60
    expect(supplement.body.data).toMatchObject({ month: '2026-10-01', status: 'pending', total: 1460, supplements_id: originalId, supplements: { id: originalId, month: '2026-10-01' } });
    expect(supplement.body.data).not.toHaveProperty('is_supplementary');
    expect((await t.call('GET', `/api/pre-billing/${originalId}`, { token: people.finance.token })).body.data).toMatchObject({ supplements_id: null, total: 5000 });

    const sheetFor = (user: number, client: number, hours: number) => ({
      user_id: user, client_id: client, period_type: 'month' as const, period_start: '2026-10-01', period_end: '2026-10-31', hours, status: 'approved' as const,
      file_key: 'x', file_name: 'x.pdf', file_size: 1, file_mime: 'application/pdf',
    });
    await t.app.db.insert(timeSheets).values([sheetFor(engineerUser.dev, contoso, 88), sheetFor(engineerUser.hana, fabrikam, 16)]);
    const comparison = (await t.call('GET', `/api/pre-billing/${id}/comparison`, { token: people.finance.token })).body.data;
    // Dev's day is checked together with the original's 10 days (80 h): 8 + 80 = the 88 h of the sheets.
    expect(comparison.lines.map((l: { engineer: { name: string }; billed_hours: number; other_statements_hours: number; time_sheet_hours: number; difference: number }) =>
      [l.engineer.name, l.billed_hours, l.other_statements_hours, l.time_sheet_hours, l.difference])).toEqual([['Dev', 8, 80, 88, 0], ['Hana', 16, 0, 16, 0]]);
    expect(comparison.totals).toEqual({ billed_hours: 24, other_statements_hours: 80, time_sheet_hours: 104, difference: 0 });
    const ofOriginal = (await t.call('GET', `/api/pre-billing/${originalId}/comparison`, { token: people.finance.token })).body.data;
    expect(ofOriginal.lines.map((l: { billed_hours: number; other_statements_hours: number; difference: number }) => [l.billed_hours, l.other_statements_hours, l.difference])).toEqual([[80, 8, 0]]);
  });
});

describe('the clients a partner may bill', () => {
  it('offers active clients to a login that may file statements, and nothing to staff on that route', async () => {
    const [old] = await t.app.db.insert(clients).values({ name: 'Old Client', status: 'inactive' }).returning();
    await t.app.db.insert(contractPeople).values({ contract_id: (await t.app.db.insert(contracts).values({
      po_number: 'PO-OLD', client_id: old.id, owner_id: people.accountManager.id, start_date: '2026-01-01', end_date: '2026-12-31', value: 1, currency: 'EUR',
    }).returning())[0].id, user_id: people.Dev.id });
    const res = await t.call('GET', '/api/partner/client/options?search=o', { token: firms.A.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([{ id: contoso, label: 'Contoso' }]);
    expect((await t.call('GET', '/api/partner/client/options', { token: people.finance.token })).status).toBe(401);
  });

  it('offers a firm only the clients its own engineers are placed with, never another firm\'s or an unlinked one (issue 20)', async () => {
    const offered = async (firm: string) => (await t.call('GET', '/api/partner/client/options', { token: firms[firm].token })).body.data;
    expect(await offered('A')).toEqual([{ id: contoso, label: 'Contoso' }, { id: fabrikam, label: 'Fabrikam' }]);
    expect(await offered('B')).toEqual([{ id: northwind, label: 'Northwind' }]);
  });

  it('does not count a placement outside the engineer\'s agreed rate with the firm', async () => {
    // Bo worked for Tailspin in 2025, before firm B agreed a rate for him (from 2026).
    const [tailspin] = await t.app.db.select().from(clients).where(eq(clients.name, 'Tailspin'));
    const [contract] = await t.app.db.insert(contracts).values({
      po_number: 'PO-T-2025', client_id: tailspin.id, owner_id: people.accountManager.id, start_date: '2025-01-01', end_date: '2025-12-31', value: 1, currency: 'EUR',
    }).returning();
    await t.app.db.insert(contractPeople).values({ contract_id: contract.id, user_id: people.Bo.id });
    const res = await t.call('GET', '/api/partner/client/options', { token: firms.B.token });
    expect(res.body.data).toEqual([{ id: northwind, label: 'Northwind' }]);
  });

  it('offers a firm only its own records in every other picker of the portal', async () => {
    const ids = async (firm: string, path: string) => {
      const res = await t.call('GET', `/api/partner/${path}/options`, { token: firms[firm].token });
      expect(res.status, path).toBe(200);
      return (res.body.data as { id: number }[]).map((row) => row.id).sort((x, y) => x - y);
    };
    expect((await submit('B', { month: '2026-06' }, [{ engineer_id: engineer.bo, client_id: northwind, quantity: 3 }])).status).toBe(201);
    expect(await ids('A', 'engineer')).toEqual([engineer.dev, engineer.hana, engineer.uma].sort((x, y) => x - y));
    expect(await ids('B', 'engineer')).toEqual([engineer.bo]);
    for (const firm of ['A', 'B']) {
      const own = (await t.app.db.select({ id: preBillings.id }).from(preBillings).where(eq(preBillings.partner_id, firms[firm].partnerId))).map((row) => row.id);
      expect(own.length).toBeGreaterThan(0);
      expect(await ids(firm, 'pre-billing')).toEqual(own.sort((x, y) => x - y));
    }
  });

  it('refuses a line naming a client none of the firm\'s engineers is placed with, as an unknown one', async () => {
    const before = await counts();
    const res = await submit('A', { month: '2026-05' }, [{ engineer_id: engineer.dev, client_id: northwind, quantity: 2 }]);
    expect(res.status).toBe(422);
    expect(res.body.errors['lines.0.client_id']).toEqual(['The client you chose has been removed or cannot be chosen here. Choose another.']);
    expect(await counts()).toEqual(before);
  });
});

describe('who is told of a statement (issue 20)', () => {
  it('tells the firm\'s account manager, whose default manager role opens the statement it links to, and only the firms they manage', async () => {
    const res = await submit('A', { month: '2026-11' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [notice] = (await noticesOf('app', people.accountManager.id)).filter((row) => row.data.url === `/ikk-partner/pre-billing/${res.body.data.id}`);
    expect(notice.data.title).toBe('Firm A firm-a@example.com submitted a statement');
    // The link opens: the screen's permission is in the role, and the record in the manager's scope.
    const login = await t.call('GET', '/api/me', { token: people.accountManager.token });
    expect(login.body.permissions.permissions).toContain('can-view-pre-billing');
    const opened = await t.call('GET', `/api/pre-billing/${res.body.data.id}`, { token: people.accountManager.token });
    expect(opened.status).toBe(200);
    expect(opened.body.data.partner_id).toBe(firms.A.partnerId);
    expect((await t.call('GET', `/api/pre-billing/${res.body.data.id}/versions`, { token: people.accountManager.token })).status).toBe(200);
    // Another firm's statements stay out of an account manager's sight; finance sees them all.
    const [other] = await t.app.db.select({ id: preBillings.id }).from(preBillings).where(eq(preBillings.partner_id, firms.B.partnerId)).limit(1);
    const otherId = other?.id ?? (await submit('B', { month: '2026-10' }, [{ engineer_id: engineer.bo, client_id: northwind, quantity: 3 }])).body.data.id;
    expect((await t.call('GET', `/api/pre-billing/${otherId}`, { token: people.accountManager.token })).status).toBe(404);
    expect((await t.call('GET', '/api/pre-billing', { token: people.accountManager.token })).body.data.map((row: { partner_id: number }) => row.partner_id))
      .not.toContain(firms.B.partnerId);
    expect((await t.call('GET', `/api/pre-billing/${otherId}`, { token: people.finance.token })).status).toBe(200);
  });

  it('tells nobody who could not open the statement: an account manager without the permission, a reviewer without the list', async () => {
    // A role that may review statements but was not given the list they live in.
    const [role] = await t.app.db.insert(roles).values({ name: 'reviewer without list', account_type: 'app' }).returning();
    const [review] = await t.app.db.select().from(permissions).where(eq(permissions.name, 'can-review-pre-billing'));
    await t.app.db.insert(roleHasPermissions).values({ role_id: role.id, permission_id: review.id });
    const blind = await t.createUser({ email: 'blind-reviewer@example.com', name: 'Blind Reviewer', user_type: 'user' }, ['reviewer without list']);
    // Firm B's account manager holds the plain user role, without the pre-billing screen.
    await t.app.db.update(partners).set({ account_manager_id: people.plainUser.id }).where(eq(partners.id, firms.B.partnerId));
    try {
      const publish = vi.spyOn(t.app.broadcaster, 'publish');
      const res = await submit('B', { month: '2026-11' }, [{ engineer_id: engineer.bo, client_id: northwind, quantity: 3 }]);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const url = `/ikk-partner/pre-billing/${res.body.data.id}`;
      const told = async (id: number) => (await noticesOf('app', id)).some((row) => row.data.url === url);
      expect(await told(people.finance.id)).toBe(true);
      expect(await told(people.plainUser.id)).toBe(false);
      expect(await told(blind.id)).toBe(false);
      const event = publish.mock.calls.find(([, name]) => name === 'App\\Events\\PartnerPreBillingUploadEvent');
      expect(event?.[0]).toContain(`private-partner-pre-billing-upload-event.${people.finance.id}`);
      for (const id of [people.plainUser.id, blind.id]) expect(event?.[0]).not.toContain(`private-partner-pre-billing-upload-event.${id}`);
      publish.mockRestore();
      // Both would have met Access Denied.
      expect((await t.call('GET', `/api/pre-billing/${res.body.data.id}`, { token: people.plainUser.token })).status).toBe(403);
      expect((await t.call('GET', `/api/pre-billing/${res.body.data.id}`, { token: await blind.token() })).status).toBe(403);
    } finally {
      await t.app.db.update(partners).set({ account_manager_id: null }).where(eq(partners.id, firms.B.partnerId));
    }
  });
});

describe('PartnerPreBillingUploadEvent over the websocket', () => {
  const echoes: Echo<'reverb'>[] = [];
  beforeAll(async () => { await t.app.listen({ port: 0, host: '127.0.0.1' }); });
  afterAll(() => { for (const echo of echoes) echo.disconnect(); });

  /** The client as the app runs it (src/client/lib/echo.ts): Echo with the reverb broadcaster and the bearer token. */
  const echoFor = (token: string) => {
    const { port } = t.app.server.address() as { port: number };
    const echo = new Echo({
      broadcaster: 'reverb', key: t.app.config.pusher.key, wsHost: '127.0.0.1', wsPort: port, forceTLS: false, enabledTransports: ['ws'],
      authEndpoint: `http://127.0.0.1:${port}/api/broadcasting/auth`, bearerToken: token, auth: { headers: {} }, Pusher,
    });
    echoes.push(echo);
    return echo;
  };
  const subscribedTo = (echo: Echo<'reverb'>, channel: string) =>
    once((done) => (echo.connector as unknown as { pusher: Pusher }).pusher.channel(channel).bind('pusher:subscription_succeeded', done));

  it('reaches the finance user live, with the bell row already stored, and nobody else', async () => {
    const finance = echoFor(people.finance.token);
    const bystander = echoFor(people.plainUser.token);
    let rowsWhenReceived = 0;
    const received = once<{ message: { title: string; url: string } }>((done) => finance.private(`partner-pre-billing-upload-event.${people.finance.id}`)
      .listen('PartnerPreBillingUploadEvent', async (event: { message: { title: string; url: string } }) => {
        rowsWhenReceived = (await noticesOf('app', people.finance.id)).length;
        done(event);
      }), 5000, 'PartnerPreBillingUploadEvent');
    const overheard: unknown[] = [];
    bystander.private(`partner-pre-billing-upload-event.${people.plainUser.id}`).listen('PartnerPreBillingUploadEvent', (event: unknown) => overheard.push(event));
    await Promise.all([
      subscribedTo(finance, `private-partner-pre-billing-upload-event.${people.finance.id}`),
      subscribedTo(bystander, `private-partner-pre-billing-upload-event.${people.plainUser.id}`),
    ]);
    const before = (await noticesOf('app', people.finance.id)).length;

    const res = await submit('A', { month: '2026-09' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const event = await received;
    expect(event.message).toMatchObject({ title: 'A statement waits for your check', url: `/ikk-partner/pre-billing/${res.body.data.id}` });
    expect(rowsWhenReceived).toBe(before + 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(overheard).toEqual([]);
  });
});

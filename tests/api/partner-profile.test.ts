// Issue 28, partners look after themselves: a firm's admin login keeps the firm's profile, asks for new
// bank details that wait for finance (the old ones stay in force, finance is told, the history keeps
// every request), and invites and deactivates its colleagues' logins; never another firm's.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partners } from '../../src/server/db/schema/accounts';
import { countries, cities } from '../../src/server/db/schema/master-data';
import { notifications } from '../../src/server/db/schema/notifications';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
let admin: string;
let finance: { id: number; token: string };
/** Firm A: its admin login (the first, made with the firm) and a plain colleague; firm B: its admin. */
let firmA: { id: number; adminToken: string; adminId: number };
let firmB: { id: number; adminToken: string; adminId: number };
let plainA: string;

const IBAN_OLD = 'DE89370400440532013000';
const IBAN_NEW = 'GB82WEST12345698765432';

/** A firm made by staff, whose first login sets its password from the mail and signs in. */
async function makeFirm(name: string, email: string) {
  const created = await t.call('POST', '/api/ikk-partner', { token: admin, body: { name, email, contact_name: `${name} Contact`, payment_terms_days: 30, status: 'active' } });
  expect(created.status).toBe(201);
  const mail = await t.smtp.waitFor(email, /Set Your Password/);
  const token = new URL(mail.links.find((l) => l.includes('/password-reset/'))!).pathname.split('/').pop()!;
  expect((await t.call('POST', '/api/partner/reset-password', { body: { token, email, password: 'firm-portal-pass', password_confirmation: 'firm-portal-pass' } })).status).toBe(200);
  const signedIn = await t.call('POST', '/api/partner/login', { body: { email, password: 'firm-portal-pass' } });
  expect(signedIn.status).toBe(200);
  return { id: created.body.data.id as number, adminToken: signedIn.body.access_token as string, adminId: signedIn.body.data.id as number };
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  const financeUser = await t.createUser({ email: 'fiona.finance@example.com', name: 'Fiona Finance' }, ['user', 'finance']);
  finance = { id: financeUser.id, token: await financeUser.token() };
  firmA = await makeFirm('Acme Engineering', 'ravi@acme.example');
  firmB = await makeFirm('Bolt Systems', 'bea@bolt.example');
  plainA = await (await t.createPartner({ email: 'pat@acme.example', name: 'Pat Plain', partner_id: firmA.id })).token();
});
afterAll(async () => { await t?.close(); });

describe('the firm admin', () => {
  it("is the firm's first login: it holds the partner admin permissions, a plain colleague does not", async () => {
    const me = await t.call('GET', '/api/partner/get-laravel-permission-to-vue-js', { token: firmA.adminToken });
    expect(me.body.roles).toEqual(expect.arrayContaining(['partner', 'partner admin']));
    expect(me.body.permissions).toEqual(expect.arrayContaining(['can-edit-firm-profile', 'can-add-colleague', 'can-edit-colleague', 'can-view-colleague']));
    const plain = await t.call('GET', '/api/partner/get-laravel-permission-to-vue-js', { token: plainA });
    expect(plain.body.permissions).not.toContain('can-edit-firm-profile');
    // Staff see the flag on the firm's logins.
    const logins = await t.call('GET', `/api/partner-account?partner_id=${firmA.id}`, { token: admin });
    expect(Object.fromEntries(logins.body.data.map((l: { email: string; is_firm_admin: boolean }) => [l.email, l.is_firm_admin])))
      .toEqual({ 'ravi@acme.example': true, 'pat@acme.example': false });
  });
});

describe("the firm's profile", () => {
  it('is read by every login of the firm and changed by its admin only', async () => {
    const [country] = await t.app.db.insert(countries).values({ name: 'India', code: 'IN' }).returning();
    const [city] = await t.app.db.insert(cities).values({ name: 'Pune', country_id: country.id }).returning();
    const read = await t.call('GET', '/api/partner/firm', { token: plainA });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ id: firmA.id, name: 'Acme Engineering', bank: { current: null, pending: null, history: [] } });

    const refused = await t.call('PATCH', '/api/partner/firm', { token: plainA, body: { address: 'Somewhere else' } });
    expect(refused.status).toBe(403);

    const saved = await t.call('PATCH', '/api/partner/firm', { token: firmA.adminToken, body: { address: '12 MG Road', tax_id: 'GSTIN-27AAAPL1234C1ZV', country_id: country.id, city_id: city.id } });
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe("Your firm's profile is saved.");
    expect(saved.body.data).toMatchObject({ address: '12 MG Road', tax_id: 'GSTIN-27AAAPL1234C1ZV', country: 'India', city: 'Pune' });
    // The staff side sees the same firm.
    expect((await t.call('GET', `/api/ikk-partner/${firmA.id}`, { token: admin })).body.data).toMatchObject({ address: '12 MG Road', tax_id: 'GSTIN-27AAAPL1234C1ZV' });
    // Firm B's profile is untouched, and never in firm A's answer.
    expect((await t.call('GET', '/api/partner/firm', { token: firmB.adminToken })).body.data).toMatchObject({ id: firmB.id, address: null });
  });

  it('refuses bad input with 422 and changes nothing', async () => {
    const [other] = await t.app.db.insert(countries).values({ name: 'Kenya', code: 'KE' }).returning();
    const [pune] = await t.app.db.select().from(cities).where(eq(cities.name, 'Pune'));
    const bad = await t.call('PATCH', '/api/partner/firm', { token: firmA.adminToken, body: { address: 'x'.repeat(501), country_id: other.id, city_id: pune.id } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.address).toBeDefined();
    const wrongPlace = await t.call('PATCH', '/api/partner/firm', { token: firmA.adminToken, body: { country_id: other.id, city_id: pune.id } });
    expect(wrongPlace.body.errors).toEqual({ city_id: ['The selected city is not in the selected country.'] });
    expect((await t.call('GET', '/api/partner/firm', { token: firmA.adminToken })).body.data).toMatchObject({ address: '12 MG Road', country: 'India' });
    // The firm cannot rename itself or move its own email: those are not in the schema, so they are not stored.
    await t.call('PATCH', '/api/partner/firm', { token: firmA.adminToken, body: { name: 'Evil Corp', email: 'evil@example.com' } });
    const [row] = await t.app.db.select().from(partners).where(eq(partners.id, firmA.id));
    expect(row).toMatchObject({ name: 'Acme Engineering', email: 'ravi@acme.example' });
  });

  it('is refused to staff and to anonymous callers', async () => {
    expect((await t.call('GET', '/api/partner/firm', { token: admin })).status).toBe(401);
    expect((await t.call('GET', '/api/partner/firm')).status).toBe(401);
  });
});

describe('bank details', () => {
  it('wait for finance: the old ones stay in force, finance is told, and approval makes the new ones current', async () => {
    // Staff recorded the firm's first details long ago (approved).
    await t.app.db.update(partners).set({ bank_account_holder: 'Acme Engineering', bank_account_number: IBAN_OLD, bank_code: null, bank_details_approved_at: new Date() }).where(eq(partners.id, firmA.id));

    const asked = await t.call('POST', '/api/partner/firm/bank-details', { token: firmA.adminToken, body: { account_holder: 'Acme Engineering Ltd', account_number: 'gb82 west 1234 5698 7654 32', bank_code: '' } });
    expect(asked.status).toBe(201);
    expect(asked.body.message).toBe('Your new bank details wait for approval by finance. Payments keep going to the current account until then.');
    expect(asked.body.data.current).toMatchObject({ account_number: IBAN_OLD });
    expect(asked.body.data.pending).toMatchObject({ status: 'pending', requested: { account_number: IBAN_NEW }, previous: { account_number: IBAN_OLD } });
    // In force: still the old account.
    const [firm] = await t.app.db.select().from(partners).where(eq(partners.id, firmA.id));
    expect(firm.bank_account_number).toBe(IBAN_OLD);

    // Finance is told, with a link to the firm's page.
    const told = await t.app.db.select().from(notifications).where(eq(notifications.notifiable_id, finance.id));
    expect(told.map((n) => n.data)).toContainEqual(expect.objectContaining({
      title: 'New bank details to approve', url: `/ikk-partner/${firmA.id}`,
      message: 'Acme Engineering Contact of Acme Engineering asked to change the firm\'s bank details. Payments keep going to the old account until you approve.',
    }));

    // Finance sees old beside new, approves: the new ones are in force, the firm is told.
    const seen = await t.call('GET', `/api/ikk-partner/${firmA.id}/bank-details`, { token: finance.token });
    expect(seen.body.data.pending).toMatchObject({ previous: { account_number: IBAN_OLD }, requested: { account_number: IBAN_NEW, account_holder: 'Acme Engineering Ltd' } });
    const approved = await t.call('POST', `/api/ikk-partner/${firmA.id}/bank-changes/${seen.body.data.pending.id}/approve`, { token: finance.token });
    expect(approved.status).toBe(200);
    expect(approved.body.data.current).toMatchObject({ account_number: IBAN_NEW, account_holder: 'Acme Engineering Ltd' });
    expect(approved.body.data.pending).toBeNull();
    expect(approved.body.data.history[0]).toMatchObject({ status: 'approved', decided_by: 'Fiona Finance' });
    const [after] = await t.app.db.select().from(partners).where(eq(partners.id, firmA.id));
    expect(after.bank_account_number).toBe(IBAN_NEW);
    const partnerTold = await t.app.db.select().from(notifications).where(eq(notifications.notifiable_id, firmA.adminId));
    expect(partnerTold.filter((n) => n.notifiable_type === 'partner').map((n) => n.data.title)).toContain('Your new bank details are approved');

    // Deciding twice is a conflict, not a second change.
    const again = await t.call('POST', `/api/ikk-partner/${firmA.id}/bank-changes/${seen.body.data.pending.id}/reject`, { token: finance.token, body: { reason: 'Too late' } });
    expect(again.status).toBe(409);
  });

  it('a rejection needs a reason, keeps the old account and tells the firm why', async () => {
    const asked = await t.call('POST', '/api/partner/firm/bank-details', { token: firmA.adminToken, body: { account_holder: 'Acme', account_number: '12345678', bank_code: '400515' } });
    expect(asked.status).toBe(201);
    const changeId = asked.body.data.pending.id;
    const noReason = await t.call('POST', `/api/ikk-partner/${firmA.id}/bank-changes/${changeId}/reject`, { token: finance.token, body: { reason: ' ' } });
    expect(noReason.status).toBe(422);
    expect(noReason.body.errors.reason).toEqual(['The reason field is required.']);
    const rejected = await t.call('POST', `/api/ikk-partner/${firmA.id}/bank-changes/${changeId}/reject`, { token: finance.token, body: { reason: 'We could not confirm this account by phone.' } });
    expect(rejected.status).toBe(200);
    expect(rejected.body.data.current.account_number).toBe(IBAN_NEW);
    expect(rejected.body.data.history.map((c: { status: string }) => c.status)).toEqual(['rejected', 'approved']);
    const partnerTold = await t.app.db.select().from(notifications).where(eq(notifications.notifiable_id, firmA.adminId));
    expect(partnerTold.map((n) => n.data.message)).toContainEqual(expect.stringContaining('gave this reason: “We could not confirm this account by phone”. Payments keep going to the account already approved.'));
  });

  it('keeps one request waiting at a time and lets the firm withdraw it', async () => {
    const first = await t.call('POST', '/api/partner/firm/bank-details', { token: firmA.adminToken, body: { account_holder: 'Acme', account_number: '11112222', bank_code: '400515' } });
    const second = await t.call('POST', '/api/partner/firm/bank-details', { token: firmA.adminToken, body: { account_holder: 'Acme', account_number: '33334444', bank_code: '400515' } });
    expect(second.body.data.pending.requested.account_number).toBe('33334444');
    expect(second.body.data.history.find((c: { id: number }) => c.id === first.body.data.pending.id).status).toBe('withdrawn');
    const withdrawn = await t.call('DELETE', '/api/partner/firm/bank-details/pending', { token: firmA.adminToken });
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.data.pending).toBeNull();
    expect((await t.call('DELETE', '/api/partner/firm/bank-details/pending', { token: firmA.adminToken })).status).toBe(409);
  });

  it('refuses malformed details, the details already in force, plain logins and staff without the permission', async () => {
    const bad = await t.call('POST', '/api/partner/firm/bank-details', { token: firmA.adminToken, body: { account_holder: '', account_number: 'GB00WEST12345698765432' } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['account_holder', 'account_number']);
    const same = await t.call('POST', '/api/partner/firm/bank-details', { token: firmA.adminToken, body: { account_holder: 'Acme Engineering Ltd', account_number: IBAN_NEW } });
    expect(same.body.errors).toEqual({ account_number: ['These are the bank details already in force.'] });
    expect((await t.call('POST', '/api/partner/firm/bank-details', { token: plainA, body: { account_holder: 'Pat', account_number: IBAN_OLD } })).status).toBe(403);
    const engineer = await (await t.createUser({ email: 'eng@example.com' }, ['user', 'manager'])).token();
    expect((await t.call('GET', `/api/ikk-partner/${firmA.id}/bank-details`, { token: engineer })).status).toBe(403);
    // The firm's row never carries its bank details to the generic routes.
    expect((await t.call('GET', `/api/ikk-partner/${firmA.id}`, { token: finance.token })).body.data).not.toHaveProperty('bank_account_number');
  });

  it("a request is decided under its own firm only: firm B's id with firm A's request is not found", async () => {
    const asked = await t.call('POST', '/api/partner/firm/bank-details', { token: firmA.adminToken, body: { account_holder: 'Acme', account_number: '55556666', bank_code: '400515' } });
    const crossed = await t.call('POST', `/api/ikk-partner/${firmB.id}/bank-changes/${asked.body.data.pending.id}/approve`, { token: finance.token });
    expect(crossed.status).toBe(404);
    const [b] = await t.app.db.select().from(partners).where(eq(partners.id, firmB.id));
    expect(b.bank_account_number).toBeNull();
    // Firm B never sees firm A's request.
    expect((await t.call('GET', '/api/partner/firm', { token: firmB.adminToken })).body.data.bank).toEqual({ current: null, pending: null, history: [] });
  });
});

describe("colleagues' logins", () => {
  it('the admin invites a colleague, who is mailed a link and signs in to the same firm', async () => {
    const invited = await t.call('POST', '/api/partner/colleague', { token: firmA.adminToken, body: { name: 'Nia Newcomer', email: 'Nia@Acme.example', phone: null } });
    expect(invited.status).toBe(201);
    expect(invited.body.message).toBe('Nia Newcomer is invited: a link to set a password for the partner portal has been emailed to nia@acme.example.');
    expect(invited.body.data).toMatchObject({ email: 'nia@acme.example', status: 'active', is_firm_admin: false, email_verified_at: null });
    const mail = await t.smtp.waitFor('nia@acme.example', /Set Your Password/);
    const token = new URL(mail.links.find((l) => l.includes('/password-reset/'))!).pathname.split('/').pop()!;
    expect((await t.call('POST', '/api/partner/reset-password', { body: { token, email: 'nia@acme.example', password: 'nia-portal-pass', password_confirmation: 'nia-portal-pass' } })).status).toBe(200);
    const nia = await t.login('nia@acme.example', 'nia-portal-pass', 'partner');
    expect((await t.call('GET', '/api/partner/firm', { token: nia })).body.data.id).toBe(firmA.id);

    const list = await t.call('GET', '/api/partner/colleague', { token: firmA.adminToken });
    expect(list.body.data.map((c: { email: string }) => c.email).sort()).toEqual(['nia@acme.example', 'pat@acme.example', 'ravi@acme.example']);
    expect(list.body.data.find((c: { is_you: boolean }) => c.is_you).email).toBe('ravi@acme.example');
  });

  it('refuses a taken address, bad input, and a plain login', async () => {
    const taken = await t.call('POST', '/api/partner/colleague', { token: firmA.adminToken, body: { name: 'Copy', email: 'bea@bolt.example' } });
    expect(taken.body.errors).toEqual({ email: ['The email has already been taken.'] });
    const bad = await t.call('POST', '/api/partner/colleague', { token: firmA.adminToken, body: { name: '', email: 'nope' } });
    expect(Object.keys(bad.body.errors).sort()).toEqual(['email', 'name']);
    expect((await t.call('POST', '/api/partner/colleague', { token: plainA, body: { name: 'X', email: 'x@acme.example' } })).status).toBe(403);
    expect((await t.call('GET', '/api/partner/colleague', { token: plainA })).status).toBe(403);
  });

  it("deactivates a colleague (signed out at once) and reactivates them; never itself, never another firm's login", async () => {
    const [pat] = (await t.call('GET', '/api/partner/colleague', { token: firmA.adminToken })).body.data.filter((c: { email: string }) => c.email === 'pat@acme.example');
    const patToken = await t.login('pat@acme.example', 'secret-password', 'partner');
    expect((await t.call('GET', '/api/partner/me', { token: patToken })).status).toBe(200);
    const off = await t.call('PATCH', `/api/partner/colleague/${pat.id}`, { token: firmA.adminToken, body: { status: 'inactive' } });
    expect(off.status).toBe(200);
    expect(off.body.message).toBe("Pat Plain's login is deactivated and signed out.");
    expect((await t.call('GET', '/api/partner/me', { token: patToken })).status).toBe(401);
    expect((await t.call('POST', '/api/partner/login', { body: { email: 'pat@acme.example', password: 'secret-password' } })).status).not.toBe(200);
    const on = await t.call('PATCH', `/api/partner/colleague/${pat.id}`, { token: firmA.adminToken, body: { status: 'active' } });
    expect(on.body.data.status).toBe('active');

    expect((await t.call('PATCH', `/api/partner/colleague/${firmA.adminId}`, { token: firmA.adminToken, body: { status: 'inactive' } })).status).toBe(409);
    // Firm B's admin cannot see or touch firm A's logins: not found, and nothing changed.
    const crossed = await t.call('PATCH', `/api/partner/colleague/${pat.id}`, { token: firmB.adminToken, body: { status: 'inactive' } });
    expect(crossed.status).toBe(404);
    expect((await t.call('GET', '/api/partner/colleague', { token: firmB.adminToken })).body.data.map((c: { email: string }) => c.email)).toEqual(['bea@bolt.example']);
    expect((await t.call('GET', '/api/partner/colleague', { token: firmA.adminToken })).body.data.find((c: { id: number }) => c.id === pat.id).status).toBe('active');
  });

  it('staff make another login a firm admin, who then manages the firm', async () => {
    const [pat] = (await t.call('GET', '/api/partner/colleague', { token: firmA.adminToken })).body.data.filter((c: { email: string }) => c.email === 'pat@acme.example');
    const promoted = await t.call('PATCH', `/api/partner-account/${pat.id}`, { token: admin, body: { is_firm_admin: true } });
    expect(promoted.status).toBe(200);
    expect(promoted.body.data.is_firm_admin).toBe(true);
    const patToken = await t.login('pat@acme.example', 'secret-password', 'partner');
    expect((await t.call('GET', '/api/partner/colleague', { token: patToken })).status).toBe(200);
  });
});

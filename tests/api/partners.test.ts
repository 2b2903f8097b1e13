// Partner firms (issue 11): the firm and its first portal login with a set-password mail, more
// logins, engineers with agreed rates that never overlap, and deactivation that signs every login out.
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelHasRoles, partnerAccounts, partners, personalAccessTokens, roles } from '../../src/server/db/schema/accounts';
import { cities, countries } from '../../src/server/db/schema/master-data';
import { partnerEngineers } from '../../src/server/db/schema/partner-billing';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
});
afterAll(async () => { await t?.close(); });

const firm = (values: Record<string, unknown> = {}) => ({
  name: 'Acme Engineering', contact_name: 'Ravi Kumar', email: 'ravi@acme.example', phone: '+91 98 7654 3210',
  address: '12 MG Road', tax_id: 'GSTIN-27AAAPL1234C1ZV', payment_terms_days: 45, status: 'active', ...values,
});

/** Follows the set-password link mailed to `email`: sets `password` through the partner reset route. */
async function setPasswordFromMail(email: string, password: string) {
  const mail = await t.smtp.waitFor(email, /Set Your Password/);
  const link = new URL(mail.links.find((l) => l.includes('/password-reset/'))!);
  expect(link.pathname).toMatch(/^\/partner\/password-reset\/[0-9a-f]+$/);
  expect(link.searchParams.get('welcome')).toBe('1');
  expect(link.searchParams.get('email')).toBe(email);
  const token = link.pathname.split('/').pop()!;
  const reset = await t.call('POST', '/api/partner/reset-password', { body: { token, email, password, password_confirmation: password } });
  expect(reset.status).toBe(200);
}

const countOf = async (table: typeof partners | typeof partnerAccounts | typeof partnerEngineers) =>
  (await t.app.db.select({ total: count() }).from(table))[0].total;

describe('partner firms', () => {
  it('creates a firm with a first login for its contact, who sets a password from the mail and signs in to the portal', async () => {
    const created = await t.call('POST', '/api/ikk-partner', { token: admin, body: firm() });
    expect(created.status).toBe(201);
    expect(created.body.message).toMatch(/invitation/);
    expect(created.body.data).toMatchObject({ name: 'Acme Engineering', email: 'ravi@acme.example', payment_terms_days: 45, status: 'active' });

    const logins = await t.app.db.select().from(partnerAccounts).where(eq(partnerAccounts.partner_id, created.body.data.id));
    expect(logins).toHaveLength(1);
    expect(logins[0]).toMatchObject({ name: 'Ravi Kumar', email: 'ravi@acme.example', status: 'active', force_password_reset: true, email_verified_at: null });
    const held = await t.app.db.select({ name: roles.name }).from(modelHasRoles).innerJoin(roles, eq(roles.id, modelHasRoles.role_id))
      .where(and(eq(modelHasRoles.account_type, 'partner'), eq(modelHasRoles.account_id, logins[0].id)));
    // Issue 28: the first login is the firm's admin in the portal.
    expect(held.map((r) => r.name).sort()).toEqual(['partner', 'partner admin']);

    await setPasswordFromMail('ravi@acme.example', 'acme-portal-pass');
    const signedIn = await t.call('POST', '/api/partner/login', { body: { email: 'RAVI@acme.example', password: 'acme-portal-pass' } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data).toMatchObject({ user_type: 'partner', force_password_reset: false });
    expect(signedIn.body.data.email_verified_at).not.toBeNull();
    expect(signedIn.body.permissions.roles.sort()).toEqual(['partner', 'partner admin']);
    // A partner login is no staff account.
    expect((await t.call('POST', '/api/login', { body: { email: 'ravi@acme.example', password: 'acme-portal-pass' } })).status).toBe(422);
  });

  it('names the first login after the firm when no contact is given', async () => {
    const created = await t.call('POST', '/api/ikk-partner', { token: admin, body: firm({ name: 'Solo Labs', contact_name: null, email: 'hello@solo.example' }) });
    expect(created.status).toBe(201);
    const [login] = await t.app.db.select().from(partnerAccounts).where(eq(partnerAccounts.partner_id, created.body.data.id));
    expect(login.name).toBe('Solo Labs');
  });

  it('refuses bad input with 422 and stores nothing', async () => {
    const [partnersBefore, loginsBefore] = [await countOf(partners), await countOf(partnerAccounts)];
    const bad = await t.call('POST', '/api/ikk-partner', { token: admin, body: firm({ name: '', email: 'not-an-email', payment_terms_days: -1, status: 'maybe' }) });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['email', 'name', 'payment_terms_days', 'status']);

    // A login already signs in with this address (case-insensitively): the firm is not stored either.
    const taken = await t.call('POST', '/api/ikk-partner', { token: admin, body: firm({ name: 'Other Firm', email: 'Ravi@ACME.example' }) });
    expect(taken.status).toBe(422);
    expect(taken.body.errors).toEqual({ email: ['The email has already been taken.'] });

    const sameName = await t.call('POST', '/api/ikk-partner', { token: admin, body: firm({ name: 'acme engineering', email: 'x@acme2.example' }) });
    expect(sameName.status).toBe(422);
    expect(sameName.body.errors).toEqual({ name: ['The name has already been taken.'] });

    const [india] = await t.app.db.insert(countries).values({ name: 'India', code: 'IN' }).returning();
    const [germany] = await t.app.db.insert(countries).values({ name: 'Germany', code: 'DE' }).returning();
    const [berlin] = await t.app.db.insert(cities).values({ name: 'Berlin', country_id: germany.id }).returning();
    const elsewhere = await t.call('POST', '/api/ikk-partner', { token: admin, body: firm({ name: 'Wrong City', email: 'w@city.example', country_id: india.id, city_id: berlin.id }) });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.errors).toEqual({ city_id: ['The selected city is not in the selected country.'] });

    expect([await countOf(partners), await countOf(partnerAccounts)]).toEqual([partnersBefore, loginsBefore]);
    expect(t.smtp.messages.some((m) => m.to.includes('w@city.example') || m.to.includes('x@acme2.example'))).toBe(false);
  });

  it('searches by name or email and filters by status and country', async () => {
    const [country] = await t.app.db.insert(countries).values({ name: 'Netherlands', code: 'NL' }).returning();
    const dutch = await t.call('POST', '/api/ikk-partner', { token: admin, body: firm({ name: 'Dutch Dev BV', email: 'info@dutchdev.example', country_id: country.id }) });
    expect(dutch.status).toBe(201);
    const names = async (query: string) => (await t.call('GET', `/api/ikk-partner?${query}`, { token: admin })).body.data.map((p: { name: string }) => p.name);
    expect(await names('search=dutchdev')).toEqual(['Dutch Dev BV']);
    expect(await names(`country_id=${country.id}`)).toEqual(['Dutch Dev BV']);
    expect(await names('status=inactive')).toEqual([]);
    const row = (await t.call('GET', `/api/ikk-partner/${dutch.body.data.id}`, { token: admin })).body.data;
    expect(row.country).toEqual({ id: country.id, name: 'Netherlands' });
  });

  it('refuses callers without the partner permissions', async () => {
    const staff = await t.createUser({ email: 'staff@example.com', user_type: 'user' });
    const token = await staff.token();
    expect((await t.call('GET', '/api/ikk-partner', { token })).status).toBe(403);
    expect((await t.call('POST', '/api/ikk-partner', { token, body: firm({ name: 'Nope', email: 'nope@example.com' }) })).status).toBe(403);
    expect((await t.call('GET', '/api/partner-account', { token })).status).toBe(403);
    expect((await t.call('GET', '/api/partner-engineer', { token })).status).toBe(403);
    // Finance sees partners but does not manage their logins.
    const finance = await t.createUser({ email: 'finance@example.com' }, ['finance']);
    const financeToken = await finance.token();
    expect((await t.call('GET', '/api/ikk-partner', { token: financeToken })).status).toBe(200);
    expect((await t.call('POST', '/api/partner-account', { token: financeToken, body: { partner_id: 1, name: 'X', email: 'x@x.example', status: 'active' } })).status).toBe(403);
  });
});

describe('partner logins', () => {
  let partnerId: number;
  beforeAll(async () => {
    const created = await t.call('POST', '/api/ikk-partner', { token: admin, body: firm({ name: 'Beta Systems', contact_name: 'Anna', email: 'anna@beta.example' }) });
    partnerId = created.body.data.id;
  });

  it('adds a second login that is mailed its own set-password link, lists only the firm\'s logins and never their passwords', async () => {
    const added = await t.call('POST', '/api/partner-account', { token: admin, body: { partner_id: partnerId, name: 'Bob', email: 'Bob@Beta.example', phone: null, status: 'active' } });
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({ partner_id: partnerId, name: 'Bob', email: 'bob@beta.example', partner: { id: partnerId, name: 'Beta Systems' } });
    expect(added.body.data).not.toHaveProperty('password');
    await setPasswordFromMail('bob@beta.example', 'bob-portal-pass');
    expect((await t.call('POST', '/api/partner/login', { body: { email: 'bob@beta.example', password: 'bob-portal-pass' } })).status).toBe(200);

    const listed = await t.call('GET', `/api/partner-account?partner_id=${partnerId}`, { token: admin });
    expect(listed.body.data.map((l: { email: string }) => l.email)).toEqual(['anna@beta.example', 'bob@beta.example']);
    expect(listed.body.data.every((l: Record<string, unknown>) => !('password' in l))).toBe(true);
  });

  it('keeps login emails unique case-insensitively and a login with its firm', async () => {
    const taken = await t.call('POST', '/api/partner-account', { token: admin, body: { partner_id: partnerId, name: 'Dup', email: 'RAVI@acme.example', status: 'active' } });
    expect(taken.status).toBe(422);
    expect(taken.body.errors).toEqual({ email: ['The email has already been taken.'] });
    const [bob] = await t.app.db.select().from(partnerAccounts).where(eq(partnerAccounts.email, 'bob@beta.example'));
    const [other] = await t.app.db.select().from(partners).where(eq(partners.name, 'Acme Engineering'));
    const moved = await t.call('PATCH', `/api/partner-account/${bob.id}`, { token: admin, body: { partner_id: other.id } });
    expect(moved.status).toBe(422);
    expect(moved.body.errors).toHaveProperty('partner_id');
  });

  it('signs a deactivated login out and keeps it out, leaving the firm\'s other logins signed in', async () => {
    const carol = await t.createPartner({ email: 'carol@beta.example', partner_id: partnerId });
    const dave = await t.createPartner({ email: 'dave@beta.example', partner_id: partnerId });
    const [carolToken, daveToken] = [await carol.token(), await dave.token()];
    expect((await t.call('GET', '/api/partner/me', { token: carolToken })).status).toBe(200);

    expect((await t.call('PATCH', `/api/partner-account/${carol.id}`, { token: admin, body: { status: 'inactive' } })).status).toBe(200);
    expect((await t.call('GET', '/api/partner/me', { token: carolToken })).status).toBe(401);
    expect((await t.call('GET', '/api/partner/me', { token: daveToken })).status).toBe(200);
    const refused = await t.call('POST', '/api/partner/login', { body: { email: 'carol@beta.example', password: 'secret-password' } });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.email[0]).toMatch(/inactive/);
  });
});

describe('deactivating a partner firm', () => {
  it('revokes every login\'s tokens, refuses their sign-in while inactive, and lets them back when reactivated', async () => {
    const first = await t.createPartner({ email: 'one@gamma.example', name: 'Gamma One' });
    const second = await t.createPartner({ email: 'two@gamma.example', partner_id: first.partnerId });
    const bystander = await t.createPartner({ email: 'someone@delta.example' });
    const tokens = [await first.token(), await second.token()];
    const bystanderToken = await bystander.token();

    const deactivated = await t.call('PATCH', `/api/ikk-partner/${first.partnerId}`, { token: admin, body: { status: 'inactive' } });
    expect(deactivated.status).toBe(200);
    for (const token of tokens) expect((await t.call('GET', '/api/partner/me', { token })).status).toBe(401);
    const left = await t.app.db.select({ total: count() }).from(personalAccessTokens)
      .where(and(eq(personalAccessTokens.account_type, 'partner'), eq(personalAccessTokens.account_id, first.id)));
    expect(left[0].total).toBe(0);
    expect((await t.call('GET', '/api/partner/me', { token: bystanderToken })).status).toBe(200);

    // The logins themselves stay active: the firm keeps them out, not their own status.
    const refused = await t.call('POST', '/api/partner/login', { body: { email: 'one@gamma.example', password: 'secret-password' } });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.email[0]).toMatch(/inactive/);

    // A token issued before the firm is deactivated another way (a direct update) is refused by the bearer check itself.
    expect((await t.call('PATCH', `/api/ikk-partner/${first.partnerId}`, { token: admin, body: { status: 'active' } })).status).toBe(200);
    const again = await second.token();
    expect((await t.call('GET', '/api/partner/me', { token: again })).status).toBe(200);
    await t.app.db.update(partners).set({ status: 'inactive' }).where(eq(partners.id, first.partnerId));
    expect((await t.call('GET', '/api/partner/me', { token: again })).status).toBe(401);
  });
});

describe('partner engineers and agreed rates', () => {
  let partnerId: number;
  let otherPartnerId: number;
  let engineerId: number;
  const rate = (values: Record<string, unknown> = {}) => ({
    partner_id: partnerId, user_id: engineerId, rate_type: 'day', rate: 450, currency: 'eur', valid_from: '2026-01-01', valid_to: '2026-06-30', ...values,
  });

  beforeAll(async () => {
    partnerId = (await t.call('POST', '/api/ikk-partner', { token: admin, body: firm({ name: 'Epsilon IT', email: 'ops@epsilon.example' }) })).body.data.id;
    otherPartnerId = (await t.call('POST', '/api/ikk-partner', { token: admin, body: firm({ name: 'Zeta IT', email: 'ops@zeta.example' }) })).body.data.id;
    engineerId = (await t.createUser({ email: 'engineer@example.com', name: 'Meera Iyer', user_type: 'user' })).id;
  });

  it('stores a rate with its engineer named and the currency upper-cased', async () => {
    const created = await t.call('POST', '/api/partner-engineer', { token: admin, body: rate() });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      partner_id: partnerId, user_id: engineerId, rate_type: 'day', rate: 450, currency: 'EUR', valid_from: '2026-01-01', valid_to: '2026-06-30',
      engineer: { id: engineerId, name: 'Meera Iyer' }, engineer_name: 'Meera Iyer',
    });
    const listed = await t.call('GET', `/api/partner-engineer?partner_id=${partnerId}`, { token: admin });
    expect(listed.body.data.map((r: { id: number }) => r.id)).toEqual([created.body.data.id]);
    expect((await t.call('GET', `/api/partner-engineer?partner_id=${otherPartnerId}`, { token: admin })).body.data).toEqual([]);
  });

  it('refuses an overlapping period for the same engineer at the same firm, and nothing else', async () => {
    const before = await countOf(partnerEngineers);
    for (const period of [
      { valid_from: '2026-06-30', valid_to: '2026-12-31' },
      { valid_from: '2025-01-01', valid_to: null },
      { valid_from: '2026-03-01', valid_to: '2026-03-31' },
    ]) {
      const overlap = await t.call('POST', '/api/partner-engineer', { token: admin, body: rate(period) });
      expect(overlap.status, JSON.stringify(period)).toBe(422);
      expect(overlap.body.errors.valid_from[0]).toMatch(/overlap/);
    }
    expect(await countOf(partnerEngineers)).toBe(before);

    // The next day on, open-ended: fine; the same period at another firm: fine.
    const next = await t.call('POST', '/api/partner-engineer', { token: admin, body: rate({ valid_from: '2026-07-01', valid_to: null, rate: 480 }) });
    expect(next.status).toBe(201);
    expect((await t.call('POST', '/api/partner-engineer', { token: admin, body: rate({ partner_id: otherPartnerId }) })).status).toBe(201);
    // Nothing may start after the open-ended one, and moving one into another's period is refused too.
    expect((await t.call('POST', '/api/partner-engineer', { token: admin, body: rate({ valid_from: '2030-01-01', valid_to: '2030-12-31' }) })).status).toBe(422);
    const moved = await t.call('PATCH', `/api/partner-engineer/${next.body.data.id}`, { token: admin, body: { valid_from: '2026-06-01' } });
    expect(moved.status).toBe(422);
    expect(moved.body.errors).toHaveProperty('valid_from');
    // Its own period does not count against itself.
    expect((await t.call('PATCH', `/api/partner-engineer/${next.body.data.id}`, { token: admin, body: { rate: 500 } })).status).toBe(200);
  });

  it('refuses a rate of 0, a currency that is not 3 letters, an end before the start and an unknown engineer', async () => {
    const bad = await t.call('POST', '/api/partner-engineer', { token: admin, body: rate({ rate: 0, currency: 'EURO', rate_type: 'week' }) });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['currency', 'rate', 'rate_type']);
    const reversed = await t.call('POST', '/api/partner-engineer', { token: admin, body: rate({ valid_from: '2027-05-01', valid_to: '2027-04-30' }) });
    expect(reversed.status).toBe(422);
    expect(reversed.body.errors).toEqual({ valid_to: ['The last day this rate is valid cannot be before its first.'] });
    const unknown = await t.call('POST', '/api/partner-engineer', { token: admin, body: rate({ user_id: 999_999, valid_from: '2031-01-01', valid_to: null }) });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual({ user_id: ['The person you chose has been removed or cannot be chosen here. Choose another.'] });
  });

  it('offers the engineers by name', async () => {
    const options = await t.call('GET', `/api/partner-engineer/options?partner_id=${partnerId}&search=meera`, { token: admin });
    expect(options.status).toBe(200);
    expect(options.body.data.length).toBeGreaterThan(0);
    expect(options.body.data.every((o: { label: string }) => o.label === 'Meera Iyer')).toBe(true);
  });
});

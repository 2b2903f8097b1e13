// admin / manager / user and active-user: creation mails, roles, scope by type, deactivation,
// search and sort over a known dataset.
import { hash } from '@node-rs/argon2';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/server/db/schema/accounts';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';
import { samplePerson, seedUsers } from '../helpers/seed-resources';

let t: TestApp;
let admin: string;
let place: { countryId: number; cityId: number; otherCityId: number };
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  const post = (url: string, body: unknown) => t.call('POST', url, { token: admin, body });
  const countryId = (await post('/api/country', { name: 'India', code: 'IN', status: 'active' })).body.data.id;
  const otherId = (await post('/api/country', { name: 'Spain', code: 'ES', status: 'active' })).body.data.id;
  const cityId = (await post('/api/city', { name: 'Pune', country_id: countryId, status: 'active' })).body.data.id;
  const otherCityId = (await post('/api/city', { name: 'Madrid', country_id: otherId, status: 'active' })).body.data.id;
  place = { countryId, cityId, otherCityId };
});
afterAll(async () => { await t?.close(); });

describe('dashboard', () => {
  it('counts active people of every type, zero included', async () => {
    // Runs first: only the seeded admin exists, so managers and users must read 0, not be missing.
    const { data } = (await t.call('GET', '/api/dashboard', { token: admin })).body;
    expect(data).toMatchObject({ admins: 1, managers: 0, users: 0 });
    await t.createUser({ email: 'counted-manager@example.com', user_type: 'manager' });
    await t.createUser({ email: 'gone@example.com', user_type: 'user', status: 'inactive' });
    expect((await t.call('GET', '/api/dashboard', { token: admin })).body.data).toMatchObject({ admins: 1, managers: 1, users: 0 });
  });

  it('shows each figure only to those who may open its list', async () => {
    const ids = (await t.call('GET', '/api/permission?search=can-view&per_page=100', { token: admin })).body.data
      .filter((p: { name: string }) => ['can-view-dashboard', 'can-view-manager'].includes(p.name)).map((p: { id: number }) => p.id);
    await t.call('POST', '/api/role', { token: admin, body: { name: 'manager-watcher', permission_ids: ids } });
    const watcher = await t.createUser({ email: 'watcher@example.com' }, ['manager-watcher']);
    const { data } = (await t.call('GET', '/api/dashboard', { token: await watcher.token() })).body;
    expect(Object.keys(data).sort()).toEqual(['managers', 'unread_notifications']);
  });
});

describe('creating a user', () => {
  it('gives the type role, sets force_password_reset, and mails one set-password invitation whose use verifies the address', async () => {
    const manager = await t.createUser({ email: 'boss@example.com', user_type: 'manager', name: 'Boss' });
    const roles = (await t.call('GET', '/api/role?search=finance', { token: admin })).body.data;
    const res = await t.call('POST', '/api/user', {
      token: admin,
      body: {
        name: 'Neha Rao', email: 'Neha@Example.com', phone: '+91 98765 43210', parent_id: manager.id,
        country_id: place.countryId, city_id: place.cityId, status: 'active', role_ids: [roles[0].id],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('User created successfully. An invitation to set a password has been emailed.');
    const data = res.body.data;
    expect(data).toMatchObject({
      name: 'Neha Rao', email: 'neha@example.com', user_type: 'user', force_password_reset: true, email_verified_at: null,
      parent: { id: manager.id, name: 'Boss' }, country: { id: place.countryId, name: 'India' }, city: { id: place.cityId, name: 'Pune' },
    });
    expect(data.roles.map((r: { name: string }) => r.name)).toEqual(['finance', 'user']);
    expect(data).not.toHaveProperty('password');

    // Issue 14: one mail, not a verification mail beside it (the old order sent that one first).
    const invite = await t.smtp.waitFor('neha@example.com', /Set Your Password/);
    expect(t.smtp.messages.filter((m) => m.to.includes('neha@example.com')).map((m) => m.subject)).toEqual(['Set Your Password']);
    expect(invite.raw).toMatch(/invited/);
    const link = invite.links.find((l) => l.includes('/password-reset/'))!;
    // The page it opens says "Set your password", not "Reset password".
    expect(new URL(link).searchParams.get('welcome')).toBe('1');
    const token = /password-reset\/([0-9a-f]+)/.exec(link)![1];

    // The link really gives the new account a password it can sign in with.
    const reset = await t.call('POST', '/api/reset-password', { body: { token, email: 'neha@example.com', password: 'a-new-password', password_confirmation: 'a-new-password' } });
    expect(reset.status).toBe(200);
    const [row] = await t.app.db.select().from(users).where(eq(users.id, data.id));
    expect(row.email_verified_at).not.toBeNull();
    expect(row.force_password_reset).toBe(false);
    expect((await t.call('POST', '/api/login', { body: { email: 'neha@example.com', password: 'a-new-password' } })).status).toBe(200);
  });

  it('refuses a taken email, a manager who is not a manager, a city outside the country and a partner role', async () => {
    const plainUser = await t.createUser({ email: 'plain@example.com' });
    const taken = await t.call('POST', '/api/user', { token: admin, body: { name: 'X', email: 'PLAIN@example.com', status: 'active' } });
    expect(taken.status).toBe(422);
    expect(taken.body.errors).toEqual({ email: ['The email has already been taken.'] });

    const notManager = await t.call('POST', '/api/user', { token: admin, body: { name: 'X', email: 'x1@example.com', status: 'active', parent_id: plainUser.id, employee_type_id: 777 } });
    expect(notManager.body.errors).toEqual({ parent_id: ['The manager you chose has been removed or cannot be chosen here. Choose another.'], employee_type_id: ['The employee type you chose has been removed or cannot be chosen here. Choose another.'] });

    const elsewhere = await t.call('POST', '/api/user', { token: admin, body: { name: 'X', email: 'x2@example.com', status: 'active', country_id: place.countryId, city_id: place.otherCityId } });
    expect(elsewhere.body.errors).toEqual({ city_id: ['The selected city is not in the selected country.'] });

    const partnerRole = (await t.call('GET', '/api/role?search=partner', { token: admin })).body.data[0];
    const partner = await t.call('POST', '/api/user', { token: admin, body: { name: 'X', email: 'x3@example.com', status: 'active', role_ids: [partnerRole.id] } });
    expect(partner.body.errors).toEqual({ role_ids: ['One of the roles you chose has been removed or cannot be chosen here. Choose again.'] });

    const missing = await t.call('POST', '/api/manager', { token: admin, body: { email: 'not-an-email' } });
    expect(Object.keys(missing.body.errors).sort()).toEqual(['email', 'name', 'status']);
    // Issue 14: an empty address is missing, not malformed.
    const empty = await t.call('POST', '/api/user', { token: admin, body: { name: 'X', email: '', status: 'active' } });
    expect(empty.body.errors).toEqual({ email: ['The email field is required.'] });
  });
});

describe('people lists', () => {
  it('keeps each screen to its user type', async () => {
    const someone = await t.createUser({ email: 'typed@example.com', user_type: 'user' });
    expect((await t.call('GET', `/api/admin/${someone.id}`, { token: admin })).status).toBe(404);
    expect((await t.call('GET', `/api/user/${someone.id}`, { token: admin })).status).toBe(200);
    const admins = (await t.call('GET', '/api/admin?per_page=100', { token: admin })).body.data;
    expect(admins.every((u: { user_type: string }) => u.user_type === 'admin')).toBe(true);
    expect((await t.call('DELETE', `/api/manager/${someone.id}`, { token: admin })).status).toBe(404);
  });

  it('searches name, email and phone, and sorts by a whitelisted column', async () => {
    await seedUsers(t.app.db, 400, { passwordHash: await hash('unused-password'), offset: 10_000 });
    // The known dataset: 17 of these 400 people are "... Smith" (the seed is deterministic).
    const smiths = Array.from({ length: 400 }, (_, i) => samplePerson(10_000 + i)).filter((p) => p.email.includes('smith'));
    expect(smiths.length).toBe(17);
    const res = await t.call('GET', '/api/user?search=SMITH&sort=email&direction=desc&per_page=10', { token: admin });
    expect(res.body.meta.total).toBe(17);
    expect(res.body.meta.last_page).toBe(2);
    const emails = res.body.data.map((u: { email: string }) => u.email);
    expect(emails).toEqual(smiths.map((p) => p.email).sort().reverse().slice(0, 10));
    const second = await t.call('GET', '/api/user?search=smith&sort=email&direction=desc&per_page=10&page=2', { token: admin });
    expect(second.body.data).toHaveLength(7);
    expect(second.body.meta.total).toBe(17);
    // Past the last page: no rows, the total still right.
    const past = await t.call('GET', '/api/user?search=smith&per_page=10&page=5', { token: admin });
    expect(past.body.data).toEqual([]);
    expect(past.body.meta.total).toBe(17);
    // A term never spans two fields (name "... Smith" followed by an email).
    expect((await t.call('GET', `/api/user?search=${encodeURIComponent(`${smiths[0].name} ${smiths[0].email}`)}`, { token: admin })).body.meta.total).toBe(0);
    const byPhone = await t.call('GET', `/api/user?search=${encodeURIComponent(samplePerson(10_007).phone)}`, { token: admin });
    expect(byPhone.body.data.map((u: { email: string }) => u.email)).toEqual([samplePerson(10_007).email]);
    expect((await t.call('GET', '/api/user?sort=password', { token: admin })).status).toBe(422);
  });
});

describe('deactivating a user', () => {
  it('revokes their tokens at once', async () => {
    const worker = await t.createUser({ email: 'leaver@example.com' });
    const token = await worker.token();
    expect((await t.call('GET', '/api/me', { token })).status).toBe(200);
    const res = await t.call('PATCH', `/api/user/${worker.id}`, { token: admin, body: { status: 'inactive' } });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('inactive');
    expect((await t.call('GET', '/api/me', { token })).status).toBe(401);
    // Reactivating does not bring old sessions back.
    await t.call('PATCH', `/api/user/${worker.id}`, { token: admin, body: { status: 'active' } });
    expect((await t.call('GET', '/api/me', { token })).status).toBe(401);
  });

  it('refuses to deactivate or delete your own account', async () => {
    const [me] = await t.app.db.select({ id: users.id }).from(users).where(eq(users.email, ADMIN.email));
    const res = await t.call('PATCH', `/api/admin/${me.id}`, { token: admin, body: { status: 'inactive' } });
    expect(res.status).toBe(422);
    expect(res.body.errors.status).toEqual(['You cannot deactivate your own account.']);
    expect((await t.call('DELETE', `/api/admin/${me.id}`, { token: admin })).status).toBe(422);
  });

  it('replaces extra roles on update and keeps the type role', async () => {
    const worker = await t.createUser({ email: 'promoted@example.com' });
    const finance = (await t.call('GET', '/api/role?search=finance', { token: admin })).body.data[0];
    const res = await t.call('PATCH', `/api/user/${worker.id}`, { token: admin, body: { role_ids: [finance.id] } });
    expect(res.body.data.roles.map((r: { name: string }) => r.name)).toEqual(['finance', 'user']);
    const cleared = await t.call('PATCH', `/api/user/${worker.id}`, { token: admin, body: { role_ids: [] } });
    expect(cleared.body.data.roles.map((r: { name: string }) => r.name)).toEqual(['user']);
  });

  it('deletes a user and refuses to delete a country people live in', async () => {
    const country = (await t.call('POST', '/api/country', { token: admin, body: { name: 'Portugal', code: 'PT', status: 'active' } })).body.data;
    const leaving = await t.call('POST', '/api/user', { token: admin, body: { name: 'Temp', email: 'temp@example.com', status: 'active', country_id: country.id } });
    const refused = await t.call('DELETE', `/api/country/${country.id}`, { token: admin });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('This country cannot be deleted because 1 user uses it.');
    expect((await t.call('DELETE', `/api/user/${leaving.body.data.id}`, { token: admin })).body.message).toBe('User deleted successfully.');
    expect((await t.call('DELETE', `/api/country/${country.id}`, { token: admin })).status).toBe(200);
  });
});

describe('active users', () => {
  it('lists users seen by the heartbeat in the last 5 minutes, with the time', async () => {
    const recent = await t.createUser({ email: 'recent@example.com', last_activity_at: new Date(Date.now() - 60_000) });
    await t.createUser({ email: 'stale@example.com', last_activity_at: new Date(Date.now() - 10 * 60_000) });
    const res = await t.call('GET', '/api/active-user', { token: admin });
    const emails = res.body.data.map((u: { email: string }) => u.email);
    expect(emails).toContain('recent@example.com');
    expect(emails).not.toContain('stale@example.com');
    expect(res.body.data.find((u: { id: number }) => u.id === recent.id).last_activity_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect((await t.call('GET', '/api/dashboard', { token: admin })).body.data.active_users).toBeGreaterThanOrEqual(1);
    expect((await t.call('POST', '/api/active-user', { token: admin, body: {} })).status).toBe(404);
  });
});

describe('permissions without the list', () => {
  it('lets a holder of can-edit-user and can-add-user (but not can-view-user) edit anyone and pick any manager', async () => {
    // A custom role through the API, so the permission stamp and cache see it as in production.
    const ids = (await t.call('GET', '/api/permission?search=-user&per_page=100', { token: admin })).body.data
      .filter((p: { name: string }) => ['can-edit-user', 'can-add-user'].includes(p.name)).map((p: { id: number }) => p.id);
    expect(ids).toHaveLength(2);
    const role = await t.call('POST', '/api/role', { token: admin, body: { name: 'people-clerk', permission_ids: ids } });
    expect(role.status).toBe(201);
    // Issue 20: a new user holds the user role, so whoever creates one must hold its permissions too.
    const clerk = await t.createUser({ email: 'people-clerk@example.com', user_type: 'user' }, ['user', 'people-clerk']);
    const token = await clerk.token();
    const someone = await t.createUser({ email: 'someone@example.com', user_type: 'user', name: 'Someone' });
    const boss = await t.createUser({ email: 'other-boss@example.com', user_type: 'manager', name: 'Other Boss' });
    const edited = await t.call('PATCH', `/api/user/${someone.id}`, { token, body: { name: 'Someone Else' } });
    expect(edited.status).toBe(200);
    const created = await t.call('POST', '/api/user', { token, body: { name: 'Hired By Clerk', email: 'hired@example.com', parent_id: boss.id, status: 'active' } });
    expect(created.status).toBe(201);
    // The people list's choices stay closed to them: they pick only themselves (as any user picks from it).
    expect((await t.call('GET', '/api/user/options', { token })).body.data.map((o: { id: number }) => o.id)).toEqual([clerk.id]);
  });
});

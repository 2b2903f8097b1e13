// The authorisation matrix, generated from the route registry so a new route cannot skip it.
// On PostgreSQL alone in CI: who may call a route does not depend on the database, and the embedded
// driver's types through every resource's routes are walked by resources-crud.test.ts (decision 039, point 8).
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelHasRoles, partnerAccounts, partners, permissions, roleHasPermissions, roles } from '../../src/server/db/schema/accounts';
import {
  cities, clients, countries, employeeTypes, expenseCategories, positions, questionCategories, questions,
} from '../../src/server/db/schema/master-data';
import { issueToken } from '../../src/server/modules/auth/accounts';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
let tokens: { admin: string; partner: string; bare: string };
/** A real row per resource (by the URL's first segment), so `:id` reaches the handler with an id that exists. */
let rowIds: Record<string, number>;
beforeAll(async () => {
  t = await createTestApp();
  const partner = await t.createPartner({ email: 'matrix-partner@example.com' });
  // An app account with no role at all: it holds no permission.
  const bare = await t.createUser({ email: 'bare@example.com' }, []);
  tokens = { admin: await t.login(ADMIN.email, ADMIN.password), partner: await partner.token(), bare: await bare.token() };
  rowIds = await insertMatrixRows();
});
afterAll(async () => { await t?.close(); });

async function insertMatrixRows(): Promise<Record<string, number>> {
  const { db } = t.app;
  const insert = async <T extends PgTable & { id: AnyPgColumn }>(table: T, values: Record<string, unknown>) =>
    (await db.insert(table).values(values as never).returning({ id: table.id }))[0].id as number;
  const country = await insert(countries, { name: 'Matrix Land', code: 'MX' });
  const client = await insert(clients, { name: 'Matrix Client' });
  const category = await insert(questionCategories, { name: 'Matrix Category' });
  // A firm of its own: the walk may delete it, never the matrix partner's (whose logins would go with it).
  const firm = await insert(partners, { name: 'Matrix Firm', email: 'matrix-firm@example.com' });
  const person = async (email: string, userType: 'admin' | 'manager' | 'user', extra = {}) =>
    (await t.createUser({ email, user_type: userType, ...extra })).id;
  return {
    country,
    city: await insert(cities, { name: 'Matrix City', country_id: country }),
    client,
    'employee-type': await insert(employeeTypes, { name: 'Matrix Type' }),
    'expense-category': await insert(expenseCategories, { name: 'Matrix Expense' }),
    position: await insert(positions, { title: 'Matrix Position', client_id: client, location: 'Pune', count: 1 }),
    'question-category': category,
    question: await insert(questions, { question_category_id: category, question: 'Matrix?', options: ['yes', 'no'], correct_answer: 'yes', skill_level: 1 }),
    admin: await person('matrix-admin@example.com', 'admin'),
    manager: await person('matrix-manager@example.com', 'manager'),
    user: await person('matrix-user@example.com', 'user'),
    'active-user': await person('matrix-active@example.com', 'user', { last_activity_at: new Date() }),
    role: await insert(roles, { name: 'matrix-role' }),
    permission: await insert(permissions, { name: 'can-view-matrix' }),
    'ikk-partner': firm,
    // Likewise a login of its own (of another firm: deleting the one above takes its logins with it).
    'partner-account': await insert(partnerAccounts, {
      name: 'Matrix Login', email: 'matrix-login@example.com', password: 'x',
      partner_id: await insert(partners, { name: 'Matrix Login Firm', email: 'matrix-login-firm@example.com' }),
    }),
  };
}

/** Path parameters filled with integers: `:id` with a real row of the route's resource where there is one. */
const concrete = (url: string) => url.replace(/:(\w+)/g, (_, name: string) => String((name === 'id' && rowIds[url.split('/')[2]]) || 1));

/**
 * spec §6 expressions (`a|b` any, `a&b` all) as the permission sets that satisfy them, one per
 * alternative, and the sets that must not: every permission but the ones named (and, for `a&b`,
 * every permission but one of them).
 */
function permissionSets(expression: string, every: readonly string[]): { grants: string[][]; denials: string[][] } {
  const alternatives = expression.split('|').map((alternative) => alternative.split('&').map((name) => name.trim()));
  const named = [...new Set(alternatives.flat())];
  const without = (excluded: string[]) => every.filter((name) => !excluded.includes(name));
  const isConjunction = alternatives.length === 1 && alternatives[0].length > 1;
  return { grants: alternatives, denials: isConjunction ? named.map((name) => without([name])) : [without(named)] };
}

/** A token of an app user whose only role holds exactly `held`; one user per distinct set. */
const holders = new Map<string, Promise<string>>();
function tokenHolding(held: string[]): Promise<string> {
  const key = [...held].sort().join(',');
  const n = holders.size;
  if (!holders.has(key)) holders.set(key, (async () => {
    const { db } = t.app;
    const ids = new Map((await db.select({ id: permissions.id, name: permissions.name }).from(permissions)).map((p) => [p.name, p.id]));
    for (const name of held) expect(ids.has(name), `permission ${name} exists`).toBe(true);
    const [role] = await db.insert(roles).values({ name: `matrix-holder-${n}` }).returning({ id: roles.id });
    if (held.length) await db.insert(roleHasPermissions).values(held.map((name) => ({ role_id: role.id, permission_id: ids.get(name)! })));
    const user = await t.createUser({ email: `matrix-holder-${n}@example.com` }, []);
    await db.insert(modelHasRoles).values({ role_id: role.id, account_type: 'app', account_id: user.id });
    // Issued directly: a login per user would cost a password hash check each.
    return issueToken(db, 'app', user.id);
  })());
  return holders.get(key)!;
}

describe('route registry', () => {
  it('declares who may call every /api route', () => {
    expect(t.app.routeRegistry.length).toBeGreaterThan(20);
    for (const route of t.app.routeRegistry) expect(['none', 'app', 'partner', 'any', 'capability']).toContain(route.auth);
  });

  it('opens no capability route without a live link of its purpose, whoever calls', async () => {
    // Public pages (the candidate form, assessments): an unknown token gets the same plain 404 as an
    // expired or revoked one (tests/api/capability.test.ts), and a signed-in account changes nothing.
    for (const route of t.app.routeRegistry.filter((r) => r.auth === 'capability')) {
      const url = route.url.includes(':token') ? concrete(route.url.replace(':token', 'A'.repeat(43))) : `${concrete(route.url)}?token=${'A'.repeat(43)}`;
      for (const token of [undefined, tokens.admin]) {
        const res = await t.call(route.method as 'GET', url, { token, body: {} });
        expect(res.status, `${route.method} ${route.url}`).toBe(404);
        expect(res.body).toEqual({ message: 'This link is invalid or has expired.' });
      }
    }
  });

  it('refuses anonymous callers on every authenticated route', async () => {
    for (const route of t.app.routeRegistry.filter((r) => r.auth !== 'none' && r.auth !== 'capability')) {
      const res = await t.call(route.method as 'GET', concrete(route.url));
      expect(res.status, `${route.method} ${route.url}`).toBe(401);
    }
  });

  it('refuses the wrong account type', async () => {
    for (const route of t.app.routeRegistry.filter((r) => r.auth === 'app' || r.auth === 'partner')) {
      const token = route.auth === 'app' ? tokens.partner : tokens.admin;
      const res = await t.call(route.method as 'GET', concrete(route.url), { token });
      expect(res.status, `${route.method} ${route.url}`).toBe(401);
    }
  });

  // Runs before the "lets through" case below: refused calls change nothing, allowed ones may delete the matrix rows.
  it('refuses an app user holding no permission, or every permission but the route\'s', async () => {
    const guarded = t.app.routeRegistry.filter((r) => r.auth === 'app' && r.permission);
    expect(guarded.length).toBeGreaterThan(100);
    const every = (await t.app.db.select({ name: permissions.name }).from(permissions)).map((p) => p.name);
    for (const route of guarded) {
      const { denials } = permissionSets(route.permission!, every);
      for (const token of [tokens.bare, ...await Promise.all(denials.map(tokenHolding))]) {
        const denied = await t.call(route.method as 'GET', concrete(route.url), { token, body: {} });
        expect(denied.status, `${route.method} ${route.url}`).toBe(403);
        expect(denied.body.message).toBe('This action is unauthorized.');
      }
    }
  });

  it('lets through an app user holding only the permissions of one alternative of the route\'s expression', async () => {
    // Reads first: a DELETE of a matrix row must not leave a later read of that row (a module's own
    // route on it, registered after the resource's) without its record.
    const guarded = t.app.routeRegistry.filter((r) => r.auth === 'app' && r.permission)
      .sort((a, b) => Number(a.method !== 'GET') - Number(b.method !== 'GET'));
    for (const route of guarded) {
      for (const held of permissionSets(route.permission!, []).grants) {
        const res = await t.call(route.method as 'GET', concrete(route.url), { token: await tokenHolding(held), body: {} });
        // Past the gate: a read of a real row succeeds; a write with an empty JSON body may meet its validation
        // (422, or 415 where a file upload is expected), a missing or used record (404, 409), but never a
        // refusal or a crash.
        const label = `${route.method} ${route.url} holding ${held.join('&')}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`;
        // (Rows scoped to their owner, such as time sheets, have no matrix row: an unknown id is a 404 there.)
        const hasRealRow = !route.url.includes(':id') || !!rowIds[route.url.split('/')[2]];
        if (route.method === 'GET') expect(hasRealRow ? [200] : [200, 404], label).toContain(res.status);
        // Issue 20: an admin's account is an admin's to change; its route's permission alone takes a non-admin no further.
        // Issue 22: and so is importing admins.
        else if (/^\/api\/(admin|import\/admin)(\/|$)/.test(route.url) && res.status === 403) expect(res.body.message, label).toMatch(/^Only an admin can (create|edit|delete) an admin account\.$/);
        else expect([200, 201, 204, 404, 409, 415, 422], label).toContain(res.status);
      }
    }
  });
});

describe('malformed input', () => {
  it('answers malformed JSON with 400 and a clear message', async () => {
    const res = await t.call('POST', '/api/login', { body: '{"email":', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The request body is not valid JSON.');
  });

  it('answers wrong field types with 422', async () => {
    const res = await t.call('POST', '/api/login', { body: { email: 42, password: ['x'] } });
    expect(res.status).toBe(422);
    expect(res.body.errors.email).toBeDefined();
    expect(res.body.errors.password).toBeDefined();
  });

  it('answers an oversize body with 413', async () => {
    const res = await t.call('POST', '/api/login', { body: JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(2 * 1024 * 1024) }), headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(413);
  });

  it('answers an unsupported content type with 415', async () => {
    const res = await t.call('POST', '/api/login', { body: '<xml/>', headers: { 'content-type': 'application/xml' } });
    expect(res.status).toBe(415);
  });

  it('answers unknown API routes with a JSON 404', async () => {
    const res = await t.call('GET', '/api/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body.message).toMatch(/could not be found/);
  });

  it('refuses a mismatched XSRF token with 419 and accepts the issued one', async () => {
    const cookie = await t.call('GET', '/sanctum/csrf-cookie');
    expect(cookie.status).toBe(204);
    const value = /XSRF-TOKEN=([^;]+)/.exec(String(cookie.headers['set-cookie']))![1];
    const mismatch = await t.call('POST', '/api/login', { body: ADMIN, headers: { cookie: `XSRF-TOKEN=${value}`, 'x-xsrf-token': 'forged' } });
    expect(mismatch.status).toBe(419);
    const ok = await t.call('POST', '/api/login', { body: ADMIN, headers: { cookie: `XSRF-TOKEN=${value}`, 'x-xsrf-token': value } });
    expect(ok.status).toBe(200);
  });
});

describe('announcement', () => {
  it('is stored, validated and returned by login and me', async () => {
    const invalid = await t.call('PUT', '/api/setting/announcement', { token: tokens.admin, body: { status: 'on', message: '' } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors.message).toBeDefined();
    const badAudience = await t.call('PUT', '/api/setting/announcement', { token: tokens.admin, body: { status: 'on', message: 'Hi', audience: 'everyone' } });
    expect(badAudience.status).toBe(422);
    expect(badAudience.body.errors.audience).toEqual(['Choose who the announcement is for.']);
    const saved = await t.call('PUT', '/api/setting/announcement', { token: tokens.admin, body: { status: 'on', message: 'Office closed Friday' } });
    expect(saved.body.data).toEqual({ status: 'on', message: 'Office closed Friday', audience: 'staff' });
    expect((await t.call('GET', '/api/setting/announcement', { token: tokens.admin })).body.data).toEqual(saved.body.data);
    expect((await t.call('GET', '/api/me', { token: tokens.admin })).body.announcement).toEqual({ status: 'on', message: 'Office closed Friday' });
    expect((await t.call('POST', '/api/login', { body: ADMIN })).body.announcement.status).toBe('on');
  });

  it('shows partners only what is meant for them, at login and in /partner/me (issue 20)', async () => {
    const partnerSees = async () => (await t.call('GET', '/api/partner/me', { token: tokens.partner })).body.announcement;
    const put = (body: Record<string, string>) => t.call('PUT', '/api/setting/announcement', { token: tokens.admin, body });
    expect((await put({ status: 'on', message: 'Staff party on Friday', audience: 'staff' })).status).toBe(200);
    expect(await partnerSees()).toEqual({ status: 'off', message: '' });
    await put({ status: 'on', message: 'Invoices are paid on the 5th', audience: 'partners' });
    expect(await partnerSees()).toEqual({ status: 'on', message: 'Invoices are paid on the 5th' });
    expect((await t.call('GET', '/api/me', { token: tokens.admin })).body.announcement).toEqual({ status: 'off', message: '' });
    await put({ status: 'on', message: 'Office closed Friday', audience: 'both' });
    expect(await partnerSees()).toEqual({ status: 'on', message: 'Office closed Friday' });
    expect((await t.call('GET', '/api/me', { token: tokens.admin })).body.announcement).toEqual({ status: 'on', message: 'Office closed Friday' });
  });
});

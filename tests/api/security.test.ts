// The authorisation matrix, generated from the route registry so a new route cannot skip it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
let tokens: { admin: string; partner: string; bare: string };
beforeAll(async () => {
  t = await createTestApp();
  const partner = await t.createPartner({ email: 'matrix-partner@example.com' });
  // An app account with no role at all: it holds no permission.
  const bare = await t.createUser({ email: 'bare@example.com' }, []);
  tokens = { admin: await t.login(ADMIN.email, ADMIN.password), partner: await partner.token(), bare: await bare.token() };
});
afterAll(async () => { await t?.close(); });

const concrete = (url: string) => url.replace(/:(\w+)/g, (_, name: string) => (name === 'id' ? '00000000-0000-4000-8000-000000000000' : '1'));

describe('route registry', () => {
  it('declares who may call every /api route', () => {
    expect(t.app.routeRegistry.length).toBeGreaterThan(20);
    for (const route of t.app.routeRegistry) expect(['none', 'app', 'partner', 'any']).toContain(route.auth);
  });

  it('refuses anonymous callers on every authenticated route', async () => {
    for (const route of t.app.routeRegistry.filter((r) => r.auth !== 'none')) {
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

  it('refuses an app user without the route\'s permission, and lets one with it through', async () => {
    const guarded = t.app.routeRegistry.filter((r) => r.auth === 'app' && r.permission);
    expect(guarded.length).toBeGreaterThan(0);
    for (const route of guarded) {
      const denied = await t.call(route.method as 'GET', concrete(route.url), { token: tokens.bare, body: {} });
      expect(denied.status, `${route.method} ${route.url}`).toBe(403);
      expect(denied.body.message).toBe('This action is unauthorized.');
      const allowed = await t.call(route.method as 'GET', concrete(route.url), { token: tokens.admin, body: {} });
      expect(allowed.status, `${route.method} ${route.url}`).not.toBe(403);
      expect(allowed.status).not.toBe(401);
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
    const saved = await t.call('PUT', '/api/setting/announcement', { token: tokens.admin, body: { status: 'on', message: 'Office closed Friday' } });
    expect(saved.body.data).toEqual({ status: 'on', message: 'Office closed Friday' });
    expect((await t.call('GET', '/api/me', { token: tokens.admin })).body.announcement).toEqual({ status: 'on', message: 'Office closed Friday' });
    expect((await t.call('POST', '/api/login', { body: ADMIN })).body.announcement.status).toBe('on');
    expect((await t.call('GET', '/api/partner/me', { token: tokens.partner })).body.announcement.message).toBe('Office closed Friday');
  });
});

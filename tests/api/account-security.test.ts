// Issue 15: what a stolen token, a deactivation or a hostile visitor can still do. The socket side
// (revoked sessions closing their sockets, the private announcement channel, the channel cap) is in
// tests/realtime/sessions.test.ts and tests/realtime/limits.test.ts.
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { users } from '../../src/server/db/schema/accounts';
import { clients, employeeTypes } from '../../src/server/db/schema/master-data';
import { fileFieldsOf } from '../../src/server/resources/attachments';
import { registeredResources } from '../../src/server/resources/register';
import { ADMIN, createTestApp, TEST_PASSWORD, type TestApp } from '../helpers/app';
import { multipart } from '../helpers/multipart';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const TOO_MANY = /^Too many attempts\. Please try again in (\d+) seconds\.$/;
const secondsOf = (message: string) => Number(TOO_MANY.exec(message)?.[1]);

/** A login from a chosen address, with the known-device cookie when given; answers the status, body and the cookie set. */
async function loginFrom(ip: string, email: string, password: string, cookie?: string) {
  const response = await t.app.inject({
    method: 'POST', url: '/api/login', remoteAddress: ip, payload: { email, password },
    headers: cookie ? { cookie } : {},
  } as InjectOptions);
  const setCookie = [response.headers['set-cookie'] ?? []].flat().find((value) => value.startsWith('known_device='));
  return { status: response.statusCode, body: response.json(), cookie: setCookie?.split(';')[0] };
}

describe('changing the email (issue 15)', () => {
  it('needs the current password, and changes nothing without it or with a wrong one', async () => {
    const user = await t.createUser({ email: 'stolen-token@example.com' });
    const token = await user.token();
    const before = t.smtp.messages.length;
    const missing = await t.call('PATCH', '/api/profile', { token, body: { name: 'Mallory', email: 'mallory@example.com' } });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ current_password: ['Enter your current password to change your email address.'] });
    const wrong = await t.call('PATCH', '/api/profile', { token, body: { name: 'Mallory', email: 'mallory@example.com', current_password: 'a-guess' } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ current_password: ['The current password is incorrect.'] });
    const [row] = await t.app.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ name: 'Test User', email: 'stolen-token@example.com' });
    expect(row.email_verified_at).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(t.smtp.messages.slice(before)).toEqual([]);
    // Name and phone still change without it.
    expect((await t.call('PATCH', '/api/profile', { token, body: { name: 'Renamed', email: 'stolen-token@example.com' } })).status).toBe(200);
  });

  it('keeps the old address for sign-in and reset links until the new one is verified, and tells the old address', async () => {
    const user = await t.createUser({ email: 'keeper@example.com' });
    const token = await user.token();
    const changed = await t.call('PATCH', '/api/profile', { token, body: { name: 'Keeper', email: 'keeper-new@example.com', current_password: TEST_PASSWORD } });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ email: 'keeper@example.com', email_verified_at: expect.any(String) });

    const notice = await t.smtp.waitFor('keeper@example.com', /^Email Address Change Requested$/);
    expect(notice.raw).toContain('keeper-new@example.com');
    expect(notice.links).toContain('http://localhost:8000/forgot-password');
    const link = await t.smtp.waitFor('keeper-new@example.com', /^Verify Email Address$/);

    // Nothing moved yet: sign-in and reset links stay with the old address; the account is not held up (no 409).
    expect((await t.call('GET', '/api/dashboard', { token })).status).toBe(200);
    expect((await loginFrom('192.0.2.200', 'keeper-new@example.com', TEST_PASSWORD)).status).toBe(422);
    expect((await loginFrom('192.0.2.200', 'keeper@example.com', TEST_PASSWORD)).status).toBe(200);
    await t.call('POST', '/api/forgot-password', { body: { email: 'keeper-new@example.com' } });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(t.smtp.messages.some((m) => m.to.includes('keeper-new@example.com') && /Reset Password/.test(m.subject))).toBe(false);

    const apiUrl = new URL(new URL(link.links.find((l) => l.includes('verification_url='))!).searchParams.get('verification_url')!);
    expect((await t.call('GET', apiUrl.pathname + apiUrl.search)).body).toEqual({ message: 'Your email address has been changed.', status: 'VERIFIED' });
    expect((await loginFrom('192.0.2.201', 'keeper-new@example.com', TEST_PASSWORD)).status).toBe(200);
    expect((await loginFrom('192.0.2.201', 'keeper@example.com', TEST_PASSWORD)).status).toBe(422);
    // Used once: the link now matches the account's own, verified address.
    expect((await t.call('GET', apiUrl.pathname + apiUrl.search)).body.status).toBe('ALREADY_VERIFIED');
  });

  it('lets a newer request replace the pending one, resends its link, and refuses an address taken meanwhile', async () => {
    const user = await t.createUser({ email: 'twice@example.com' });
    const token = await user.token();
    const linkOf = async (email: string) => {
      const mail = await t.smtp.waitFor(email, /^Verify Email Address$/);
      return new URL(new URL(mail.links.find((l) => l.includes('verification_url='))!).searchParams.get('verification_url')!);
    };
    await t.call('PATCH', '/api/profile', { token, body: { name: 'T', email: 'first-choice@example.com', current_password: TEST_PASSWORD } });
    const first = await linkOf('first-choice@example.com');
    await t.call('PATCH', '/api/profile', { token, body: { name: 'T', email: 'second-choice@example.com', current_password: TEST_PASSWORD } });
    expect((await t.call('GET', first.pathname + first.search)).status).toBe(403);

    const resent = await t.call('POST', '/api/email/verification-notification', { token });
    expect(resent.body.status).toBe('VERIFICATION_LINK_SENT');
    await t.smtp.waitFor('second-choice@example.com', /^Verify Email Address$/);
    const second = await linkOf('second-choice@example.com');
    await t.createUser({ email: 'second-choice@example.com' });
    const taken = await t.call('GET', second.pathname + second.search);
    expect(taken.status).toBe(409);
    expect((await t.call('GET', '/api/me', { token })).body.data.email).toBe('twice@example.com');
  });

  it('backs off guesses of the current password made with a stolen token', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const user = await t.createUser({ email: 'guessed@example.com' });
    const token = await user.token();
    const attempt = (password: string) => t.call('PUT', '/api/password', { token, body: { current_password: password, password: 'a-new-password', password_confirmation: 'a-new-password' } });
    for (let i = 0; i < 5; i++) expect((await attempt(`guess-${i}`)).status).toBe(422);
    const blocked = await attempt(TEST_PASSWORD);
    expect(blocked.status).toBe(429);
    expect(secondsOf(blocked.body.message)).toBeLessThanOrEqual(60);
    vi.setSystemTime(Date.now() + 61_000);
    expect((await attempt(TEST_PASSWORD)).status).toBe(200);
  });
});

describe('changing the password (issue 15)', () => {
  it('signs out every other session of the account and keeps the one that changed it', async () => {
    const user = await t.createUser({ email: 'two-devices@example.com' });
    const laptop = await user.token();
    const stolen = await user.token();
    const other = await t.createUser({ email: 'bystander@example.com' });
    const bystander = await other.token();
    const changed = await t.call('PUT', '/api/password', { token: laptop, body: { current_password: TEST_PASSWORD, password: 'a-new-password', password_confirmation: 'a-new-password' } });
    expect(changed.status).toBe(200);
    expect((await t.call('GET', '/api/me', { token: stolen })).status).toBe(401);
    expect((await t.call('GET', '/api/me', { token: laptop })).status).toBe(200);
    expect((await t.call('GET', '/api/me', { token: bystander })).status).toBe(200);
  });
});

describe('the login throttle (issue 15)', () => {
  it('holds back one address after five wrong passwords, and nobody else', async () => {
    await t.createUser({ email: 'target-one@example.com' });
    for (let i = 0; i < 5; i++) expect((await loginFrom('198.51.100.7', 'target-one@example.com', 'wrong-password')).status).toBe(422);
    const blocked = await loginFrom('198.51.100.7', 'target-one@example.com', TEST_PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toMatch(TOO_MANY);
    // The owner, elsewhere, is not kept out by someone else's guesses.
    expect((await loginFrom('198.51.100.8', 'target-one@example.com', TEST_PASSWORD)).status).toBe(200);
  });

  it('never holds back a correct password from a device that signed in to the account before', async () => {
    await t.createUser({ email: 'admin-under-attack@example.com' });
    const home = '203.0.113.5';
    const { cookie, status } = await loginFrom(home, 'admin-under-attack@example.com', TEST_PASSWORD);
    expect(status).toBe(200);
    expect(cookie).toMatch(/^known_device=/);

    // Guesses from twenty addresses, then five more from the owner's own office address.
    for (let i = 0; i < 20; i++) expect((await loginFrom(`198.51.101.${i}`, 'admin-under-attack@example.com', 'guess')).status).toBe(422);
    for (let i = 0; i < 5; i++) await loginFrom(home, 'admin-under-attack@example.com', 'guess');
    expect((await loginFrom(home, 'admin-under-attack@example.com', TEST_PASSWORD)).status).toBe(429);
    expect((await loginFrom('198.51.102.1', 'admin-under-attack@example.com', TEST_PASSWORD)).status).toBe(429);

    expect((await loginFrom(home, 'admin-under-attack@example.com', TEST_PASSWORD, cookie)).status).toBe(200);
    expect((await loginFrom('198.51.102.2', 'admin-under-attack@example.com', TEST_PASSWORD, cookie)).status).toBe(200);
  });

  it('believes a device cookie only for the account it was issued to, and only with its signature intact', async () => {
    await t.createUser({ email: 'cookie-owner@example.com' });
    await t.createUser({ email: 'cookie-victim@example.com' });
    const { cookie } = await loginFrom('203.0.113.20', 'cookie-owner@example.com', TEST_PASSWORD);
    for (let i = 0; i < 5; i++) await loginFrom('203.0.113.20', 'cookie-victim@example.com', 'guess', cookie);
    expect((await loginFrom('203.0.113.20', 'cookie-victim@example.com', TEST_PASSWORD, cookie)).status).toBe(429);
    // A forged list of accounts breaks the signature.
    const [name, value] = cookie!.split('=');
    const parts = value.split('.');
    const forged = `${name}=${[parts[0], parts[1], `${parts[2]},999999`, parts[3]].join('.')}`;
    expect((await loginFrom('203.0.113.20', 'cookie-victim@example.com', TEST_PASSWORD, forged)).status).toBe(429);
  });

  it('backs off a known device after its own wrong passwords', async () => {
    await t.createUser({ email: 'clumsy@example.com' });
    const { cookie } = await loginFrom('203.0.113.30', 'clumsy@example.com', TEST_PASSWORD);
    for (let i = 0; i < 10; i++) expect((await loginFrom('203.0.113.30', 'clumsy@example.com', 'guess', cookie)).status).toBe(422);
    expect((await loginFrom('203.0.113.30', 'clumsy@example.com', TEST_PASSWORD, cookie)).status).toBe(429);
  });

  it('doubles the wait with each wrong password after a block', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    await t.createUser({ email: 'patient@example.com' });
    const ip = '198.51.100.60';
    for (let i = 0; i < 5; i++) await loginFrom(ip, 'patient@example.com', 'guess');
    const first = await loginFrom(ip, 'patient@example.com', 'guess');
    expect(first.status).toBe(429);
    expect(secondsOf(first.body.message)).toBeLessThanOrEqual(60);
    vi.setSystemTime(Date.now() + 61_000);
    expect((await loginFrom(ip, 'patient@example.com', 'guess')).status).toBe(422);
    const second = await loginFrom(ip, 'patient@example.com', TEST_PASSWORD);
    expect(second.status).toBe(429);
    expect(secondsOf(second.body.message)).toBeGreaterThan(60);
    expect(secondsOf(second.body.message)).toBeLessThanOrEqual(120);
  });

  it('never limits successful logins from one address (an office behind one NAT)', async () => {
    const office = '192.0.2.250';
    const statuses: number[] = [];
    for (let i = 0; i < 70; i++) statuses.push((await loginFrom(office, ADMIN.email, ADMIN.password)).status);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  });
});

describe('CSV export (issue 15)', () => {
  // A page of rows goes out through the database session's prepareQuery (queries.ts selectRows): the
  // export's pages are the statements reading employee_types with a limit.
  type Prepare = (query: { sql: string }, ...rest: unknown[]) => unknown;
  const sessionOf = () => (t.app.db as unknown as { session: { prepareQuery: Prepare } }).session;
  const isEmployeeTypePage = (query: { sql: string }) => query.sql.includes('from "employee_types"') && query.sql.includes(' limit ');

  it('answers an error status, and no file, when the export\'s query fails', async () => {
    const admin = await t.login(ADMIN.email, ADMIN.password);
    const session = sessionOf();
    const prepare = session.prepareQuery.bind(session);
    vi.spyOn(session, 'prepareQuery').mockImplementation(((query, ...rest) => {
      if (isEmployeeTypePage(query)) throw new Error('the database went away');
      return prepare(query, ...rest);
    }) as Prepare);
    const res = await t.call('GET', '/api/employee-type/export', { token: admin });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ message: 'Server Error' });
    expect(res.headers['content-disposition']).toBeUndefined();
  });

  it('cuts a download whose later page fails, so the client reports a failure instead of saving a short file', async () => {
    const admin = await t.login(ADMIN.email, ADMIN.password);
    await t.app.db.insert(employeeTypes).values(Array.from({ length: 600 }, (_, i) => ({ name: `Cut Type ${String(i).padStart(4, '0')}` })));
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    const session = sessionOf();
    const prepare = session.prepareQuery.bind(session);
    let pages = 0;
    vi.spyOn(session, 'prepareQuery').mockImplementation(((query, ...rest) => {
      if (isEmployeeTypePage(query) && ++pages === 2) throw new Error('the database went away');
      return prepare(query, ...rest);
    }) as Prepare);
    const response = await fetch(`http://127.0.0.1:${port}/api/employee-type/export?search=Cut%20Type`, { headers: { authorization: `Bearer ${admin}` } });
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
  });
});

describe('OpenAPI document (issue 15)', () => {
  it('describes POST /api/broadcasting/auth and the multipart bodies', async () => {
    const document = (await t.call('GET', '/api/docs/json')).body;
    const auth = document.paths['/api/broadcasting/auth'].post;
    expect(Object.keys(auth.requestBody.content).sort()).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    expect(Object.keys(auth.requestBody.content['application/x-www-form-urlencoded'].schema.properties).sort()).toEqual(['channel_name', 'socket_id']);
    expect(Object.keys(auth.responses['200'].content['application/json'].schema.properties).sort()).toEqual(['auth', 'channel_data']);
    expect(Object.keys(auth.responses).sort()).toEqual(['200', '401', '403', '422']);

    const upload = document.paths['/api/time-sheet'].post.requestBody.content['multipart/form-data'].schema;
    expect(upload.properties.file).toEqual({ type: 'string', format: 'binary' });
    expect(upload.properties).toHaveProperty('client_id');
    expect(upload.properties).toHaveProperty('hours');
    expect(upload.required).toContain('file');

    // Every resource with file fields takes them as multipart on create and update.
    for (const { definition } of registeredResources(t.app)) {
      const files = fileFieldsOf(definition);
      if (!files.length) continue;
      // Where the resource is written: its own routes, and the partner portal's for a partner-owned one.
      const areas = [
        { base: `/api/${definition.name}`, permissions: definition.permissions },
        ...(definition.owner ? [{ base: `/api/partner/${definition.owner.segment}`, permissions: definition.owner.permissions }] : []),
      ];
      const writes = areas.flatMap(({ base, permissions }) => [
        ...(permissions.add ? [['post', base]] : []),
        ...(permissions.edit ? [['put', `${base}/{id}`], ['patch', `${base}/{id}`]] : []),
      ]);
      // A file written only by a route of the resource's own (an assignment's returned copy) is not a form field.
      if (!writes.length) continue;
      for (const [method, path] of writes) {
        const form = document.paths[path]?.[method]?.requestBody?.content?.['multipart/form-data']?.schema;
        expect({ method, path, files: Object.keys(form?.properties ?? {}).filter((key) => files.some(([file]) => file === key)) })
          .toEqual({ method, path, files: files.map(([key]) => key) });
      }
    }
  });
});

describe('time-sheet download (issue 15)', () => {
  it('serves a .csv holding HTML as text, never as the type the uploader declared', async () => {
    const manager = await t.createUser({ email: 'sheet-manager@example.com', user_type: 'manager' });
    const engineer = await t.createUser({ email: 'sheet-engineer@example.com', user_type: 'user', parent_id: manager.id });
    const [client] = await t.app.db.insert(clients).values({ name: 'Download Client' }).returning();
    const token = await engineer.token();
    const form = multipart({ client_id: client.id, period_type: 'month', period_start: '2025-02-01', hours: 160 },
      { name: 'february.csv', type: 'text/html', content: '<html><body><script>alert(document.cookie)</script></body></html>\n' });
    const uploaded = await t.call('POST', '/api/time-sheet', { token, body: form.body, headers: form.headers });
    expect(uploaded.status).toBe(201);
    const download = await t.call('GET', `/api/time-sheet/${uploaded.body.data.id}/file`, { token });
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).not.toMatch(/html/);
    expect(download.headers['content-type']).toMatch(/^text\/(csv|plain); charset=utf-8$/);
    expect(download.headers['content-disposition']).toMatch(/^attachment/);
  });
});

// Issue 14: malformed input answers a clear 4xx and changes nothing; any file name round-trips;
// refused answers carry the security headers; forgot-password costs the same for known and unknown
// addresses; a manager with reports is not deleted. (tests/api/malformed-input-*.test.ts walk every
// route with such values; this file pins the answers themselves.)
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/server/db/schema/accounts';
import { clients, countries, expenseCategories } from '../../src/server/db/schema/master-data';
import type { Mailer } from '../../src/server/plugins/mail';
import { helmetHeaders } from '../../src/server/plugins/security-headers';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';
import { multipart, PDF } from '../helpers/multipart';

let t: TestApp;
let admin: string;
let clientId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  [{ id: clientId }] = await t.app.db.insert(clients).values({ name: 'Contoso' }).returning();
});
afterAll(async () => { await t?.close(); });

const storedFiles = (area: string) => {
  try { return readdirSync(join(t.app.config.dataDir, 'files', area)).length; } catch { return 0; }
};
const countryCount = async () => (await t.app.db.select().from(countries)).length;

describe('malformed input', () => {
  it('refuses a NUL character in a JSON value, a key, a search term or a path with a 422 naming the field', async () => {
    const before = await countryCount();
    const body = await t.call('POST', '/api/country', { token: admin, body: { name: 'Ger\u0000many', code: 'DE', status: 'active' } });
    expect(body.status).toBe(422);
    expect(body.body.errors).toEqual({ name: ['The name field must not contain a NUL character.'] });
    const nested = await t.call('POST', '/api/question-category', { token: admin, body: { name: 'Ok', status: 'active', extra: { deep: ['x\u0000'] } } });
    expect(nested.body.errors).toEqual({ 'extra.deep.0': ['The extra.deep.0 field must not contain a NUL character.'] });
    const search = await t.call('GET', '/api/country?search=a%00b', { token: admin });
    expect(search.status).toBe(422);
    expect(search.body.errors).toEqual({ search: ['The search field must not contain a NUL character.'] });
    expect((await t.call('GET', '/api/country/1%00', { token: admin })).status).toBe(422);
    expect(await countryCount()).toBe(before);
  });

  it('refuses dates PostgreSQL cannot hold, in filters and in bodies', async () => {
    for (const value of ['0000-01-01', '10000-01-01']) {
      const filter = await t.call('GET', `/api/country?created_at_from=${value}`, { token: admin });
      expect(filter.status).toBe(422);
      expect(filter.body.errors.created_at_from).toEqual(['The date must be a real date in the format YYYY-MM-DD.']);
      const holiday = await t.call('POST', '/api/holiday', { token: admin, body: { date: value, name: 'Year zero' } });
      expect(holiday.status).toBe(422);
      expect(holiday.body.errors.date).toBeDefined();
    }
    expect((await t.call('GET', '/api/country?created_at_from=0001-01-01&created_at_to=9999-12-31', { token: admin })).status).toBe(200);
  });

  it('answers 400 to multipart without a boundary or cut short, and keeps no file', async () => {
    const token = admin;
    const files = storedFiles('time-sheets');
    const noBoundary = await t.call('POST', '/api/time-sheet', { token, body: 'x', headers: { 'content-type': 'multipart/form-data' } });
    expect(noBoundary).toMatchObject({ status: 400, body: { message: 'The multipart body has no boundary in its Content-Type.' } });
    const form = multipart({ client_id: clientId, period_type: 'month', period_start: '2026-01-01', hours: 160 }, { name: 'jan.pdf', type: 'application/pdf', content: PDF });
    const truncated = await t.call('POST', '/api/time-sheet', { token, body: form.body.subarray(0, form.body.length - 20), headers: form.headers });
    expect(truncated).toMatchObject({ status: 400, body: { message: 'The multipart body ended before it was complete.' } });
    const longType = await t.call('POST', '/api/time-sheet', { token, body: form.body, headers: { 'content-type': `multipart/form-data; boundary=${'b'.repeat(170)}` } });
    expect(longType.status).toBeGreaterThanOrEqual(400);
    expect(longType.status).toBeLessThan(500);
    expect(storedFiles('time-sheets')).toBe(files);
  });

  it('refuses a NUL in a multipart field or file name, and an id beyond PostgreSQL\'s integer, leaving no file', async () => {
    const files = storedFiles('time-sheets');
    const send = (fields: Record<string, string | number>, name = 'jan.pdf') => {
      const form = multipart({ client_id: clientId, period_type: 'month', period_start: '2026-01-01', hours: 160, ...fields }, { name, type: 'application/pdf', content: PDF });
      return t.call('POST', '/api/time-sheet', { token: admin, body: form.body, headers: form.headers });
    };
    expect((await send({ note: 'a\u0000b' })).body.errors).toEqual({ note: ['The note field must not contain a NUL character.'] });
    expect((await send({}, 'ja\u0000n.pdf')).body.errors).toEqual({ file: ['The file name must not contain a NUL character.'] });
    expect((await send({ client_id: '2147483648' })).body.errors).toEqual({ client_id: ['The client you chose has been removed or cannot be chosen here. Choose another.'] });
    expect((await send({ period_start: '0000-01-01' })).body.errors.period_start).toBeDefined();
    expect(storedFiles('time-sheets')).toBe(files);
  });
});

describe('file names', () => {
  const names = ['समय.pdf', '😀.pdf', 'week\u0001one.pdf', "Zoë's; 100% (final).pdf"];

  /** The name a browser saves the download as: RFC 5987's filename* when given, else filename. */
  const savedAs = (header: string) => {
    const encoded = /filename\*=UTF-8''([^;]+)/.exec(header)?.[1];
    return encoded ? decodeURIComponent(encoded) : /filename="([^"]*)"/.exec(header)?.[1];
  };

  it('round-trips any Unicode name through a time-sheet upload and its download', async () => {
    for (const [index, name] of names.entries()) {
      const form = multipart({ client_id: clientId, period_type: 'month', period_start: `2024-${String(index + 1).padStart(2, '0')}-01`, hours: 100 }, { name, type: 'application/pdf', content: PDF });
      const uploaded = await t.call('POST', '/api/time-sheet', { token: admin, body: form.body, headers: form.headers });
      expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
      expect(uploaded.body.data.file_name).toBe(name);
      const download = await t.app.inject({ method: 'GET', url: `/api/time-sheet/${uploaded.body.data.id}/file`, headers: { authorization: `Bearer ${admin}` } });
      expect(download.statusCode).toBe(200);
      const header = String(download.headers['content-disposition']);
      expect(header).toMatch(/^attachment; filename="[\x20-\x7e]*"; filename\*=UTF-8''[\x21-\x7e]+$/);
      expect(savedAs(header)).toBe(name);
      expect(download.headers['content-type']).toBe('application/pdf');
    }
  });

  it('round-trips them through a generic file field (expense receipts) and its attachment download', async () => {
    const [{ id: categoryId }] = await t.app.db.insert(expenseCategories).values({ name: 'Travel' }).returning();
    const boundary = `----test${randomBytes(8).toString('hex')}`;
    const fields = { description: 'Taxi', expense_category_id: categoryId, expense_date: '2026-03-02', amount: 12.5, currency: 'INR', client_id: clientId, is_rebillable: false };
    const chunks = Object.entries(fields).map(([key, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="expense[${key}]"\r\n\r\n${value}\r\n`));
    for (const name of names) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="expense[receipts][]"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`), PDF, Buffer.from('\r\n'));
    }
    chunks.push(Buffer.from(`--${boundary}--\r\n`));
    const created = await t.call('POST', '/api/expense', { token: admin, body: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const receipts = created.body.data.receipts as { id: number; name: string }[];
    expect(receipts.map((receipt) => receipt.name)).toEqual(names);
    for (const receipt of receipts) {
      for (const disposition of ['attachment', 'inline']) {
        const download = await t.app.inject({ method: 'GET', url: `/api/expense/${created.body.data.id}/attachments/${receipt.id}?disposition=${disposition}`, headers: { authorization: `Bearer ${admin}` } });
        expect(download.statusCode).toBe(200);
        expect(String(download.headers['content-disposition']).startsWith(`${disposition}; `)).toBe(true);
        expect(savedAs(String(download.headers['content-disposition']))).toBe(receipt.name);
      }
    }
  });
});

describe('security headers', () => {
  // Every header helmet sets for our options, as it set them per request before issue 27 (now
  // computed once at start-up, src/server/plugins/security-headers.ts): none may go missing.
  const EXPECTED = {
    'content-security-policy': "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';img-src 'self' data: blob:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' 'unsafe-inline';frame-src 'self' blob:;connect-src 'self' ws: wss:;media-src 'self' data:;worker-src 'self';manifest-src 'self'",
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'no-referrer',
    'strict-transport-security': 'max-age=31536000; includeSubDomains',
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'SAMEORIGIN',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  };
  const expectSecurityHeaders = (headers: Record<string, unknown>) => {
    expect(headers).toMatchObject(EXPECTED);
    expect(headers['x-powered-by']).toBeUndefined();
  };

  it('are the ones helmet computes for our options', () => {
    expect(helmetHeaders()).toEqual(EXPECTED);
  });

  it('are on public answers, the CSRF cookie and not-found addresses too', async () => {
    const answers = [
      await t.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' }),
      await t.app.inject({ method: 'GET', url: '/api/health' }),
      await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: 'nobody@example.com', password: 'wrong-password' } }),
      await t.app.inject({ method: 'GET', url: '/nowhere.txt' }),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([204, 200, 422, 404]);
    for (const answer of answers) expectSecurityHeaders(answer.headers);
  });

  it('are on answers refused by the auth hook (401, 403, 409) as on any other', async () => {
    const bare = await t.createUser({ email: 'bare-headers@example.com' }, []);
    const pending = await t.createUser({ email: 'pending-headers@example.com', force_password_reset: true });
    const answers = [
      await t.call('GET', '/api/me'),
      await t.call('GET', '/api/me', { token: 'not-a-token' }),
      await t.call('GET', '/api/country', { token: await bare.token() }),
      await t.call('GET', '/api/dashboard', { token: await pending.token() }),
      await t.call('POST', '/api/country', { token: admin, body: { name: 'X' }, headers: { 'x-xsrf-token': 'a', cookie: 'XSRF-TOKEN=b' } }),
      await t.call('GET', '/api/nowhere', { token: admin }),
      await t.call('GET', '/api/country', { token: admin }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 403, 409, 419, 404, 200]);
    for (const answer of answers) expectSecurityHeaders(answer.headers);
  });
});

describe('forgot password', () => {
  it('answers before it looks the address up or mails, so a known address costs the request what an unknown one does', async () => {
    await t.createUser({ email: 'timing@example.com' });
    const events: string[] = [];
    const mailer = t.app.mailer as Mailer;
    const send = mailer.send.bind(mailer);
    mailer.send = async (message) => {
      events.push('mail started');
      // A slow mail server no longer slows the answer.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      return send(message);
    };
    try {
      const started = Date.now();
      const known = await t.call('POST', '/api/forgot-password', { body: { email: 'timing@example.com' } });
      events.push('answered');
      expect(known.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(1500);
      await t.smtp.waitFor('timing@example.com', /Reset Password/);
      expect(events).toEqual(['answered', 'mail started']);
      const unknown = await t.call('POST', '/api/forgot-password', { body: { email: 'nobody-timing@example.com' } });
      expect(unknown.body).toEqual(known.body);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(events).toEqual(['answered', 'mail started']);
    } finally {
      mailer.send = send;
    }
  });
});

describe('deleting a person others report to', () => {
  it('is refused with a 409 naming the reports, and allowed once they have another manager', async () => {
    const boss = await t.createUser({ email: 'boss@example.com', name: 'Meera Boss', user_type: 'manager' });
    const other = await t.createUser({ email: 'other-boss@example.com', name: 'Other Boss', user_type: 'manager' });
    const reports = [];
    for (const name of ['Ravi Iyer', 'Anna Kim']) {
      reports.push(await t.createUser({ email: `${name.split(' ')[0].toLowerCase()}@example.com`, name, user_type: 'user', parent_id: boss.id }));
    }
    const refused = await t.call('DELETE', `/api/manager/${boss.id}`, { token: admin });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Meera Boss cannot be deleted because 2 people report to them: Anna Kim, Ravi Iyer. Give each of them another manager first.');
    expect((await t.app.db.select().from(users).where(eq(users.id, boss.id))).length).toBe(1);

    for (const report of reports) expect((await t.call('PATCH', `/api/user/${report.id}`, { token: admin, body: { parent_id: other.id } })).status).toBe(200);
    expect((await t.call('DELETE', `/api/manager/${boss.id}`, { token: admin })).status).toBe(200);
  });
});

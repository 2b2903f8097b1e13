// Issue 20: bodies that used to answer 500. A JSON body nested 10,000 deep overflowed the stack when
// its Idempotency-Key fingerprint was taken; multipart field names such as `__proto__[]` and
// `toString[]` reached Object.prototype, also on the anonymous candidate form. Each is now a clear 4xx
// that stores nothing, and the forms people really send still work.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idempotencyKeys } from '../../src/server/db/schema/idempotency';
import { clients, expenseCategories, positions } from '../../src/server/db/schema/master-data';
import { candidates } from '../../src/server/db/schema/recruitment';
import { MAX_BODY_DEPTH } from '../../src/server/plugins/input';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';
import { PDF } from '../helpers/multipart';

let t: TestApp;
let token: string;
let formToken: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.login(ADMIN.email, ADMIN.password);
  const [{ id: clientId }] = await t.app.db.insert(clients).values({ name: 'Contoso' }).returning();
  const [{ id: positionId }] = await t.app.db.insert(positions).values({ title: 'Platform Engineer', client_id: clientId, location: 'Pune', count: 3 }).returning();
  const link = await t.call('POST', '/api/candidate/form-links', { token, body: { position_id: positionId, expires_in_days: 7, is_single_use: false } });
  expect(link.status).toBe(201);
  formToken = link.body.data.token;
});
afterAll(async () => { await t?.close(); });

const TOO_DEEP = { message: 'The request body is nested too deeply.' };
const NOT_ALLOWED = { message: 'The form has a field name that is not allowed.' };

/** `{"a":{"a":...1...}}` with `depth` objects, or the same with lists. */
const nestedObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const nestedList = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

const sendJson = (method: 'POST' | 'PUT', url: string, payload: string, headers: Record<string, string> = {}) => t.call(method, url, {
  token, body: payload, headers: { 'content-type': 'application/json', ...headers },
});

/** A multipart body with the fields in order (a name may repeat), optionally one file, then the `after` fields. */
function form(fields: [string, string][], file?: { field: string; name: string; content: Buffer }, after: [string, string][] = []) {
  const boundary = `----limits${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = fields.map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  if (file) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: application/pdf\r\n\r\n`));
    chunks.push(file.content, Buffer.from('\r\n'));
  }
  for (const [name, value] of after) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const storedFiles = () => { try { return readdirSync(join(t.app.config.dataDir, 'files', 'attachments')).length; } catch { return 0; } };

describe('JSON nesting', () => {
  it('answers 400 to a body nested 10,000 deep, with or without an Idempotency-Key, and keeps no key', async () => {
    // Expense accepts JSON or multipart, so its route lets any JSON through to the handler's own check.
    for (const payload of [nestedList(10_000), nestedObject(10_000), `{"description":"x","extra":${nestedList(10_000)}}`]) {
      const keyed = await sendJson('POST', '/api/expense', payload, { 'idempotency-key': `deep-${payload.length}-${payload[0]}` });
      expect(keyed.status).toBe(400);
      expect(keyed.body).toEqual(TOO_DEEP);
      const plain = await sendJson('POST', '/api/expense', payload);
      expect(plain).toMatchObject({ status: 400, body: TOO_DEEP });
    }
    expect(await t.app.db.select().from(idempotencyKeys)).toEqual([]);
    // Anonymous routes too.
    expect(await t.call('POST', '/api/login', { body: nestedObject(10_000), headers: { 'content-type': 'application/json' } }))
      .toMatchObject({ status: 400, body: TOO_DEEP });
  });

  it('counts the levels exactly: a body as deep as the limit is read, one level more is refused', async () => {
    const atLimit = await sendJson('PUT', '/api/setting/announcement', `{"status":"on","message":"Hello","extra":${nestedObject(MAX_BODY_DEPTH - 1)}}`, { 'idempotency-key': 'at-limit' });
    expect(atLimit.status).toBe(200);
    expect(atLimit.body.data).toEqual({ status: 'on', message: 'Hello', audience: 'staff' });
    const beyond = await sendJson('PUT', '/api/setting/announcement', `{"status":"on","message":"Hello","extra":${nestedObject(MAX_BODY_DEPTH)}}`);
    expect(beyond).toMatchObject({ status: 400, body: TOO_DEEP });
  });
});

describe('multipart field names', () => {
  it('refuses names that reach a prototype on a resource form, and reads `toString[]` as an unknown field', async () => {
    for (const name of ['__proto__[]', 'constructor[]', 'prototype[]', 'expense[__proto__]', 'expense[constructor][]', '__proto__[0]']) {
      const body = form([[name, 'x'], ['description', 'Taxi']]);
      const res = await t.call('POST', '/api/expense', { token, body: body.body, headers: body.headers });
      expect({ name, status: res.status, body: res.body }).toEqual({ name, status: 400, body: NOT_ALLOWED });
    }
    for (const name of ['toString[]', 'hasOwnProperty[]', 'valueOf[0]']) {
      const body = form([[name, 'x'], ['description', 'Taxi']]);
      const res = await t.call('POST', '/api/expense', { token, body: body.body, headers: body.headers });
      // The usual answer to a form missing its required fields: the odd name changed nothing.
      expect({ name, status: res.status }).toEqual({ name, status: 422 });
      expect(res.body.errors.description).toBeUndefined();
      expect(res.body.errors.expense_category_id).toBeDefined();
    }
  });

  it('takes a value and then a list under one name as one list', async () => {
    const [{ id: categoryId }] = await t.app.db.insert(expenseCategories).values({ name: 'Travel' }).returning();
    const body = form([['description', 'Taxi'], ['description[]', 'again'], ['expense_category_id', String(categoryId)]]);
    const res = await t.call('POST', '/api/expense', { token, body: body.body, headers: body.headers });
    expect(res.status).toBe(422);
    expect(res.body.errors.description).toBeDefined();
  });

  it('refuses them on the time-sheet upload', async () => {
    const body = form([['time_sheet[__proto__]', 'x'], ['constructor[]', 'y']]);
    expect(await t.call('POST', '/api/time-sheet', { token, body: body.body, headers: body.headers })).toMatchObject({ status: 400, body: NOT_ALLOWED });
    const odd = form([['toString[]', 'x']]);
    expect((await t.call('POST', '/api/time-sheet', { token, body: odd.body, headers: odd.headers })).status).toBe(422);
  });

  it('refuses them on the anonymous candidate form, keeping no candidate and no file, and still takes a good form', async () => {
    const applicant: [string, string][] = [
      ['name', 'Ada Applicant'], ['email', 'ada@example.com'], ['phone', '+91 99000 31337'], ['current_company', 'Initech'],
      ['total_experience', '5'], ['relevant_experience', '3'], ['skills', 'Go'], ['notice_period_days', '30'],
      ['work_status', 'Resigned'], ['currency', 'INR'], ['expected_cost', '1800000'], ['data_consent', '1'],
    ];
    const cv = { field: 'cv', name: 'cv.pdf', content: PDF };
    const filesBefore = storedFiles();
    for (const name of ['__proto__[]', 'constructor[]', 'candidate[prototype]']) {
      const body = form([[name, 'x'], ...applicant], cv);
      const res = await t.call('POST', `/api/public/candidate-form/${formToken}`, { body: body.body, headers: body.headers });
      expect({ name, status: res.status, body: res.body }).toEqual({ name, status: 400, body: NOT_ALLOWED });
    }
    // A file part so named is drained, not kept; a refused name after the CV removes the CV already stored.
    const fileNamedBadly = form(applicant, { ...cv, field: '__proto__[]' });
    const afterCv = form(applicant, cv, [['constructor[]', 'x']]);
    for (const body of [fileNamedBadly, afterCv]) {
      expect(await t.call('POST', `/api/public/candidate-form/${formToken}`, { body: body.body, headers: body.headers })).toMatchObject({ status: 400, body: NOT_ALLOWED });
    }
    expect(await t.app.db.select().from(candidates)).toEqual([]);
    expect(storedFiles()).toBe(filesBefore);

    const odd = form([['toString[]', 'x'], ...applicant], cv);
    const res = await t.call('POST', `/api/public/candidate-form/${formToken}`, { body: odd.body, headers: odd.headers });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect((await t.app.db.select().from(candidates)).map((row) => row.email)).toEqual(['ada@example.com']);
  });
});

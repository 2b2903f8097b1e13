// The compliance document library (issue 10): the repository with versions, assigning to people and
// groups (flags, notifications, mail), acknowledging and returning a copy, reviewing it, a new version
// reopening acknowledgements, who may download what, the expiry rule at its boundary and the daily
// reminders (once each, also with two nodes on one PostgreSQL).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { and, count, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { users } from '../../src/server/db/schema/accounts';
import { assignRoles } from '../../src/server/db/seed';
import { documentAssignments, libraryDocuments, ownDocuments } from '../../src/server/db/schema/compliance';
import { clients, employeeTypes } from '../../src/server/db/schema/master-data';
import { notifications } from '../../src/server/db/schema/notifications';
import { timeSheets } from '../../src/server/db/schema/time-sheets';
import { jobs, workflowHistory } from '../../src/server/db/schema/workflow';
import { runComplianceDaily } from '../../src/server/modules/compliance/reminders';
import { OVERDUE_REMINDER_LIMIT } from '../../src/shared/resources/document-assignment';
import { today } from '../../src/shared/dates';
import { ADMIN, createTestApp, freshPostgresDatabase, testConfig, type TestApp } from '../helpers/app';
import { multipart, PDF } from '../helpers/multipart';

let t: TestApp;
let adminToken: string;
let engineerType: number;
const people: Record<string, { id: number; token: string }> = {};

const dayFrom = (base: string, days: number) => new Date(Date.parse(`${base}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const TODAY = today();
const NEXT_WEEK = dayFrom(TODAY, 7);

const pdf = (name = 'policy.pdf') => ({ name, type: 'application/pdf', content: PDF });

async function createDocument(fields: Record<string, string> = {}, file: ReturnType<typeof pdf> | null = pdf()) {
  const form = multipart({ title: 'Information security policy', category: 'compliance', action: 'acknowledge', status: 'active', ...fields }, file ?? undefined);
  return t.call('POST', '/api/document-repository', { token: adminToken, body: form.body, headers: form.headers });
}
async function documentId(fields: Record<string, string> = {}) {
  const res = await createDocument(fields);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id as number;
}

const assign = (body: Record<string, unknown>, token = adminToken) => t.call('POST', '/api/document-assign', { token, body: { due_date: NEXT_WEEK, ...body } });

const assignmentOf = async (document: number, user: number) =>
  (await t.app.db.select().from(documentAssignments).where(and(eq(documentAssignments.document_id, document), eq(documentAssignments.user_id, user))))[0];

const flagOf = async (user: number) => (await t.app.db.select({ flag: users.doc_assigned }).from(users).where(eq(users.id, user)))[0].flag;

const returnCopy = (who: string, id: number, file = pdf('signed.pdf')) => {
  // Bracketed keys, as My documents sends them (spec §7).
  const form = multipart({}, { ...file, field: 'returned_copy' }, 'document-assign-history');
  return t.call('POST', `/api/document-assign-history/${id}/return`, { token: people[who].token, body: form.body, headers: form.headers });
};

const storedFiles = () => {
  try { return readdirSync(join(t.app.config.dataDir, 'files', 'attachments')).length; } catch { return 0; }
};

beforeAll(async () => {
  t = await createTestApp();
  adminToken = await t.login(ADMIN.email, ADMIN.password);
  [{ id: engineerType }] = await t.app.db.insert(employeeTypes).values({ name: 'Engineer' }).returning();
  const [{ id: otherType }] = await t.app.db.insert(employeeTypes).values({ name: 'Contractor' }).returning();
  const make = async (key: string, values: Partial<typeof users.$inferInsert> = {}, roles?: string[]) => {
    const created = await t.createUser({ name: key, email: `${key}@example.com`, user_type: 'user', employee_type_id: engineerType, ...values }, roles);
    people[key] = { id: created.id, token: await created.token() };
  };
  await make('maria', { user_type: 'manager', employee_type_id: otherType });
  await make('uma', { parent_id: undefined });
  await make('ugo');
  await make('ida', { employee_type_id: otherType });
  await t.app.db.update(users).set({ parent_id: people.maria.id }).where(eq(users.id, people.ida.id));
  await t.app.db.insert(users).values({ name: 'Gone', email: 'gone@example.com', password: 'x', user_type: 'user', employee_type_id: engineerType, status: 'inactive' });
});
afterAll(async () => { await t?.close(); });

describe('the document repository', () => {
  it('refuses a document without a file and stores nothing', async () => {
    const before = storedFiles();
    const res = await createDocument({}, null);
    expect(res.status).toBe(422);
    expect(res.body.errors.file).toBeTruthy();
    expect(await t.app.db.select({ n: count() }).from(libraryDocuments)).toEqual([{ n: 0 }]);
    expect(storedFiles()).toBe(before);
  });

  it('refuses a file that is not what its name says, and sanitises the rich-text description', async () => {
    const fake = await createDocument({}, { name: 'policy.pdf', type: 'application/pdf', content: Buffer.from('MZ not a pdf at all') });
    expect(fake.status).toBe(422);
    const res = await createDocument({ description: '<p>Read <strong>all</strong> of it</p><script>alert(1)</script><img src=x onerror=alert(1)>' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.description).toBe('<p>Read <strong>all</strong> of it</p>');
    expect(res.body.data.version).toBe(1);
    expect(res.body.data.file).toHaveLength(1);
  });
});

describe('assigning', () => {
  it('assigns to an employee type: one assignment each for its active people, flags set, told live and by mail', async () => {
    const doc = await documentId({ title: 'Code of conduct' });
    const res = await assign({ document_ids: [doc], employee_type_ids: [engineerType], message: 'Please read by Friday.' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // uma and ugo are engineers; the inactive one is not assigned.
    expect(res.body.data).toEqual({ assigned: 2, people: 2, skipped: 0 });
    for (const who of ['uma', 'ugo']) {
      const row = await assignmentOf(doc, people[who].id);
      expect(row).toMatchObject({ status: 'pending', due_date: NEXT_WEEK, version: 1, message: 'Please read by Friday.' });
      expect(await flagOf(people[who].id)).toBe(true);
      const me = await t.call('GET', '/api/me', { token: people[who].token });
      expect(me.body.data.doc_assigned).toBe(true);
      const notices = await t.app.db.select().from(notifications).where(and(eq(notifications.notifiable_id, people[who].id), eq(notifications.type, 'App\\Notifications\\DocumentAssigned')));
      expect(notices).toHaveLength(1);
      expect(notices[0].data).toMatchObject({ title: 'Document assigned to you', url: '/document' });
    }
    expect(await flagOf(people.ida.id)).toBe(false);
    // The mail goes through a job, off the request.
    await t.app.jobs.runDue();
    const mail = await t.smtp.waitFor('uma@example.com', /Code of conduct/);
    expect(mail.links.some((link) => link.endsWith('/document'))).toBe(true);
    // Assigning again skips whoever already has it open.
    const again = await assign({ document_ids: [doc], user_ids: [people.uma.id] });
    expect(again.body.data).toEqual({ assigned: 0, people: 1, skipped: 1 });
  });

  it("assigns to a manager's team and to a client's placements", async () => {
    const doc = await documentId({ title: 'Client NDA', action: 'return' });
    const [{ id: client }] = await t.app.db.insert(clients).values({ name: 'Contoso' }).returning();
    await t.app.db.insert(timeSheets).values({
      user_id: people.ugo.id, client_id: client, period_type: 'month', period_start: '2026-01-01', period_end: '2026-01-31', hours: 160,
      file_key: 'x', file_name: 'x.pdf', file_size: 1, file_mime: 'application/pdf',
    });
    const res = await assign({ document_ids: [doc], manager_ids: [people.maria.id], client_ids: [client] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.assigned).toBe(2);
    expect(await assignmentOf(doc, people.ida.id)).toBeTruthy();
    expect(await assignmentOf(doc, people.ugo.id)).toBeTruthy();
    expect(await assignmentOf(doc, people.uma.id)).toBeUndefined();
  });

  it('refuses bad input with 422 and stores nothing', async () => {
    const doc = await documentId({ title: 'Refusals' });
    const [gone] = await t.app.db.select().from(users).where(eq(users.email, 'gone@example.com'));
    const before = (await t.app.db.select({ n: count() }).from(documentAssignments))[0].n;
    const cases: [Record<string, unknown>, string][] = [
      [{ document_ids: [doc], user_ids: [gone.id] }, 'user_ids'],
      [{ document_ids: [doc], user_ids: [999_999] }, 'user_ids'],
      [{ document_ids: [doc], user_ids: [people.uma.id], due_date: dayFrom(TODAY, -1) }, 'due_date'],
      [{ document_ids: [999_999], user_ids: [people.uma.id] }, 'document_ids'],
      [{ document_ids: [doc] }, 'user_ids'],
      [{ document_ids: [], user_ids: [people.uma.id] }, 'document_ids'],
      [{ document_ids: [doc], user_ids: [people.uma.id], due_date: '2026-02-30' }, 'due_date'],
    ];
    for (const [body, field] of cases) {
      const res = await assign(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors[field], JSON.stringify(res.body)).toBeTruthy();
    }
    await t.app.db.update(libraryDocuments).set({ status: 'inactive' }).where(eq(libraryDocuments.id, doc));
    expect((await assign({ document_ids: [doc], user_ids: [people.uma.id] })).status).toBe(422);
    expect((await t.app.db.select({ n: count() }).from(documentAssignments))[0].n).toBe(before);
  });

  it('is refused without can-assign-document', async () => {
    const doc = await documentId({ title: 'Not yours to assign' });
    expect((await assign({ document_ids: [doc], user_ids: [people.ugo.id] }, people.uma.token)).status).toBe(403);
  });
});

describe('acknowledging and returning', () => {
  it('acknowledges a document to read; the icon goes once nothing waits; a document to return cannot be acknowledged', async () => {
    const read = await documentId({ title: 'Travel policy' });
    const sign = await documentId({ title: 'Travel NDA', action: 'return' });
    await assign({ document_ids: [read, sign], user_ids: [people.uma.id] });
    const readRow = await assignmentOf(read, people.uma.id);
    const signRow = await assignmentOf(sign, people.uma.id);
    const mine = await t.call('GET', `/api/document-assign-history?user_id=${people.uma.id}&per_page=100`, { token: people.uma.token });
    const listed = mine.body.data.find((row: { id: number }) => row.id === readRow.id);
    expect(listed).toMatchObject({ document_title: 'Travel policy', action: 'acknowledge', status: 'pending' });
    expect(listed.available_transitions.map((a: { name: string }) => a.name)).toEqual(['acknowledge']);
    expect(mine.body.data.find((row: { id: number }) => row.id === signRow.id).available_transitions).toEqual([]);

    // The person opens the document the assignment asks about.
    const file = await t.app.inject({ method: 'GET', url: `/api/document-assign-history/${readRow.id}/document`, headers: { authorization: `Bearer ${people.uma.token}` } });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    // Somebody else may not.
    expect((await t.call('GET', `/api/document-assign-history/${readRow.id}/document`, { token: people.ugo.token })).status).toBe(404);

    expect((await t.call('POST', `/api/document-assign-history/${signRow.id}/transitions/acknowledge`, { token: people.uma.token, body: {} })).status).toBe(409);
    expect((await t.call('POST', `/api/document-assign-history/${readRow.id}/transitions/acknowledge`, { token: people.ugo.token, body: {} })).status).toBe(404);
    const done = await t.call('POST', `/api/document-assign-history/${readRow.id}/transitions/acknowledge`, { token: people.uma.token, body: {} });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data.status).toBe('approved');
    expect((await assignmentOf(read, people.uma.id)).acknowledged_at).toBeInstanceOf(Date);
    // uma still has other documents waiting (from the tests above and the one to return).
    expect(await flagOf(people.uma.id)).toBe(true);
  });

  it('returns a signed copy, which the reviewer rejects (back to the person) and then approves; nobody else reads the copy', async () => {
    const sign = await documentId({ title: 'Background check consent', action: 'return' });
    await assign({ document_ids: [sign], user_ids: [people.ida.id] });
    const { id } = await assignmentOf(sign, people.ida.id);
    expect(await flagOf(people.ida.id)).toBe(true);

    const noFile = await t.call('POST', `/api/document-assign-history/${id}/return`, { token: people.ida.token, body: {} });
    expect(noFile.status).toBe(422);
    expect((await returnCopy('ugo', id)).status).toBe(404);
    const returned = await returnCopy('ida', id);
    expect(returned.status, JSON.stringify(returned.body)).toBe(200);
    expect(returned.body.data).toMatchObject({ status: 'submitted' });

    const row = (await t.call('GET', `/api/document-assign-history/${id}`, { token: adminToken })).body.data;
    expect(row.returned_copy).toHaveLength(1);
    const copy = row.returned_copy[0].id;
    const download = (token: string) => t.call('GET', `/api/document-assign-history/${id}/attachments/${copy}`, { token });
    expect((await download(people.ida.token)).status).toBe(200);
    expect((await download(adminToken)).status).toBe(200);
    // Another user cannot read it.
    expect((await download(people.ugo.token)).status).toBe(404);
    expect((await t.call('GET', `/api/document-assign-history/${id}`, { token: people.ugo.token })).status).toBe(404);

    // The person cannot decide their own copy; a reviewer rejects it with a comment.
    expect((await t.call('POST', `/api/document-assign-history/${id}/transitions/approve`, { token: people.ida.token, body: {} })).status).toBe(403);
    expect((await t.call('POST', `/api/document-assign-history/${id}/transitions/reject`, { token: adminToken, body: {} })).status).toBe(422);
    const rejected = await t.call('POST', `/api/document-assign-history/${id}/transitions/reject`, { token: adminToken, body: { comment: 'Not signed on page 2.' } });
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    expect(rejected.body.data.status).toBe('rejected');
    expect(await flagOf(people.ida.id)).toBe(true);
    const told = await t.app.db.select().from(notifications).where(and(eq(notifications.notifiable_id, people.ida.id), sql`${notifications.data}->>'message' like '%Not signed on page 2.%'`));
    expect(told).toHaveLength(1);

    expect((await returnCopy('ida', id, pdf('signed-again.pdf'))).status).toBe(200);
    const approved = await t.call('POST', `/api/document-assign-history/${id}/transitions/approve`, { token: adminToken, body: { comment: 'Thanks' } });
    expect(approved.body.data.status).toBe('approved');
    const history = (await t.call('GET', `/api/document-assign-history/${id}/history`, { token: adminToken })).body.data;
    expect(history.map((h: { transition: string }) => h.transition)).toEqual(['create', 'submit', 'reject', 'submit', 'approve']);
    // Ida has nothing else waiting except the NDA of the group test.
    const waiting = await t.app.db.select({ n: count() }).from(documentAssignments)
      .where(and(eq(documentAssignments.user_id, people.ida.id), sql`${documentAssignments.status} in ('pending', 'rejected')`));
    expect(await flagOf(people.ida.id)).toBe(waiting[0].n > 0);
  });
});

describe('versions', () => {
  it('a new version keeps the old one downloadable and asks everyone again; no version can be removed', async () => {
    const doc = await documentId({ title: 'Remote work policy' });
    await assign({ document_ids: [doc], user_ids: [people.ugo.id] });
    const { id } = await assignmentOf(doc, people.ugo.id);
    await t.call('POST', `/api/document-assign-history/${id}/transitions/acknowledge`, { token: people.ugo.token, body: {} });
    expect((await assignmentOf(doc, people.ugo.id)).status).toBe('approved');

    const existing = (await t.call('GET', `/api/document-repository/${doc}`, { token: adminToken })).body.data;
    // The form keeps version 1 (a field part naming it) and adds a file: version 2.
    const form = multipart({ title: 'Remote work policy', category: 'compliance', action: 'acknowledge', status: 'active', file: existing.file[0].id }, pdf('policy-v2.pdf'));
    const updated = await t.call('PUT', `/api/document-repository/${doc}`, { token: adminToken, headers: form.headers, body: form.body });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.data.version).toBe(2);
    expect(updated.body.data.file.map((f: { name: string }) => f.name)).toEqual(['policy.pdf', 'policy-v2.pdf']);
    const reopened = await assignmentOf(doc, people.ugo.id);
    expect(reopened).toMatchObject({ status: 'pending', version: 2, acknowledged_at: null });
    expect(await flagOf(people.ugo.id)).toBe(true);
    const history = (await t.call('GET', `/api/document-assign-history/${id}/history`, { token: adminToken })).body.data;
    expect(history.at(-1)).toMatchObject({ transition: 'new-version', from: 'approved', to: 'pending' });
    // Both versions download.
    for (const file of updated.body.data.file) {
      expect((await t.call('GET', `/api/document-repository/${doc}/attachments/${file.id}`, { token: adminToken })).status).toBe(200);
    }
    // The person opens version 2 now, and may still open version 1.
    const v2 = await t.app.inject({ method: 'GET', url: `/api/document-assign-history/${id}/document`, headers: { authorization: `Bearer ${people.ugo.token}` } });
    expect(v2.headers['content-disposition']).toContain('policy-v2.pdf');

    // Dropping a version is refused and changes nothing.
    const drop = multipart({ title: 'Remote work policy', category: 'compliance', action: 'acknowledge', status: 'active', file: updated.body.data.file[1].id });
    const refused = await t.call('PUT', `/api/document-repository/${doc}`, { token: adminToken, headers: drop.headers, body: drop.body });
    expect(refused.status).toBe(422);
    expect((await t.call('GET', `/api/document-repository/${doc}`, { token: adminToken })).body.data.file).toHaveLength(2);
    // An edit without a file is no new version.
    const plain = await t.call('PATCH', `/api/document-repository/${doc}`, { token: adminToken, body: { title: 'Remote work policy (2026)' } });
    expect(plain.body.data.version).toBe(2);
  });
});

describe("a person's compliance and own documents", () => {
  it('reads nothing assigned with no items, valid with future expiry dates, and expired when one expires today (the boundary)', async () => {
    const [{ id: lone }] = await t.app.db.insert(users).values({ name: 'Lone', email: 'lone@example.com', password: 'x', user_type: 'user' }).returning();
    const of = async (id: number) => (await t.call('GET', `/api/compliance/${id}`, { token: adminToken })).body.data;
    // Issue 22: a new person is not expired before anything is assigned to them.
    expect((await of(lone)).status).toBe('nothing-assigned');
    const [doc] = await t.app.db.insert(ownDocuments).values({ user_id: lone, title: 'AWS certification', document_type: 'certification', expiry_date: dayFrom(TODAY, 1) }).returning();
    expect((await of(lone)).status).toBe('valid');
    await t.app.db.update(ownDocuments).set({ expiry_date: TODAY }).where(eq(ownDocuments.id, doc.id));
    const data = await of(lone);
    expect(data).toMatchObject({ status: 'expired', today: TODAY });
    expect(data.documents).toEqual([{ id: doc.id, title: 'AWS certification', document_type: 'certification', expiry_date: TODAY }]);
    // A person sees their own; another user may not see someone else's.
    expect((await t.call('GET', `/api/compliance/${people.uma.id}`, { token: people.uma.token })).status).toBe(200);
    expect((await t.call('GET', `/api/compliance/${people.uma.id}`, { token: people.ugo.token })).status).toBe(404);
  });

  it('keeps own documents to their holder (the repository staff read them) and requires a file', async () => {
    const noFile = await t.call('POST', '/api/document', { token: people.uma.token, body: { title: 'Visa', document_type: 'visa', expiry_date: NEXT_WEEK } });
    expect(noFile.status).toBe(422);
    const form = multipart({ title: 'Work visa', document_type: 'visa', expiry_date: NEXT_WEEK, user_id: people.ugo.id }, pdf('visa.pdf'));
    const created = await t.call('POST', '/api/document', { token: people.uma.token, headers: form.headers, body: form.body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // The holder is whoever uploads it, whatever the body says; they are told in a sentence, not "Own Document created successfully.".
    expect(created.body.data.user_id).toBe(people.uma.id);
    // The expiry reads as people write a day ("4 December 2026"), never as 2026-12-04.
    const expiry = new Date(`${NEXT_WEEK}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
    expect(created.body.message).toBe(`“Work visa” is added to your documents. You are reminded before it expires on ${expiry}.`);
    const id = created.body.data.id;
    const file = created.body.data.file[0].id;
    expect((await t.call('GET', `/api/document/${id}`, { token: people.ugo.token })).status).toBe(404);
    expect((await t.call('GET', `/api/document/${id}/attachments/${file}`, { token: people.ugo.token })).status).toBe(404);
    expect((await t.call('GET', `/api/document/${id}/attachments/${file}`, { token: adminToken })).status).toBe(200);
    const list = await t.call('GET', '/api/document', { token: people.ugo.token });
    expect(list.body.data.every((row: { user_id: number }) => row.user_id === people.ugo.id)).toBe(true);
    // Staff read it but do not change it.
    expect((await t.call('PATCH', `/api/document/${id}`, { token: adminToken, body: { title: 'Changed' } })).status).toBe(403);
  });
});

describe('the daily reminders', () => {
  it('tells the holder and the admins 30 and 7 days before and on the day, each once', async () => {
    const [{ id: holder }] = await t.app.db.insert(users).values({ name: 'Holder', email: 'holder@example.com', password: 'x', user_type: 'user' }).returning();
    // The user role opens My Documents, where the reminder links (a notification goes only to people who can open it).
    await assignRoles(t.app.db, 'app', holder, ['user']);
    const [doc] = await t.app.db.insert(ownDocuments).values({ user_id: holder, title: 'Security clearance', document_type: 'clearance', expiry_date: dayFrom(TODAY, 40) }).returning();
    const told = async () => (await t.app.db.select({ message: sql<string>`${notifications.data}->>'message'` }).from(notifications)
      .where(and(eq(notifications.notifiable_id, holder), eq(notifications.type, 'App\\Notifications\\OwnDocumentExpiryReminder')))).map((r) => r.message);
    const admin = (await t.app.db.select().from(users).where(eq(users.email, ADMIN.email)))[0].id;
    const adminTold = async () => (await t.app.db.select({ n: count() }).from(notifications)
      .where(and(eq(notifications.notifiable_id, admin), sql`${notifications.data}->>'message' like '%Security clearance%'`)))[0].n;
    const expiry = dayFrom(TODAY, 40);
    await runComplianceDaily(t.app, dayFrom(expiry, -31));
    expect(await told()).toEqual([]);
    for (const before of [30, 29, 20, 8]) await runComplianceDaily(t.app, dayFrom(expiry, -before));
    expect(await told()).toEqual([`“Security clearance” expires in 30 days (${expiry}).`]);
    for (const before of [7, 6, 1]) await runComplianceDaily(t.app, dayFrom(expiry, -before));
    expect(await told()).toHaveLength(2);
    await runComplianceDaily(t.app, expiry);
    await runComplianceDaily(t.app, expiry);
    expect((await told()).at(-1)).toBe(`“Security clearance” expires today (${expiry}).`);
    expect(await told()).toHaveLength(3);
    expect(await adminTold()).toBe(3);
    void doc;
  });

  it('reminds an overdue assignment once a day up to the limit, and expires the assignments of an expired document', async () => {
    const doc = await documentId({ title: 'Overdue policy', expiry_date: dayFrom(TODAY, 60) });
    await assign({ document_ids: [doc], user_ids: [people.maria.id] });
    const { id } = await assignmentOf(doc, people.maria.id);
    const overdue = async () => (await t.app.db.select({ n: count() }).from(notifications)
      .where(and(eq(notifications.notifiable_id, people.maria.id), eq(notifications.type, 'App\\Notifications\\DocumentOverdueReminder'))))[0].n;
    await runComplianceDaily(t.app, NEXT_WEEK);
    expect(await overdue()).toBe(0);
    for (let day = 1; day <= OVERDUE_REMINDER_LIMIT + 3; day += 1) {
      await runComplianceDaily(t.app, dayFrom(NEXT_WEEK, day));
      await runComplianceDaily(t.app, dayFrom(NEXT_WEEK, day));
    }
    expect(await overdue()).toBe(OVERDUE_REMINDER_LIMIT);

    expect(await flagOf(people.maria.id)).toBe(true);
    await runComplianceDaily(t.app, dayFrom(TODAY, 60));
    expect((await t.app.db.select().from(documentAssignments).where(eq(documentAssignments.id, id)))[0].status).toBe('expired');
    const [entry] = await t.app.db.select().from(workflowHistory).where(and(eq(workflowHistory.record_id, id), eq(workflowHistory.transition, 'expire')));
    expect(entry).toMatchObject({ from_status: 'pending', to_status: 'expired', actor_id: null });
    expect(await flagOf(people.maria.id)).toBe(false);
  });

  it('is a recurring job of every node', async () => {
    await t.app.jobs.schedule(new Date());
    const [job] = await t.app.db.select().from(jobs).where(eq(jobs.name, 'compliance-daily'));
    expect(job).toBeTruthy();
  });
});

// Two nodes on one PostgreSQL: only in the api-postgres project (TEST_DATABASE_URL).
const onPostgres = process.env.TEST_DB === 'postgres';
describe.skipIf(!onPostgres)('two nodes on one PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  let nodeA: FastifyInstance;
  let nodeB: FastifyInstance;
  const RECORDS = 200;

  beforeAll(async () => {
    database = await freshPostgresDatabase();
    nodeA = await buildApp(testConfig({ databaseUrl: database.url, inMemoryDatabase: false }));
    nodeB = await buildApp(testConfig({ databaseUrl: database.url, inMemoryDatabase: false }));
    const [{ id: holder }] = await nodeA.db.insert(users).values({ name: 'Holder', email: 'holder@example.com', password: 'x', user_type: 'user' }).returning();
    // The user role opens the documents a reminder links to: without it the holder would not be told (issue 20).
    await assignRoles(nodeA.db, 'app', holder, ['user']);
    await nodeA.db.insert(ownDocuments).values(Array.from({ length: RECORDS }, (_, i) => ({
      user_id: holder, title: `Certificate ${i}`, document_type: 'certification', expiry_date: dayFrom(TODAY, [0, 3, 20][i % 3]),
    })));
  });
  afterAll(async () => {
    await Promise.all([nodeA?.close(), nodeB?.close()]);
    await database?.drop();
  });

  it('sends each reminder exactly once when both nodes run the day at the same time', async () => {
    const runs = await Promise.all([runComplianceDaily(nodeA), runComplianceDaily(nodeB), runComplianceDaily(nodeA), runComplianceDaily(nodeB)]);
    expect(runs.reduce((sum, run) => sum + run.ownExpiry, 0)).toBe(RECORDS);
    const rows = await nodeA.db.select({ message: sql<string>`${notifications.data}->>'message'`, n: count() }).from(notifications)
      .where(eq(notifications.type, 'App\\Notifications\\OwnDocumentExpiryReminder')).groupBy(sql`${notifications.data}->>'message'`, notifications.notifiable_id);
    // The holder and the first admin, once per document.
    expect(rows.length).toBe(RECORDS * 2);
    expect(Math.max(...rows.map((row) => row.n))).toBe(1);
  });
});

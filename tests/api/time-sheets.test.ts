import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/server/db/schema/accounts';
import { clients } from '../../src/server/db/schema/master-data';
import { notifications } from '../../src/server/db/schema/notifications';
import { auditLog } from '../../src/server/db/schema/audit';
import { timeSheets } from '../../src/server/db/schema/time-sheets';
import { statementName } from '../../src/server/db/named';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';
import { multipart, PDF } from '../helpers/multipart';
import { statementsOf } from '../helpers/statements';

let t: TestApp;
let clientId: number;
const people: Record<string, { id: number; token: string }> = {};

beforeAll(async () => {
  t = await createTestApp();
  [{ id: clientId }] = await t.app.db.insert(clients).values({ name: 'Contoso' }).returning();
  const make = async (key: string, values: Partial<typeof users.$inferInsert>) => {
    const created = await t.createUser({ email: `${key}@example.com`, name: key, ...values });
    people[key] = { id: created.id, token: await created.token() };
  };
  await make('managerA', { user_type: 'manager' });
  await make('managerB', { user_type: 'manager' });
  await make('engineerA', { user_type: 'user', parent_id: people.managerA.id });
  await make('engineerB', { user_type: 'user', parent_id: people.managerB.id });
  people.admin = { id: 1, token: await t.login(ADMIN.email, ADMIN.password) };
});
afterAll(async () => { await t?.close(); });

const upload = (who: string, fields: Record<string, string | number> = {}, file: Parameters<typeof multipart>[1] | null = { name: 'march.pdf', type: 'application/pdf', content: PDF }, headers: Record<string, string> = {}) => {
  // Bracketed keys, as the upload dialog sends them (spec §7).
  const form = multipart({ client_id: clientId, period_type: 'month', period_start: '2026-03-01', hours: 160, ...fields }, file ?? undefined, 'time-sheet');
  return t.call('POST', '/api/time-sheet', { token: people[who].token, body: form.body, headers: { ...form.headers, ...headers } });
};

describe('time sheets', () => {
  it('records an upload, computes the period end and notifies the manager', async () => {
    const res = await upload('engineerA');
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ user_id: people.engineerA.id, period_end: '2026-03-31', hours: 160, status: 'pending', file_name: 'march.pdf' });
    expect(res.body.data).not.toHaveProperty('file_key');
    const rows = await t.app.db.select().from(notifications).where(eq(notifications.notifiable_id, people.managerA.id));
    expect(rows.map((r) => r.data)).toContainEqual({
      title: 'A time sheet waits for your review',
      message: 'engineerA uploaded their time sheet for 2026-03-01 to 2026-03-31 (160 h). Approve it, or reject it with the reason.',
      url: `/time-sheet?highlight=${res.body.data.id}`,
    });
  });

  it('answers 422 with field errors and stores nothing', async () => {
    const before = (await t.app.db.select().from(timeSheets)).length;
    const longWeek = await upload('engineerA', { period_type: 'week', period_start: '2026-03-02', hours: 169 });
    expect(longWeek.status).toBe(422);
    expect(longWeek.body.errors).toEqual({ hours: ['The hours of a week must not be greater than 168.'] });
    const bad = await upload('engineerA', { hours: 'many', period_start: '03/01/2026' }, null);
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['file', 'hours', 'period_start']);
    const wrongType = await upload('engineerA', {}, { name: 'virus.exe', type: 'application/octet-stream', content: 'MZ' });
    expect(wrongType.body.errors.file).toBeDefined();
    const disguised = await upload('engineerA', {}, { name: 'sheet.pdf', type: 'application/pdf', content: '<html>not a pdf</html>' });
    expect(disguised.body.errors.file).toEqual(['sheet.pdf is not a real PDF file. Choose the original file and try again.']);
    const unknownClient = await upload('engineerA', { client_id: 99999 });
    expect(unknownClient.body.errors.client_id).toBeDefined();
    expect((await t.app.db.select().from(timeSheets)).length).toBe(before);
  });

  it('refuses a file over 10 MB', async () => {
    const big = Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024 + 10)]);
    const res = await upload('engineerA', {}, { name: 'big.pdf', type: 'application/pdf', content: big });
    expect(res.status).toBe(422);
    expect(res.body.errors.file[0]).toMatch(/10 MB/);
  });

  it('replays a retried upload with the same Idempotency-Key: one record, same response', async () => {
    const before = (await t.app.db.select().from(timeSheets)).length;
    const first = await upload('engineerA', { period_start: '2026-04-01' }, undefined, { 'idempotency-key': 'outbox-item-1' });
    const again = await upload('engineerA', { period_start: '2026-04-01' }, undefined, { 'idempotency-key': 'outbox-item-1' });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((await t.app.db.select().from(timeSheets)).length).toBe(before + 1);
  });

  it('refuses the same key for a different upload of the same length, and keeps no stray file', async () => {
    const before = (await t.app.db.select().from(timeSheets)).length;
    const files = () => readdirSync(join(t.app.config.dataDir, 'files', 'time-sheets')).length;
    const first = await upload('engineerA', { period_start: '2026-06-01' }, undefined, { 'idempotency-key': 'outbox-item-2' });
    expect(first.status).toBe(201);
    const filesAfterFirst = files();
    // Same byte count, other period: a different time sheet, not a retry.
    const other = await upload('engineerA', { period_start: '2026-06-02' }, undefined, { 'idempotency-key': 'outbox-item-2' });
    expect(other.status).toBe(422);
    expect(other.body.errors['Idempotency-Key']).toBeDefined();
    // Same fields, another file of the same size.
    const otherFile = await upload('engineerA', { period_start: '2026-06-01' }, { name: 'march.pdf', type: 'application/pdf', content: Buffer.from(PDF.toString().replace('1.4', '1.5')) }, { 'idempotency-key': 'outbox-item-2' });
    expect(otherFile.status).toBe(422);
    // A true retry (new boundary, same content) still replays.
    const retry = await upload('engineerA', { period_start: '2026-06-01' }, undefined, { 'idempotency-key': 'outbox-item-2' });
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect((await t.app.db.select().from(timeSheets)).length).toBe(before + 1);
    expect(files()).toBe(filesAfterFirst);
  });

  it("offers an engineer only themselves in the Engineer filter, not every colleague's name", async () => {
    const options = async (who: string) => (await t.call('GET', '/api/user/options', { token: people[who].token })).body.data.map((o: { id: number }) => o.id);
    expect(await options('engineerA')).toEqual([people.engineerA.id]);
    expect(new Set(await options('admin'))).toEqual(new Set([people.engineerA.id, people.engineerB.id]));
  });

  it('refuses to delete an engineer who has time sheets, with a clear 409', async () => {
    const res = await t.call('DELETE', `/api/user/${people.engineerA.id}`, { token: people.admin.token });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/cannot be deleted because \d+ time sheets? uses? it/);
    expect((await t.app.db.select().from(timeSheets).where(eq(timeSheets.user_id, people.engineerA.id))).length).toBeGreaterThan(0);
  });

  it('shows engineers their own, managers their reports\', admins all', async () => {
    await upload('engineerB', { period_start: '2026-05-01' });
    const ids = async (who: string) => (await t.call('GET', '/api/time-sheet?per_page=100', { token: people[who].token })).body.data.map((r: { user_id: number }) => r.user_id);
    expect(new Set(await ids('engineerA'))).toEqual(new Set([people.engineerA.id]));
    expect(new Set(await ids('managerA'))).toEqual(new Set([people.engineerA.id]));
    expect(new Set(await ids('managerB'))).toEqual(new Set([people.engineerB.id]));
    expect(new Set(await ids('admin'))).toEqual(new Set([people.engineerA.id, people.engineerB.id]));
  });

  it('lets only the engineer\'s manager (or an admin) review, once, and tells the engineer', async () => {
    const [sheet] = await t.app.db.select().from(timeSheets).where(eq(timeSheets.user_id, people.engineerA.id)).limit(1);
    const decide = (who: string, transition: string, comment?: string) =>
      t.call('POST', `/api/time-sheet/${sheet.id}/transitions/${transition}`, { token: people[who].token, body: comment ? { comment } : {} });
    // Another manager does not even see it; the engineer may not review their own sheet.
    expect((await decide('managerB', 'approve')).status).toBe(404);
    const own = await decide('engineerA', 'approve');
    expect(own.status).toBe(403);
    // The buttons come from the row: the manager gets both, the engineer none.
    const asManager = await t.call('GET', `/api/time-sheet/${sheet.id}`, { token: people.managerA.token });
    expect(asManager.body.data.available_transitions.map((a: { name: string }) => a.name)).toEqual(['approve', 'reject']);
    expect((await t.call('GET', `/api/time-sheet/${sheet.id}`, { token: people.engineerA.token })).body.data.available_transitions).toEqual([]);
    const noComment = await decide('managerA', 'reject');
    expect(noComment.status).toBe(422);
    expect(noComment.body.errors.comment).toBeDefined();
    const approved = await decide('managerA', 'approve', 'Thanks');
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ status: 'approved', reviewed_by: people.managerA.id, comment: 'Thanks', available_transitions: [] });
    expect((await decide('managerA', 'reject', 'No')).status).toBe(409);
    const history = await t.call('GET', `/api/time-sheet/${sheet.id}/history`, { token: people.engineerA.token });
    expect(history.body.data.map((h: { transition: string; from: string | null; to: string }) => [h.transition, h.from, h.to]))
      .toEqual([['create', null, 'pending'], ['approve', 'pending', 'approved']]);
    expect(history.body.data[1]).toMatchObject({ actor: { id: people.managerA.id, name: 'managerA' }, comment: 'Thanks' });
    const told = await t.app.db.select().from(notifications).where(eq(notifications.notifiable_id, people.engineerA.id));
    expect(told.map((n) => n.data.title)).toContain('Your time sheet was approved');
    // The manager's "uploaded" notice for this sheet is done with; others stay unread.
    const managerNotices = await t.app.db.select().from(notifications).where(eq(notifications.notifiable_id, people.managerA.id));
    const forSheet = managerNotices.filter((n) => n.data.url === `/time-sheet?highlight=${sheet.id}`);
    expect(forSheet.length).toBeGreaterThan(0);
    expect(forSheet.every((n) => n.read_at !== null)).toBe(true);
    expect(managerNotices.some((n) => n.data.url !== `/time-sheet?highlight=${sheet.id}` && n.read_at === null)).toBe(true);
  });

  it('lets one of two simultaneous decisions through and answers the other 409', async () => {
    const created = await upload('engineerA', { period_start: '2026-05-01' });
    const id = created.body.data.id;
    const [first, second] = await Promise.all([
      t.call('POST', `/api/time-sheet/${id}/transitions/approve`, { token: people.managerA.token, body: {} }),
      t.call('POST', `/api/time-sheet/${id}/transitions/reject`, { token: people.admin.token, body: { comment: 'Wrong client' } }),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    const history = await t.call('GET', `/api/time-sheet/${id}/history`, { token: people.admin.token });
    expect(history.body.data).toHaveLength(2);
    // Nothing of the loser's is written, though a decision is sent without BEGIN and COMMIT (decision 050):
    // one audit entry and one notification to the engineer, of the winner's transition.
    const winner = first.status === 200 ? 'approve' : 'reject';
    const trail = await t.app.db.select().from(auditLog).where(and(eq(auditLog.resource, 'time-sheet'), eq(auditLog.record_id, id), eq(auditLog.action, 'transition')));
    expect(trail.map((entry) => entry.transition)).toEqual([winner]);
    const told = await t.app.db.select().from(notifications).where(eq(notifications.notifiable_id, people.engineerA.id));
    expect(told.filter((row) => row.data.url === `/time-sheet?highlight=${id}`).map((row) => row.type)).toEqual([`App\\Notifications\\TimeSheet${winner === 'approve' ? 'Approve' : 'Reject'}`]);
  });

  it('writes nothing of a decision whose compare-and-set finds the sheet changed since its read (decision 050)', async () => {
    const id = (await upload('engineerA', { period_start: '2024-03-01' })).body.data.id;
    // Someone else decides between this decision's read and its statement: the statement changes no row.
    type Prepare = (this: unknown, query: { sql: string }, ...rest: unknown[]) => { execute(...args: unknown[]): Promise<unknown> };
    const session = Object.getPrototypeOf((t.app.db as unknown as { session: object }).session) as { prepareQuery: Prepare };
    const original = session.prepareQuery;
    session.prepareQuery = function prepareQuery(query, ...rest) {
      const prepared = original.call(this, query, ...rest);
      if (!query.sql.startsWith('with changed as')) return prepared;
      const execute = prepared.execute.bind(prepared);
      prepared.execute = async (...args: unknown[]) => {
        await t.app.db.update(timeSheets).set({ status: 'rejected' }).where(eq(timeSheets.id, id));
        return execute(...args);
      };
      return prepared;
    };
    let res;
    try {
      res = await t.call('POST', `/api/time-sheet/${id}/transitions/approve`, { token: people.managerA.token, body: { comment: 'Fine' } });
    } finally {
      session.prepareQuery = original;
    }
    expect(res.status).toBe(409);
    const history = await t.call('GET', `/api/time-sheet/${id}/history`, { token: people.admin.token });
    expect(history.body.data.map((h: { transition: string }) => h.transition)).toEqual(['create']);
    expect(await t.app.db.select().from(auditLog).where(and(eq(auditLog.record_id, id), eq(auditLog.action, 'transition')))).toEqual([]);
    const told = await t.app.db.select().from(notifications).where(eq(notifications.notifiable_id, people.engineerA.id));
    expect(told.filter((row) => row.data.url === `/time-sheet?highlight=${id}`)).toEqual([]);
    // The manager's upload notice stays unread: the sheet was not approved by this decision.
    const notice = await t.app.db.select().from(notifications).where(eq(notifications.notifiable_id, people.managerA.id));
    expect(notice.filter((row) => row.data.url === `/time-sheet?highlight=${id}`).every((row) => row.read_at === null)).toBe(true);
  });

  it('decides in a few statements, without reading the changed sheet back (issue 27)', async () => {
    const id = (await upload('engineerA', { period_start: '2024-02-01' })).body.data.id;
    // Warm: the caller's session is in the node's cache, as it is on every request but the first.
    await t.call('GET', '/api/me', { token: people.managerA.token });
    const statements = await statementsOf(t.app.db, async () => {
      const res = await t.call('POST', `/api/time-sheet/${id}/transitions/approve`, { token: people.managerA.token, body: {} });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    });
    const [sent, names] = [statements.map((statement) => statement.sql), statements.map((statement) => statement.name)];
    // The read and the decision are named statements, parsed and planned once per connection (issue 27,
    // third step): the same text gets the same name, whatever the sheet.
    expect(names[0]).toMatch(/^s_/);
    expect(names[0]).toBe(statementName(sent[0]));
    expect(names[1]).toBe(statementName(sent[1]));
    // The guards' read, then one statement: the compare-and-set update, the history row, the audit entry,
    // the engineer's notification (recipients, who may open it, their choices, coalescing, its row) and
    // the manager's upload notice marked read (decision 050).
    expect(sent[0]).toMatch(/^select .* from "time_sheets"/s);
    expect(sent[1]).toMatch(/^with changed as \(update "time_sheets" .*insert into "workflow_history" .*insert into "audit_log" .*insert into "notifications".*module_writes as \(update "notifications" set read_at/s);
    // Never read back: the answer is made from the row before and what was written.
    expect(sent.slice(1).filter((statement) => /from "time_sheets"/.test(statement))).toEqual([]);
    // Two round trips in all (ten before issue 27, seven after decision 028's first step, three after its
    // second). A new statement in a decision shows here.
    expect(sent, sent.join('\n')).toHaveLength(2);
    const told = await t.app.db.select().from(notifications).where(eq(notifications.notifiable_id, people.engineerA.id));
    expect(told.filter((row) => row.type === 'App\\Notifications\\TimeSheetApprove' && row.data.url?.includes(String(id)))).toHaveLength(1);
  });

  it('decides a selection at once with one result per record', async () => {
    const a = (await upload('engineerA', { period_start: '2026-07-01' })).body.data.id;
    const b = (await upload('engineerB', { period_start: '2026-07-01' })).body.data.id;
    const res = await t.call('POST', '/api/time-sheet/transitions/approve', { token: people.managerA.token, body: { ids: [a, b, 999999] } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { id: a, status: 200, message: expect.any(String) },
      { id: b, status: 404, message: expect.any(String) },
      { id: 999999, status: 404, message: expect.any(String) },
    ]);
    const unknown = await t.call('POST', '/api/time-sheet/transitions/explode', { token: people.managerA.token, body: { ids: [a] } });
    expect(unknown.body.data[0].status).toBe(404);
  });

  it('serves the file only to those who may see the sheet', async () => {
    const [sheet] = await t.app.db.select().from(timeSheets).where(eq(timeSheets.user_id, people.engineerA.id)).limit(1);
    const mine = await t.app.inject({ method: 'GET', url: `/api/time-sheet/${sheet.id}/file`, headers: { authorization: `Bearer ${people.engineerA.token}` } });
    expect(mine.statusCode).toBe(200);
    expect(mine.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(mine.headers['content-disposition']).toContain('attachment');
    expect((await t.call('GET', `/api/time-sheet/${sheet.id}/file`, { token: people.engineerB.token })).status).toBe(404);
    expect((await t.call('GET', `/api/time-sheet/${sheet.id}/file`, { token: people.managerA.token })).status).toBe(200);
  });

  it('refuses a second sheet for the same client and period (422) until the first is rejected', async () => {
    const first = await upload('engineerA', { period_start: '2025-01-01' });
    expect(first.status).toBe(201);
    const again = await upload('engineerA', { period_start: '2025-01-01' }, { name: 'again.pdf', type: 'application/pdf', content: PDF });
    expect(again.status).toBe(422);
    expect(again.body.errors.period_start).toEqual(['A time sheet for this client from 2025-01-01 to 2025-01-31 has already been uploaded and waits for approval. Upload a corrected sheet once that one is rejected.']);
    // A week inside that month overlaps it too; another engineer, or another client, is a different sheet.
    expect((await upload('engineerA', { period_type: 'week', period_start: '2025-01-06', hours: 40 })).status).toBe(422);
    expect((await upload('engineerB', { period_start: '2025-01-01' })).status).toBe(201);
    const [{ id: otherClient }] = await t.app.db.insert(clients).values({ name: 'Fabrikam' }).returning();
    expect((await upload('engineerA', { period_start: '2025-01-01', client_id: otherClient })).status).toBe(201);

    const rejected = await t.call('POST', `/api/time-sheet/${first.body.data.id}/transitions/reject`, { token: people.managerA.token, body: { comment: 'Hours of the 3rd are missing.' } });
    expect(rejected.status).toBe(200);
    const corrected = await upload('engineerA', { period_start: '2025-01-01', hours: 168 }, { name: 'corrected.pdf', type: 'application/pdf', content: PDF });
    expect(corrected.status).toBe(201);
    expect(corrected.body.data).toMatchObject({ status: 'pending', hours: 168, file_name: 'corrected.pdf' });
    // The rejected one stays as the record of the review; the corrected one is now the sheet of the period.
    expect((await upload('engineerA', { period_start: '2025-01-01' })).status).toBe(422);
  });

  it('refuses a period that starts in the future, and stores no file', async () => {
    const before = readdirSync(join(t.app.config.dataDir, 'files', 'time-sheets')).length;
    const nextYear = `${new Date().getUTCFullYear() + 1}-01-01`;
    const res = await upload('engineerA', { period_start: nextYear });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ period_start: ['The period may not start in the future.'] });
    expect(readdirSync(join(t.app.config.dataDir, 'files', 'time-sheets')).length).toBe(before);
    // The period that has just begun (today, wherever it is today first) is not in the future.
    const today = new Date().toISOString().slice(0, 10);
    const [{ id: freshClient }] = await t.app.db.insert(clients).values({ name: 'Tailspin' }).returning();
    expect((await upload('engineerB', { period_type: 'week', period_start: today, hours: 8, client_id: freshClient })).status).toBe(201);
  });
});

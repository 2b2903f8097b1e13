// Decision 063: a record's own answers say beside its state why it is there and who decided
// (`status_note`, from the note its latest step declares); an approval says nothing, nor do lists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients } from '../../src/server/db/schema/master-data';
import { createTestApp, type TestApp } from '../helpers/app';
import { multipart, PDF } from '../helpers/multipart';

let t: TestApp;
let clientId: number;
const people: Record<string, { id: number; token: string }> = {};

beforeAll(async () => {
  t = await createTestApp();
  [{ id: clientId }] = await t.app.db.insert(clients).values({ name: 'Contoso' }).returning();
  people.maria = await t.signedIn('maria', 'Maria Manager', { user_type: 'manager' });
  people.eddie = await t.signedIn('eddie', 'Eddie Engineer', { user_type: 'user', parent_id: people.maria.id });
});
afterAll(async () => { await t?.close(); });

async function uploaded(periodStart: string): Promise<number> {
  const form = multipart({ client_id: clientId, period_type: 'month', period_start: periodStart, hours: 160 }, { name: 'sheet.pdf', type: 'application/pdf', content: PDF }, 'time-sheet');
  const res = await t.call('POST', '/api/time-sheet', { token: people.eddie.token, body: form.body, headers: form.headers });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id;
}
const decide = (who: string, id: number, transition: string, comment?: string) =>
  t.call('POST', `/api/time-sheet/${id}/transitions/${transition}`, { token: people[who].token, body: comment === undefined ? {} : { comment } });
const shown = async (who: string, id: number) => (await t.call('GET', `/api/time-sheet/${id}`, { token: people[who].token })).body.data;

describe('the note beside a decided record\'s state', () => {
  it('says who rejected it and why, to the owner and the decider, on its page and in the answer', async () => {
    const id = await uploaded('2026-03-01');
    expect((await shown('eddie', id)).status_note).toBeNull();
    const rejected = await decide('maria', id, 'reject', 'The hours for the 12th are missing');
    expect(rejected.status).toBe(200);
    expect(rejected.body.data).toMatchObject({ status: 'rejected', status_note: 'Rejected by Maria Manager: The hours for the 12th are missing.' });
    expect(await shown('eddie', id)).toMatchObject({ status: 'rejected', status_note: 'Rejected by Maria Manager: The hours for the 12th are missing.' });
    expect((await shown('maria', id)).status_note).toBe('Rejected by Maria Manager: The hours for the 12th are missing.');
    // Lists leave it to the record's page.
    const list = await t.call('GET', '/api/time-sheet', { token: people.eddie.token });
    expect(list.body.data.find((row: { id: number }) => row.id === id)).not.toHaveProperty('status_note');
  });

  it('says nothing after an approval, even one with a comment', async () => {
    const id = await uploaded('2026-04-01');
    const approved = await decide('maria', id, 'approve', 'Thanks');
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ status: 'approved', status_note: null });
    expect((await shown('eddie', id)).status_note).toBeNull();
  });

  it('names the owner who withdrew, without a comment', async () => {
    const id = await uploaded('2026-05-01');
    expect((await decide('eddie', id, 'withdraw')).status).toBe(200);
    expect((await shown('maria', id)).status_note).toBe('Withdrawn by Eddie Engineer.');
  });
});

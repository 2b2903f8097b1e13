// The audit trail (issue 20): creates, updates, deletes and transitions through the API are
// recorded with who, when, which account type and each field's old and new value; secrets never;
// files by name; nothing for a rolled-back write. The admin's list filters and exports them; a
// record's History tab reads its edits.
// On the embedded database too: old and new values as JSON, as the embedded driver returns them.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/server/db/schema/accounts';
import { auditLog } from '../../src/server/db/schema/audit';
import { clients, expenseCategories, positions, questionCategories, questions } from '../../src/server/db/schema/master-data';
import { candidates } from '../../src/server/db/schema/recruitment';
import { inTransaction } from '../../src/server/lib/transaction';
import { recordChange } from '../../src/server/resources/audit';
import { ADMIN, createTestApp, TEST_PASSWORD, type TestApp } from '../helpers/app';
import { multipart, PDF } from '../helpers/multipart';

let t: TestApp;
let admin: string;
let adminName: string;
const people: Record<string, { id: number; token: string }> = {};
let categoryId: number;
let clientId: number;

/** The expense form as the screen sends it: multipart with bracketed keys and one receipt. */
function expenseForm(fields: Record<string, string | number | boolean>) {
  const boundary = `----test${randomBytes(8).toString('hex')}`;
  const parts = Object.entries(fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="expense[${name}]"\r\n\r\n${value}\r\n`);
  const body = Buffer.concat([
    Buffer.from(parts.join('')),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="expense[receipts][]"; filename="taxi-receipt.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
    PDF, Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const entriesOf = (resource: string, recordId: number) =>
  t.app.db.select().from(auditLog).where(eq(auditLog.resource, resource)).then((rows) => rows.filter((r) => r.record_id === recordId).sort((a, b) => a.id - b.id));

/** Amounts read unbroken: the currency code and the number are joined by a no-break space. */
const money = (text: string) => text.replace(' ', '\u00a0');

const list = (query: string, token = admin) => t.call('GET', `/api/audit-log${query ? `?${query}` : ''}`, { token });

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  [{ name: adminName }] = await t.app.db.select({ name: users.name }).from(users).where(eq(users.email, ADMIN.email));
  [{ id: categoryId }] = await t.app.db.insert(expenseCategories).values({ name: 'Travel' }).returning();
  [{ id: clientId }] = await t.app.db.insert(clients).values({ name: 'Contoso' }).returning();
  const make = async (key: string, values: Partial<typeof users.$inferInsert>, roles?: string[]) => {
    const created = await t.createUser({ email: `${key.replace(' ', '.').toLowerCase()}@example.com`, name: key, ...values }, roles);
    people[key] = { id: created.id, token: await created.token() };
  };
  await make('Maria Manager', { user_type: 'manager' });
  await make('Erik Engineer', { user_type: 'user', parent_id: people['Maria Manager'].id });
  // Holds every permission through the admin role, yet is not an admin account.
  await make('Powerful Manager', { user_type: 'manager' }, ['admin']);
});
afterAll(async () => { await t?.close(); });

describe('what is recorded', () => {
  it('records a create, an update and a delete with who, when, the account type and each field\'s old and new value', async () => {
    const created = await t.call('POST', '/api/country', { token: admin, body: { name: 'Atlantis', code: 'at', status: 'active' } });
    expect(created.status).toBe(201);
    const id = created.body.data.id as number;
    expect((await t.call('PUT', `/api/country/${id}`, { token: admin, body: { name: 'Lemuria', code: 'AT', status: 'inactive' } })).status).toBe(200);
    // Saving without a change records nothing.
    expect((await t.call('PATCH', `/api/country/${id}`, { token: admin, body: { name: 'Lemuria' } })).status).toBe(200);
    expect((await t.call('DELETE', `/api/country/${id}`, { token: admin })).status).toBe(200);

    const [create, update, remove, ...rest] = await entriesOf('country', id);
    expect(rest).toEqual([]);
    expect(create).toMatchObject({ action: 'create', actor_type: 'app', actor_id: 1, actor_name: adminName, record_title: 'Atlantis' });
    expect(create.created_at).toBeInstanceOf(Date);
    expect(create.changes).toEqual(expect.arrayContaining([
      expect.objectContaining({ field: 'name', old: null, new: 'Atlantis' }),
      expect.objectContaining({ field: 'code', old: null, new: 'AT' }),
    ]));
    expect(update.action).toBe('update');
    expect(update.changes).toEqual([
      { field: 'name', old: 'Atlantis', new: 'Lemuria', old_text: 'Atlantis', new_text: 'Lemuria' },
      { field: 'status', old: 'active', new: 'inactive', old_text: 'Active', new_text: 'Inactive' },
    ]);
    expect(remove).toMatchObject({ action: 'delete', record_title: 'Lemuria' });
    expect(remove.changes).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'name', old: 'Lemuria', new: null })]));

    const listed = await list(`resource=country&record_id=${id}`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((e: { summary: string }) => e.summary)).toEqual([
      `${adminName} deleted country ${id} (Lemuria).`,
      `${adminName} changed the name and the status of country ${id} (Lemuria).`,
      `${adminName} created country ${id} (Atlantis).`,
    ]);
    expect(listed.body.data[1].changes).toEqual([
      { field: 'name', label: 'Name', old: 'Atlantis', new: 'Lemuria', old_text: 'Atlantis', new_text: 'Lemuria' },
      { field: 'status', label: 'Status', old: 'active', new: 'inactive', old_text: 'Active', new_text: 'Inactive' },
    ]);
  });

  it('words an amount with its currency, keeps files by name and records transitions with their states', async () => {
    const engineer = people['Erik Engineer'];
    const form = expenseForm({ description: 'Taxi', expense_category_id: categoryId, expense_date: '2026-03-02', amount: 20, currency: 'EUR', client_id: clientId, is_rebillable: false });
    const filed = await t.call('POST', '/api/expense', { token: engineer.token, body: form.body, headers: form.headers });
    expect(filed.status, JSON.stringify(filed.body)).toBe(201);
    const id = filed.body.data.id as number;
    const changed = await t.call('PATCH', `/api/expense/${id}`, { token: engineer.token, body: { amount: 9000 } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const approved = await t.call('POST', `/api/expense/${id}/transitions/approve-manager`, { token: people['Maria Manager'].token, body: {} });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);

    const [create, update, transition] = await entriesOf('expense', id);
    expect(create.changes).toEqual(expect.arrayContaining([
      { field: 'receipts', old: null, new: ['taxi-receipt.pdf'], old_text: null, new_text: 'taxi-receipt.pdf' },
      expect.objectContaining({ field: 'amount', new: 20, new_text: money('EUR 20.00') }),
    ]));
    // The file's bytes never reach the trail, only its name.
    expect(JSON.stringify(create.changes)).not.toContain(PDF.subarray(0, 8).toString('latin1'));
    expect(update.changes).toEqual([{ field: 'amount', old: 20, new: 9000, old_text: money('EUR 20.00'), new_text: money('EUR 9,000.00') }]);
    expect(transition).toMatchObject({ action: 'transition', transition: 'approve-manager', actor_name: 'Maria Manager' });
    expect(transition.changes).toEqual([expect.objectContaining({ field: 'status', old: 'pending', new: 'approved by manager', old_text: 'Pending', new_text: 'Approved by manager' })]);

    const listed = await list(`resource=expense&record_id=${id}`);
    expect(listed.body.data.map((e: { summary: string }) => e.summary)).toEqual([
      `Maria Manager changed the status of expense ${id} (Taxi) from Pending to Approved by manager.`,
      `Erik Engineer changed the amount of expense ${id} (Taxi) from ${money('EUR 20.00')} to ${money('EUR 9,000.00')}.`,
      `Erik Engineer created expense ${id} (${create.record_title}).`,
    ]);

    // The record's History tab: its creation and edits, oldest first, for whoever may view it.
    const edits = await t.call('GET', `/api/expense/${id}/changes`, { token: engineer.token });
    expect(edits.status).toBe(200);
    expect(edits.body.data.map((e: { action: string }) => e.action)).toEqual(['create', 'update']);
    expect((await t.call('GET', `/api/expense/${id}/changes`, { token: people['Powerful Manager'].token })).status).toBe(200);
  });

  it('never stores a password: a new account\'s hash stays out, a changed password is recorded without a value', async () => {
    const created = await t.call('POST', '/api/user', { token: admin, body: { name: 'Nina New', email: 'nina@example.com', status: 'active' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const [entry] = await entriesOf('user', created.body.data.id);
    expect(entry.action).toBe('create');
    const stored = JSON.stringify(entry);
    expect(stored).not.toMatch(/password|\$argon2/i);

    const newPassword = 'A-much-longer-passphrase-42';
    const changed = await t.call('PUT', '/api/password', {
      token: people['Erik Engineer'].token,
      body: { current_password: TEST_PASSWORD, password: newPassword, password_confirmation: newPassword },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const [passwordEntry] = await entriesOf('user', people['Erik Engineer'].id);
    expect(passwordEntry.changes).toEqual([{ field: 'password', is_secret: true }]);
    const everything = JSON.stringify(await t.app.db.select().from(auditLog));
    expect(everything).not.toContain(newPassword);
    expect(everything).not.toContain(TEST_PASSWORD);
    expect(everything).not.toContain('$argon2');
    const listed = await list(`resource=user&record_id=${people['Erik Engineer'].id}`);
    expect(listed.body.data[0].summary).toBe('Erik Engineer changed the password of their account.');
    expect(listed.body.data[0].changes).toEqual([{ field: 'password', label: 'Password', is_secret: true }]);
  });
});

describe('writes outside the generic routes', () => {
  it('records a settings change with its old and new values', async () => {
    const saved = await t.call('PUT', '/api/setting/announcement', { token: admin, body: { status: 'on', message: 'Office closed on Friday' } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const listed = await list('resource=setting');
    expect(listed.body.data[0]).toMatchObject({
      action: 'update', record_id: null, record_title: 'Announcement',
      summary: `${adminName} changed the status and the message of the announcement setting.`,
      changes: [
        { field: 'status', label: 'Status', old: 'off', new: 'on', old_text: 'off', new_text: 'on' },
        { field: 'message', label: 'Message', old: '', new: 'Office closed on Friday', old_text: null, new_text: 'Office closed on Friday' },
      ],
    });
    // Saving the same again changes nothing and records nothing.
    await t.call('PUT', '/api/setting/announcement', { token: admin, body: { status: 'on', message: 'Office closed on Friday' } });
    expect((await list('resource=setting')).body.meta.total).toBe(1);
    await t.call('PUT', '/api/setting/expense', { token: admin, body: { receipt_threshold: 75 } });
    expect((await list('resource=setting')).body.data[0].summary).toBe(`${adminName} changed the receipt threshold of the expense setting from 50 to 75.`);
    // The audience reads as the form names it.
    await t.call('PUT', '/api/setting/announcement', { token: admin, body: { status: 'on', message: 'Office closed on Friday', audience: 'both' } });
    expect((await list('resource=setting')).body.data[0].changes).toEqual([
      expect.objectContaining({ field: 'audience', old: 'staff', new: 'both', old_text: 'Staff only', new_text: 'Staff and partners' }),
    ]);
  });
});

describe('writes outside the generic routes, continued', () => {
  it('records each assignment of a document, all in the one request, with the document and the person by name', async () => {
    const form = multipart({ title: 'Code of conduct', category: 'compliance', action: 'acknowledge', status: 'active' }, { name: 'conduct.pdf', type: 'application/pdf', content: PDF });
    const document = await t.call('POST', '/api/document-repository', { token: admin, body: form.body, headers: form.headers });
    expect(document.status, JSON.stringify(document.body)).toBe(201);
    const [created] = await entriesOf('document-repository', document.body.data.id);
    // The file is recorded by its name.
    expect(JSON.stringify(created.changes)).toContain('conduct.pdf');
    const due = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const engineer = people['Erik Engineer'];
    const assigned = await t.call('POST', '/api/document-assign', { token: admin, body: { document_ids: [document.body.data.id], user_ids: [engineer.id], due_date: due } });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(201);
    const listed = await list('resource=document-assign-history&action=create');
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0].changes).toEqual([
      expect.objectContaining({ field: 'document_id', new_text: 'Code of conduct' }),
      expect.objectContaining({ field: 'user_id', new: engineer.id, new_text: 'Erik Engineer' }),
      expect.objectContaining({ field: 'due_date', new_text: due }),
    ]);
  });

  it('records a candidate form link and its revocation, never its token', async () => {
    const position = await t.call('POST', '/api/position', { token: admin, body: { title: 'Java Developer', client_id: clientId, location: 'Pune', count: 2, status: 'open' } });
    expect(position.status, JSON.stringify(position.body)).toBe(201);
    const link = await t.call('POST', '/api/candidate/form-links', { token: admin, body: { position_id: position.body.data.id, expires_in_days: 7, is_single_use: true } });
    expect(link.status, JSON.stringify(link.body)).toBe(201);
    expect((await t.call('DELETE', `/api/candidate/form-links/${link.body.data.id}`, { token: admin })).status).toBe(200);
    const listed = await list(`resource=candidate-form-link&record_id=${link.body.data.id}`);
    expect(listed.body.data.map((e: { summary: string }) => e.summary)).toEqual([
      `${adminName} changed the status of candidate form link ${link.body.data.id} from active to revoked.`,
      `${adminName} created candidate form link ${link.body.data.id} (Java Developer).`,
    ]);
    const everything = JSON.stringify(await t.app.db.select().from(auditLog));
    expect(everything).not.toContain(link.body.data.token);
  });

  it('records an assessment link sent and revoked, never its token', async () => {
    const [category] = await t.app.db.insert(questionCategories).values({ name: 'Audit Java' }).returning();
    await t.app.db.insert(questions).values({ question_category_id: category.id, question: 'What is a JVM?', options: ['A VM', 'A car'], correct_answer: 'A VM', skill_level: 1 });
    const [position] = await t.app.db.insert(positions).values({ title: 'Audit role', client_id: clientId, location: 'Pune', count: 1 }).returning();
    const [candidate] = await t.app.db.insert(candidates).values({ name: 'Carla Candidate', email: 'carla@example.com', phone: '+91 90000 00001', position_id: position.id }).returning();
    const sent = await t.call('POST', `/api/candidate/${candidate.id}/send-assessment-link`, { token: admin, body: {
      question_category_ids: [category.id], questions_per_level: { 1: 1, 2: 0, 3: 0 }, duration_minutes: 10, expires_at: new Date(Date.now() + 48 * 3_600_000).toISOString(),
    } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const revoked = await t.call('POST', `/api/candidate/${candidate.id}/assessments/${sent.body.data.id}/revoke`, { token: admin, body: {} });
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    const listed = await list(`resource=assessment&record_id=${sent.body.data.id}`);
    expect(listed.body.data.map((e: { summary: string }) => e.summary)).toEqual([
      `${adminName} changed the status of assessment ${sent.body.data.id} from sent to revoked.`,
      `${adminName} created assessment ${sent.body.data.id} (Carla Candidate).`,
    ]);
    const token = new URL(sent.body.data.url).pathname.split('/').find((part: string) => part.length > 20);
    expect(token).toBeTruthy();
    expect(JSON.stringify(await t.app.db.select().from(auditLog))).not.toContain(token);
  });

  it('records the login a new partner firm gets, without its password', async () => {
    const firm = await t.call('POST', '/api/ikk-partner', { token: admin, body: {
      name: 'Acme Engineering', contact_name: 'Ravi Kumar', email: 'ravi@acme.example', phone: '+91 98 7654 3210',
      address: '12 MG Road', tax_id: 'GSTIN-27AAAPL1234C1ZV', payment_terms_days: 45, status: 'active',
    } });
    expect(firm.status, JSON.stringify(firm.body)).toBe(201);
    const logins = await t.app.db.select().from(auditLog).where(eq(auditLog.resource, 'partner-account'));
    expect(logins).toHaveLength(1);
    expect(logins[0]).toMatchObject({ action: 'create', actor_id: 1, record_title: 'Ravi Kumar' });
    expect(logins[0].changes).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'email', new: 'ravi@acme.example' })]));
    expect(JSON.stringify(logins[0])).not.toMatch(/password|\$argon2/i);
  });

  it('records a partner login\'s own change with the partner account type', async () => {
    const partner = await t.createPartner({ email: 'pia@partner.example.com', name: 'Pia Partner' });
    const token = await partner.token();
    const saved = await t.call('PATCH', '/api/partner/profile', { token, body: { name: 'Pia P. Partner', email: 'pia@partner.example.com' } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const [entry] = await entriesOf('partner-account', partner.id);
    expect(entry).toMatchObject({ actor_type: 'partner', actor_id: partner.id, actor_name: 'Pia Partner', action: 'update' });
    expect(entry.changes).toEqual([{ field: 'name', old: 'Pia Partner', new: 'Pia P. Partner', old_text: 'Pia Partner', new_text: 'Pia P. Partner' }]);
    const listed = await list(`actor_type=partner&actor_id=${partner.id}`);
    expect(listed.body.data[0]).toMatchObject({ actor: { type: 'partner', id: partner.id, name: 'Pia Partner' } });
  });
});

describe('a rolled-back write', () => {
  it('leaves no entry when the transaction of the change fails after recording it', async () => {
    const before = await t.app.db.select().from(auditLog);
    await expect(inTransaction(t.app, async (tx) => {
      await recordChange(tx.db, { account: null, action: 'create', resource: 'country', recordId: 424242, changes: [{ field: 'name', old: null, new: 'Ghost' }] });
      throw new Error('the write failed after its entry');
    })).rejects.toThrow('the write failed after its entry');
    const after = await t.app.db.select().from(auditLog);
    expect(after.length).toBe(before.length);
    expect(after.some((entry) => entry.record_id === 424242)).toBe(false);
  });

  it('leaves no entry for a write the API refuses part-way (a delete of a record in use)', async () => {
    const country = await t.call('POST', '/api/country', { token: admin, body: { name: 'Used Land', code: 'UL', status: 'active' } });
    const countryId = country.body.data.id as number;
    const city = await t.call('POST', '/api/city', { token: admin, body: { name: 'Used Town', country_id: countryId, status: 'active' } });
    expect(city.status, JSON.stringify(city.body)).toBe(201);
    await t.call('POST', '/api/country', { token: admin, body: { name: 'Other Land', code: 'OL', status: 'active' } });
    const before = (await entriesOf('country', countryId)).length;
    expect((await t.call('DELETE', `/api/country/${countryId}`, { token: admin })).status).toBe(409);
    const refusedEdit = await t.call('PUT', `/api/country/${countryId}`, { token: admin, body: { name: 'Other Land', code: 'UL', status: 'active' } });
    expect(refusedEdit.status).toBe(422);
    expect((await entriesOf('country', countryId)).length).toBe(before);
  });
});

describe('the admin\'s audit screen', () => {
  it('refuses anyone but an admin account, even one holding every permission', async () => {
    for (const who of ['Powerful Manager', 'Erik Engineer']) {
      expect((await list('', people[who].token)).status).toBe(403);
      expect((await t.call('GET', '/api/audit-log/export', { token: people[who].token })).status).toBe(403);
      expect((await t.call('GET', '/api/audit-log/people', { token: people[who].token })).status).toBe(403);
    }
    expect((await t.call('GET', '/api/audit-log')).status).toBe(401);
    const partner = await t.createPartner({ email: 'partner-audit@example.com' });
    // A partner token is refused on every app route before it is read.
    expect((await list('', await partner.token())).status).toBe(401);
  });

  it('filters by person, resource, record, action and date, newest first, with list meta', async () => {
    const maria = people['Maria Manager'];
    // The person filter offers staff of every type by name.
    const choices = await t.call('GET', '/api/audit-log/people?search=maria', { token: admin });
    expect(choices.body.data).toEqual([{ id: maria.id, label: 'Maria Manager' }]);
    const byMaria = await list(`actor_id=${maria.id}`);
    expect(byMaria.status).toBe(200);
    expect(byMaria.body.data.length).toBeGreaterThan(0);
    expect(byMaria.body.data.every((e: { actor: { id: number } }) => e.actor.id === maria.id)).toBe(true);

    const countries = await list('resource=country&per_page=2');
    expect(countries.body.data.every((e: { resource: string }) => e.resource === 'country')).toBe(true);
    expect(countries.body.meta).toMatchObject({ current_page: 1, per_page: 2, is_total_capped: false });
    const all = await t.app.db.select().from(auditLog).where(eq(auditLog.resource, 'country'));
    expect(countries.body.meta.total).toBe(all.length);
    const ids = countries.body.data.map((e: { id: number }) => e.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));

    const deletes = await list('action=delete');
    expect(deletes.body.data.length).toBeGreaterThan(0);
    expect(deletes.body.data.every((e: { action: string }) => e.action === 'delete')).toBe(true);

    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await list(`created_at_from=${today}&created_at_to=${today}`)).body.meta.total).toBeGreaterThan(0);
    expect((await list(`created_at_from=${tomorrow}`)).body.meta.total).toBe(0);
    expect((await list(`created_at_from=${tomorrow}&created_at_to=${today}`)).status).toBe(422);
    expect((await list('record_id=abc')).status).toBe(422);
    expect((await list('page=100000')).status).toBe(422);
  });

  it('exports the filtered entries as CSV with the sentences', async () => {
    const res = await t.call('GET', '/api/audit-log/export?resource=expense', { token: admin });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = (res.body as string).trim().split('\r\n');
    expect(lines[0]).toBe('When (UTC),Who,Account type,Action,Resource,Record,Record name,What changed,Changes');
    const expenseEntries = await t.app.db.select().from(auditLog).where(eq(auditLog.resource, 'expense'));
    expect(lines.length - 1).toBe(expenseEntries.length);
    expect(res.body).toContain(`Amount: ${money('EUR 20.00')} -> ${money('EUR 9,000.00')}`);
    expect(res.body).not.toMatch(/,Country,/);
  });
});

// Issue 22: people and reference data in bulk (preview, import all or only the valid rows, audit),
// invitations (queued, throttled, 7 days, resent), the HR record's fields, and who may import what.
import ExcelJS from 'exceljs';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordResetTokens, users } from '../../src/server/db/schema/accounts';
import { auditLog } from '../../src/server/db/schema/audit';
import { imports } from '../../src/server/db/schema/imports';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';
import { multipart } from '../helpers/multipart';

let t: TestApp;
let admin: string;
let ids: { india: number; spain: number; pune: number; madrid: number; fullTime: number; finance: number; admin: number };

const HEAD = 'Name,Email,Phone,Employee Type,Manager Email,Country,City,Roles,Employee ID,Job Title,Department,Join Date,Work Location';

/** POST a CSV (or any file) to an import route. */
function upload(url: string, token: string, content: string | Buffer, fields: Record<string, string> = {}, name = 'people.csv') {
  const form = multipart(fields, { name, type: name.endsWith('.csv') ? 'text/csv' : 'application/octet-stream', content });
  return t.call('POST', url, { token, body: form.body, headers: form.headers });
}

const peopleCount = async () => (await t.app.db.select({ n: sql<number>`count(*)::int` }).from(users)).at(0)!.n;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  const post = async (url: string, body: unknown) => (await t.call('POST', url, { token: admin, body })).body.data.id as number;
  const india = await post('/api/country', { name: 'India', code: 'IN', status: 'active' });
  const spain = await post('/api/country', { name: 'Spain', code: 'ES', status: 'active' });
  const pune = await post('/api/city', { name: 'Pune', country_id: india, status: 'active' });
  const madrid = await post('/api/city', { name: 'Madrid', country_id: spain, status: 'active' });
  const fullTime = await post('/api/employee-type', { name: 'Full-time', status: 'active' });
  const roles = (await t.call('GET', '/api/role?per_page=100', { token: admin })).body.data as { id: number; name: string }[];
  ids = { india, spain, pune, madrid, fullTime, finance: roles.find((r) => r.name === 'finance')!.id, admin: roles.find((r) => r.name === 'admin')!.id };
  await t.createUser({ email: 'lead@example.com', name: 'Lead', user_type: 'manager' });
});
afterAll(async () => { await t?.close(); });

describe('the preview', () => {
  it('names every error by row and column and writes nothing', async () => {
    const before = await peopleCount();
    const csv = [
      HEAD,
      'Asha Patel,asha@example.com,+91 1,Full-time,lead@example.com,India,Pune,finance,E-1,Engineer,Engineering,2026-01-05,Pune',
      'Bad Manager,bm@example.com,,Full-time,nobody@example.com,India,Pune,,E-2,,,2026-01-05,',
      'Twice,ASHA@example.com,,,,,,,E-3,,,,',
      'Taken,admin@example.com,,,,,,,E-4,,,,',
      'Bad Date,bd@example.com,,,,,,,E-5,,,05/01/2026,',
      'Unknowns,uk@example.com,,Contractor,,Atlantis,Pune,wizard,E-6,,,,',
      ',missing-name@example.com,,,,,,,,,,,',
      'Wrong City,wc@example.com,,,,Spain,Pune,,,,,,',
      'Same ID,sid@example.com,,,,,,,e-1,,,,',
    ].join('\n');
    const res = await upload('/api/import/user/preview', admin, csv);
    expect(res.status).toBe(200);
    const { rows, total, valid, invalid } = res.body.data;
    expect({ total, valid, invalid }).toEqual({ total: 9, valid: 1, invalid: 8 });
    const errorsOf = (row: number) => rows.find((r: { row: number }) => r.row === row).errors as { column: string; message: string }[];
    expect(errorsOf(2)).toEqual([]);
    expect(errorsOf(3)).toEqual([{ column: 'Manager Email', message: 'Unknown manager: nobody who can be a manager has the email nobody@example.com.' }]);
    expect(errorsOf(4)).toEqual([{ column: 'Email', message: 'The email asha@example.com is also on row 2 of the file.' }]);
    expect(errorsOf(5)).toEqual([{ column: 'Email', message: 'The email admin@example.com has already been taken.' }]);
    expect(errorsOf(6)).toEqual([{ column: 'Join Date', message: 'The join date must be a date written YYYY-MM-DD; the file says "05/01/2026".' }]);
    // The city is looked up anywhere when the country is unknown: Pune exists, so only the unknowns are named.
    expect(errorsOf(7).map((e) => e.column).sort()).toEqual(['Country', 'Employee Type', 'Roles']);
    expect(errorsOf(7).find((e) => e.column === 'Roles')!.message).toBe('Unknown role "wizard".');
    expect(errorsOf(8)).toEqual([{ column: 'Name', message: 'The name field is required.' }]);
    expect(errorsOf(9)).toEqual([{ column: 'City', message: 'Unknown city "Pune" in the given country.' }]);
    // The employee ID is unique whatever its case.
    expect(errorsOf(10)).toEqual([{ column: 'Employee ID', message: 'The employee ID e-1 is also on row 2 of the file.' }]);
    expect(await peopleCount()).toBe(before);
  });

  it('reads an XLSX file like a CSV one, dates typed as dates included', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('People');
    sheet.addRow(HEAD.split(','));
    sheet.addRow(['Xavi Ruiz', 'xavi@example.com', '', 'Full-time', '', 'Spain', 'Madrid', '', 'X-1', 'Analyst', 'Finance', new Date(Date.UTC(2026, 2, 2)), 'Madrid']);
    const res = await upload('/api/import/user/preview', admin, Buffer.from(await workbook.xlsx.writeBuffer()), {}, 'people.xlsx');
    expect(res.status).toBe(200);
    expect(res.body.data.rows[0]).toMatchObject({ row: 2, errors: [], values: { 'Join Date': '2026-03-02', City: 'Madrid' } });
  });

  it('refuses a file that is not CSV or XLSX, or lacks a required column', async () => {
    expect((await upload('/api/import/user/preview', admin, 'x', {}, 'people.txt')).body.errors.file).toEqual(['Choose a CSV or XLSX file.']);
    const res = await upload('/api/import/user/preview', admin, 'Name,Phone\nA,1');
    expect(res.status).toBe(422);
    expect(res.body.errors.file[0]).toBe('The file has no Email column. Start from the template.');
  });

  it('offers a template in both formats whose headings the importer reads back', async () => {
    const csv = await t.call('GET', '/api/import/user/template?format=csv', { token: admin });
    expect(csv.status).toBe(200);
    expect(String(csv.body).split('\r\n')[0]).toBe(HEAD);
    const xlsx = await t.app.inject({ method: 'GET', url: '/api/import/user/template?format=xlsx', headers: { authorization: `Bearer ${admin}` } });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    expect((workbook.worksheets[0].getRow(1).values as string[]).slice(1)).toEqual(HEAD.split(','));
  });
});

describe('importing', () => {
  const good = 'Good One,good1@example.com,,Full-time,lead@example.com,India,Pune,finance,G-1,Engineer,Engineering,2026-02-01,Pune';
  const bad = 'Bad One,bad1@example.com,,,,,,,,,,2026-13-01,';

  it('refuses to import all rows while any has errors, and writes nothing', async () => {
    const before = await peopleCount();
    const res = await upload('/api/import/user', admin, [HEAD, good, bad].join('\n'), { mode: 'all' });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Nothing was imported: 1 row has errors. Fix them, or import only the valid rows.');
    expect(res.body.rows).toEqual([expect.objectContaining({ row: 3, errors: [expect.objectContaining({ column: 'Join Date' })] })]);
    expect(await peopleCount()).toBe(before);
    expect(await t.app.db.select().from(imports)).toEqual([]);
  });

  it('imports only the valid rows, audits each as a create, and queues the invitations', async () => {
    const res = await upload('/api/import/user', admin, [HEAD, good, bad].join('\n'), { mode: 'valid' });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('1 user was imported; 1 row with errors was left out.');
    expect(res.body.data).toMatchObject({ rows_total: 2, rows_imported: 1, invitations_total: 1, invitations_sent: 0, invitations_done_at: null });
    const list = (await t.call('GET', '/api/user?search=good1', { token: admin })).body.data;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      name: 'Good One', employee_id: 'G-1', job_title: 'Engineer', department: 'Engineering', join_date: '2026-02-01',
      work_location: { id: ids.pune, name: 'Pune' }, city: { id: ids.pune, name: 'Pune' }, parent: { name: 'Lead' },
      employee_type: { id: ids.fullTime, name: 'Full-time' }, access_status: 'invited', force_password_reset: true,
    });
    expect(list[0].roles.map((r: { name: string }) => r.name)).toEqual(['finance', 'user']);
    const [entry] = await t.app.db.select().from(auditLog).where(and(eq(auditLog.resource, 'user'), eq(auditLog.record_id, list[0].id)));
    expect(entry).toMatchObject({ action: 'create', record_title: 'Good One', actor_name: expect.any(String) });
    expect(entry.changes).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'employee_id', new: 'G-1' }), expect.objectContaining({ field: 'work_location_id', new_text: 'Pune' })]));

    // Nothing is mailed in the request: the job sends it, and counts it on the import.
    expect(t.smtp.messages.some((m) => m.to.includes('good1@example.com'))).toBe(false);
    await t.app.jobs.runDue();
    const invite = await t.smtp.waitFor('good1@example.com', /Set Your Password/);
    expect(invite.raw).toMatch(/expires in 7 days/);
    const status = (await t.call('GET', `/api/import/user/${res.body.data.id}`, { token: admin })).body.data;
    expect(status).toMatchObject({ invitations_total: 1, invitations_sent: 1, invitations_done_at: expect.any(String) });
  });

  it('imports every row in one transaction when the file is clean', async () => {
    const rows = [1, 2, 3].map((n) => `Clean ${n},clean${n}@example.com,,,,Spain,Madrid,,C-${n},,Sales,,Madrid`);
    const res = await upload('/api/import/manager', admin, [HEAD, ...rows].join('\n'), { mode: 'all' });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('3 managers were imported.');
    const list = (await t.call('GET', '/api/manager?department=sales&per_page=50', { token: admin })).body.data;
    expect(list.map((p: { email: string }) => p.email).sort()).toEqual(['clean1@example.com', 'clean2@example.com', 'clean3@example.com']);
    expect(list.every((p: { user_type: string }) => p.user_type === 'manager')).toBe(true);
  });
});

describe('invitations', () => {
  const tokenOf = (link: string) => /password-reset\/([0-9a-f]+)/.exec(link)![1];
  const setPassword = (email: string, token: string) => t.call('POST', '/api/reset-password', { body: { token, email, password: 'a-new-password', password_confirmation: 'a-new-password' } });
  const age = (email: string, values: { created_at?: Date; expires_at?: Date | null }) =>
    t.app.db.update(passwordResetTokens).set(values).where(eq(passwordResetTokens.email, email));

  it('lasts 7 days where a reset link lasts 60 minutes', async () => {
    await t.call('POST', '/api/user', { token: admin, body: { name: 'Week', email: 'week@example.com', status: 'active' } });
    const invite = await t.smtp.waitFor('week@example.com', /Set Your Password/);
    // Two hours old: a reset link would be dead, an invitation is not.
    await age('week@example.com', { created_at: new Date(Date.now() - 2 * 3600_000) });
    expect((await setPassword('week@example.com', tokenOf(invite.links.find((l) => l.includes('/password-reset/'))!))).status).toBe(200);

    await t.call('POST', '/api/user', { token: admin, body: { name: 'Late', email: 'late@example.com', status: 'active' } });
    const late = await t.smtp.waitFor('late@example.com', /Set Your Password/);
    await age('late@example.com', { created_at: new Date(Date.now() - 8 * 86_400_000), expires_at: new Date(Date.now() - 86_400_000) });
    expect((await setPassword('late@example.com', tokenOf(late.links.find((l) => l.includes('/password-reset/'))!))).status).toBe(422);

    // A reset asked for by its person still lasts an hour.
    await t.call('POST', '/api/forgot-password', { body: { email: 'week@example.com' } });
    const reset = await t.smtp.waitFor('week@example.com', /Reset Password Notification/);
    await age('week@example.com', { created_at: new Date(Date.now() - 61 * 60_000) });
    const [row] = await t.app.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.email, 'week@example.com'));
    expect(row.expires_at).toBeNull();
    expect((await setPassword('week@example.com', tokenOf(reset.links.find((l) => l.includes('/password-reset/'))!))).status).toBe(422);
  });

  it('is resent with a new link, and the old one stops working', async () => {
    const created = (await t.call('POST', '/api/user', { token: admin, body: { name: 'Again', email: 'again@example.com', status: 'active' } })).body.data;
    const first = await t.smtp.waitFor('again@example.com', /Set Your Password/);
    const res = await t.call('POST', `/api/user/${created.id}/resend-invitation`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('A new invitation has been sent to again@example.com. The earlier link no longer works.');
    await expect.poll(() => t.smtp.messages.filter((m) => m.to.includes('again@example.com')).length).toBe(2);
    const mails = t.smtp.messages.filter((m) => m.to.includes('again@example.com'));
    expect(mails[0]).toBe(first);
    const [oldLink, newLink] = mails.map((m) => m.links.find((l) => l.includes('/password-reset/'))!);
    expect((await setPassword('again@example.com', tokenOf(oldLink))).status).toBe(422);
    expect((await setPassword('again@example.com', tokenOf(newLink))).status).toBe(200);
    // Accepted: no invitation is sent again.
    expect((await t.call('POST', `/api/user/${created.id}/resend-invitation`, { token: admin })).status).toBe(409);
  });

  it('is resent in bulk through the job', async () => {
    const a = (await t.call('POST', '/api/user', { token: admin, body: { name: 'Bulk A', email: 'bulk-a@example.com', status: 'active' } })).body.data;
    const b = (await t.call('POST', '/api/user', { token: admin, body: { name: 'Bulk B', email: 'bulk-b@example.com', status: 'active' } })).body.data;
    await t.smtp.waitFor('bulk-b@example.com', /Set Your Password/);
    const res = await t.call('POST', '/api/user/resend-invitation', { token: admin, body: { ids: [a.id, b.id] } });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('New invitations are on their way to 2 people.');
    const connections = t.smtp.connections;
    await t.app.jobs.runDue();
    for (const email of ['bulk-a@example.com', 'bulk-b@example.com']) {
      await expect.poll(() => t.smtp.messages.filter((m) => m.to.includes(email)).length).toBe(2);
    }
    // One after another over the mailer's pooled connection (the earlier mail's, or one new), not one each.
    expect(t.smtp.connections - connections).toBeLessThanOrEqual(1);
  });

  it('shows who is invited, who never signed in and who is active, as a column and a filter', async () => {
    await t.call('POST', '/api/user', { token: admin, body: { name: 'Status Person', email: 'status@example.com', status: 'active' } });
    const find = async () => (await t.call('GET', '/api/user?search=status@', { token: admin })).body.data[0];
    expect((await find()).access_status).toBe('invited');
    const invite = await t.smtp.waitFor('status@example.com', /Set Your Password/);
    await setPassword('status@example.com', tokenOf(invite.links.find((l) => l.includes('/password-reset/'))!));
    expect((await find()).access_status).toBe('never signed in');
    await t.login('status@example.com', 'a-new-password');
    expect((await find()).access_status).toBe('active');
    const invited = (await t.call('GET', '/api/user?access_status=invited&per_page=100', { token: admin })).body.data;
    expect(invited.length).toBeGreaterThan(0);
    expect(invited.every((p: { access_status: string }) => p.access_status === 'invited')).toBe(true);
    expect(invited.some((p: { email: string }) => p.email === 'status@example.com')).toBe(false);
  });
});

describe('the HR record', () => {
  it('is searchable by employee ID, job title and department, and filterable by department and work location', async () => {
    const body = { name: 'Hr Person', email: 'hr@example.com', status: 'active', employee_id: 'HR-777', job_title: 'Payroll Specialist', department: 'People Ops', work_location_id: ids.madrid, join_date: '2025-05-05' };
    expect((await t.call('POST', '/api/user', { token: admin, body })).status).toBe(201);
    for (const term of ['hr-777', 'payroll spec', 'people ops']) {
      expect((await t.call('GET', `/api/user?search=${encodeURIComponent(term)}`, { token: admin })).body.data.map((p: { email: string }) => p.email)).toEqual(['hr@example.com']);
    }
    expect((await t.call('GET', '/api/user?department=PEOPLE%20OPS', { token: admin })).body.data.map((p: { email: string }) => p.email)).toEqual(['hr@example.com']);
    const inMadrid = (await t.call('GET', `/api/user?work_location_id=${ids.madrid}&per_page=100`, { token: admin })).body.data;
    expect(inMadrid.map((p: { email: string }) => p.email)).toContain('hr@example.com');
    expect(inMadrid.every((p: { work_location: { id: number } }) => p.work_location.id === ids.madrid)).toBe(true);
  });

  it('refuses an exit date before the join date', async () => {
    const res = await t.call('POST', '/api/user', { token: admin, body: { name: 'Early', email: 'early@example.com', status: 'active', join_date: '2026-05-01', exit_date: '2026-04-30' } });
    expect(res.status).toBe(422);
    expect(res.body.errors.exit_date).toEqual(['The exit date must be on or after the join date.']);
  });

  it('keeps the employee ID unique whatever its case', async () => {
    const res = await t.call('POST', '/api/user', { token: admin, body: { name: 'Clash', email: 'clash@example.com', status: 'active', employee_id: 'hr-777' } });
    expect(res.status).toBe(422);
    expect(res.body.errors.employee_id).toEqual(['The employee ID has already been taken.']);
  });
});

describe('reference data in bulk', () => {
  it('imports cities by country name', async () => {
    const res = await upload('/api/import/city', admin, 'Name,Country\nMumbai,India\nValencia,spain', { mode: 'all' });
    expect(res.status).toBe(201);
    const cities = (await t.call('GET', '/api/city?per_page=100', { token: admin })).body.data;
    expect(cities).toEqual(expect.arrayContaining([
      expect.objectContaining({ name: 'Mumbai', country: { id: ids.india, name: 'India' }, status: 'active' }),
      expect.objectContaining({ name: 'Valencia', country: { id: ids.spain, name: 'Spain' } }),
    ]));
  });

  it('imports clients, and positions naming their client', async () => {
    const clients = await upload('/api/import/client', admin, 'Name,Email,Country\nAcme Ltd,ap@acme.example,India\nacme ltd,,', { mode: 'valid' });
    expect(clients.status).toBe(201);
    expect(clients.body.message).toBe('1 client was imported; 1 row with errors was left out.');
    const preview = await upload('/api/import/position/preview', admin, 'Title,Client,Location,Count,Status\nDev,Acme Ltd,Pune,2,Open\nQA,Nobody Inc,Pune,x,Paused');
    expect(preview.body.data.rows[1].errors.map((e: { column: string }) => e.column).sort()).toEqual(['Client', 'Count', 'Status']);
    const positions = await upload('/api/import/position', admin, 'Title,Client,Location,Count,Status\nDev,Acme Ltd,Pune,2,Open', { mode: 'all' });
    expect(positions.status).toBe(201);
    const [position] = (await t.call('GET', '/api/position?search=Dev', { token: admin })).body.data;
    expect(position).toMatchObject({ title: 'Dev', count: 2, status: 'open', client: { name: 'Acme Ltd' } });
  });

  it('imports questions with their options and correct answer, refusing an answer that is not an option', async () => {
    const category = (await t.call('POST', '/api/question-category', { token: admin, body: { name: 'Java', status: 'active' } })).body.data;
    const csv = 'Category,Question,Options,Correct Answer,Skill Level\n'
      + 'Java,Which keyword?,static; final; public,static,Beginner\n'
      + 'Java,Which loop?,for; while,until,Advanced';
    const preview = await upload('/api/import/question/preview', admin, csv);
    expect(preview.body.data.rows[0].errors).toEqual([]);
    expect(preview.body.data.rows[1].errors).toEqual([{ column: 'Correct Answer', message: expect.stringMatching(/option/i) }]);
    const res = await upload('/api/import/question', admin, csv, { mode: 'valid' });
    expect(res.status).toBe(201);
    const [question] = (await t.call('GET', `/api/question?question_category_id=${category.id}`, { token: admin })).body.data;
    expect(question).toMatchObject({ question: 'Which keyword?', options: ['static', 'final', 'public'], correct_answer: 'static', skill_level: 1 });
  });
});

describe('who may import', () => {
  it('refuses someone without the add permission', async () => {
    const viewer = await t.createUser({ email: 'viewer@example.com' }, ['user']);
    const token = await viewer.token();
    expect((await upload('/api/import/user/preview', token, `${HEAD}\n`)).status).toBe(403);
    expect((await t.call('GET', '/api/import/user/template', { token })).status).toBe(403);
  });

  it('lets a non-admin import neither admins nor roles they may not give', async () => {
    const perms = (await t.call('GET', '/api/permission?per_page=100&search=-user', { token: admin })).body.data
      .filter((p: { name: string }) => ['can-view-user', 'can-add-user'].includes(p.name)).map((p: { id: number }) => p.id);
    const userRole = (await t.call('GET', '/api/role?search=user', { token: admin })).body.data.find((r: { name: string }) => r.name === 'user');
    const userPerms = (await t.call('GET', `/api/role/${userRole.id}`, { token: admin })).body.data.permission_ids as number[];
    await t.call('POST', '/api/role', { token: admin, body: { name: 'hr-clerk', permission_ids: [...new Set([...perms, ...userPerms])] } });
    const clerk = await t.createUser({ email: 'clerk@example.com' }, ['user', 'hr-clerk']);
    const token = await clerk.token();
    expect((await upload('/api/import/admin/preview', token, `${HEAD}\nA,a@example.com`)).status).toBe(403);
    const res = await upload('/api/import/user/preview', token, `${HEAD}\nFin,fin@example.com,,,,,,finance,,,,,\nAdm,adm@example.com,,,,,,admin,,,,,\nPlain,plain@example.com,,,,,,,,,,,`);
    expect(res.status).toBe(200);
    const [fin, adm, plain] = res.body.data.rows;
    expect(fin.errors).toEqual([{ column: 'Roles', message: expect.stringContaining('You cannot give the finance role.') }]);
    expect(adm.errors).toEqual([{ column: 'Roles', message: 'Only an admin can grant the admin role.' }]);
    expect(plain.errors).toEqual([]);
  });
});

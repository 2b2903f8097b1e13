// The public candidate form (issue 12): a recruiter's capability link per position, its lifecycle
// (unknown, tampered, expired, revoked: one and the same 404; used: 410), the submission with its
// CV creating a candidate in Screening for the recruiter, who is notified; refusals store nothing
// and spend no use; submissions are rate-limited per address.
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/server/db/schema/accounts';
import { capabilityLinks } from '../../src/server/db/schema/capability';
import { clients, positions } from '../../src/server/db/schema/master-data';
import { notifications } from '../../src/server/db/schema/notifications';
import { candidates } from '../../src/server/db/schema/recruitment';
import { attachments, workflowHistory } from '../../src/server/db/schema/workflow';
import { SUBMISSIONS_PER_ADDRESS } from '../../src/server/modules/candidate/service';
import { createTestApp, type TestApp } from '../helpers/app';
import { PDF } from '../helpers/multipart';

let t: TestApp;
let positionId: number;
let closedPositionId: number;
const people: Record<string, { id: number; token: string }> = {};
let serial = 0;

const INVALID = { message: 'This link is invalid or has expired.' };
const USED = { message: 'This link has already been used.' };

function publicForm(fields: Record<string, unknown>, file?: { name: string; content: Buffer | string } | null) {
  const boundary = `----test${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    // Bracketed keys, as the public form sends them (spec §7).
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="candidate[${name}]"\r\n\r\n${String(value)}\r\n`));
  }
  if (file) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="candidate[cv][]"; filename="${file.name}"\r\nContent-Type: application/pdf\r\n\r\n`));
    chunks.push(Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const applicant = (overrides: Record<string, unknown> = {}) => {
  serial += 1;
  return {
    name: `Applicant ${serial}`, email: `applicant${serial}@example.com`, phone: `+91 99000 ${String(20000 + serial)}`,
    current_company: 'Initech', total_experience: '5', relevant_experience: '3', skills: 'Go, Kubernetes', notice_period_days: '60',
    work_status: 'Resigned', currency: 'INR', expected_cost: '1800000', data_consent: '1', ...overrides,
  };
};

const submit = (token: string, fields: Record<string, unknown> = applicant(), file: { name: string; content: Buffer | string } | null = { name: 'cv.pdf', content: PDF }) => {
  const form = publicForm(fields, file);
  return t.call('POST', `/api/public/candidate-form/${token}`, { body: form.body, headers: form.headers });
};

async function makeLink(who = 'recruiter', body: Record<string, unknown> = {}) {
  const res = await t.call('POST', '/api/candidate/form-links', { token: people[who].token, body: { position_id: positionId, expires_in_days: 7, is_single_use: true, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: number; token: string; url: string; path: string; expires_at: string; max_uses: number | null };
}

const counts = async () => ({
  candidates: (await t.app.db.select().from(candidates)).length,
  attachments: (await t.app.db.select().from(attachments)).length,
  files: (() => { try { return readdirSync(join(t.app.config.dataDir, 'files', 'attachments')).length; } catch { return 0; } })(),
});
const usesOf = async (id: number) => (await t.app.db.select({ uses: capabilityLinks.uses }).from(capabilityLinks).where(eq(capabilityLinks.id, id)))[0].uses;

beforeAll(async () => {
  t = await createTestApp();
  const [{ id: clientId }] = await t.app.db.insert(clients).values({ name: 'Contoso' }).returning();
  [{ id: positionId }, { id: closedPositionId }] = await t.app.db.insert(positions).values([
    { title: 'Platform Engineer', client_id: clientId, location: 'Bengaluru', count: 2 },
    { title: 'Old Role', client_id: clientId, location: 'Pune', count: 1, status: 'closed' },
  ]).returning();
  const make = async (key: string, values: Partial<typeof users.$inferInsert>) => {
    const user = await t.createUser({ email: `${key}@example.com`, name: key, ...values });
    people[key] = { id: user.id, token: await user.token() };
  };
  await make('recruiter', { user_type: 'admin' });
  await make('manager', { user_type: 'manager' });
});
afterAll(async () => { await t?.close(); });

describe('the recruiter\'s links', () => {
  it('makes a link for an open position whose token is shown once and stored only hashed', async () => {
    const link = await makeLink();
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link.url).toBe(`http://localhost:8000/add-candidate-details?token=${link.token}`);
    const [stored] = await t.app.db.select().from(capabilityLinks).where(eq(capabilityLinks.id, link.id));
    expect(stored).toMatchObject({ purpose: 'candidate-form', subject_id: positionId, max_uses: 1, uses: 0, created_by: people.recruiter.id });
    expect(JSON.stringify(stored)).not.toContain(link.token);
    const list = await t.call('GET', `/api/candidate/form-links?position_id=${positionId}`, { token: people.recruiter.token });
    expect(list.body.data[0]).toMatchObject({ id: link.id, position_id: positionId, uses: 0, max_uses: 1, revoked_at: null, created_by: { id: people.recruiter.id, name: 'recruiter' } });
    expect(JSON.stringify(list.body)).not.toContain(link.token);
  });

  it('refuses a closed or unknown position, a bad expiry, and people who may not add candidates', async () => {
    const closed = await t.call('POST', '/api/candidate/form-links', { token: people.recruiter.token, body: { position_id: closedPositionId, expires_in_days: 7, is_single_use: true } });
    expect(closed.status).toBe(422);
    expect(closed.body.errors.position_id).toEqual(['Candidates can only apply to an open position.']);
    const unknown = await t.call('POST', '/api/candidate/form-links', { token: people.recruiter.token, body: { position_id: 999_999, expires_in_days: 7, is_single_use: true } });
    expect(unknown.body.errors.position_id).toEqual(['The position you chose has been removed or cannot be chosen here. Choose another.']);
    const tooLong = await t.call('POST', '/api/candidate/form-links', { token: people.recruiter.token, body: { position_id: positionId, expires_in_days: 365, is_single_use: true } });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.errors.expires_in_days).toBeDefined();
    const manager = await t.call('POST', '/api/candidate/form-links', { token: people.manager.token, body: { position_id: positionId, expires_in_days: 7, is_single_use: true } });
    expect(manager.status).toBe(403);
    expect((await t.call('GET', '/api/candidate/form-links', { token: people.manager.token })).status).toBe(403);
  });
});

describe('the link\'s lifecycle', () => {
  it('opens the form of its position', async () => {
    const link = await makeLink();
    const res = await t.call('GET', `/api/public/candidate-form/${link.token}`);
    expect(res.status).toBe(200);
    // Issue 24: anyone with the link reads this: never the client's name.
    expect(res.body.data).toEqual({ position: { title: 'Platform Engineer', location: 'Bengaluru' }, expires_at: link.expires_at });
    expect(JSON.stringify(res.body)).not.toContain('Contoso');
  });

  it('answers unknown, tampered, expired and revoked links alike: 404 with one message', async () => {
    const unknown = await t.call('GET', `/api/public/candidate-form/${randomBytes(32).toString('base64url')}`);
    const link = await makeLink();
    const tampered = await t.call('GET', `/api/public/candidate-form/${link.token.slice(0, -1)}${link.token.endsWith('A') ? 'B' : 'A'}`);
    const garbage = await t.call('GET', '/api/public/candidate-form/%27%20or%201=1');
    const expiring = await makeLink();
    await t.app.db.update(capabilityLinks).set({ expires_at: new Date(Date.now() - 1000) }).where(eq(capabilityLinks.id, expiring.id));
    const expired = await t.call('GET', `/api/public/candidate-form/${expiring.token}`);
    const revoking = await makeLink();
    expect((await t.call('DELETE', `/api/candidate/form-links/${revoking.id}`, { token: people.recruiter.token })).status).toBe(200);
    const revoked = await t.call('GET', `/api/public/candidate-form/${revoking.token}`);
    for (const res of [unknown, tampered, garbage, expired, revoked]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual(INVALID);
    }
    // Submitting to them stores nothing either.
    const before = await counts();
    expect((await submit(revoking.token)).status).toBe(404);
    expect((await submit(expiring.token)).status).toBe(404);
    expect(await counts()).toEqual(before);
    expect((await t.call('DELETE', `/api/candidate/form-links/${revoking.id}`, { token: people.recruiter.token })).status).toBe(404);
  });

  it('creates the candidate in Screening for the position and the link\'s recruiter, with the CV, and notifies the recruiter', async () => {
    const link = await makeLink();
    const fields = applicant({ position_id: 999, recruiter_id: 1, source: 'Hacked', grade_group: 'B3' });
    const before = Date.now();
    const res = await submit(link.token, fields);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({ message: 'Thank you. Your details have been sent to the recruiter.' });
    const [row] = await t.app.db.select().from(candidates).where(eq(candidates.email, String(fields.email)));
    // The consent is kept with the time it was given (issue 24).
    expect(row.data_consent_at!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(row.data_consent_at!.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    expect(row).toMatchObject({
      name: fields.name, position_id: positionId, recruiter_id: people.recruiter.id, stage: 'Screening', source: 'Candidate form',
      grade_group: null, total_experience: 5, notice_period_days: 60, work_status: 'Resigned', expected_cost: 1800000,
    });
    const files = await t.app.db.select().from(attachments).where(and(eq(attachments.resource, 'candidate'), eq(attachments.record_id, row.id)));
    expect(files).toEqual([expect.objectContaining({ field: 'cv', name: 'cv.pdf', mime: 'application/pdf', uploaded_by: null, uploaded_by_type: null })]);
    const history = await t.app.db.select().from(workflowHistory).where(and(eq(workflowHistory.resource, 'candidate'), eq(workflowHistory.record_id, row.id)));
    expect(history).toEqual([expect.objectContaining({ transition: 'create', to_status: 'Screening', actor_id: null })]);
    const notes = await t.app.db.select().from(notifications).where(and(eq(notifications.notifiable_type, 'app'), eq(notifications.notifiable_id, people.recruiter.id)));
    expect(notes.map((n) => n.data)).toContainEqual({ title: 'New candidate', message: `${String(fields.name)} applied for Platform Engineer through the candidate form.`, url: `/candidate/${row.id}` });
    // The recruiter sees it like any candidate, with its CV.
    const shown = await t.call('GET', `/api/candidate/${row.id}`, { token: people.recruiter.token });
    expect(shown.body.data.cv).toHaveLength(1);

    // Single use: spent now, says so plainly, and the page can tell it apart from an invalid link.
    expect(await usesOf(link.id)).toBe(1);
    expect((await t.call('GET', `/api/public/candidate-form/${link.token}`)).body).toEqual(USED);
    const again = await submit(link.token);
    expect(again.status).toBe(410);
    expect(again.body).toEqual(USED);
  });

  it('takes several candidates through a link of any number of uses', async () => {
    const link = await makeLink('recruiter', { is_single_use: false });
    expect(link.max_uses).toBeNull();
    expect((await submit(link.token)).status).toBe(201);
    expect((await submit(link.token)).status).toBe(201);
    expect(await usesOf(link.id)).toBe(2);
  });

  it('says when the position has closed since the link was made', async () => {
    const [{ id }] = await t.app.db.insert(positions).values({ title: 'Soon closed', client_id: (await t.app.db.select().from(clients))[0].id, location: 'Pune', count: 1 }).returning();
    const link = await makeLink('recruiter', { position_id: id });
    await t.app.db.update(positions).set({ status: 'closed' }).where(eq(positions.id, id));
    const res = await t.call('GET', `/api/public/candidate-form/${link.token}`);
    expect(res.status).toBe(410);
    expect(res.body.message).toBe('This position is no longer open for applications.');
    expect((await submit(link.token)).status).toBe(410);
    expect(await usesOf(link.id)).toBe(0);
  });
});

describe('refused submissions', () => {
  it('store nothing and spend no use: bad fields, no CV, a CV of the wrong type or size, a known person', async () => {
    const link = await makeLink();
    const before = await counts();
    const bad = await submit(link.token, applicant({ email: 'nope', phone: 'x', work_status: 'Fired' }));
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['email', 'phone', 'work_status']);
    const noCv = await submit(link.token, applicant(), null);
    expect(noCv.status).toBe(422);
    expect(noCv.body.errors).toEqual({ cv: ['The CV field is required.'] });
    // Issue 24: without the consent to keep the details, nothing is kept.
    for (const data_consent of [undefined, '0', 'yes']) {
      const noConsent = await submit(link.token, applicant({ data_consent }));
      expect(noConsent.status).toBe(422);
      expect(noConsent.body.errors).toEqual({ data_consent: ['Please agree that we keep your details, or we cannot consider your application.'] });
    }
    const exe = await submit(link.token, applicant(), { name: 'cv.exe', content: 'MZ' });
    expect(exe.status).toBe(422);
    expect(exe.body.errors.cv[0]).toBe('cv.exe cannot be attached here: choose a PDF, DOC or DOCX file.');
    const fake = await submit(link.token, applicant(), { name: 'cv.pdf', content: '<html>' });
    expect(fake.body.errors.cv[0]).toMatch(/not a real PDF/);
    const large = await submit(link.token, applicant(), { name: 'cv.pdf', content: Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024)]) });
    expect(large.body.errors.cv[0]).toMatch(/larger than 5 MB/);
    const json = await t.call('POST', `/api/public/candidate-form/${link.token}`, { body: applicant() });
    expect(json.status).toBe(415);
    expect(await counts()).toEqual(before);
    expect(await usesOf(link.id)).toBe(0);

    // A person already known: told plainly, without a word about the record.
    const other = await makeLink('recruiter', { is_single_use: false });
    const first = applicant();
    expect((await submit(other.token, first)).status).toBe(201);
    const afterFirst = await counts();
    const duplicate = await submit(link.token, applicant({ email: String(first.email).toUpperCase() }));
    expect(duplicate.status).toBe(422);
    expect(duplicate.body.errors.email[0]).toMatch(/already have your details/);
    expect(duplicate.body).not.toHaveProperty('duplicate');
    expect(JSON.stringify(duplicate.body)).not.toContain(String(first.name));
    expect(await counts()).toEqual(afterFirst);
    expect(await usesOf(link.id)).toBe(0);
    // The link still works for its candidate.
    expect((await submit(link.token)).status).toBe(201);
  });

  it('limits submissions per address', async () => {
    const link = await makeLink('recruiter', { is_single_use: false });
    await t.app.limiter.clear('candidate-form-ip:127.0.0.1');
    for (let i = 0; i < SUBMISSIONS_PER_ADDRESS.max; i += 1) {
      expect((await submit(link.token, applicant({ email: 'bad' }))).status).toBe(422);
    }
    const before = await counts();
    const limited = await submit(link.token);
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(/Too many submissions/);
    expect(await counts()).toEqual(before);
  });
});

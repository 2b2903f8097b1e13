// Background-verification checks (issue 13): of a candidate or an employee (exactly one), six
// components made with the check, each with a status and evidence files, the result derived by the
// server, the recruiter told of a discrepancy, and who may do what.
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, positions } from '../../src/server/db/schema/master-data';
import { notifications } from '../../src/server/db/schema/notifications';
import { bgvCheckComponents, bgvChecks } from '../../src/server/db/schema/operations';
import { candidates } from '../../src/server/db/schema/recruitment';
import { attachments } from '../../src/server/db/schema/workflow';
import { bgvDiscrepancyCount, bgvResultCounts } from '../../src/server/modules/bgv-check/service';
import { bgvResult } from '../../src/shared/resources/bgv-check';
import { today } from '../../src/shared/dates';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';
import { PDF } from '../helpers/multipart';

let t: TestApp;
let admin: string;
const people: Record<string, { id: number; token: string }> = {};
let candidateId: number;
let otherCandidateId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  for (const [key, userType, role] of [['recruiter', 'manager', 'manager'], ['verifier', 'manager', 'manager'], ['employee', 'user', 'user']] as const) {
    const created = await t.createUser({ email: `${key}@example.com`, name: key[0].toUpperCase() + key.slice(1), user_type: userType }, [role]);
    people[key] = { id: created.id, token: await created.token() };
  }
  const [client] = await t.app.db.insert(clients).values({ name: 'Globex' }).returning();
  const [position] = await t.app.db.insert(positions).values({ title: 'Desktop engineer', client_id: client.id, location: 'Pune', count: 2 }).returning();
  [{ id: candidateId }] = await t.app.db.insert(candidates).values({
    name: 'Asha Rao', email: 'asha@example.com', phone: '+91 98000 00001', position_id: position.id, stage: 'Background Check', recruiter_id: people.recruiter.id,
  }).returning();
  [{ id: otherCandidateId }] = await t.app.db.insert(candidates).values({
    name: 'Ben Ode', email: 'ben@example.com', phone: '+91 98000 00002', position_id: position.id, stage: 'Background Check', recruiter_id: people.recruiter.id,
  }).returning();
});
afterAll(async () => { await t?.close(); });

async function start(body: Record<string, unknown>, token = people.verifier.token) {
  const created = await t.call('POST', '/api/bgv-check', { token, body: { vendor: 'First Advantage', initiated_on: '2026-11-02', ...body } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data as Record<string, any>;
}

async function componentsOf(checkId: number, token = people.verifier.token) {
  const list = await t.call('GET', `/api/bgv-check-component?bgv_check_id=${checkId}&per_page=100`, { token });
  expect(list.status).toBe(200);
  return list.body.data as Record<string, any>[];
}

const setStatus = (componentId: number, status: string, remarks?: string) =>
  t.call('PATCH', `/api/bgv-check-component/${componentId}`, { token: people.verifier.token, body: { status, ...(remarks ? { remarks } : {}) } });

const notificationsOf = (userId: number) => t.app.db.select().from(notifications).where(and(eq(notifications.notifiable_type, 'app'), eq(notifications.notifiable_id, userId)));

describe('result rule', () => {
  it('derives the result: any discrepancy, all clear, all pending, else in progress', () => {
    expect(bgvResult([])).toBe('pending');
    expect(bgvResult(['pending', 'pending'])).toBe('pending');
    expect(bgvResult(['pending', 'clear'])).toBe('in progress');
    expect(bgvResult(['in progress', 'pending'])).toBe('in progress');
    expect(bgvResult(['clear', 'clear'])).toBe('clear');
    expect(bgvResult(['clear', 'discrepancy', 'pending'])).toBe('discrepancy');
  });
});

describe('checks', () => {
  it('starts a check of a candidate with the six components pending and the result pending', async () => {
    const check = await start({ candidate_id: candidateId, notes: 'Urgent for onboarding' });
    expect(check).toMatchObject({
      candidate_id: candidateId, user_id: null, candidate: { id: candidateId, name: 'Asha Rao' }, subject_name: 'Asha Rao',
      vendor: 'First Advantage', initiated_on: '2026-11-02', completed_on: null, result: 'pending', created_by: people.verifier.id,
    });
    const components = await componentsOf(check.id);
    expect(components.map((c) => c.component).sort()).toEqual(['address', 'criminal record', 'education', 'identity', 'previous employment', 'references']);
    expect(components.every((c) => c.status === 'pending' && Array.isArray(c.evidence) && c.evidence.length === 0)).toBe(true);
  });

  it('checks an employee too, and refuses neither or both subjects, a completion before initiation, and a result sent by the client', async () => {
    const check = await start({ user_id: people.employee.id, result: 'clear' });
    expect(check).toMatchObject({ user_id: people.employee.id, employee: { id: people.employee.id, name: 'Employee' }, subject_name: 'Employee', result: 'pending' });

    const before = (await t.app.db.select().from(bgvChecks)).length;
    const neither = await t.call('POST', '/api/bgv-check', { token: people.verifier.token, body: { vendor: 'X', initiated_on: '2026-11-02' } });
    expect(neither.status).toBe(422);
    expect(neither.body.errors).toEqual({ candidate_id: ['Choose the candidate or the employee the check is of.'] });
    const both = await t.call('POST', '/api/bgv-check', { token: people.verifier.token, body: { vendor: 'X', initiated_on: '2026-11-02', candidate_id: candidateId, user_id: people.employee.id } });
    expect(both.body.errors).toEqual({ candidate_id: ['A check is of a candidate or of an employee, not both.'] });
    const backwards = await t.call('POST', '/api/bgv-check', { token: people.verifier.token, body: { vendor: 'X', initiated_on: '2026-11-02', completed_on: '2026-11-01', candidate_id: candidateId } });
    expect(backwards.body.errors).toEqual({ completed_on: ['The check cannot be completed before the day it was initiated.'] });
    const invalid = await t.call('POST', '/api/bgv-check', { token: people.verifier.token, body: { vendor: '', initiated_on: 'soon', candidate_id: 999_999 } });
    expect(invalid.status).toBe(422);
    expect(Object.keys(invalid.body.errors).sort()).toEqual(['initiated_on', 'vendor']);
    const unknown = await t.call('POST', '/api/bgv-check', { token: people.verifier.token, body: { vendor: 'X', initiated_on: '2026-11-02', user_id: people.recruiter.id } });
    expect(unknown.body.errors).toEqual({ user_id: ['The person you chose has been removed or cannot be chosen here. Choose another.'] });
    // An update may not leave the check with two subjects either.
    const patched = await t.call('PATCH', `/api/bgv-check/${check.id}`, { token: people.verifier.token, body: { candidate_id: candidateId } });
    expect(patched.status).toBe(422);
    expect((await t.app.db.select().from(bgvChecks)).length).toBe(before);
    expect((await t.app.db.select().from(bgvCheckComponents)).length).toBe(before * 6);
  });

  it('derives the result from the components as they change and fills in the completion date', async () => {
    const check = await start({ candidate_id: otherCandidateId });
    const components = await componentsOf(check.id);
    const result = async () => (await t.call('GET', `/api/bgv-check/${check.id}`, { token: people.verifier.token })).body.data;

    expect((await setStatus(components[0].id, 'in progress')).status).toBe(200);
    expect((await result()).result).toBe('in progress');
    for (const component of components) await setStatus(component.id, 'clear');
    const cleared = await result();
    expect(cleared.result).toBe('clear');
    expect(cleared.completed_on).toBe(today());
    await setStatus(components[1].id, 'pending');
    expect((await result()).result).toBe('in progress');
    // A component status outside the four is refused; the result is never taken from the client.
    const refused = await setStatus(components[1].id, 'unknown');
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ status: ['The selected status is invalid.'] });
    const sneaky = await t.call('PATCH', `/api/bgv-check/${check.id}`, { token: people.verifier.token, body: { result: 'clear', vendor: 'Sterling' } });
    expect(sneaky.body.data).toMatchObject({ result: 'in progress', vendor: 'Sterling' });
  });

  it('tells the candidate’s recruiter of a discrepancy once, with the component and the remarks', async () => {
    const check = await start({ candidate_id: candidateId });
    const components = await componentsOf(check.id);
    const education = components.find((c) => c.component === 'education')!;
    const before = (await notificationsOf(people.recruiter.id)).length;
    const found = await setStatus(education.id, 'discrepancy', 'Degree certificate could not be verified');
    expect(found.status).toBe(200);
    const told = (await notificationsOf(people.recruiter.id)).slice(before);
    expect(told.map((n) => n.data)).toEqual([{
      title: 'BGV check: discrepancy',
      message: 'The education check of Asha Rao found a discrepancy: Degree certificate could not be verified',
      url: `/bgv-check/${check.id}`,
    }]);
    expect((await t.call('GET', `/api/bgv-check/${check.id}`, { token: people.verifier.token })).body.data.result).toBe('discrepancy');
    // Already a discrepancy: editing its remarks tells nobody again.
    await t.call('PATCH', `/api/bgv-check-component/${education.id}`, { token: people.verifier.token, body: { remarks: 'Vendor asked the university again' } });
    expect((await notificationsOf(people.recruiter.id)).length).toBe(before + 1);
    const discrepancies = await t.call('GET', '/api/bgv-check?result=discrepancy', { token: people.verifier.token });
    expect(discrepancies.body.data.map((c: { id: number }) => c.id)).toContain(check.id);
  });

  it('keeps evidence files per component, checked by content, and removes them with the check', async () => {
    const check = await start({ candidate_id: candidateId });
    const [identity] = (await componentsOf(check.id)).filter((c) => c.component === 'identity');
    const boundary = `----test${randomBytes(8).toString('hex')}`;
    const part = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const file = (filename: string, content: Buffer) => Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="bgv-check-component[evidence][]"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n`), content, Buffer.from('\r\n'),
    ]);
    const body = Buffer.concat([Buffer.from(part('bgv-check-component[status]', 'clear')), file('passport.pdf', PDF), Buffer.from(`--${boundary}--\r\n`)]);
    const uploaded = await t.call('PATCH', `/api/bgv-check-component/${identity.id}`, {
      token: people.verifier.token, body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    expect(uploaded.body.data).toMatchObject({ status: 'clear', evidence: [{ name: 'passport.pdf', mime: 'application/pdf' }] });
    const download = await t.call('GET', `/api/bgv-check-component/${identity.id}/attachments/${uploaded.body.data.evidence[0].id}`, { token: people.verifier.token });
    expect(download.status).toBe(200);

    const fake = Buffer.concat([Buffer.from(part('bgv-check-component[status]', 'clear')), file('fake.pdf', Buffer.from('MZ not a pdf')), Buffer.from(`--${boundary}--\r\n`)]);
    const refused = await t.call('PATCH', `/api/bgv-check-component/${identity.id}`, {
      token: people.verifier.token, body: fake, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(refused.status).toBe(422);

    expect((await t.call('DELETE', `/api/bgv-check/${check.id}`, { token: admin })).status).toBe(200);
    expect(await t.app.db.select().from(attachments).where(and(eq(attachments.resource, 'bgv-check-component'), eq(attachments.record_id, identity.id)))).toEqual([]);
    expect(await t.app.db.select().from(bgvCheckComponents).where(eq(bgvCheckComponents.bgv_check_id, check.id))).toEqual([]);
  });

  it('lets managers run checks; engineers neither see nor change them; nobody adds or deletes a component', async () => {
    const check = await start({ candidate_id: candidateId });
    const [component] = await componentsOf(check.id);
    expect((await t.call('GET', '/api/bgv-check', { token: people.employee.token })).status).toBe(403);
    expect((await t.call('POST', '/api/bgv-check', { token: people.employee.token, body: { vendor: 'X', initiated_on: '2026-11-02', candidate_id: candidateId } })).status).toBe(403);
    expect((await t.call('PATCH', `/api/bgv-check-component/${component.id}`, { token: people.employee.token, body: { status: 'clear' } })).status).toBe(403);
    expect((await t.call('POST', '/api/bgv-check-component', { token: admin, body: { status: 'clear' } })).status).toBe(404);
    expect((await t.call('DELETE', `/api/bgv-check-component/${component.id}`, { token: admin })).status).toBe(404);
    expect((await t.call('DELETE', `/api/bgv-check/${check.id}`, { token: people.verifier.token })).status).toBe(403);
    // A candidate with a check cannot be deleted from under it.
    const candidateDelete = await t.call('DELETE', `/api/candidate/${candidateId}`, { token: admin });
    expect(candidateDelete.status).toBe(409);
  });

  it('lists a candidate’s checks (their detail page) and counts results for the dashboard', async () => {
    const ofCandidate = await t.call('GET', `/api/bgv-check?candidate_id=${otherCandidateId}`, { token: people.recruiter.token });
    expect(ofCandidate.body.data.length).toBeGreaterThan(0);
    expect(ofCandidate.body.data.every((c: { candidate_id: number }) => c.candidate_id === otherCandidateId)).toBe(true);
    const search = await t.call('GET', '/api/bgv-check?search=asha', { token: people.recruiter.token });
    expect(search.body.data.every((c: { subject_name: string }) => c.subject_name === 'Asha Rao')).toBe(true);
    const counts = await bgvResultCounts(t.app.db);
    expect(counts.map((c) => c.result)).toEqual(['pending', 'in progress', 'clear', 'discrepancy']);
    const rows = await t.app.db.select().from(bgvChecks);
    for (const { result, count } of counts) expect(count).toBe(rows.filter((r) => r.result === result).length);
    expect(await bgvDiscrepancyCount(t.app.db)).toBe(rows.filter((r) => r.result === 'discrepancy').length);
    expect(await bgvDiscrepancyCount(t.app.db, [otherCandidateId])).toBe(0);
  });
});

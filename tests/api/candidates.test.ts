// Candidates (issue 12): the hiring stages as a workflow (each move allowed and refused, reject with
// a reason and reopen to the stage left, history with who and when), duplicates refused with a link,
// the cross-field rules, and the CV through the generic multipart routes.
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/server/db/schema/accounts';
import { cities, clients, countries, positions } from '../../src/server/db/schema/master-data';
import { notifications } from '../../src/server/db/schema/notifications';
import { candidates } from '../../src/server/db/schema/recruitment';
import { attachments } from '../../src/server/db/schema/workflow';
import { CANDIDATE_STAGES, moveTransitionName } from '../../src/shared/resources/candidate';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';
import { PDF } from '../helpers/multipart';

let t: TestApp;
let positionId: number;
let otherPositionId: number;
let country: { id: number; cityId: number };
let otherCountryCityId: number;
const people: Record<string, { id: number; token: string }> = {};
let serial = 0;

const details = (overrides: Record<string, unknown> = {}) => {
  serial += 1;
  return {
    name: `Candidate ${serial}`, email: `candidate${serial}@example.com`, phone: `+91 98765 ${String(10000 + serial)}`,
    position_id: positionId, total_experience: 6.5, relevant_experience: 4, skills: 'Java, Spring', skill_level: 2, grade_group: 'B1',
    currency: 'INR', current_cost: 1200000, expected_cost: 1500000, cost_rating: '5+', notice_period_days: 30, work_status: 'On Notice Period',
    source: 'LinkedIn', ...overrides,
  };
};

async function created(who = 'recruiterA', overrides: Record<string, unknown> = {}) {
  const res = await t.call('POST', '/api/candidate', { token: people[who].token, body: details(overrides) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: number; stage: string; recruiter_id: number; available_transitions: { name: string }[] };
}

const act = (who: string, id: number, transition: string, comment?: string) =>
  t.call('POST', `/api/candidate/${id}/transitions/${transition}`, { token: people[who].token, body: comment === undefined ? {} : { comment } });

const offered = async (who: string, id: number) =>
  ((await t.call('GET', `/api/candidate/${id}`, { token: people[who].token })).body.data.available_transitions as { name: string }[]).map((a) => a.name).sort();

const stageOf = async (id: number) => (await t.app.db.select({ stage: candidates.stage }).from(candidates).where(eq(candidates.id, id)))[0].stage;
const candidateCount = async () => (await t.app.db.select().from(candidates)).length;
const storedFiles = () => {
  try { return readdirSync(join(t.app.config.dataDir, 'files', 'attachments')).length; } catch { return 0; }
};

function candidateForm(fields: Record<string, unknown>, file?: { name: string; content: Buffer | string }) {
  const boundary = `----test${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (value === null || value === undefined) continue;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="candidate[${name}]"\r\n\r\n${String(value)}\r\n`));
  }
  if (file) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="candidate[cv]"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
    chunks.push(Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

beforeAll(async () => {
  t = await createTestApp();
  const [{ id: clientId }] = await t.app.db.insert(clients).values({ name: 'Contoso' }).returning();
  [{ id: positionId }, { id: otherPositionId }] = await t.app.db.insert(positions).values([
    { title: 'Java Engineer', client_id: clientId, location: 'Pune', count: 3 },
    { title: 'Network Engineer', client_id: clientId, location: 'Delhi', count: 1 },
  ]).returning();
  const [india, spain] = await t.app.db.insert(countries).values([{ name: 'India', code: 'IN' }, { name: 'Spain', code: 'ES' }]).returning();
  const [pune, madrid] = await t.app.db.insert(cities).values([{ name: 'Pune', country_id: india.id }, { name: 'Madrid', country_id: spain.id }]).returning();
  country = { id: india.id, cityId: pune.id };
  otherCountryCityId = madrid.id;
  const make = async (key: string, values: Partial<typeof users.$inferInsert>, roles?: string[]) => {
    const user = await t.createUser({ email: `${key}@example.com`, name: key, ...values }, roles);
    people[key] = { id: user.id, token: await user.token() };
  };
  // Recruiters: admins here (the seeded roles give candidate changes to admins only).
  await make('recruiterA', { user_type: 'admin' });
  await make('recruiterB', { user_type: 'admin' });
  // Sees candidates, changes nothing.
  await make('manager', { user_type: 'manager' });
  await make('engineer', { user_type: 'user' });
  people.admin = { id: 1, token: await t.login(ADMIN.email, ADMIN.password) };
});
afterAll(async () => { await t?.close(); });

describe('putting a candidate forward', () => {
  it('starts in Screening with the creator as recruiter, whatever the body says', async () => {
    const res = await t.call('POST', '/api/candidate', { token: people.recruiterA.token, body: { ...details(), stage: 'Onboarding', recruiter_id: people.recruiterB.id } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({
      stage: 'Screening', recruiter_id: people.recruiterA.id, recruiter: { id: people.recruiterA.id, name: 'recruiterA' },
      position: { id: positionId, title: 'Java Engineer' }, skill_level: 2, grade_group: 'B1', cost_rating: '5+', work_status: 'On Notice Period',
      total_experience: 6.5, cv: [], previous_stage: null,
    });
    expect(res.body.data.available_transitions.map((a: { name: string }) => a.name).sort()).toEqual(['move-to-interview', 'reject']);
    const history = await t.call('GET', `/api/candidate/${res.body.data.id}/history`, { token: people.manager.token });
    expect(history.body.data).toEqual([expect.objectContaining({ transition: 'create', from: null, to: 'Screening', actor: { id: people.recruiterA.id, name: 'recruiterA' } })]);
  });

  it('refuses bad input field by field and stores nothing', async () => {
    const before = await candidateCount();
    const res = await t.call('POST', '/api/candidate', {
      token: people.recruiterA.token,
      body: details({ email: 'not-an-email', phone: '12ab', skill_level: 4, grade_group: 'B7', cost_rating: '6', work_status: 'Retired', total_experience: -1, position_id: 999_999 }),
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['cost_rating', 'email', 'grade_group', 'phone', 'skill_level', 'total_experience', 'work_status']);
    const unknownPosition = await t.call('POST', '/api/candidate', { token: people.recruiterA.token, body: details({ position_id: 999_999 }) });
    expect(unknownPosition.status).toBe(422);
    expect(unknownPosition.body.errors.position_id).toEqual(['The position you chose has been removed or cannot be chosen here. Choose another.']);
    const moreRelevant = await t.call('POST', '/api/candidate', { token: people.recruiterA.token, body: details({ total_experience: 2, relevant_experience: 3 }) });
    expect(moreRelevant.body.errors.relevant_experience).toEqual(['The relevant experience cannot be more than the total experience.']);
    const wrongCity = await t.call('POST', '/api/candidate', { token: people.recruiterA.token, body: details({ country_id: country.id, city_id: otherCountryCityId }) });
    expect(wrongCity.body.errors.city_id).toEqual(['The selected city is not in the selected country.']);
    expect(await candidateCount()).toBe(before);
    const rightCity = await t.call('POST', '/api/candidate', { token: people.recruiterA.token, body: details({ country_id: country.id, city_id: country.cityId }) });
    expect(rightCity.status).toBe(201);
    expect(rightCity.body.data.city).toEqual({ id: country.cityId, name: 'Pune' });
  });

  it('refuses a duplicate email or phone with a link to the existing candidate, on create and on update', async () => {
    const first = await created('recruiterA', { email: 'Asha.Rao@example.com', phone: '+91 98000 11111' });
    const before = await candidateCount();
    const sameEmail = await t.call('POST', '/api/candidate', { token: people.recruiterB.token, body: details({ email: 'asha.rao@EXAMPLE.com' }) });
    expect(sameEmail.status).toBe(422);
    expect(sameEmail.body.errors.email[0]).toMatch(/already exists/);
    expect(sameEmail.body.duplicate).toEqual({ id: first.id, name: expect.any(String), url: `/candidate/${first.id}` });
    // The same digits written differently are the same phone.
    const samePhone = await t.call('POST', '/api/candidate', { token: people.recruiterB.token, body: details({ phone: '+91-98000-11111', position_id: otherPositionId }) });
    expect(samePhone.status).toBe(422);
    expect(samePhone.body.errors.phone[0]).toMatch(/already exists/);
    expect(samePhone.body.duplicate.id).toBe(first.id);
    expect(await candidateCount()).toBe(before);

    const second = await created('recruiterA');
    const update = await t.call('PATCH', `/api/candidate/${second.id}`, { token: people.recruiterA.token, body: { email: 'asha.rao@example.com' } });
    expect(update.status).toBe(422);
    expect(update.body.duplicate.id).toBe(first.id);
    // Saving a candidate with its own email is no duplicate of itself.
    const own = await t.call('PATCH', `/api/candidate/${first.id}`, { token: people.recruiterA.token, body: { email: 'asha.rao@example.com', notes: 'Strong Java' } });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
  });

  it('refuses people without the permissions', async () => {
    expect((await t.call('GET', '/api/candidate', { token: people.engineer.token })).status).toBe(403);
    expect((await t.call('POST', '/api/candidate', { token: people.manager.token, body: details() })).status).toBe(403);
    expect((await t.call('GET', '/api/candidate', { token: people.manager.token })).status).toBe(200);
    expect((await t.call('GET', '/api/candidate')).status).toBe(401);
  });
});

describe('the hiring stages', () => {
  it('moves stage by stage to Onboarding, each move in the history with who and when', async () => {
    const { id } = await created();
    for (const [index, to] of CANDIDATE_STAGES.slice(1).entries()) {
      const who = index % 2 ? 'recruiterB' : 'recruiterA';
      const res = await act(who, id, moveTransitionName(to));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.stage).toBe(to);
      expect(res.body.message).toBe(to === 'Onboarding' ? 'You hired the candidate; onboarding starts.' : `You moved the candidate to ${to}.`);
    }
    expect(await offered('recruiterA', id)).toEqual([]);
    const history = (await t.call('GET', `/api/candidate/${id}/history`, { token: people.manager.token })).body.data as { from: string | null; to: string; actor: { name: string }; created_at: string }[];
    expect(history.map((h) => h.to)).toEqual([...CANDIDATE_STAGES]);
    expect(history.map((h) => h.actor.name)).toEqual(['recruiterA', 'recruiterA', 'recruiterB', 'recruiterA', 'recruiterB', 'recruiterA', 'recruiterB']);
    expect(history.every((h) => !Number.isNaN(Date.parse(h.created_at)))).toBe(true);
    const [row] = await t.app.db.select().from(candidates).where(eq(candidates.id, id));
    expect(row.stage_changed_at.getTime()).toBeGreaterThanOrEqual(Date.parse(history.at(-1)!.created_at) - 1000);
  });

  it('refuses a move that skips a stage or starts from another one (409) and one without the permission (403)', async () => {
    const { id } = await created();
    const skip = await act('recruiterA', id, 'move-to-client-interview');
    expect(skip.status).toBe(409);
    expect(await stageOf(id)).toBe('Screening');
    const forbidden = await act('manager', id, 'move-to-interview');
    expect(forbidden.status).toBe(403);
    expect(await offered('manager', id)).toEqual([]);
    expect(await stageOf(id)).toBe('Screening');
    expect((await act('recruiterA', id, 'no-such-move')).status).toBe(404);
    // Two recruiters moving the same card at once: one wins, the other is told it changed.
    const [a, b] = await Promise.all([act('recruiterA', id, 'move-to-interview'), act('recruiterB', id, 'move-to-interview')]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect(await stageOf(id)).toBe('Interview');
  });

  it('rejects from any stage before Onboarding with a required reason, and reopens to the stage it left', async () => {
    const { id } = await created();
    await act('recruiterA', id, 'move-to-interview');
    await act('recruiterA', id, 'move-to-client-interview');
    const noReason = await act('recruiterA', id, 'reject');
    expect(noReason.status).toBe(422);
    expect(noReason.body.errors.comment).toEqual(['The comment field is required.']);
    expect(await stageOf(id)).toBe('Client Interview');
    const rejected = await act('recruiterB', id, 'reject', 'The client chose someone else');
    expect(rejected.status).toBe(200);
    expect(rejected.body.data).toMatchObject({ stage: 'Rejected', previous_stage: 'Client Interview' });
    expect(rejected.body.data.available_transitions.map((a: { name: string }) => a.name)).toEqual(['reopen']);
    const reopened = await act('recruiterA', id, 'reopen');
    expect(reopened.status).toBe(200);
    expect(reopened.body.data).toMatchObject({ stage: 'Client Interview', previous_stage: null });
    const history = (await t.call('GET', `/api/candidate/${id}/history`, { token: people.recruiterA.token })).body.data as { transition: string; to: string; comment: string | null }[];
    expect(history.slice(-2)).toEqual([
      expect.objectContaining({ transition: 'reject', to: 'Rejected', comment: 'The client chose someone else' }),
      expect.objectContaining({ transition: 'reopen', to: 'Client Interview' }),
    ]);

    const hired = await created();
    for (const to of CANDIDATE_STAGES.slice(1)) await act('recruiterA', hired.id, moveTransitionName(to));
    expect((await act('recruiterA', hired.id, 'reject', 'Too late')).status).toBe(409);
  });

  it('moves a candidate back one stage with a required reason, never from Onboarding (issue 24)', async () => {
    const { id } = await created();
    await act('recruiterA', id, 'move-to-interview');
    await act('recruiterA', id, 'move-to-client-interview');
    expect(await offered('recruiterA', id)).toEqual(['back-to-interview', 'move-to-cost-negotiations', 'reject']);
    const noReason = await act('recruiterA', id, 'back-to-interview');
    expect(noReason.status).toBe(422);
    expect(noReason.body.errors.comment).toEqual(['The comment field is required.']);
    expect((await act('recruiterA', id, 'back-to-screening', 'Two steps')).status).toBe(409);
    const back = await act('recruiterB', id, 'back-to-interview', 'Moved by mistake: the client interview is not booked yet');
    expect(back.status).toBe(200);
    expect(back.body.data.stage).toBe('Interview');
    const history = (await t.call('GET', `/api/candidate/${id}/history`, { token: people.recruiterA.token })).body.data as { transition: string; to: string; comment: string | null }[];
    expect(history.at(-1)).toEqual(expect.objectContaining({ transition: 'back-to-interview', to: 'Interview', comment: 'Moved by mistake: the client interview is not booked yet' }));
    const hired = await created();
    for (const to of CANDIDATE_STAGES.slice(1)) await act('recruiterA', hired.id, moveTransitionName(to));
    expect((await act('recruiterA', hired.id, 'back-to-offer-letter-review', 'Undo the hire')).status).toBe(404);
  });

  it('tells the recruiter responsible when someone else moves their candidate', async () => {
    const { id } = await created('recruiterA');
    await act('recruiterB', id, 'move-to-interview');
    await act('recruiterA', id, 'move-to-client-interview');
    const notes = await t.app.db.select().from(notifications)
      .where(and(eq(notifications.notifiable_type, 'app'), eq(notifications.notifiable_id, people.recruiterA.id)));
    const about = notes.filter((n) => n.data.url === `/candidate/${id}`);
    // Told of recruiterB's move; not of their own.
    expect(about.map((n) => n.data.title)).toEqual(['Your candidate moved to Interview']);
  });

  it('lists by stage and position (the board\'s columns)', async () => {
    const { id } = await created('recruiterA', { position_id: otherPositionId });
    await act('recruiterA', id, 'move-to-interview');
    const res = await t.call('GET', `/api/candidate?stage=Interview&position_id=${otherPositionId}`, { token: people.manager.token });
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: { id: number }) => r.id)).toEqual([id]);
    expect((await t.call('GET', '/api/candidate?stage=Hired', { token: people.manager.token })).status).toBe(422);
  });
});

describe('the CV', () => {
  it('takes a PDF or Word file through multipart and previews a PDF inline', async () => {
    const pdf = candidateForm(details(), { name: 'cv.pdf', content: PDF });
    const res = await t.call('POST', '/api/candidate', { token: people.recruiterA.token, body: pdf.body, headers: pdf.headers });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.cv).toEqual([{ id: expect.any(Number), name: 'cv.pdf', size: PDF.length, mime: 'application/pdf' }]);
    const preview = await t.call('GET', `/api/candidate/${res.body.data.id}/attachments/${res.body.data.cv[0].id}?disposition=inline`, { token: people.manager.token });
    expect(preview.status).toBe(200);
    expect(String(preview.headers['content-disposition'])).toMatch(/^inline/);
    const docx = candidateForm(details(), { name: 'cv.docx', content: Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), randomBytes(64)]) });
    const word = await t.call('POST', '/api/candidate', { token: people.recruiterA.token, body: docx.body, headers: docx.headers });
    expect(word.status, JSON.stringify(word.body)).toBe(201);
  });

  it('refuses a CV of the wrong type, disguised or too large, keeping no row and no file', async () => {
    const before = await candidateCount();
    const files = storedFiles();
    const attachmentsBefore = (await t.app.db.select().from(attachments)).length;
    const send = async (file: { name: string; content: Buffer | string }) => {
      const form = candidateForm(details(), file);
      return t.call('POST', '/api/candidate', { token: people.recruiterA.token, body: form.body, headers: form.headers });
    };
    const exe = await send({ name: 'cv.exe', content: 'MZ' });
    expect(exe.status).toBe(422);
    expect(exe.body.errors.cv[0]).toBe('cv.exe cannot be attached here: choose a PDF, DOC or DOCX file.');
    const disguised = await send({ name: 'cv.pdf', content: 'just text' });
    expect(disguised.status).toBe(422);
    expect(disguised.body.errors.cv[0]).toMatch(/not a real PDF/);
    const large = await send({ name: 'cv.pdf', content: Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024)]) });
    expect(large.status).toBe(422);
    expect(large.body.errors.cv[0]).toMatch(/larger than 5 MB/);
    expect(await candidateCount()).toBe(before);
    expect(storedFiles()).toBe(files);
    expect((await t.app.db.select().from(attachments)).length).toBe(attachmentsBefore);
  });
});

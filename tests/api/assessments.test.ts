// Timed online assessments (issue 12): the send, the token lifecycle, the server-enforced deadline
// with a controllable clock (fake Date: every time of the module comes from Date.now()), resume,
// scoring against a known draw, the close job, and bad input that stores nothing.
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { assessmentAnswers, assessmentAttempts, assessments } from '../../src/server/db/schema/assessments';
import { capabilityLinks } from '../../src/server/db/schema/capability';
import { clients, positions, questionCategories, questions } from '../../src/server/db/schema/master-data';
import { notifications } from '../../src/server/db/schema/notifications';
import { candidates } from '../../src/server/db/schema/recruitment';
import { jobs } from '../../src/server/db/schema/workflow';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';
import { addDays, today, zonedInstant } from '../../src/shared/dates';

let t: TestApp;
let adminToken: string;
let recruiter: { id: number; token: () => Promise<string> };
let recruiterToken: string;
let candidateId: number;
let javaId: number;
let sqlId: number;
/** question text -> [id, correct answer, category, level] */
const bank = new Map<string, { id: number; correct: string; category: number; level: number; options: string[] }>();

const HOUR = 3600_000;
const inHours = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();
const tokenOf = (url: string) => /\/candidate\/([^/]+)\/assessment$/.exec(new URL(url).pathname)![1];

async function send(body: Record<string, unknown> = {}, token = recruiterToken, id = candidateId) {
  return t.call('POST', `/api/candidate/${id}/send-assessment-link`, {
    token, body: { question_category_ids: [javaId, sqlId], questions_per_level: { 1: 2, 2: 1, 3: 1 }, duration_minutes: 10, expires_at: inHours(48), ...body },
  });
}

async function start(token: string) {
  return t.call('POST', `/api/public/assessment/${token}/start`);
}

beforeAll(async () => {
  t = await createTestApp();
  adminToken = await t.login(ADMIN.email, ADMIN.password);
  recruiter = await t.createUser({ email: 'recruiter@example.com', name: 'Rita Recruiter', user_type: 'admin' }, ['admin']);
  recruiterToken = await recruiter.token();
  const [client] = await t.app.db.insert(clients).values({ name: 'Acme' }).returning();
  const [position] = await t.app.db.insert(positions).values({ title: 'Java Engineer', client_id: client.id, location: 'Pune', count: 2 }).returning();
  const [candidate] = await t.app.db.insert(candidates).values({ name: 'Carla Candidate', email: 'carla@example.com', phone: '+91 90000 00001', position_id: position.id, recruiter_id: recruiter.id }).returning();
  candidateId = candidate.id;
  const [java] = await t.app.db.insert(questionCategories).values({ name: 'Java' }).returning();
  const [sqlCategory] = await t.app.db.insert(questionCategories).values({ name: 'SQL' }).returning();
  javaId = java.id; sqlId = sqlCategory.id;
  // Java: 2 beginner, 1 intermediate; SQL: 1 beginner (so 3 beginners exist), 1 advanced.
  const seed = [
    { category: javaId, level: 1, question: 'J1', options: ['a', 'b'], correct: 'a' },
    { category: javaId, level: 1, question: 'J2', options: ['a', 'b'], correct: 'b' },
    { category: javaId, level: 2, question: 'J3', options: ['x', 'y', 'z'], correct: 'z' },
    { category: sqlId, level: 1, question: 'S1', options: ['p', 'q'], correct: 'p' },
    { category: sqlId, level: 3, question: 'S2', options: ['m', 'n'], correct: 'n' },
  ];
  for (const q of seed) {
    const [row] = await t.app.db.insert(questions).values({ question_category_id: q.category, question: q.question, options: q.options, correct_answer: q.correct, skill_level: q.level }).returning();
    bank.set(q.question, { id: row.id, correct: q.correct, category: q.category, level: q.level, options: q.options });
  }
});

afterEach(() => { vi.useRealTimers(); });
afterAll(async () => { await t.close(); });

describe('sending an assessment link', () => {
  it('refuses anonymous callers and callers without can-edit-candidate', async () => {
    expect((await t.call('POST', `/api/candidate/${candidateId}/send-assessment-link`, { body: {} })).status).toBe(401);
    const engineer = await t.createUser({ email: 'engineer@example.com', user_type: 'user' }, ['user']);
    expect((await send({}, await engineer.token())).status).toBe(403);
    expect((await t.call('GET', `/api/candidate/${candidateId}/assessments`, { token: await engineer.token() })).status).toBe(403);
  });

  it('offers the active categories with their questions per skill level', async () => {
    const form = await t.call('GET', `/api/candidate/${candidateId}/send-assessment-link`, { token: recruiterToken });
    expect(form.status).toBe(200);
    expect(form.body.data.candidate).toEqual({ id: candidateId, name: 'Carla Candidate', email: 'carla@example.com' });
    expect(form.body.data.categories).toEqual([
      { id: javaId, name: 'Java', questions_per_level: { 1: 2, 2: 1, 3: 0 } },
      { id: sqlId, name: 'SQL', questions_per_level: { 1: 1, 2: 0, 3: 1 } },
    ]);
  });

  it('validates the form and stores nothing on a refusal', async () => {
    const before = (await t.app.db.select().from(assessments)).length;
    const empty = await send({ question_category_ids: [] });
    expect(empty.status).toBe(422);
    expect(empty.body.errors.question_category_ids).toEqual(['Choose at least one question category.']);
    const none = await send({ questions_per_level: { 1: 0, 2: 0, 3: 0 } });
    expect(none.status).toBe(422);
    expect(none.body.errors.questions_per_level).toEqual(['Ask at least one question.']);
    const tooMany = await send({ questions_per_level: { 1: 4, 2: 1, 3: 2 } });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors['questions_per_level.1']).toEqual(['The chosen categories hold only 3 Beginner question(s).']);
    expect(tooMany.body.errors['questions_per_level.3']).toEqual(['The chosen categories hold only 1 Advanced question(s).']);
    const past = await send({ expires_at: inHours(-1) });
    expect(past.status).toBe(422);
    expect(past.body.errors.expires_at).toEqual(['The link expiry must be in the future.']);
    const duration = await send({ duration_minutes: 0 });
    expect(duration.status).toBe(422);
    expect(duration.body.errors.duration_minutes).toBeDefined();
    const unknownCategory = await send({ question_category_ids: [999_999] });
    expect(unknownCategory.status).toBe(422);
    expect(unknownCategory.body.errors.question_category_ids).toEqual(['One of the question categories you chose has been removed or cannot be chosen here. Choose again.']);
    expect((await send({}, recruiterToken, 999_999)).status).toBe(404);
    expect((await t.app.db.select().from(assessments)).length).toBe(before);
    expect((await t.app.db.select().from(capabilityLinks)).length).toBe(0);
  });

  it('mails the candidate a one-use link, returns it once, and stores only its hash', async () => {
    const sent = await send();
    expect(sent.status).toBe(201);
    const token = tokenOf(sent.body.data.url);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const mail = await t.smtp.waitFor('carla@example.com', /assessment/i);
    expect(mail.links).toContain(sent.body.data.url);
    const stored = await t.app.db.select().from(capabilityLinks);
    expect(stored.some((link) => link.token_hash.includes(token))).toBe(false);

    const info = await t.call('GET', `/api/public/assessment/${token}`);
    expect(info.status).toBe(200);
    expect(info.body.data).toMatchObject({ candidate_name: 'Carla Candidate', duration_minutes: 10, question_count: 4, categories: ['Java', 'SQL'] });
    // Opening the start page does not start the clock.
    const [row] = await t.app.db.select().from(assessmentAttempts);
    expect(row).toBeUndefined();
  });

  it('writes the link\'s expiry as the product writes dates: the day and time on the firm\'s clock, the zone named', async () => {
    const before = (await t.call('GET', '/api/setting/time-zone', { token: adminToken })).body.data.time_zone as string;
    // Half an hour off UTC: a UTC time or a rounded offset would not read 14:00.
    expect((await t.call('PUT', '/api/setting/time-zone', { token: adminToken, body: { time_zone: 'Asia/Kolkata' } })).status).toBe(200);
    try {
      const [position] = await t.app.db.select({ id: positions.id }).from(positions).limit(1);
      const [kiran] = await t.app.db.insert(candidates).values({ name: 'Kiran Candidate', email: 'kiran@example.com', phone: '+91 90000 00002', position_id: position.id, recruiter_id: recruiter.id }).returning();
      const day = addDays(today('Asia/Kolkata'), 2);
      expect((await send({ expires_at: zonedInstant(day, 14, 0, 'Asia/Kolkata').toISOString() }, recruiterToken, kiran.id)).status).toBe(201);
      const mail = await t.smtp.waitFor('kiran@example.com', /assessment/i);
      // Quoted-printable: long lines are broken with a soft '=' line end.
      const text = mail.raw.replace(/=\r?\n/g, '');
      expect(text).toContain(`The link works once and expires on ${day} at 14:00 (Asia/Kolkata).`);
      expect(text).not.toContain('GMT');
    } finally {
      await t.call('PUT', '/api/setting/time-zone', { token: adminToken, body: { time_zone: before } });
    }
  });
});

describe('the token lifecycle', () => {
  it('answers unknown and tampered tokens alike with 404, and a used one with 410', async () => {
    const token = tokenOf((await send()).body.data.url);
    const unknown = await t.call('GET', `/api/public/assessment/${'A'.repeat(43)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('This link is invalid or has expired.');
    const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect(await t.call('GET', `/api/public/assessment/${tampered}`)).toMatchObject({ status: 404, body: { message: 'This link is invalid or has expired.' } });
    expect((await start(tampered)).status).toBe(404);
    expect((await t.call('GET', '/api/public/assessment/short')).status).toBe(404);

    expect((await start(token)).status).toBe(201);
    // One attempt per link: a second start (or a look at the start page) is refused and changes nothing.
    const again = await start(token);
    expect(again).toMatchObject({ status: 410, body: { message: 'This link has already been used.' } });
    expect((await t.call('GET', `/api/public/assessment/${token}`)).status).toBe(410);
    const attempts = await t.app.db.select().from(assessmentAttempts);
    expect(attempts.filter((a) => a.id === attempts[attempts.length - 1].id)).toHaveLength(1);
    // A start token is no window token and the other way round.
    expect((await t.call('GET', `/api/public/assessment-attempt/${token}`)).status).toBe(404);
  });

  it('refuses an expired link like an unknown one and starts nothing', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date());
    const token = tokenOf((await send({ expires_at: inHours(1) })).body.data.url);
    const attemptsBefore = (await t.app.db.select().from(assessmentAttempts)).length;
    vi.setSystemTime(Date.now() + HOUR + 1000);
    expect(await t.call('GET', `/api/public/assessment/${token}`)).toMatchObject({ status: 404, body: { message: 'This link is invalid or has expired.' } });
    expect((await start(token)).status).toBe(404);
    expect((await t.app.db.select().from(assessmentAttempts)).length).toBe(attemptsBefore);
  });

  it('revokes an unstarted link: it then answers like an unknown one', async () => {
    const sent = await send();
    const token = tokenOf(sent.body.data.url);
    const revoked = await t.call('POST', `/api/candidate/${candidateId}/assessments/${sent.body.data.id}/revoke`, { token: recruiterToken });
    expect(revoked.status).toBe(200);
    expect((await t.call('GET', `/api/public/assessment/${token}`)).status).toBe(404);
    expect((await start(token)).status).toBe(404);
    const list = await t.call('GET', `/api/candidate/${candidateId}/assessments`, { token: recruiterToken });
    expect(list.body.data.find((a: { id: number }) => a.id === sent.body.data.id).link_status).toBe('revoked');
    expect((await t.call('POST', `/api/candidate/${candidateId}/assessments/${sent.body.data.id}/revoke`, { token: recruiterToken })).status).toBe(409);
  });
});

describe('taking an assessment', () => {
  it('draws the asked number per skill level, resumes with the same deadline and answers, and enforces the deadline', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const t0 = Date.now() - 2 * HOUR;
    vi.setSystemTime(t0);
    const token = tokenOf((await send()).body.data.url);
    const started = await start(token);
    expect(started.status).toBe(201);
    const attemptToken: string = started.body.data.token;
    const [{ id: attemptId }] = await t.app.db.select().from(assessmentAttempts).orderBy(desc(assessmentAttempts.id)).limit(1);
    expect(started.body.data.url).toBe(`/candidate/assessment/${attemptToken}`);
    const drawn: { id: number; question: string; options: string[]; skill_level: number; answer: string | null }[] = started.body.data.questions;
    expect(drawn.filter((q) => q.skill_level === 1)).toHaveLength(2);
    expect(drawn.filter((q) => q.skill_level === 2)).toHaveLength(1);
    expect(drawn.filter((q) => q.skill_level === 3)).toHaveLength(1);
    expect(started.body.data).toMatchObject({ status: 'in progress', remaining_ms: 10 * 60_000, deadline: new Date(t0 + 10 * 60_000).toISOString() });
    // The candidate never sees the correct answers.
    expect(JSON.stringify(started.body.data)).not.toContain('correct');

    vi.setSystemTime(t0 + 3 * 60_000);
    const first = drawn[0];
    const saved = await t.call('PUT', `/api/public/assessment-attempt/${attemptToken}/answers/${first.id}`, { body: { answer: first.options[1] } });
    expect(saved.status).toBe(200);
    // Saving again replaces the answer (a retried save is harmless).
    expect((await t.call('PUT', `/api/public/assessment-attempt/${attemptToken}/answers/${first.id}`, { body: { answer: first.options[0] } })).status).toBe(200);

    // A reload (or a second device) four minutes in: same deadline, the server's remaining time, the saved answer.
    vi.setSystemTime(t0 + 4 * 60_000);
    const resumed = await t.call('GET', `/api/public/assessment-attempt/${attemptToken}`);
    expect(resumed.status).toBe(200);
    expect(resumed.body.data.deadline).toBe(started.body.data.deadline);
    expect(resumed.body.data.remaining_ms).toBe(6 * 60_000);
    expect(resumed.body.data.questions.find((q: { id: number }) => q.id === first.id).answer).toBe(first.options[0]);
    expect(resumed.body.data.questions.map((q: { id: number }) => q.id)).toEqual(drawn.map((q) => q.id));

    // Bad input stores nothing: a question not drawn, an answer that is not an option.
    const notDrawn = [...bank.values()].find((q) => !drawn.some((d) => d.id === q.id))!;
    const refused = await t.call('PUT', `/api/public/assessment-attempt/${attemptToken}/answers/${notDrawn.id}`, { body: { answer: notDrawn.options[0] } });
    expect(refused).toMatchObject({ status: 422, body: { errors: { question_id: ['This question is not part of your assessment.'] } } });
    const notOption = await t.call('PUT', `/api/public/assessment-attempt/${attemptToken}/answers/${drawn[1].id}`, { body: { answer: 'not an option' } });
    expect(notOption).toMatchObject({ status: 422, body: { errors: { answer: ['The selected answer is not one of the options.'] } } });
    expect((await t.call('PUT', `/api/public/assessment-attempt/${attemptToken}/answers/${drawn[1].id}`, { body: { answer: 42 } })).status).toBe(422);

    // Leaving the tab is counted.
    expect((await t.call('POST', `/api/public/assessment-attempt/${attemptToken}/tab-leave`)).body.data.tab_leaves).toBe(1);
    expect((await t.call('POST', `/api/public/assessment-attempt/${attemptToken}/tab-leave`)).body.data.tab_leaves).toBe(2);

    // Within the grace after the deadline an answer still counts; after it, it is refused and not stored.
    vi.setSystemTime(t0 + 10 * 60_000 + 3000);
    expect((await t.call('PUT', `/api/public/assessment-attempt/${attemptToken}/answers/${drawn[1].id}`, { body: { answer: drawn[1].options[0] } })).status).toBe(200);
    vi.setSystemTime(t0 + 10 * 60_000 + 6000);
    const late = await t.call('PUT', `/api/public/assessment-attempt/${attemptToken}/answers/${drawn[2].id}`, { body: { answer: drawn[2].options[0] } });
    expect(late).toMatchObject({ status: 409, body: { message: 'The time for this assessment is over.' } });
    const [lateRow] = await t.app.db.select().from(assessmentAnswers).where(and(eq(assessmentAnswers.question_id, drawn[2].id), eq(assessmentAnswers.attempt_id, attemptId)));
    expect(lateRow.answer).toBeNull();

    // The close job (due at the deadline plus the grace) closes it with no browser left, once.
    const ran = await t.app.jobs.runDue();
    expect(ran).toBeGreaterThanOrEqual(1);
    const list = await t.call('GET', `/api/candidate/${candidateId}/assessments`, { token: recruiterToken });
    const attempt = list.body.data.find((a: { attempt: { id: number } | null }) => a.attempt?.id === attemptId).attempt;
    expect(attempt).toMatchObject({ status: 'submitted', closed_reason: 'time-up', tab_leaves: 2, answered_count: 2, time_taken_seconds: 600, submitted_at: new Date(t0 + 10 * 60_000).toISOString() });
    const window = await t.call('GET', `/api/public/assessment-attempt/${attemptToken}`);
    expect(window.body.data).toMatchObject({ status: 'submitted', closed_reason: 'time-up', remaining_ms: 0 });
    expect((await t.call('PUT', `/api/public/assessment-attempt/${attemptToken}/answers/${drawn[2].id}`, { body: { answer: drawn[2].options[0] } })).status).toBe(409);
    const told = await t.app.db.select().from(notifications).where(eq(notifications.notifiable_id, recruiter.id));
    expect(told.filter((n) => n.data.title === 'Assessment submitted' && n.data.message.includes('ran out of time'))).toHaveLength(1);
  });

  it('scores against a known draw overall, per category and per skill level, and tells the recruiter', async () => {
    // Every question of the bank is drawn, so the draw is known whatever the random order.
    const sent = await send({ questions_per_level: { 1: 3, 2: 1, 3: 1 } });
    const started = await start(tokenOf(sent.body.data.url));
    const attemptToken: string = started.body.data.token;
    const drawn: { id: number; question: string }[] = started.body.data.questions;
    expect(drawn.map((q) => q.question).sort()).toEqual(['J1', 'J2', 'J3', 'S1', 'S2']);
    // Right: J1, J3, S2. Wrong: J2. Unanswered: S1.
    const answers: Record<string, string> = { J1: 'a', J2: 'a', J3: 'z', S2: 'n' };
    for (const [question, answer] of Object.entries(answers)) {
      const res = await t.call('PUT', `/api/public/assessment-attempt/${attemptToken}/answers/${bank.get(question)!.id}`, { body: { answer } });
      expect(res.status).toBe(200);
    }
    const submitted = await t.call('POST', `/api/public/assessment-attempt/${attemptToken}/submit`);
    expect(submitted.status).toBe(200);
    expect(submitted.body.data).toMatchObject({ status: 'submitted', closed_reason: 'submitted' });
    // A second submit (the auto-submit racing the button) changes nothing.
    expect((await t.call('POST', `/api/public/assessment-attempt/${attemptToken}/submit`)).status).toBe(200);

    const list = await t.call('GET', `/api/candidate/${candidateId}/assessments`, { token: adminToken });
    const result = list.body.data.find((a: { id: number }) => a.id === sent.body.data.id);
    expect(result.link_status).toBe('used');
    expect(result.attempt.scores.overall).toEqual({ correct: 3, total: 5, percent: 60 });
    expect(result.attempt.scores.by_category).toEqual([
      { question_category_id: javaId, name: 'Java', correct: 2, total: 3 },
      { question_category_id: sqlId, name: 'SQL', correct: 1, total: 2 },
    ]);
    expect(result.attempt.scores.by_skill_level).toEqual([
      { skill_level: 1, label: 'Beginner', correct: 1, total: 3 },
      { skill_level: 2, label: 'Intermediate', correct: 1, total: 1 },
      { skill_level: 3, label: 'Advanced', correct: 1, total: 1 },
    ]);
    const j2 = result.attempt.questions.find((q: { question: string }) => q.question === 'J2');
    expect(j2).toMatchObject({ answer: 'a', correct_answer: 'b', is_correct: false });
    const s1 = result.attempt.questions.find((q: { question: string }) => q.question === 'S1');
    expect(s1).toMatchObject({ answer: null, correct_answer: 'p', is_correct: false });
    const told = await t.app.db.select().from(notifications).where(eq(notifications.notifiable_id, recruiter.id));
    const mine = told.filter((n) => n.data.message === 'Carla Candidate submitted the assessment: 3 of 5 correct (60%).');
    expect(mine).toHaveLength(1);
    expect(mine[0].data.url).toBe(`/candidate/${candidateId}/assessments`);
    // After the submit nothing more is stored.
    expect(await t.call('PUT', `/api/public/assessment-attempt/${attemptToken}/answers/${bank.get('S1')!.id}`, { body: { answer: 'p' } }))
      .toMatchObject({ status: 409, body: { message: 'This assessment has already been submitted.' } });
    const [close] = await t.app.db.select().from(jobs).where(eq(jobs.unique_key, `assessment-close:${result.attempt.id}`));
    expect(close).toBeDefined();
  });

  it('records a submit that arrives after the deadline (within the grace) as time up, at the deadline', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const t0 = Date.now() - 2 * HOUR;
    vi.setSystemTime(t0);
    const started = await start(tokenOf((await send({ duration_minutes: 1 })).body.data.url));
    vi.setSystemTime(t0 + 60_000 + 2000);
    const submitted = await t.call('POST', `/api/public/assessment-attempt/${started.body.data.token}/submit`);
    expect(submitted.body.data).toMatchObject({ status: 'submitted', closed_reason: 'time-up', submitted_at: new Date(t0 + 60_000).toISOString() });
  });

  it('draws anew for a retake', async () => {
    const drawsOf = async () => {
      const started = await start(tokenOf((await send({ question_category_ids: [javaId], questions_per_level: { 1: 1, 2: 0, 3: 0 } })).body.data.url));
      return started.body.data.questions[0].question as string;
    };
    const seen = new Set<string>();
    for (let i = 0; i < 12 && seen.size < 2; i += 1) seen.add(await drawsOf());
    expect(seen).toEqual(new Set(['J1', 'J2']));
  });
});

// Issue 28: interviews with calendar invitations (read from the real SMTP server), scorecards whose
// others are shown only after one's own, offer letters as PDFs answered through a capability link
// (acceptance hires the candidate through the workflow), and a position's pipeline.
import { inflateSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, positions } from '../../src/server/db/schema/master-data';
import { onboardings } from '../../src/server/db/schema/onboarding';
import { candidates } from '../../src/server/db/schema/recruitment';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';
import type { ReceivedMail } from '../helpers/smtp';

let t: TestApp;
let admin: string;
let recruiter: string;
let alice: { id: number; token: () => Promise<string> };
let bob: { id: number; token: () => Promise<string> };
let outsider: { id: number; token: () => Promise<string> };
let positionId: number;

/** The text/calendar part of a mail, decoded (nodemailer may send it base64 or quoted-printable). */
function calendarOf(mail: ReceivedMail): string {
  const parts = mail.raw.split(/\r?\n--/);
  const part = parts.find((p) => /Content-Type: text\/calendar/i.test(p));
  if (!part) throw new Error(`no calendar in ${mail.subject}`);
  const [head, ...body] = part.split(/\r?\n\r?\n/);
  const content = body.join('\n\n');
  let text = content;
  if (/Content-Transfer-Encoding: base64/i.test(head)) text = Buffer.from(content.replace(/\s+/g, ''), 'base64').toString('utf8');
  else if (/Content-Transfer-Encoding: quoted-printable/i.test(head)) text = content.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  // RFC 5545 folds long lines: unfolded, each property is one line.
  return text.replace(/\r?\n[ \t]/g, '');
}
const field = (ics: string, name: string) => new RegExp(`^${name}[:;](.*)$`, 'm').exec(ics)?.[1]?.trim();

/** The text of a PDF's content streams (pdf-lib deflates them), where the standard fonts' text is hex. */
function pdfContent(bytes: Buffer): string {
  const raw = bytes.toString('latin1');
  const streams = [...raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)].map((m) => Buffer.from(m[1], 'latin1'));
  return streams.map((stream) => { try { return inflateSync(stream).toString('latin1'); } catch { return stream.toString('latin1'); } }).join('\n');
}

async function addCandidate(name: string, email: string, phone: string, stage: string) {
  const [row] = await t.app.db.insert(candidates).values({ name, email, phone, position_id: positionId, stage, recruiter_id: null }).returning();
  return row.id;
}

async function schedule(candidateId: number, body: Record<string, unknown> = {}, token = recruiter) {
  return t.call('POST', '/api/interview', {
    token, body: { candidate_id: candidateId, scheduled_on: '2026-12-03', start_time: '14:30', duration_minutes: 60, time_zone: 'Europe/London', interviewer_ids: [alice.id, bob.id], location: 'https://meet.example.com/abc', ...body },
  });
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  const rita = await t.createUser({ email: 'rita@example.com', name: 'Rita Recruiter', user_type: 'user' }, ['user', 'recruiter']);
  recruiter = await rita.token();
  alice = await t.createUser({ email: 'alice@example.com', name: 'Alice Interviewer', user_type: 'user' }, ['user']);
  bob = await t.createUser({ email: 'bob@example.com', name: 'Bob Interviewer', user_type: 'user' }, ['user']);
  outsider = await t.createUser({ email: 'olga@example.com', name: 'Olga Other', user_type: 'user' }, ['user']);
  const [client] = await t.app.db.insert(clients).values({ name: 'Northwind' }).returning();
  const [position] = await t.app.db.insert(positions).values({ title: 'Java Developer', client_id: client.id, location: 'London', count: 2, scorecard_criteria: ['Java', 'Communication'] }).returning();
  positionId = position.id;
});
afterAll(async () => { await t.close(); });

describe('interviews and their calendar invitations', () => {
  let candidateId: number;
  let interviewId: number;
  let uid: string;

  it('schedules an interview at the Interview stage and mails each interviewer and the candidate an invitation', async () => {
    candidateId = await addCandidate('Jane Candidate', 'jane@example.com', '+44 7700 900001', 'Interview');
    const created = await schedule(candidateId);
    expect(created.status).toBe(201);
    expect(created.body.data.stage).toBe('Interview');
    expect(created.body.data.interviewers.map((p: { name: string }) => p.name)).toEqual(['Alice Interviewer', 'Bob Interviewer']);
    interviewId = created.body.data.id;
    await t.app.jobs.runDue();
    for (const to of ['jane@example.com', 'alice@example.com', 'bob@example.com']) {
      const ics = calendarOf(await t.smtp.waitFor(to, /interview/i));
      expect(field(ics, 'METHOD')).toBe('REQUEST');
      expect(field(ics, 'SEQUENCE')).toBe('0');
      // 14:30 in London in December is 14:30 UTC.
      expect(field(ics, 'DTSTART')).toBe('20261203T143000Z');
      expect(ics).toMatch(/ATTENDEE;[^\n]*jane@example.com/i);
      expect(ics).toMatch(/ATTENDEE;[^\n]*alice@example.com/i);
      uid ??= field(ics, 'UID')!;
      expect(field(ics, 'UID')).toBe(uid);
    }
  });

  it('reads the start in the chosen time zone', async () => {
    const other = await addCandidate('Kiran Candidate', 'kiran@example.com', '+91 90000 00002', 'Client Interview');
    const created = await schedule(other, { time_zone: 'Asia/Kolkata', interviewer_ids: [alice.id] });
    expect(created.status).toBe(201);
    expect(created.body.data.stage).toBe('Client Interview');
    await t.app.jobs.runDue();
    const ics = calendarOf(await t.smtp.waitFor('kiran@example.com', /interview/i));
    expect(field(ics, 'DTSTART')).toBe('20261203T090000Z');
  });

  it('refuses an interview for a candidate at another stage, and bad times', async () => {
    const screening = await addCandidate('Sam Screening', 'sam@example.com', '+44 7700 900003', 'Screening');
    const refused = await schedule(screening);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.candidate_id[0]).toBe('Interviews are scheduled at the Interview and Client Interview stages; this candidate is at the Screening stage.');
    const badTime = await schedule(candidateId, { start_time: '25:00', time_zone: 'Mars/Olympus' });
    expect(badTime.status).toBe(422);
    expect(Object.keys(badTime.body.errors).sort()).toEqual(['start_time', 'time_zone']);
  });

  it('reschedules with the same UID and the next SEQUENCE', async () => {
    t.smtp.messages.length = 0;
    const moved = await t.call('PATCH', `/api/interview/${interviewId}`, { token: recruiter, body: { start_time: '16:00' } });
    expect(moved.status).toBe(200);
    await t.app.jobs.runDue();
    const ics = calendarOf(await t.smtp.waitFor('alice@example.com', /moved/i));
    expect(field(ics, 'UID')).toBe(uid);
    expect(field(ics, 'SEQUENCE')).toBe('1');
    expect(field(ics, 'METHOD')).toBe('REQUEST');
    expect(field(ics, 'DTSTART')).toBe('20261203T160000Z');
  });

  it('cancels with METHOD:CANCEL, the same UID and the next SEQUENCE; a cancelled interview is not changed again', async () => {
    const other = await addCandidate('Cara Cancel', 'cara@example.com', '+44 7700 900004', 'Interview');
    const created = await schedule(other, { interviewer_ids: [bob.id] });
    await t.app.jobs.runDue();
    const first = calendarOf(await t.smtp.waitFor('cara@example.com', /interview/i));
    t.smtp.messages.length = 0;
    const cancelled = await t.call('POST', `/api/interview/${created.body.data.id}/transitions/cancel`, { token: recruiter, body: { comment: 'The client paused the role.' } });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.status).toBe('cancelled');
    await t.app.jobs.runDue();
    const ics = calendarOf(await t.smtp.waitFor('cara@example.com', /cancelled/i));
    expect(field(ics, 'METHOD')).toBe('CANCEL');
    expect(field(ics, 'STATUS')).toBe('CANCELLED');
    expect(field(ics, 'UID')).toBe(field(first, 'UID'));
    expect(field(ics, 'SEQUENCE')).toBe('1');
    const again = await t.call('PATCH', `/api/interview/${created.body.data.id}`, { token: recruiter, body: { start_time: '10:00' } });
    expect(again.status).toBe(409);
  });

  it('refuses a partner, a permission-less user and anonymous callers', async () => {
    const partner = await t.createPartner({ email: 'partner@example.com' });
    expect((await t.call('GET', '/api/interview', { token: await partner.token() })).status).toBe(401);
    const finance = await t.createUser({ email: 'fin@example.com', user_type: 'user' }, ['finance']);
    expect((await schedule(candidateId, {}, await finance.token())).status).toBe(403);
    expect((await t.call('GET', `/api/candidate/${candidateId}/scorecards`, { token: await finance.token() })).status).toBe(403);
    expect((await t.call('GET', `/api/interview/${interviewId}/scorecards`)).status).toBe(401);
    // An engineer who is not on the panel does not see the interview.
    expect((await t.call('GET', `/api/interview/${interviewId}`, { token: await outsider.token() })).status).toBe(404);
    expect((await t.call('POST', `/api/interview/${interviewId}/scorecard`, { token: await outsider.token(), body: { ratings: { Java: 3, Communication: 3 }, recommendation: 'yes' } })).status).toBe(403);
  });

  it('shows an interviewer the others\' scorecards only after they submit their own', async () => {
    const aliceToken = await alice.token();
    const bobToken = await bob.token();
    const card = (ratings: Record<string, number>, recommendation: string) => ({ ratings, strengths: 'Clear answers', concerns: null, recommendation });
    expect((await t.call('POST', `/api/interview/${interviewId}/scorecard`, { token: aliceToken, body: card({ Java: 4 }, 'yes') })).status).toBe(422);
    expect((await t.call('POST', `/api/interview/${interviewId}/scorecard`, { token: aliceToken, body: card({ Java: 4, Communication: 5 }, 'strong-yes') })).status).toBe(201);
    expect((await t.call('POST', `/api/interview/${interviewId}/scorecard`, { token: aliceToken, body: card({ Java: 4, Communication: 5 }, 'yes') })).status).toBe(409);

    // Bob has not submitted: he sees that one is in, not what it says.
    const beforeBob = await t.call('GET', `/api/interview/${interviewId}/scorecards`, { token: bobToken });
    expect(beforeBob.status).toBe(200);
    expect(beforeBob.body.data[0].scorecards).toBeNull();
    expect(beforeBob.body.data[0].submitted_count).toBe(1);
    expect(beforeBob.body.data[0].can_submit).toBe(true);
    expect(beforeBob.body.data[0].criteria).toEqual(['Java', 'Communication']);
    expect(JSON.stringify(beforeBob.body)).not.toContain('strong-yes');

    expect((await t.call('POST', `/api/interview/${interviewId}/scorecard`, { token: bobToken, body: card({ Java: 2, Communication: 3 }, 'no') })).status).toBe(201);
    const afterBob = await t.call('GET', `/api/interview/${interviewId}/scorecards`, { token: bobToken });
    expect(afterBob.body.data[0].mine.recommendation).toBe('no');
    expect(afterBob.body.data[0].scorecards.map((c: { recommendation: string }) => c.recommendation)).toEqual(['strong-yes']);

    // The recruiter, not on the panel, reads both side by side on the candidate.
    const side = await t.call('GET', `/api/candidate/${candidateId}/scorecards`, { token: recruiter });
    expect(side.status).toBe(200);
    expect(side.body.data[0].scorecards.map((c: { interviewer: { name: string } }) => c.interviewer.name)).toEqual(['Alice Interviewer', 'Bob Interviewer']);
  });
});

describe('who may be an interviewer (decision 043)', () => {
  let candidateId: number;
  let manager: { id: number; token: () => Promise<string> };
  let adminPerson: { id: number; token: () => Promise<string> };
  let financePerson: { id: number; token: () => Promise<string> };
  let leaver: { id: number; token: () => Promise<string> };

  beforeAll(async () => {
    candidateId = await addCandidate('Priya Panel', 'priya@example.com', '+44 7700 900020', 'Interview');
    manager = await t.createUser({ email: 'mona@example.com', name: 'Mona Manager', user_type: 'manager', job_title: 'Delivery Manager' }, ['manager']);
    adminPerson = await t.createUser({ email: 'adam@example.com', name: 'Adam Admin', user_type: 'admin' }, ['admin']);
    financePerson = await t.createUser({ email: 'fiona@example.com', name: 'Fiona Finance', user_type: 'user' }, ['user', 'finance']);
    leaver = await t.createUser({ email: 'lee@example.com', name: 'Lee Leaver', user_type: 'manager', status: 'inactive' }, ['manager']);
    await t.createPartner({ email: 'pat@example.com', name: 'Pat Partner' });
  });

  const choices = async (token: string, search = '') => {
    const answer = await t.call('GET', `/api/interviewer/options?per_page=100${search ? `&search=${search}` : ''}`, { token });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return (answer.body.data as { id: number; label: string }[]).map((option) => option.label);
  };

  it('offers every active staff account, whatever its type, and no partner login or deactivated person', async () => {
    const offered = await choices(recruiter);
    expect(offered).toEqual(expect.arrayContaining(['Alice Interviewer', 'Bob Interviewer', 'Mona Manager', 'Adam Admin', 'Fiona Finance', 'Rita Recruiter']));
    expect(offered).not.toContain('Lee Leaver');
    expect(offered).not.toContain('Pat Partner');
    expect(await choices(recruiter, 'mona')).toEqual(['Mona Manager']);
  });

  it('schedules a panel of a manager, an admin and a user with a duty role; each sees the interview and fills their scorecard', async () => {
    const created = await schedule(candidateId, { scheduled_on: '2026-12-10', interviewer_ids: [manager.id, adminPerson.id, financePerson.id] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.interviewers.map((p: { name: string }) => p.name)).toEqual(['Mona Manager', 'Adam Admin', 'Fiona Finance']);
    const id = created.body.data.id as number;
    const managerToken = await manager.token();
    expect((await t.call('GET', `/api/interview/${id}`, { token: managerToken })).status).toBe(200);
    const submitted = await t.call('POST', `/api/interview/${id}/scorecard`, { token: managerToken, body: { ratings: { Java: 4, Communication: 4 }, recommendation: 'yes' } });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
    // A manager or admin added to a panel later is accepted the same way.
    const moved = await t.call('PATCH', `/api/interview/${id}`, { token: recruiter, body: { interviewer_ids: [manager.id, adminPerson.id] } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  });

  it('refuses a deactivated person and an id that is no staff account, on create and on edit', async () => {
    const refused = await schedule(candidateId, { interviewer_ids: [alice.id, leaver.id] });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.interviewer_ids[0]).toBe('One of the interviewers you chose has been removed or cannot be chosen here. Choose again.');
    expect((await schedule(candidateId, { interviewer_ids: [999_999] })).status).toBe(422);
    const created = await schedule(candidateId, { scheduled_on: '2026-12-11', interviewer_ids: [alice.id] });
    expect(created.status).toBe(201);
    const edited = await t.call('PATCH', `/api/interview/${created.body.data.id}`, { token: recruiter, body: { interviewer_ids: [leaver.id] } });
    expect(edited.status).toBe(422);
  });

  it('lets only those who schedule interviews pick people, and shows them only a name and job title', async () => {
    const listed = await t.call('GET', '/api/interviewer?search=mona', { token: recruiter });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(1);
    const { abilities, ...row } = listed.body.data[0];
    expect(row).toEqual({ id: manager.id, name: 'Mona Manager', job_title: 'Delivery Manager' });
    expect(abilities).toEqual({ update: false, delete: false });
    // An engineer on a panel reads the interview, but picks nobody and lists nobody.
    const engineer = await alice.token();
    expect(await choices(engineer)).toEqual([]);
    expect((await t.call('GET', '/api/interviewer', { token: engineer })).status).toBe(403);
    const partner = await t.createPartner({ email: 'partner3@example.com' });
    expect((await t.call('GET', '/api/interviewer/options', { token: await partner.token() })).status).toBe(401);
    expect((await t.call('GET', '/api/interviewer/options')).status).toBe(401);
  });
});

describe('offer letters', () => {
  let candidateId: number;
  let templateId: number;

  const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;
  const offer = (id = candidateId) => t.call('POST', `/api/candidate/${id}/offer-letters`, {
    token: recruiter, body: { template_id: templateId, start_date: '2027-01-04', rate: 450, currency: 'GBP', rate_period: 'day' },
  });

  beforeAll(async () => {
    const template = await t.call('POST', '/api/offer-template', {
      token: recruiter, body: { name: 'Contractor offer', body: 'Dear {{candidate_name}},\n\nWe offer you {{position}} at {{client}} from {{start_date}} at {{rate}}.' },
    });
    expect(template.status).toBe(201);
    templateId = template.body.data.id;
    candidateId = await addCandidate('Olivia Offer', 'olivia@example.com', '+44 7700 900010', 'Offer Letter Review');
  });

  it('makes an offer only at Offer Letter Review', async () => {
    const early = await addCandidate('Ed Early', 'ed@example.com', '+44 7700 900011', 'Interview');
    const refused = await offer(early);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('An offer letter is made at the Offer Letter Review stage; Ed Early is at the Interview stage.');
    // A template that is gone is named as what was chosen, not "The selected template is invalid.".
    const gone = await t.call('POST', `/api/candidate/${candidateId}/offer-letters`, {
      token: recruiter, body: { template_id: 987654, start_date: '2027-01-04', rate: 450, currency: 'GBP', rate_period: 'day' },
    });
    expect(gone.body.errors).toEqual({ template_id: ['The offer template you chose has been removed or cannot be chosen here. Choose another.'] });
  });

  it('generates a PDF naming the candidate, mails the link, and acceptance moves the candidate to Onboarding once', async () => {
    const made = await offer();
    expect(made.status).toBe(201);
    expect(made.body.data.rate_text).toBe('GBP 450.00 per day');
    const token = tokenOf(made.body.data.url);

    const pdf = await t.app.inject({ method: 'GET', url: `/api/offer-letter/${made.body.data.id}/pdf`, headers: { authorization: `Bearer ${recruiter}` } });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    const document = await PDFDocument.load(pdf.rawPayload);
    expect(document.getPageCount()).toBe(1);
    expect(document.getTitle()).toBe('Offer letter for Olivia Offer');
    // pdf-lib writes the standard fonts' text as hex strings in the page's content.
    const hex = Buffer.from('Olivia Offer', 'latin1').toString('hex').toUpperCase();
    expect(pdfContent(pdf.rawPayload)).toContain(hex);

    await t.app.jobs.runDue();
    const mail = await t.smtp.waitFor('olivia@example.com', /offer/i);
    expect(mail.links.some((link) => link.includes(`token=${token}`))).toBe(true);

    const page = await t.call('GET', `/api/public/offer-letter/${token}`);
    expect(page.status).toBe(200);
    expect(page.body.data.body).toContain('We offer you Java Developer at Northwind from 2027-01-04 at GBP 450.00 per day.');
    expect(page.body.data.status).toBe('sent');

    const wrongName = await t.call('POST', `/api/public/offer-letter/${token}/accept`, { body: { signed_name: 'Someone Else' } });
    expect(wrongName.status).toBe(422);
    const accepted = await t.call('POST', `/api/public/offer-letter/${token}/accept`, { body: { signed_name: 'olivia offer' }, headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(accepted.status).toBe(200);

    const [row] = await t.app.db.select().from(candidates).where(eq(candidates.id, candidateId));
    expect(row.stage).toBe('Onboarding');
    expect(await t.app.db.select().from(onboardings).where(eq(onboardings.candidate_id, candidateId))).toHaveLength(1);
    const history = await t.call('GET', `/api/candidate/${candidateId}/history`, { token: recruiter });
    expect(history.body.data.at(-1)).toMatchObject({ transition: 'offer-accepted', from: 'Offer Letter Review', to: 'Onboarding' });

    const listed = await t.call('GET', `/api/candidate/${candidateId}/offer-letters`, { token: recruiter });
    expect(listed.body.data[0]).toMatchObject({ status: 'accepted', signed_name: 'olivia offer' });
    expect(listed.body.data[0].responded_at).toBeTruthy();
    expect(listed.body.data[0].responded_ip).toBeTruthy();

    // The link answered once: a second answer is refused; the page still shows the result.
    expect((await t.call('POST', `/api/public/offer-letter/${token}/accept`, { body: { signed_name: 'Olivia Offer' } })).status).toBe(410);
    expect((await t.call('POST', `/api/public/offer-letter/${token}/decline`, { body: { signed_name: 'Olivia Offer' } })).status).toBe(410);
    expect((await t.call('GET', `/api/public/offer-letter/${token}`)).body.data.status).toBe('accepted');
  });

  it('records a decline with its reason and leaves the stage; an unknown link is 404', async () => {
    const other = await addCandidate('Dan Decline', 'dan@example.com', '+44 7700 900012', 'Offer Letter Review');
    const made = await offer(other);
    const token = tokenOf(made.body.data.url);
    const declined = await t.call('POST', `/api/public/offer-letter/${token}/decline`, { body: { signed_name: 'Dan Decline', reason: 'I took another role.' } });
    expect(declined.status).toBe(200);
    const [row] = await t.app.db.select().from(candidates).where(eq(candidates.id, other));
    expect(row.stage).toBe('Offer Letter Review');
    const listed = await t.call('GET', `/api/candidate/${other}/offer-letters`, { token: recruiter });
    expect(listed.body.data[0]).toMatchObject({ status: 'declined', decline_reason: 'I took another role.' });
    expect((await t.call('GET', `/api/public/offer-letter/${'x'.repeat(43)}`)).status).toBe(404);
  });

  it('withdraws an unanswered offer when a new one is made: its link no longer opens', async () => {
    const other = await addCandidate('Will Withdrawn', 'will@example.com', '+44 7700 900013', 'Offer Letter Review');
    const first = tokenOf((await offer(other)).body.data.url);
    await offer(other);
    expect((await t.call('GET', `/api/public/offer-letter/${first}`)).status).toBe(404);
  });

  it('refuses offers to those who may not edit candidates', async () => {
    const engineer = await alice.token();
    expect((await t.call('POST', `/api/candidate/${candidateId}/offer-letters`, { token: engineer, body: {} })).status).toBe(403);
    const partner = await t.createPartner({ email: 'partner2@example.com' });
    expect((await t.call('GET', `/api/candidate/${candidateId}/offer-letters`, { token: await partner.token() })).status).toBe(401);
  });
});

describe('a position\'s pipeline', () => {
  it('counts candidates per stage with days open and time in stage', async () => {
    const pipeline = await t.call('GET', `/api/position/${positionId}/pipeline`, { token: admin });
    expect(pipeline.status).toBe(200);
    const counts = Object.fromEntries(pipeline.body.data.stages.map((s: { stage: string; count: number }) => [s.stage, s.count]));
    expect(counts).toMatchObject({ Screening: 1, Interview: 4, 'Client Interview': 1, 'Offer Letter Review': 2, Onboarding: 1 });
    expect(pipeline.body.data.days_open).toBe(0);
    expect(pipeline.body.data.candidates.every((c: { days_in_stage: number }) => c.days_in_stage === 0)).toBe(true);
    expect((await t.call('GET', `/api/position/${positionId}/pipeline`, { token: await alice.token() })).status).toBe(403);
  });
});

// The server side of bench/assessment-answers.ts, in its own process: the real app on a fresh
// PostgreSQL database with CANDIDATES candidates, each sent a one-hour assessment of 10 questions
// and started, as the candidates' browsers would. Reports {port, attempts} over IPC.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hash } from '@node-rs/argon2';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/server/app';
import { users } from '../src/server/db/schema/accounts';
import { assessmentAttempts } from '../src/server/db/schema/assessments';
import { sendAssessmentAs } from '../src/server/modules/assessment/send';
import { testConfig } from '../tests/helpers/app';

const [databaseUrl] = process.argv.slice(2);
const CANDIDATES = Number(process.env.BENCH_CANDIDATES ?? 500);

export interface BenchAttempt { id: number; token: string; questions: { id: number; options: string[] }[] }

async function main() {
  const app = await buildApp(testConfig({ dataDir: mkdtempSync(join(tmpdir(), 'bench-assessment-')), inMemoryDatabase: false, logLevel: 'silent', databaseUrl, mailUrl: undefined }));
  const [recruiter] = await app.db.insert(users).values({ name: 'Bench Recruiter', email: 'recruiter@bench.test', password: await hash('bench-password'), user_type: 'admin', email_verified_at: new Date() }).returning();
  await app.db.execute(sql`insert into clients (name) values ('Bench Client')`);
  await app.db.execute(sql`insert into positions (title, client_id, location, count) select 'Bench Position', id, 'Remote', 500 from clients limit 1`);
  await app.db.execute(sql`insert into candidates (name, email, phone, position_id, recruiter_id)
    select 'Candidate ' || i, 'candidate' || i || '@bench.test', '+1 555 ' || lpad(i::text, 6, '0'), (select id from positions limit 1), ${recruiter.id}
    from generate_series(1, ${CANDIDATES}) i`);
  await app.db.execute(sql`insert into question_categories (name) values ('Bench Category')`);
  await app.db.execute(sql`insert into questions (question_category_id, question, options, correct_answer, skill_level)
    select (select id from question_categories limit 1), 'Question ' || i, '["A","B","C","D"]'::jsonb, 'A', 1 + i % 3 from generate_series(1, 30) i`);
  const [{ id: categoryId }] = ((await app.db.execute(sql`select id from question_categories limit 1`)) as unknown as { rows: { id: number }[] }).rows;
  const candidateIds = ((await app.db.execute(sql`select id from candidates order by id`)) as unknown as { rows: { id: number }[] }).rows.map((row) => row.id);

  const attempts: BenchAttempt[] = [];
  for (const candidateId of candidateIds) {
    const { url } = await sendAssessmentAs(app, recruiter.id, candidateId, {
      question_category_ids: [categoryId], questions_per_level: { 1: 4, 2: 3, 3: 3 }, duration_minutes: 60,
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    });
    const linkToken = /\/candidate\/([^/]+)\/assessment$/.exec(url)![1];
    const started = await app.inject({ method: 'POST', url: `/api/public/assessment/${linkToken}/start` });
    const data = started.json().data as { token: string; questions: { id: number; options: string[] }[] };
    attempts.push({ id: 0, token: data.token, questions: data.questions.map((q) => ({ id: q.id, options: q.options })) });
  }
  const ids = await app.db.select({ id: assessmentAttempts.id }).from(assessmentAttempts).orderBy(assessmentAttempts.id);
  ids.forEach((row, index) => { attempts[index].id = row.id; });
  await app.db.execute(sql`vacuum analyze`);
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.send!({ port: (app.server.address() as { port: number }).port, attempts });
}

process.on('SIGTERM', () => process.exit(0));
main().catch((error) => { console.error(error); process.exit(1); });

// npm run bench:people-import — issue 22's target: 5,000 people imported from one CSV in under 30 s
// on PostgreSQL. The file names every reference by its label (employee type, manager by email,
// country, city, work location, a role) and fills the HR record, as a firm's would. Timed over
// HTTP: the preview (every row checked, nothing written) and the import of all rows in one
// transaction (insert, roles, audit entries, the invitation job queued), then checked: the people,
// their audit entries and the queued job are there. BENCH_ROWS changes the size (default 5,000).
// Method and results: docs/benchmarks.md "People import".
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { withServedDatabase } from './served';
import { printResult } from './measure';

const ROWS = Number(process.env.BENCH_ROWS ?? 5000);
const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number);

function peopleCsv(rows: number): string {
  const lines = ['Name,Email,Phone,Employee Type,Manager Email,Country,City,Roles,Employee ID,Job Title,Department,Join Date,Work Location'];
  const types = ['Full-time', 'Part-time', 'Contractor'];
  const departments = ['Engineering', 'Sales', 'Finance', 'People Ops', 'Delivery'];
  for (let i = 1; i <= rows; i += 1) {
    const city = `City ${1 + (i % 20)}`;
    const day = String(1 + (i % 28)).padStart(2, '0');
    lines.push([`Person ${i}`, `person${i}@import.test`, `+91 98${String(i).padStart(8, '0')}`, types[i % 3], `manager${1 + (i % 100)}@bench.test`,
      'India', city, i % 10 === 0 ? 'finance' : '', `EMP-${String(i).padStart(6, '0')}`, 'Consultant', departments[i % 5], `2025-03-${day}`, city].join(','));
  }
  return `${lines.join('\n')}\n`;
}

async function post(url: string, token: string, csv: string, mode?: string): Promise<{ status: number; body: any; seconds: number }> {
  const form = new FormData();
  if (mode) form.append('mode', mode);
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'people.csv');
  const started = performance.now();
  const answer = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const body = await answer.json();
  return { status: answer.status, body, seconds: (performance.now() - started) / 1000 };
}

async function main() {
  const csv = peopleCsv(ROWS);
  console.log(`${ROWS} rows, ${(Buffer.byteLength(csv) / 1024).toFixed(0)} KB of CSV`);
  await withServedDatabase<{ port: number; token: string }>('bench_import', new URL('./people-import.server.ts', import.meta.url), async ({ port, token }, databaseUrl) => {
    const base = `http://127.0.0.1:${port}/api/import/user`;
    const preview = await post(`${base}/preview`, token, csv);
    if (preview.status !== 200 || preview.body.data.invalid) throw new Error(`preview: ${preview.status} ${JSON.stringify(preview.body).slice(0, 500)}`);
    console.log(`preview: ${preview.body.data.valid} valid rows in ${preview.seconds.toFixed(2)} s`);
    const imported = await post(base, token, csv, 'all');
    if (imported.status !== 201) throw new Error(`import: ${imported.status} ${JSON.stringify(imported.body).slice(0, 500)}`);
    console.log(`import (all rows, one transaction): ${imported.body.message} in ${imported.seconds.toFixed(2)} s`);

    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const count = async (query: string) => Number((await db.query(query)).rows[0].n);
    const people = await count(`select count(*) n from users where email like '%@import.test' and employee_id like 'EMP-%' and work_location_id is not null and parent_id is not null`);
    const audited = await count(`select count(*) n from audit_log where resource = 'user' and action = 'create'`);
    const roles = await count(`select count(*) n from model_has_roles m join users u on u.id = m.account_id where u.email like '%@import.test'`);
    const jobs = await count(`select count(*) n from jobs where name = 'invitations'`);
    await db.end();
    console.log(`checked: ${people} people with their HR record, ${roles} role memberships, ${audited} audit entries, ${jobs} invitation job queued`);
    if (people !== ROWS || audited < ROWS || jobs !== 1) throw new Error('the import did not write what it said');
    console.log(`\nPostgreSQL, one node, load average ${loadAverage().join(' ')}: preview ${preview.seconds.toFixed(2)} s, import ${imported.seconds.toFixed(2)} s (target: under 30 s)`);
    printResult('people_import', imported.seconds, 's', 30, true);
  });
}

main().catch((error) => { console.error(error); process.exit(1); });

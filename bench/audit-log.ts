// npm run bench:audit-log — issue 20's audit list at a million entries, on PostgreSQL: GET
// /api/audit-log for the admin with each filter (none, resource, record, person, a week, a
// resource over a month, a deep page) and the CSV export of one record, at 4 concurrent connections
// after a warm-up. The list counts at most 10,001 matching entries (AUDIT_COUNT_CAP), so no filter
// reads the whole table. A fresh database is created and dropped here (BENCH_DATABASE_URL names the
// server; BENCH_KEEP=1 keeps it to EXPLAIN queries). Method and results: docs/benchmarks.md "Audit log".
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { type Measured, measure, printTable } from './measure';
import { withServedDatabase } from './served';

const CONNECTIONS = 4;
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 6);

const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number);
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

async function main() {
  await withServedDatabase<{ port: number; token: string; seconds: number; vacuumed: number }>('bench_audit', new URL('./audit-log.server.ts', import.meta.url), async (served) => {
    console.log(`seeded in ${served.seconds.toFixed(0)} s, vacuum analyze ${served.vacuumed.toFixed(0)} s`);
    const base = `http://127.0.0.1:${served.port}/api/audit-log`;
    const headers = { authorization: `Bearer ${served.token}` };
    const targets: [string, string][] = [
      ['no filter, page 1', ''],
      ['no filter, page 400 (the last the cap pages)', 'page=400&per_page=25'],
      ['resource (100,000 entries)', 'resource=expense'],
      ['resource + record (5 entries)', 'resource=expense&record_id=1234'],
      ['person (2,000 entries)', 'actor_id=100'],
      ['one week (19,000 entries)', `created_at_from=${day(14)}&created_at_to=${day(8)}`],
      ['resource over a month (8,000 entries)', `resource=candidate&created_at_from=${day(60)}&created_at_to=${day(31)}`],
      ['person + action + a month (164 entries)', `actor_id=100&action=transition&created_at_from=${day(120)}&created_at_to=${day(91)}`],
      ['CSV export of one record', 'export:resource=expense&record_id=1234'],
    ];
    const results: Measured[] = [];
    for (const [label, query] of targets) {
      const target = query.startsWith('export:') ? `${base}/export?${query.slice(7)}` : `${base}?${query}`;
      const answer = await fetch(target, { headers });
      const text = await answer.text();
      if (answer.status !== 200) throw new Error(`${label}: ${answer.status} ${text.slice(0, 300)}`);
      const total = query.startsWith('export:') ? `${text.trim().split('\r\n').length - 1} rows` : `total ${(JSON.parse(text) as { meta: { total: number; is_total_capped: boolean } }).meta.total}${(JSON.parse(text) as { meta: { is_total_capped: boolean } }).meta.is_total_capped ? ' (capped)' : ''}`;
      console.log(`${label}: ${total}`);
      await autocannon({ url: target, connections: CONNECTIONS, duration: 2, headers });
      results.push(await measure(`${label}`, { connections: CONNECTIONS, duration: DURATION_SECONDS, url: target, headers }));
    }
    console.log(`\n${CONNECTIONS} connections, ${DURATION_SECONDS} s each, PostgreSQL, one node, load average ${loadAverage().join(' ')}\n`);
    printTable(results);
  });
}

main().catch((error) => { console.error(error); process.exit(1); });

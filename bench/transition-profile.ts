// node --import tsx bench/transition-profile.ts — where a time-sheet approval's time goes (issue 27,
// third step). On a fresh database seeded as bench/transition.server.ts seeds it (BENCH_SHEETS, 2,000
// here; BENCH_KEEP=1 keeps it), the real app approves N (200) sheets one after another through `inject`
// (no sockets), and every statement sent through `pg` is recorded. Printed: the Node process's and
// PostgreSQL's CPU per approval, the statements per approval with their text's size and client-side
// time, each statement's server time and buffers by EXPLAIN (ANALYZE, BUFFERS) inside a rolled-back
// transaction, then the backend's CPU per execution of each, unnamed and named (R times each). The
// shared part: bench/profile.ts.
import { cpuSeconds, createDatabase } from './served';
import { bootApp, explainEach, ownClient, perRequest, printExplained, printPerRequest, requester } from './profile';
import { seedTransitionBench } from './transition.server';

const N = Number(process.env.N ?? 200);
const R = Number(process.env.R ?? 300);
const database = await createDatabase('bench_transition_profile');
try {
  // Responses checked against their schemas, as this profile has always measured.
  const app = await bootApp(database.url, { checkResponses: true });
  const { token, firstId } = await seedTransitionBench(app, Number(process.env.BENCH_SHEETS ?? 2_000));
  const call = requester(app, token);
  let next = firstId;
  const approve = () => call('POST', `/api/time-sheet/${next++}/transitions/approve`, {});
  for (let i = 0; i < 50; i++) await approve();
  const client = await ownClient(database.url);
  printPerRequest('approval', await perRequest(client, N, approve), N);
  // On a sheet still pending: each statement's own server time and buffers, rolled back.
  const explained = await explainEach(client);
  printExplained(explained);
  // The server's CPU per statement (its backend's, from /proc), sent parsed and planned each time and
  // as a named statement (parsed once per connection, its plan cached), each in a rolled-back transaction.
  const backend = (await client.query('select pg_backend_pid() as pid')).rows[0].pid as number;
  for (const { text, values } of explained) {
    const cost = async (isNamed: boolean) => {
      await client.query('begin');
      const before = cpuSeconds(backend);
      for (let i = 0; i < R; i++) await client.query({ ...(isNamed ? { name: `profile_${text.length}` } : {}), text, values });
      const used = cpuSeconds(backend) - before;
      await client.query('rollback');
      return ((used / R) * 1e3).toFixed(3);
    };
    console.log(`backend CPU per execution: unnamed ${await cost(false)} ms, named ${await cost(true)} ms: ${text.replace(/\s+/g, ' ').slice(0, 80)}`);
  }
  await client.end();
  await app.close();
} finally {
  await database.drop();
}

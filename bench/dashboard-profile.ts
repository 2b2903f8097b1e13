// node --import tsx bench/dashboard-profile.ts <database url> — where a dashboard request's time goes
// (issue 27). Against a database seeded by `BENCH_KEEP=1 npm run bench:dashboard` (kept), the real app
// (migrations applied) answers GET /api/dashboard for the admin N (5) times one after another; every
// statement sent through `pg` is timed from the client's side. Printed: the wall time and the Node
// process's CPU time per request, the PostgreSQL backends' CPU time per request (/proc, when the server
// is local), the statements per request, then each distinct statement's server execution time by
// EXPLAIN ANALYZE (run one at a time afterwards, so it is the statement's own time without queueing)
// and their sum. PLANS=<n> prints the plans of the n slowest. The shared part: bench/profile.ts.
import { ADMIN } from '../tests/helpers/app';
import { bootApp, explainEach, logIn, ownClient, perRequest, printExplained, printPerRequest, requester } from './profile';

const [databaseUrl] = process.argv.slice(2);
const N = Number(process.env.N ?? 5);
const app = await bootApp(databaseUrl);
const call = requester(app, await logIn(app, '/api/login', ADMIN));
const dashboard = () => call('GET', '/api/dashboard');
for (let i = 0; i < 3; i++) await dashboard();
const admin = await ownClient(databaseUrl);
printPerRequest('request', await perRequest(admin, N, dashboard), N);
printExplained(await explainEach(admin));
await admin.end();
await app.close();

// node --import tsx bench/list-profile.ts <database url> [people|partner] — where a list request's time
// goes (issue 27, fourth step). On a database a list benchmark kept (BENCH_KEEP=1 npm run bench:api or
// bench:partner-invoices), the real app answers N (500) list requests (LIST_PATH, or the kind's) one
// after another through `inject` (no sockets), and every statement sent through `pg` is recorded.
// Printed: the Node process's and PostgreSQL's CPU per request, the statements per request, then each
// statement's server time and buffers by EXPLAIN (ANALYZE, BUFFERS) (PLANS=<n> prints the plans of the
// n slowest). Add --cpu-prof to node's options for a profile of the Node side. The shared part:
// bench/profile.ts.
import { ADMIN } from '../tests/helpers/app';
import { bootApp, explainEach, logIn, ownClient, perRequest, printExplained, printPerRequest, requester } from './profile';

const [databaseUrl, kind = 'people'] = process.argv.slice(2);
const N = Number(process.env.N ?? 500);
const KINDS = {
  people: { path: '/api/user?search=priya%20patel&sort=email&direction=asc&per_page=25', login: '/api/login', as: ADMIN },
  partner: { path: '/api/partner/invoice', login: '/api/partner/login', as: { email: 'login@bench.test', password: 'bench-password' } },
} as const;
const { path: kindsPath, login, as } = KINDS[kind as keyof typeof KINDS];
const path = process.env.LIST_PATH ?? kindsPath;

const app = await bootApp(databaseUrl);
const call = requester(app, await logIn(app, login, as));
const list = () => call('GET', path);
for (let i = 0; i < 100; i++) await list();
const admin = await ownClient(databaseUrl);
console.log(path);
printPerRequest('request', await perRequest(admin, N, list), N);
printExplained(await explainEach(admin));
await admin.end();
await app.close();

import { readdirSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// unit: pure rules and client components; api: the server on the embedded database (and on
// PostgreSQL when TEST_DATABASE_URL is set); e2e: the production build in Chromium.
const dateTests = ['tests/unit/dates.test.ts', 'tests/unit/client-dates.test.tsx'];

/** The test files of these folders that vi.mock a module (read here, so that a new one is found by itself). */
const mockingIn = (dirs: string[]) => dirs
  .flatMap((dir) => readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => /\.test\.tsx?$/.test(name)).map((name) => `${dir}/${name}`))
  .filter((file) => readFileSync(file, 'utf8').includes('vi.mock('));
const mocking = mockingIn(['tests/api', 'tests/realtime']);
const unitMocking = mockingIn(['tests/unit']);

/**
 * Which database an API file runs on (decision 039, point 7). With a PostgreSQL server for the run
 * (TEST_DATABASE_URL, as in CI) every API file runs there: the same SQL costs it about 2.5 times less
 * CPU than the embedded database, PostgreSQL compiled to WebAssembly and run in the test's process. The
 * embedded database runs again the files that say why with a line `// On the embedded database too: …`
 * (its driver's types through the route and CRUD walks, money and dates, a new installation, its
 * backups, jobs and session cache on one node), and alone the files that say `// The embedded database
 * only: …`. Without a PostgreSQL server, everything runs on the embedded one; BOTH_DATABASES=1 runs every
 * API file on both.
 */
const testFiles = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.test.ts')).map((name) => `${dir}/${name}`);
const says = (file: string, line: string) => readFileSync(file, 'utf8').includes(line);
const EMBEDDED_TOO = '// On the embedded database too: ';
const EMBEDDED_ONLY = '// The embedded database only: ';
const apiFiles = testFiles('tests/api');
const withPostgres = !!process.env.TEST_DATABASE_URL;
const onEmbedded = withPostgres && !process.env.BOTH_DATABASES
  ? apiFiles.filter((file) => says(file, EMBEDDED_TOO) || says(file, EMBEDDED_ONLY))
  : apiFiles;
const onPostgres = withPostgres ? apiFiles.filter((file) => !says(file, EMBEDDED_ONLY)) : [];

/** The API files of these folders on one database: sharing modules, and the mocking ones (if any) isolated. */
function apiProjects(name: string, files: string[], env: Record<string, string>, setupFiles: string[] = []) {
  const shared = { environment: 'node', testTimeout: 60_000, hookTimeout: 120_000, env, setupFiles };
  const own = mocking.filter((file) => files.some((pattern) => pattern === file || file.startsWith(`${pattern.split('/**')[0]}/`)));
  return [
    { test: { name, include: files, exclude: own, isolate: false, ...shared } },
    ...(own.length ? [{ test: { name: `${name}-mocking`, include: own, ...shared } }] : []),
  ];
}

const projects = [
  // isolate: false, as the API files: a worker imports jsdom, React and the client once and runs one unit
  // file after another, instead of importing them again for each file (docs/testing.md). A file that
  // vi.mocks a module goes by itself into unit-mocking, isolated.
  // testTimeout 15 s: a client test's finders wait up to 5 s each for a lazily fetched screen
  // (fresh-page-setup.ts), which on a loaded machine adds up past vitest's 5 s default.
  { test: { name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}'], exclude: unitMocking, isolate: false, testTimeout: 15_000, provide: { sharesModules: true }, environment: 'node', setupFiles: ['tests/unit/fresh-page-setup.ts'] } },
  { test: { name: 'unit-mocking', include: unitMocking, testTimeout: 15_000, environment: 'node', setupFiles: ['tests/unit/fresh-page-setup.ts'] } },
  // The date tests again with the machine west and east of UTC (issue 21): a calendar date must read
  // the same in every zone. Only those files, so the two runs add a few seconds.
  ...[['unit-la', 'America/Los_Angeles'], ['unit-auckland', 'Pacific/Auckland']].map(([name, zone]) => (
    { test: { name, include: dateTests, environment: 'node', env: { TZ: zone } } })),
  // isolate: false: a worker runs one API file after another in the same process, so the server's
  // modules are imported once per worker rather than once per file (about 2 s of CPU a file). Each
  // suite still has its own app and database; the files restore the timers and spies they change.
  // A file that vi.mocks a module would change it for the files after it, so such files run isolated.
  ...apiProjects('api', [...onEmbedded, 'tests/realtime/**/*.test.ts'], {}),
  // On PostgreSQL a test fails when queries are sent at once on one connection (node-postgres's deprecation).
  ...(onPostgres.length ? apiProjects('api-postgres', onPostgres, { TEST_DB: 'postgres' }, ['tests/api/one-query-at-a-time-setup.ts']) : []),
  // Each journey has its own server, database and browser, so two run side by side (docs/testing.md).
  // isolate: false: a worker imports the server and playwright once, not once per journey (none mocks).
  { test: { name: 'e2e', include: ['tests/e2e/**/*.test.ts'], isolate: false, environment: 'node', testTimeout: 150_000 /* a whole journey */, hookTimeout: 180_000,
    // A page drawn late on a loaded machine: expect.poll's 1 s default failed a journey whose heading took focus later.
    expect: { poll: { timeout: 10_000 } }, globalSetup: ['tests/e2e/global-setup.ts'] } },
];

/**
 * Longest first, with at most two journeys at once. Each e2e journey drives its own Chromium; three at
 * once on two cores cost far more than the sum of their parts (a run ordered so took 852 s against
 * 624 s, docs/testing.md, seventh pass), while a journey beside API and unit files, which wait less
 * on the browser, does not. So the order is worked out by playing the run through: whenever a worker
 * would be free, it takes the longest journey left if fewer than two are running (and the client's
 * build is done), else the next other file: those go in runs of one project and environment, the
 * biggest runs first and the longest file first within each, so that a worker keeps its process from
 * one to the next; the run still ends on short files, not with one worker on a long file and the
 * others idle. Vitest's workers take the files in that order.
 *
 * A file's duration comes from vitest's cache of the last run here, else from tests/durations.json (a
 * whole run's durations, checked in for a clean clone such as CI's, which has no cache; `node
 * tests/durations.mjs` refreshes it), else a journey counts as a minute and any other file as long as
 * it is big.
 */
const checkedIn: Record<string, number> = JSON.parse(readFileSync(new URL('tests/durations.json', import.meta.url), 'utf8'));

/** Journeys running at once, at most. */
const JOURNEYS_AT_ONCE = 2;
/** About how long the client's build takes beside the other tests (tests/e2e/global-setup.ts); a journey waits for it. */
const BUILD_MS = 20_000;
const WORKERS = Number(process.env.TEST_WORKERS) || 3;

/**
 * Files a worker runs one after another in one process (vitest 4.1 keeps a worker only for a next file
 * of the same project and environment; docs/testing.md, seventh pass): a project, and the environment a
 * file asks for in its first lines.
 */
const runOf = (spec: TestSpecification) => `${spec.project.name} ${/@vitest-environment\s+(\S+)/.exec(readFileSync(spec.moduleId, 'utf8'))?.[1] ?? ''}`;

class LongestFirstFewJourneys extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache;
    const isJourney = (spec: TestSpecification) => spec.project.name === 'e2e';
    const estimate = (spec: TestSpecification) => {
      const key = `${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId)}`;
      const known = cache.getFileTestResults(key)?.duration ?? checkedIn[key];
      if (known !== undefined) return known;
      return isJourney(spec) ? 60_000 : cache.getFileStats(key)?.size ?? 0;
    };
    const weights = new Map(files.map((spec) => [spec, estimate(spec)]));
    const longestFirst = (specs: TestSpecification[]) => specs.sort((a, b) => weights.get(b)! - weights.get(a)!);
    const journeys = longestFirst(files.filter(isJourney));
    // The other files in runs a worker goes through without starting again (`runOf`), the biggest
    // runs first: vitest keeps a worker's process, its imports, only for a next file of the same run.
    const runs = new Map<string, TestSpecification[]>();
    for (const spec of files.filter((file) => !isJourney(file))) runs.set(runOf(spec), [...(runs.get(runOf(spec)) ?? []), spec]);
    const total = (run: TestSpecification[]) => run.reduce((sum, spec) => sum + weights.get(spec)!, 0);
    const others = [...runs.values()].sort((a, b) => total(b) - total(a)).flatMap(longestFirst);
    const buildDone = process.env.E2E_SKIP_BUILD === '1' ? 0 : BUILD_MS;
    const workers = Array.from({ length: WORKERS }, () => ({ freeAt: 0, onJourney: false }));
    const order: TestSpecification[] = [];
    while (journeys.length || others.length) {
      const worker = workers.reduce((first, next) => (next.freeAt < first.freeAt ? next : first));
      const now = worker.freeAt;
      const journeysRunning = workers.filter((other) => other !== worker && other.onJourney && other.freeAt > now).length;
      const takesJourney = journeys.length > 0 && (others.length === 0 || (journeysRunning < JOURNEYS_AT_ONCE && now >= buildDone));
      const next = (takesJourney ? journeys : others).shift()!;
      order.push(next);
      worker.freeAt = now + weights.get(next)!;
      worker.onJourney = isJourney(next);
    }
    return order;
  }
}

// Three workers on this two-core machine (vitest's default would be one): a file spends much of its
// time waiting on PostgreSQL, Chromium, SMTP and sockets, whose CPU is not the worker's. Two clean-clone
// runs of the same commit: vitest 629 s with two workers, 553 s with three (docs/testing.md).
// TEST_WORKERS sets another count.
export default defineConfig({
  test: { projects, pool: 'forks', maxWorkers: WORKERS, sequence: { sequencer: LongestFirstFewJourneys } },
});

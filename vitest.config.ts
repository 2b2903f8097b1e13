import { defineConfig } from 'vitest/config';

// unit: pure rules and client components; api: the server on the embedded database (and on
// PostgreSQL when TEST_DATABASE_URL is set); e2e: the production build in Chromium.
const dateTests = ['tests/unit/dates.test.ts', 'tests/unit/client-dates.test.tsx'];

const projects = [
  { test: { name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}'], environment: 'node' } },
  // The date tests again with the machine west and east of UTC (issue 21): a calendar date must read
  // the same in every zone. Only those files, so the two runs add a few seconds.
  ...[['unit-la', 'America/Los_Angeles'], ['unit-auckland', 'Pacific/Auckland']].map(([name, zone]) => (
    { test: { name, include: dateTests, environment: 'node', env: { TZ: zone } } })),
  { test: { name: 'api', include: ['tests/api/**/*.test.ts', 'tests/realtime/**/*.test.ts'], environment: 'node', testTimeout: 60_000, hookTimeout: 120_000 } },
  ...(process.env.TEST_DATABASE_URL
    ? [{ test: { name: 'api-postgres', include: ['tests/api/**/*.test.ts'], environment: 'node', testTimeout: 60_000, hookTimeout: 120_000, env: { TEST_DB: 'postgres' } } }]
    : []),
  { test: { name: 'e2e', include: ['tests/e2e/**/*.test.ts'], environment: 'node', testTimeout: 150_000 /* a whole journey */, hookTimeout: 180_000, fileParallelism: false, globalSetup: ['tests/e2e/global-setup.ts'] } },
];

// Two workers on this two-core machine (vitest's default would be one): an API test spends much of
// its time waiting on PostgreSQL, SMTP and sockets, so two files side by side keep both cores busy.
export default defineConfig({
  test: { projects, pool: 'forks', maxWorkers: 2 },
});

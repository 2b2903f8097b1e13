// Refreshes tests/durations.json from vitest's results cache after a whole run (`npx vitest run`), so
// that a clean clone (CI) orders the files longest first too (vitest.config.ts, docs/testing.md).
// Usage: node tests/durations.mjs
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const cacheRoot = 'node_modules/.vite/vitest';
const durations = {};
for (const folder of existsSync(cacheRoot) ? readdirSync(cacheRoot) : []) {
  const path = join(cacheRoot, folder, 'results.json');
  if (!existsSync(path)) continue;
  for (const [key, { duration }] of JSON.parse(readFileSync(path, 'utf8')).results) {
    // Files since renamed or removed are left out.
    if (existsSync(key.slice(key.indexOf(':') + 1))) durations[key] = Math.round(duration);
  }
}
const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync('tests/durations.json', `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`tests/durations.json: ${Object.keys(sorted).length} files`);

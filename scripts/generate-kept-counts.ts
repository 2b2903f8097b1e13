// Writes the SQL of the dashboard's kept counts (src/server/modules/dashboard/kept-counts.ts) into their
// migrations: 0030_dashboard_counts.sql (the counts, made with `npx drizzle-kit generate --custom --name
// dashboard_counts`) and 0042_dashboard_state_counts.sql (the per-state rollups beside them, made the same way).
// A later change of KEPT_COUNTS goes into a new custom migration (never an edit of these):
// `node --import tsx scripts/generate-kept-counts.ts` rewrites both from the declaration.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { keptCountsMigration, keptRollupsMigration } from '../src/server/modules/dashboard/kept-counts';

const migration = (file: string) => fileURLToPath(new URL(`../src/server/db/migrations/${file}`, import.meta.url));
for (const [file, text] of [['0030_dashboard_counts.sql', keptCountsMigration()], ['0042_dashboard_state_counts.sql', keptRollupsMigration()]] as const) {
  writeFileSync(migration(file), text);
  console.log(`Wrote ${migration(file)}`);
}

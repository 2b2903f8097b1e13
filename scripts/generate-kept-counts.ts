// Writes the SQL of the dashboard's kept counts (src/server/modules/dashboard/kept-counts.ts) into its
// migration, 0030_dashboard_counts.sql, made with `npx drizzle-kit generate --custom --name dashboard_counts`.
// A later change of KEPT_COUNTS goes into a new custom migration the same way (never an edit of this one):
// `node --import tsx scripts/generate-kept-counts.ts <new migration file>`.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { keptCountsMigration } from '../src/server/modules/dashboard/kept-counts';

const target = process.argv[2] ?? fileURLToPath(new URL('../src/server/db/migrations/0030_dashboard_counts.sql', import.meta.url));
writeFileSync(target, keptCountsMigration());
console.log(`Wrote ${target}`);

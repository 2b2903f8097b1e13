// Writes the SQL of the dashboard's kept counts (src/server/modules/dashboard/kept-counts.ts) into their
// migrations: 0030_dashboard_counts.sql (the counts, made with `npx drizzle-kit generate --custom --name
// dashboard_counts`), 0042_dashboard_state_counts.sql (the per-state rollups beside them, made the same way)
// and 0043_dashboard_invoice_totals.sql (the partner invoices' kept totals, kept-invoice-totals.ts).
// A later change of KEPT_COUNTS goes into a new custom migration (never an edit of these):
// `node --import tsx scripts/generate-kept-counts.ts` rewrites them from the declarations.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { keptCountsMigration, keptRollupsMigration } from '../src/server/modules/dashboard/kept-counts';
import { invoiceTotalsMigration } from '../src/server/modules/dashboard/kept-invoice-totals';

const migration = (file: string) => fileURLToPath(new URL(`../src/server/db/migrations/${file}`, import.meta.url));
for (const [file, text] of [
  ['0030_dashboard_counts.sql', keptCountsMigration()],
  ['0042_dashboard_state_counts.sql', keptRollupsMigration()],
  ['0043_dashboard_invoice_totals.sql', `${invoiceTotalsMigration()}\n`],
] as const) {
  writeFileSync(migration(file), text);
  console.log(`Wrote ${migration(file)}`);
}

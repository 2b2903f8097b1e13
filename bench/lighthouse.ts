// npm run bench:lighthouse — Lighthouse 12 (desktop preset) on the production build, with Debian's
// Chromium: the login page, then the dashboard signed in. Method and results: docs/benchmarks.md "PWA".
//
// The dashboard needs the auth state in IndexedDB. The browser is launched by playwright-core as a
// persistent profile with a remote debugging port: the admin logs in through the real form in that
// profile, then Lighthouse connects to the same browser (its default context, so the same IndexedDB)
// with disableStorageReset, and audits /dashboard.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from 'playwright-core';
import { CHROME_PATH, startServer } from './pwa-stack';

const PORT = Number(process.env.LIGHTHOUSE_DEBUG_PORT ?? 9333);
const CATEGORIES = ['performance', 'accessibility', 'best-practices'];

type Report = { categories: Record<string, { score: number | null }>; audits: Record<string, { score: number | null; title: string; scoreDisplayMode: string; displayValue?: string }> };

function summarise(name: string, lhr: Report & { runtimeError?: { code: string; message: string }; runWarnings?: string[] }) {
  if (lhr.runtimeError) console.log(`  runtime error: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  for (const warning of lhr.runWarnings ?? []) console.log(`  warning: ${warning}`);
  const scores = Object.fromEntries(CATEGORIES.map((id) => [id, Math.round((lhr.categories[id]?.score ?? 0) * 100)]));
  console.log(`${name}: performance ${scores.performance}, accessibility ${scores.accessibility}, best practices ${scores['best-practices']}`);
  for (const id of ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index']) {
    console.log(`  ${lhr.audits[id].title}: ${lhr.audits[id].displayValue}`);
  }
  const failing = Object.entries(lhr.audits).filter(([, audit]) => audit.score !== null && audit.score < 1 && ['binary', 'numeric'].includes(audit.scoreDisplayMode));
  for (const [id, audit] of failing) {
    console.log(`  below 1: ${id} (${audit.score}) ${audit.displayValue ?? ''}`);
    if (process.env.LIGHTHOUSE_DETAILS) console.log(JSON.stringify((audit as { details?: unknown }).details)?.slice(0, 1500));
  }
  return scores;
}

const { app, base } = await startServer();
const profile = mkdtempSync(join(tmpdir(), 'lighthouse-profile-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROME_PATH,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', `--remote-debugging-port=${PORT}`],
});
try {
  const flags = { port: PORT, output: 'json' as const, logLevel: 'error' as const, onlyCategories: CATEGORIES };
  // A cold browser's first audit sometimes reports no paint at all (score 0 with NO_FCP): warm up once.
  await lighthouse(`${base}/`, flags, desktopConfig);
  const login = await lighthouse(`${base}/`, flags, desktopConfig);
  const loginScores = summarise('Login page (/)', login!.lhr as unknown as Report);

  const page = context.pages()[0] ?? await context.newPage();
  await page.goto(`${base}/`);
  await page.getByLabel('Email').fill('admin@example.com');
  await page.locator('input[name="password"]').fill('password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/dashboard');
  await page.getByText('Your account').waitFor();
  await page.goto('about:blank');

  const dashboard = await lighthouse(`${base}/dashboard`, { ...flags, disableStorageReset: true }, desktopConfig);
  const dashboardScores = summarise('Dashboard (/dashboard, signed in)', dashboard!.lhr as unknown as Report);
  console.log(JSON.stringify({ login: loginScores, dashboard: dashboardScores }));
} finally {
  await context.close();
  await app.close();
  rmSync(profile, { recursive: true, force: true });
}

// npm run bench:lighthouse — Lighthouse 12 (desktop preset) on the production build, with Debian's
// Chromium: the login page, then the dashboard signed in. Method and results: docs/benchmarks.md "PWA".
//
// The dashboard needs the auth state in IndexedDB. The browser is launched by playwright-core as a
// persistent profile with a remote debugging port: the admin logs in through the real form in that
// profile, then Lighthouse connects to the same browser (its default context, so the same IndexedDB)
// with disableStorageReset, and audits /dashboard: on the fresh install, then after seeding a few
// hundred records in every list it reads (bench/dashboard-seed.ts), then as a plain user (the
// engineer's home). Each page LIGHTHOUSE_RUNS times (default 3); the medians are the result.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from 'playwright-core';
import { seedDashboard, seedEngineer } from './dashboard-seed';
import { CHROME_PATH, startServer } from './pwa-stack';

const PORT = Number(process.env.LIGHTHOUSE_DEBUG_PORT ?? 9333);
const CATEGORIES = ['performance', 'accessibility', 'best-practices'];

type Report = { categories: Record<string, { score: number | null }>; audits: Record<string, { score: number | null; title: string; scoreDisplayMode: string; displayValue?: string; numericValue?: number }> };

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

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const CLS_TARGET = 0.02;
type Scores = Record<string, number> & { cls: number };

/** RUNS audits of one page; prints each, returns the median of every figure (scores and layout shift). */
async function audit(name: string, url: string, flags: object): Promise<Scores> {
  const runs: Scores[] = [];
  for (let run = 1; run <= RUNS; run += 1) {
    const result = await lighthouse(url, flags, desktopConfig);
    const lhr = result!.lhr as unknown as Report;
    runs.push({ ...summarise(`${name}, run ${run} of ${RUNS}`, lhr), cls: lhr.audits['cumulative-layout-shift'].numericValue ?? 0 });
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const scores = Object.fromEntries(Object.keys(runs[0]).map((key) => [key, median(runs.map((run) => run[key]))])) as Scores;
  console.log(`${name}, median of ${RUNS}: performance ${scores.performance}, accessibility ${scores.accessibility}, best practices ${scores['best-practices']}, CLS ${scores.cls.toFixed(3)}`);
  return scores;
}

const { app, base } = await startServer();
const profile = mkdtempSync(join(tmpdir(), 'lighthouse-profile-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROME_PATH,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', `--remote-debugging-port=${PORT}`],
});

/** Signs in through the real form in the audited profile (auth lives in IndexedDB), after signing out whoever was. */
async function signIn(email: string, password: string) {
  const page = context.pages()[0] ?? await context.newPage();
  // On a file of the origin rather than the app, so no connection of the app holds the database open.
  await page.goto(`${base}/manifest.webmanifest`);
  await page.evaluate(() => new Promise((done) => { localStorage.clear(); const request = indexedDB.deleteDatabase('keyval-store'); request.onsuccess = request.onerror = request.onblocked = done; }));
  await page.goto(`${base}/`);
  await page.getByLabel('Email').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/dashboard');
  await page.getByText('Your account').waitFor();
  await page.goto('about:blank');
}

try {
  const flags = { port: PORT, output: 'json' as const, logLevel: 'error' as const, onlyCategories: CATEGORIES };
  // A cold browser's first audit sometimes reports no paint at all (score 0 with NO_FCP): warm up once.
  await lighthouse(`${base}/`, flags, desktopConfig);
  const results: Record<string, Scores> = {};
  results.login = await audit('Login page (/)', `${base}/`, flags);

  // The dashboard of a fresh install (the setup checklist, empty panels), then of one with data.
  const signedIn = { ...flags, disableStorageReset: true };
  await signIn('admin@example.com', 'password');
  results.dashboardEmpty = await audit('Dashboard, empty install (admin)', `${base}/dashboard`, signedIn);
  await seedDashboard(app, Number(process.env.LIGHTHOUSE_ROWS ?? 300));
  const engineer = await seedEngineer(app);
  results.dashboardData = await audit('Dashboard, with data (admin)', `${base}/dashboard`, signedIn);
  // A plain user's dashboard is the engineer's home (issue 28): their leave, requests and documents.
  await signIn(engineer, 'password');
  results.engineerHome = await audit('Dashboard, with data (engineer)', `${base}/dashboard`, signedIn);
  console.log(JSON.stringify(results));
  const dashboards = [results.dashboardEmpty, results.dashboardData, results.engineerHome];
  const worstShift = Math.max(...dashboards.map((scores) => scores.cls));
  const isMet = worstShift < CLS_TARGET && dashboards.every((scores) => CATEGORIES.every((id) => scores[id] === 100)) && results.login.performance >= 99;
  console.log(`RESULT lighthouse-dashboard-cls value=${worstShift.toFixed(3)} unit=score target=${CLS_TARGET} met=${isMet ? 'yes' : 'no'}`);
} finally {
  await context.close();
  await app.close();
  rmSync(profile, { recursive: true, force: true });
}

// npm run bench:bundle — the JavaScript the login screen loads (gzip), as Chromium fetches it from the
// production build, and the service worker's precache size. Method and results: docs/benchmarks.md "PWA".
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROME_PATH, startServer } from './pwa-stack';

const TARGET_KB = 110;
const gz = (bytes: Buffer | string) => gzipSync(bytes, { level: 9 }).length;
const kb = (bytes: number) => (bytes / 1024).toFixed(1);

const { app, base } = await startServer();
const browser = await chromium.launch({ executablePath: CHROME_PATH, args: ['--no-sandbox', '--disable-gpu'] });
try {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  const scripts: Array<{ path: string; raw: number; gzip: number; afterLoad: boolean }> = [];
  let loaded = false;
  page.on('load', () => { loaded = true; });
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    const afterLoad = loaded;
    const body = await response.body();
    scripts.push({ path: new URL(response.url()).pathname, raw: body.length, gzip: gz(body), afterLoad });
  });
  await page.goto(`${base}/`);
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500);

  const sum = (list: typeof scripts) => list.reduce((total, script) => total + script.gzip, 0);
  const critical = scripts.filter((script) => !script.afterLoad);
  const deferred = scripts.filter((script) => script.afterLoad);
  console.log('Login screen (/) scripts, gzip level 9:');
  for (const script of [...scripts].sort((a, b) => b.gzip - a.gzip)) {
    console.log(`  ${script.path.padEnd(52)} ${kb(script.raw).padStart(7)} KB raw  ${kb(script.gzip).padStart(6)} KB gzip${script.afterLoad ? '  (after load)' : ''}`);
  }
  console.log(`Before the load event: ${kb(sum(critical))} KB gzip in ${critical.length} files`);
  console.log(`After it (the login screen's own chunks, service worker registration): ${kb(sum(deferred))} KB gzip in ${deferred.length} files`);
  console.log(`Total JS loaded by the login screen: ${kb(sum(scripts))} KB gzip (target <= ${TARGET_KB} KB) ${sum(scripts) / 1024 <= TARGET_KB ? 'OK' : 'OVER'}`);

  // The precache list is injected into dist/sw.js as {url, revision} entries.
  const sw = readFileSync('dist/sw.js', 'utf8');
  const urls = [...sw.matchAll(/"url":"([^"]+)"/g)].map((match) => match[1]);
  let raw = 0;
  let zipped = 0;
  for (const url of urls) {
    const file = join('dist', url);
    raw += statSync(file).size;
    zipped += gz(readFileSync(file));
  }
  console.log(`Precache: ${urls.length} files, ${kb(raw)} KB raw, ${kb(zipped)} KB gzip; sw.js ${kb(statSync('dist/sw.js').size)} KB raw, ${kb(gz(sw))} KB gzip`);
} finally {
  await browser.close();
  await app.close();
}

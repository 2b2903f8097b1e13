import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { subscribe } from 'valtio';
import type { AccountType } from '../shared/routes';
import { ACCOUNT_TYPES, auth, hydrateAuth } from './stores/auth';
import { refreshFirm } from './stores/firm';
import { watchConnectivity } from './stores/pwa';
import { applyTheme, ui } from './stores/ui';
import './styles.css';

// zod compiles object schemas with `new Function` when it may; its probe for that, caught or not, is a
// violation of our Content-Security-Policy (no 'unsafe-eval') that the browser reports as an error and
// Lighthouse counts against best practices. `z.config({ jitless: true })` writes into this global object,
// which zod creates only when absent; set here, before zod loads, it costs the login screen no zod.
(globalThis as { __zod_globalConfig?: { jitless?: boolean } }).__zod_globalConfig = { jitless: true };

applyTheme(ui.theme);
watchConnectivity();

/** Issue 5: the service worker and the outbox load after the page, off the login screen's critical path. */
function afterLoad(run: () => void) {
  if (document.readyState === 'complete') run();
  else window.addEventListener('load', run, { once: true });
}

/**
 * The outbox sends what a signed-in person queued, with their token, and pushed notifications are
 * opened in a signed-in window: both load once someone is signed in, so the login screen does not
 * download them (bench:bundle's budget).
 */
function startOnceSignedIn() {
  const isSignedIn = () => ACCOUNT_TYPES.some((account) => !!auth[account].token);
  const start = () => {
    if (!isSignedIn()) return;
    stop();
    void import('./lib/outbox').then((module) => module.startOutbox());
    void import('./lib/push-messages').then((module) => module.listenToPushMessages());
  };
  const stops = ACCOUNT_TYPES.map((account) => subscribe(auth[account], start));
  const stop = () => stops.forEach((unsubscribe) => unsubscribe());
  start();
}

/**
 * Decision 045: each new session here (a sign-in of either kind, or the app opening signed in) takes up
 * this browser's push subscription if the same login turned it on, and ends it if another login did.
 */
function resumePushOnEachSession() {
  const seen: Partial<Record<AccountType, string | null>> = {};
  const check = () => {
    for (const account of ACCOUNT_TYPES) {
      const { token } = auth[account];
      if (token === seen[account]) continue;
      seen[account] = token;
      if (token) void import('./lib/push-resume').then((module) => module.resumePush(account)).catch(() => undefined);
    }
  };
  ACCOUNT_TYPES.forEach((account) => subscribe(auth[account], check));
  check();
}

// spec §4 / issue: the auth state is read from IndexedDB before the first route decision.
hydrateAuth().finally(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
  afterLoad(() => {
    void import('./lib/pwa').then((module) => module.registerServiceWorker());
    startOnceSignedIn();
    resumePushOnEachSession();
    void refreshFirm();
  });
});

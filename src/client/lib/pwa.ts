// Service worker registration and the update flow (issue 5), loaded lazily after the first paint.
// A new version installs in the background and waits; the user sees "reload to update" and the swap
// happens only when they click it (skipWaiting on request, then one reload), never under a half-filled form.
import { Workbox } from 'workbox-window';
import { ACCOUNT_TYPES, auth } from '../stores/auth';
import { pwa } from '../stores/pwa';

let workbox: Workbox | null = null;

const canUseServiceWorker = () => typeof navigator !== 'undefined' && 'serviceWorker' in navigator && !import.meta.env.DEV;

/** Posts to the active service worker, whether or not it controls this page yet. */
async function postToWorker(message: unknown): Promise<void> {
  if (!canUseServiceWorker()) return;
  try {
    const registration = await navigator.serviceWorker.getRegistration('/');
    (registration?.active ?? navigator.serviceWorker.controller)?.postMessage(message);
  } catch (error) {
    console.error('Could not message the service worker', error);
  }
}

/** The tokens of the signed-in account types: the worker drops every other account's cached answers. */
export function syncCachedAccounts(): Promise<void> {
  const tokens = ACCOUNT_TYPES.map((account) => auth[account].token).filter((token): token is string => !!token);
  return postToWorker({ type: 'KEEP_ACCOUNTS', tokens });
}

/** Logout: the cached API answers of that session are deleted. */
export function forgetCachedAccount(token: string | null): Promise<void> {
  return postToWorker({ type: 'FORGET_ACCOUNT', token });
}

export async function registerServiceWorker(): Promise<void> {
  if (!canUseServiceWorker() || workbox) return;
  workbox = new Workbox('/sw.js', { scope: '/' });
  // 'waiting' fires for an update found now and for one that was already waiting when the page opened.
  workbox.addEventListener('waiting', () => { pwa.updateReady = true; });
  try {
    await workbox.register();
    await syncCachedAccounts();
  } catch (error) {
    console.error('Service worker registration failed', error);
  }
}

/** The "Reload" button: activate the waiting worker, then reload once it controls the page. */
export function applyUpdate(): void {
  if (!workbox) {
    window.location.reload();
    return;
  }
  workbox.addEventListener('controlling', () => window.location.reload());
  workbox.messageSkipWaiting();
}

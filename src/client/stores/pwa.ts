// Connectivity and app-version state (issue 5), small enough for the login screen's bundle: the
// service worker registration itself (workbox-window) is loaded lazily by lib/pwa.ts.
import { proxy } from 'valtio';

export const pwa = proxy({
  /** navigator.onLine, and false after a request got no response, until one gets an answer again. */
  online: typeof navigator === 'undefined' ? true : navigator.onLine !== false,
  /** A new service worker is installed and waiting for the user to reload. */
  updateReady: false,
});

/** A request got no response at all (fetch rejected): offline or the server is unreachable. */
export function reportNoResponse() {
  pwa.online = false;
}

/** A request got an answer from the network (not from the service worker's cache). */
export function reportResponse() {
  if (!pwa.online && (typeof navigator === 'undefined' || navigator.onLine !== false)) pwa.online = true;
}

let watching = false;
/** Follows the browser's online/offline events (once per page). */
export function watchConnectivity() {
  if (watching || typeof window === 'undefined') return;
  watching = true;
  window.addEventListener('online', () => { pwa.online = true; });
  window.addEventListener('offline', () => { pwa.online = false; });
}

// Issue 29: this browser's Web Push subscription. The permission prompt appears only when the person
// asks for notifications on this device (the profile's button); the subscription is made with the
// server's VAPID key and handed to the server, which pushes from its job queue.
import type { AccountType } from '../../shared/routes';
import type { PushDevice } from '../../shared/schemas/push';
import { api } from './api';

/** Whether this browser can receive pushes at all (a service worker, the Push API and notifications). */
export function isPushSupported(): boolean {
  return typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/** What the browser says about notifications for this site: 'default' (not asked yet), 'granted' or 'denied'. */
export const notificationPermission = (): NotificationPermission => (isPushSupported() ? Notification.permission : 'denied');

async function registration(): Promise<ServiceWorkerRegistration> {
  // The app registers its worker after the first paint; wait for it rather than register a second time.
  return navigator.serviceWorker.ready;
}

/** This browser's current subscription, if it has one (none while no service worker is ready: dev mode, or it failed). */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!isPushSupported()) return null;
  const worker = await navigator.serviceWorker.getRegistration('/');
  return worker ? worker.pushManager.getSubscription() : null;
}

/** The first 16 hex digits of the endpoint's SHA-256, as the server lists devices by. */
export async function endpointHash(endpoint: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(endpoint));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('').slice(0, 16);
}

export class PushRefused extends Error {}

/**
 * Asks the browser (its permission prompt, if it has not been answered), subscribes with the server's key
 * and registers the subscription for the signed-in account. Resolves with the saved device and the server's sentence.
 */
export async function turnOnPush(account: AccountType): Promise<{ data: PushDevice; message: string }> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') {
    throw new PushRefused(permission === 'denied'
      ? 'Your browser blocks notifications from this site. Allow them in its site settings, then try again.'
      : 'Notifications stay off: the browser was not given permission.');
  }
  const { data } = await api.get<{ data: { public_key: string } }>('/push/key', { account, silent: true });
  const worker = await registration();
  let subscription = await worker.pushManager.getSubscription();
  // A subscription made with another key (a new installation of the server) cannot be used: start again.
  const key = Uint8Array.from(atob(data.public_key.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
  const existingKey = subscription?.options.applicationServerKey;
  if (subscription && existingKey && !sameBytes(new Uint8Array(existingKey), key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await worker.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  return api.post<{ data: PushDevice; message: string }>('/push/subscriptions', subscription.toJSON(), { account, silent: true });
}

/** Removes a device from the account's list; when it is this browser, its subscription ends too. */
export async function removePushDevice(account: AccountType, device: PushDevice, isThisDevice: boolean): Promise<string> {
  const answer = await api.delete<{ message: string }>(`/push/subscriptions/${device.id}`, { account, silent: true });
  if (isThisDevice) {
    // The browser stops receiving pushes for this site (another account signed in here opts in again).
    const subscription = await currentSubscription();
    if (subscription) await subscription.unsubscribe().catch(() => false);
  }
  return answer.message;
}

/** How long a sign-out waits for the server to forget this device. */
const SIGN_OUT_WAIT_MS = 5_000;

/**
 * Signing out on this device stops its pushes for that account (decision 045), before the logout call
 * while the token still works: the account's entry for this browser is removed (the server drops it with
 * the session too, but not one made before sessions were tied to it), and the browser's subscription ends
 * unless another account type is still signed in here and may be using it.
 */
export async function stopPushOnSignOut(account: AccountType, isOtherSignedIn: boolean): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  try {
    const hash = await endpointHash(subscription.endpoint);
    // A slow network does not hold the sign-out up for long: the server drops the entry with the session anyway.
    const signal = AbortSignal.timeout(SIGN_OUT_WAIT_MS);
    const { data } = await api.get<{ data: PushDevice[] }>('/push/subscriptions', { account, silent: true, signal });
    const device = data.find((entry) => entry.endpoint_hash === hash);
    if (device) await api.delete(`/push/subscriptions/${device.id}`, { account, silent: true, signal });
  } finally {
    // Offline or not, the browser stops taking pushes for this site (its push service answers 410 from then on).
    if (!isOtherSignedIn) await subscription.unsubscribe();
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, index) => byte === b[index]);
}

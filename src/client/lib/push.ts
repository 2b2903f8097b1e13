// Issue 29: this browser's Web Push subscription. The permission prompt appears only when the person
// asks for notifications on this device (the profile's button); the subscription is made with the
// server's VAPID key and handed to the server, which pushes from its job queue.
import type { AccountType } from '../../shared/routes';
import type { PushDevice } from '../../shared/schemas/push';
import { ACCOUNT_TYPES, auth } from '../stores/auth';
import { api, isApiError } from './api';
import { digest16, forgetOwner, recordOwner, writeOwners } from './push-owner';

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
export const endpointHash = (endpoint: string): Promise<string> => digest16(endpoint);

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
  return subscribeAndRegister(account);
}

/**
 * With permission given: subscribes this browser (or reuses its subscription) and registers it for the
 * signed-in login and session, which this browser then remembers as its owner for that account type.
 */
export async function subscribeAndRegister(account: AccountType): Promise<{ data: PushDevice; message: string }> {
  const { data } = await api.get<{ data: { public_key: string } }>('/push/key', { account, silent: true });
  const worker = await registration();
  const key = Uint8Array.from(atob(data.public_key.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
  let subscription = await worker.pushManager.getSubscription();
  // A subscription made with another key (a new installation of the server) cannot be used: start again.
  const existingKey = subscription?.options.applicationServerKey;
  if (subscription && existingKey && !sameBytes(new Uint8Array(existingKey), key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  const isFresh = !subscription;
  subscription ??= await worker.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  const register = (made: PushSubscription) => api.post<{ data: PushDevice; message: string }>('/push/subscriptions', made.toJSON(), { account, silent: true });
  let answer: { data: PushDevice; message: string };
  try {
    answer = await register(subscription);
  } catch (error) {
    // Another login of this kind registered this subscription (decision 045): this browser subscribes
    // afresh, which ends the old one at the push service, and registers the new one.
    if (isFresh || !isApiError(error) || error.status !== 409 || error.code) throw error;
    await subscription.unsubscribe();
    answer = await register(await worker.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }));
  }
  const { token, user } = auth[account];
  if (token && user) await recordOwner(account, user.id, token);
  return answer;
}

/** Removes a device from the account's list; when it is this browser, its subscription ends too. */
export async function removePushDevice(account: AccountType, device: PushDevice, isThisDevice: boolean): Promise<string> {
  const answer = await api.delete<{ message: string }>(`/push/subscriptions/${device.id}`, { account, silent: true });
  if (isThisDevice) await stopPushHere(account);
  return answer.message;
}

/**
 * This login's notifications stop reaching this browser (turned off here, or signing out: decision 045).
 * The server drops the entry (signing out, with the session). Here the browser's subscription ends, so
 * the push service forgets it too, unless the other account type (staff or partner) is still signed in
 * here and may be using it; either way the browser no longer counts this login as its owner.
 */
export async function stopPushHere(account: AccountType): Promise<void> {
  if (ACCOUNT_TYPES.some((other) => other !== account && !!auth[other].token)) {
    await forgetOwner(account);
    return;
  }
  const subscription = await currentSubscription();
  // Offline or not, the browser stops taking pushes for this site (its push service answers 410 from then on).
  if (subscription) await subscription.unsubscribe().catch(() => false);
  await writeOwners({});
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, index) => byte === b[index]);
}

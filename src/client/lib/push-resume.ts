// Decision 045: a session ending drops this browser's entry on the server, but not the browser's push
// subscription. When a new session starts here (a sign-in, or the app opening signed in), the
// subscription is taken up again if the same login turned it on, and ended if another login of the same
// kind did: a person never gets someone else's notifications, and never has to turn theirs on again.
import type { AccountType } from '../../shared/routes';
import type { PushDevice } from '../../shared/schemas/push';
import { ACCOUNT_TYPES, auth } from '../stores/auth';
import { api } from './api';
import { currentSubscription, endpointHash, isPushSupported, subscribeAndRegister } from './push';
import { digest16, type PushOwners, readOwners, recordOwner, writeOwners } from './push-owner';

/** Takes up, or ends, this browser's push subscription for the login now signed in as `account`. */
export async function resumePush(account: AccountType): Promise<void> {
  const { token, user } = auth[account];
  if (!token || !user || !isPushSupported()) return;
  const [subscription, owners] = await Promise.all([currentSubscription(), readOwners()]);
  if (!subscription) {
    // Ended meanwhile (site data cleared, permission withdrawn): nobody receives anything here.
    if (Object.keys(owners).length) await writeOwners({});
    return;
  }
  const owner = owners[account];
  if (!owner) {
    if (!Object.keys(owners).length) await adopt(account, subscription, user.id, token);
    return;
  }
  if (owner.id !== user.id) {
    await endForAnotherLogin(account, subscription, owners);
    return;
  }
  // The same login: registered again when the session is new (the permission may have been withdrawn since).
  if (owner.session !== await digest16(token) && Notification.permission === 'granted') await subscribeAndRegister(account);
}

/**
 * Another login of this kind turned notifications on here: the subscription ends, so theirs stop reaching
 * this browser. The other kind's login, if it shared it and is still signed in here, gets a fresh one.
 */
async function endForAnotherLogin(account: AccountType, subscription: PushSubscription, owners: PushOwners): Promise<void> {
  await subscription.unsubscribe().catch(() => false);
  await writeOwners({});
  const stillHere = ACCOUNT_TYPES.filter((other) => other !== account && owners[other] && owners[other].id === auth[other].user?.id && !!auth[other].token);
  for (const other of stillHere) await subscribeAndRegister(other);
}

/**
 * A subscription from before this browser kept the record: it is this login's if the server lists it as
 * one of this login's devices, and from then on it is taken up like any other.
 */
async function adopt(account: AccountType, subscription: PushSubscription, id: number, token: string): Promise<void> {
  const hash = await endpointHash(subscription.endpoint);
  const { data } = await api.get<{ data: PushDevice[] }>('/push/subscriptions', { account, silent: true });
  if (data.some((device) => device.endpoint_hash === hash)) await recordOwner(account, id, token);
}

// Issue 26: the options and figures a queued form needs (leave types and balances, expense categories and
// clients, a partner's engineers with their agreed rates and clients, its approved statements) are fetched
// once after sign-in while online, and again whenever the connection returns, whether or not the person
// opens the form then. The service worker's per-account cache keeps the answers (sw/sw.ts), so the form
// can be filled in offline. What to fetch is declared on the definitions (`offline`, define.ts).
import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import type { ResourceDefinition } from '../../shared/resources/define';
import type { AccountType } from '../../shared/routes';
import { auth, can } from '../stores/auth';
import { pwa } from '../stores/pwa';
import { loadOptions } from '../ui/resources/resource-api';
import { api } from './api';
import { offlineDefinitions, offlineOptionsOf } from './outbox-actions';
import { isPending } from './pending';

/** The permission under which an account type files records of a definition (its partner portal's own for partners). */
const addPermissionOf = (definition: ResourceDefinition, account: AccountType) =>
  (account === 'partner' ? (definition.owner?.account === 'partner' ? definition.owner.permissions.add : undefined) : definition.permissions.add);

/** What an account may queue: the options and reads of each definition it may file. */
export function offlinePrefetchOf(account: AccountType, isAllowed: (permission: string | undefined) => boolean): { options: string[]; reads: string[] } {
  const wanted = offlineDefinitions().filter((definition) => isAllowed(addPermissionOf(definition, account)));
  return {
    options: [...new Set(wanted.flatMap((definition) => offlineOptionsOf(definition)))],
    reads: [...new Set(wanted.flatMap((definition) => definition.offline?.reads ?? []))],
  };
}

/** GET a declared read ("/leave-application/balance?is_half_day_start=false…") as the form asks it, so the cached answer matches. */
function fetchRead(read: string) {
  const [path, query = ''] = read.split('?');
  const params = Object.fromEntries(new URLSearchParams(query));
  return api.get(path, { params, silent: true });
}

/** Fetches, after sign-in and on every return of the connection, what the account's queued forms will need. */
export function useOfflinePrefetch(account: AccountType) {
  const { online } = useSnapshot(pwa);
  const { token, user } = useSnapshot(auth[account]);
  const permissions = useSnapshot(auth[account]).permissions.permissions;
  // A pending account (lib/pending.ts) is answered 409 by these routes, which would send it away from
  // the screen it must be on (the verification link among them).
  const pending = isPending(user);
  const { options, reads } = offlinePrefetchOf(account, (permission) => !!permission && can(account, permission));
  const key = JSON.stringify([options, reads]);
  useEffect(() => {
    if (!online || !token || pending) return;
    // Silent: a failure only means the form asks again when opened.
    for (const resource of options) loadOptions(resource, '').catch(() => undefined);
    for (const read of reads) fetchRead(read).catch(() => undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per sign-in, connection and permission list
  }, [online, token, pending, key, permissions]);
}

/** Mounted once in the signed-in layout; draws nothing. */
export function OfflinePrefetch({ account }: { account: AccountType }) {
  useOfflinePrefetch(account);
  return null;
}

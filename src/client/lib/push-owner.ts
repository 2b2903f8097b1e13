// Decision 045: whose notifications this browser's push subscription carries. The browser keeps one
// subscription for the site, which a staff login and a partner login signed in here may share; this
// record says, per account type, which login turned it on and with which session, so that a sign-in
// can tell the same person (register it again with the new session) from someone else (end it).
import { del, get, set } from 'idb-keyval';
import type { AccountType } from '../../shared/routes';

const OWNERS_KEY = 'push:owners';

/** The login that turned notifications on here, and a fingerprint of the session it last registered them with. */
export interface PushOwner { id: number; session: string }
export type PushOwners = Partial<Record<AccountType, PushOwner>>;

/** The first 16 hex digits of a text's SHA-256 (an endpoint, as the server lists devices by; a session's token). */
export async function digest16(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('').slice(0, 16);
}

export async function readOwners(): Promise<PushOwners> {
  try {
    const stored: unknown = await get(OWNERS_KEY);
    return stored && typeof stored === 'object' ? stored as PushOwners : {};
  } catch {
    return {};
  }
}

export async function writeOwners(owners: PushOwners): Promise<void> {
  try {
    if (Object.keys(owners).length) await set(OWNERS_KEY, owners);
    else await del(OWNERS_KEY);
  } catch (error) {
    console.error('Could not store who receives notifications here', error);
  }
}

/** This login turned notifications on here (or registered them again) with the session of `token`. */
export async function recordOwner(account: AccountType, id: number, token: string): Promise<void> {
  await writeOwners({ ...await readOwners(), [account]: { id, session: await digest16(token) } });
}

/** This login no longer receives notifications here. */
export async function forgetOwner(account: AccountType): Promise<void> {
  const { [account]: _gone, ...rest } = await readOwners();
  await writeOwners(rest);
}

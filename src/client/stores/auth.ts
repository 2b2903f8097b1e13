// spec §3 "Auth state", one record per account type, persisted in IndexedDB (idb-keyval)
// under 'auth:app' / 'auth:partner'. Hydrated before the first route decision (main.tsx).
import { proxy, snapshot, useSnapshot } from 'valtio';
import { del, get, set } from 'idb-keyval';
import { hasPermission } from '../../shared/permission-check';
import type { AccountType } from '../../shared/routes';
import type { Announcement, AuthUser, LoginResponse, PermissionSet } from '../../shared/schemas/auth';

export interface AuthState {
  isAuthenticated: boolean;
  token: string | null;
  accountType: AccountType;
  user: AuthUser | null;
  permissions: PermissionSet;
  announcementAlert: Announcement;
}

export const ACCOUNT_TYPES: readonly AccountType[] = ['app', 'partner'];

export const authStorageKey = (account: AccountType) => `auth:${account}`;

export function emptyAuth(account: AccountType): AuthState {
  return {
    isAuthenticated: false,
    token: null,
    accountType: account,
    user: null,
    permissions: { roles: [], permissions: [] },
    announcementAlert: { status: 'off', message: '' },
  };
}

export const auth: Record<AccountType, AuthState> = {
  app: proxy(emptyAuth('app')),
  partner: proxy(emptyAuth('partner')),
};

/** Becomes true once both records are read from IndexedDB; the router waits for it. */
export const authStatus = proxy({ hydrated: false });

function assign(account: AccountType, next: AuthState) {
  Object.assign(auth[account], next);
}

async function persist(account: AccountType, state: unknown = snapshot(auth[account])) {
  try {
    await set(authStorageKey(account), state);
  } catch (error) {
    console.error('Could not persist auth state', error);
  }
}

function isAuthState(value: unknown): value is AuthState {
  return !!value && typeof value === 'object' && 'token' in value && 'isAuthenticated' in value;
}

/** Reads both account records; a missing or damaged record counts as logged out. */
export async function hydrateAuth(): Promise<void> {
  await Promise.all(ACCOUNT_TYPES.map(async (account) => {
    try {
      const stored = await get(authStorageKey(account));
      if (isAuthState(stored) && stored.token) {
        assign(account, { ...emptyAuth(account), ...stored, accountType: account, isAuthenticated: true });
      } else {
        assign(account, emptyAuth(account));
      }
    } catch (error) {
      console.error('Could not read auth state', error);
      assign(account, emptyAuth(account));
    }
  }));
  authStatus.hydrated = true;
}

/** spec §4: login stores token, user, permissions and account type (and the announcement). */
export async function storeLogin(account: AccountType, response: Pick<LoginResponse, 'data' | 'access_token' | 'permissions'> & Partial<Pick<LoginResponse, 'announcement'>>): Promise<void> {
  const next: AuthState = {
    isAuthenticated: true,
    token: response.access_token,
    accountType: account,
    user: response.data,
    permissions: {
      roles: [...(response.permissions?.roles ?? [])],
      permissions: [...(response.permissions?.permissions ?? [])],
    },
    announcementAlert: response.announcement ? { ...response.announcement } : { status: 'off', message: '' },
  };
  // Stored before it is shown: the guards move a signed-in user off the login page the moment the
  // state changes, and a page opened right after (a reload, a typed url) must find the token in
  // IndexedDB — a write still in flight is lost with the page that started it.
  await persist(account, next);
  assign(account, next);
}

/** GET /me answers like login; a token in the answer replaces ours only when present. */
export async function storeMe(account: AccountType, response: Partial<LoginResponse>): Promise<void> {
  const state = auth[account];
  if (!state.token) return;
  if (response.data) state.user = response.data;
  if (response.access_token) state.token = response.access_token;
  if (response.permissions) {
    state.permissions = { roles: [...response.permissions.roles], permissions: [...response.permissions.permissions] };
  }
  if (response.announcement) state.announcementAlert = { ...response.announcement };
  await persist(account);
}

/**
 * GET /get-laravel-permission-to-vue-js answers the account's roles and permissions (spec §7): they
 * replace the one list (`auth[account].permissions`, spec §6) that every check below reads.
 */
export async function storePermissions(account: AccountType, set: PermissionSet): Promise<void> {
  const state = auth[account];
  if (!state.token) return;
  state.permissions = { roles: [...set.roles], permissions: [...set.permissions] };
  await persist(account);
}

/**
 * The client's one permission check (spec §6): a name, `a|b` (any) or `a&b` (all), against the
 * account's one list. No expression means no such action: false. What it hides the server refuses anyway.
 */
export function can(account: AccountType, expression: string | null | undefined): boolean {
  return !!expression && hasPermission(auth[account].permissions.permissions, expression);
}

/** `can` for a component: it draws again when the list changes. */
export function useCan(account: AccountType): (expression?: string | null) => boolean {
  const held = useSnapshot(auth[account]).permissions.permissions;
  return (expression) => !!expression && hasPermission(held, expression);
}

export async function updateUser(account: AccountType, user: AuthUser): Promise<void> {
  auth[account].user = user;
  await persist(account);
}

export async function setAnnouncement(account: AccountType, announcement: Announcement): Promise<void> {
  auth[account].announcementAlert = { ...announcement };
  await persist(account);
}

/** spec §3: fully reset on clearing (logout, 401, 503). */
export async function clearAuth(account: AccountType): Promise<void> {
  const { token } = auth[account];
  assign(account, emptyAuth(account));
  // Issue 5: the service worker forgets this session's cached API answers, however it ended
  // (logout, a 401, maintenance); queued outbox items stay for the next sign-in.
  if (token) void import('../lib/pwa').then((module) => module.forgetCachedAccount(token)).catch(() => undefined);
  try {
    await del(authStorageKey(account));
  } catch (error) {
    console.error('Could not clear auth state', error);
  }
}

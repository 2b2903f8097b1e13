// Login, logout and /me for both account types (spec §4 "Authentication flows", §7).
import { routePath, type AccountType } from '../../shared/routes';
import type { LoginInput, LoginResponse } from '../../shared/schemas/auth';
import { auth, clearAuth, storeLogin, storeMe, storePermissions } from '../stores/auth';
import type { PermissionSet } from '../../shared/schemas/auth';
import { TWO_FACTOR_REQUIRED } from '../../shared/schemas/auth-status';
import type { TwoFactorChallenge } from '../../shared/schemas/two-factor';
import { api } from './api';
import { goToRoute, homeRoute, loginRoute, navigate, returnPathFrom } from './navigation';
import { clearToasts, notify } from './toast';

export const LOGOUT_MESSAGE = 'Logout successfully!';

/** Path prefix of an account type's calls: /login vs /partner/login. */
export const apiPrefix = (account: AccountType) => (account === 'partner' ? '/partner' : '');

/**
 * The password step. With a second factor on, the server answers with a challenge instead of a token
 * (issue 29), which is returned for the code step; otherwise the person is signed in.
 */
export async function login(account: AccountType, input: LoginInput, verificationUrl?: string | null): Promise<TwoFactorChallenge | undefined> {
  const response = await api.post<LoginResponse | TwoFactorChallenge>(`${apiPrefix(account)}/login`, input, { account, form: true });
  if (response.status === TWO_FACTOR_REQUIRED) return response;
  await finishLogin(account, response, verificationUrl);
  return undefined;
}

/** Stores a login response and goes home, or on to the page or the verification link the person came with. */
export async function finishLogin(account: AccountType, response: LoginResponse, verificationUrl?: string | null): Promise<void> {
  await storeLogin(account, response);
  if (response.message) notify.success(response.message);
  // Keep an email verification link through login: the layout follows it on load. Else back to the page
  // the person was opening when they were asked to sign in (on the login page's address), or home.
  const home = routePath(homeRoute(account));
  const back = returnPathFrom(window.location.search, account);
  navigate(verificationUrl ? `${home}?verification_url=${encodeURIComponent(verificationUrl)}` : back ?? home, { replace: true });
}

export async function logout(account: AccountType): Promise<void> {
  // Notifications stop reaching this device for this account; a failure here (offline) does not keep anyone signed in.
  // Loaded here, not imported above: the login screen's bundle (budget 110 KB gzip) has no use for push.
  await import('./push').then(({ stopPushHere }) => stopPushHere(account)).catch(() => undefined);
  try {
    // The token is revoked server-side; whatever the answer, this browser forgets it.
    await api.post(`${apiPrefix(account)}/logout`, undefined, { account, silent: true });
  } catch {
    /* already logged out server-side, or offline: clearing locally is what matters */
  }
  await clearAuth(account);
  clearToasts();
  notify.success(LOGOUT_MESSAGE);
  goToRoute(loginRoute(account), undefined, { replace: true });
}

/**
 * GET /me refreshes user, permissions and announcement. A background refresh: offline it fails quietly
 * and the stored state stands (401, 409 and 503 are still acted on).
 */
/** GET /get-laravel-permission-to-vue-js (spec §7) mirrors the account's roles and permissions to the one list (spec §6). */
export async function refreshPermissions(account: AccountType): Promise<void> {
  if (!auth[account].token) return;
  const set = await api.get<PermissionSet>(`${apiPrefix(account)}/get-laravel-permission-to-vue-js`, { account, silent: true });
  if (Array.isArray(set?.roles) && Array.isArray(set?.permissions)) await storePermissions(account, set);
}

export async function refreshMe(account: AccountType): Promise<void> {
  if (!auth[account].token) return;
  const response = await api.get<Partial<LoginResponse>>(`${apiPrefix(account)}/me`, { account, silent: true });
  await storeMe(account, response);
}

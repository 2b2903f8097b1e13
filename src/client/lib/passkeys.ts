// Issue 29: the browser's side of passkeys. @simplewebauthn/browser is fetched only when a passkey is
// used or added, so the login screen keeps its budget (issue 5: <= 110 KB gzip). The server's options
// go to navigator.credentials as they came; what the authenticator answers goes back as JSON.
import type { AccountType } from '../../shared/routes';
import type { LoginResponse } from '../../shared/schemas/auth';
import type { Passkey } from '../../shared/schemas/passkeys';
import { api } from './api';
import { apiPrefix } from './session';

const loadBrowser = () => import('@simplewebauthn/browser');

/** Whether this browser can use passkeys at all (every current one can; an old or locked-down one may not). */
export const hasPasskeySupport = () => typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

/** What the browser or the person said instead of an answer, as a sentence for them; null when they cancelled. */
function ceremonyFailure(error: unknown, action: 'add' | 'sign-in'): string | null {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || name === 'AbortError') return null;
  if (name === 'InvalidStateError') return 'This device already holds a passkey for your account.';
  if (name === 'SecurityError') return 'Passkeys work only at the address this app was set up for. Ask your administrator.';
  return action === 'add' ? 'This browser could not make a passkey.' : 'This browser could not use a passkey.';
}

/** The outcome of a ceremony: done, cancelled by the person, or refused with a sentence to show. */
export type CeremonyResult<T> = { ok: true; value: T } | { ok: false; message: string | null };

/** Signs in with a passkey of this account type: the same answer as a password sign-in. */
export async function signInWithPasskey(account: AccountType): Promise<CeremonyResult<LoginResponse>> {
  const [{ startAuthentication }, { options }] = await Promise.all([
    loadBrowser(),
    api.post<{ options: Parameters<typeof import('@simplewebauthn/browser').startAuthentication>[0]['optionsJSON'] }>(`${apiPrefix(account)}/login/passkey/options`, {}, { account }),
  ]);
  let credential;
  try {
    credential = await startAuthentication({ optionsJSON: options });
  } catch (error) {
    return { ok: false, message: ceremonyFailure(error, 'sign-in') };
  }
  return { ok: true, value: await api.post<LoginResponse>(`${apiPrefix(account)}/login/passkey`, { credential }, { account }) };
}

/** Adds a passkey on this device under a name; the password only when the sign-in is not recent. */
export async function addPasskey(account: AccountType, name: string, currentPassword: string | null): Promise<CeremonyResult<{ data: Passkey; message: string }>> {
  const [{ startRegistration }, { options }] = await Promise.all([
    loadBrowser(),
    api.post<{ options: Parameters<typeof import('@simplewebauthn/browser').startRegistration>[0]['optionsJSON'] }>(
      `${apiPrefix(account)}/passkeys/options`, { current_password: currentPassword }, { account, form: true }),
  ]);
  let credential;
  try {
    credential = await startRegistration({ optionsJSON: options });
  } catch (error) {
    return { ok: false, message: ceremonyFailure(error, 'add') };
  }
  return { ok: true, value: await api.post<{ data: Passkey; message: string }>(`${apiPrefix(account)}/passkeys`, { name, credential }, { account, form: true }) };
}

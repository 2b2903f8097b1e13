// The one HTTP wrapper (ARCHITECTURE "Contracts", CONVENTIONS "one way"): /api base, JSON,
// credentials, the bearer token of the calling account type, X-XSRF-TOKEN, no timeout,
// and the whole error catalogue of spec §8 in one place.
import redaxios from 'redaxios';
import type { AccountType } from '../../shared/routes';
import { EMAIL_IS_NOT_VERIFIED, FORCE_RESET_PASSWORD, TWO_FACTOR_SETUP_REQUIRED } from '../../shared/schemas/auth-status';
import { auth, clearAuth } from '../stores/auth';
import { reportNoResponse, reportResponse } from '../stores/pwa';
import { currentArea, goToRoute, loginPathFor, navigate, routeFor } from './navigation';
import { notify } from './toast';

export const DEFAULT_ERROR_MESSAGE = 'An error occurred.';
export const NETWORK_ERROR_MESSAGE = 'Network error or server is unreachable.';

export type FieldErrors = Record<string, string[]>;

export interface ApiOptions {
  /** Whose token to send; by default the partner token for /partner/* calls and pages, else the app token. */
  account?: AccountType;
  params?: Record<string, string | number | boolean | undefined>;
  /** The caller is a form that shows 422 field errors itself: no toast for them. */
  form?: boolean;
  /** Background calls (heartbeat, notifications): failures are only logged (spec §8). */
  silent?: boolean;
  /** The caller retries failures itself (the outbox): a 503 means "later", not "maintenance, sign out and reload". */
  retriesLater?: boolean;
  /** Extra request headers (the outbox's Idempotency-Key). */
  headers?: Record<string, string>;
  /**
   * Told when the answer came from the service worker's cache (offline, or the network took over 3 s):
   * the time it was fetched, else null. Lists use it to say "Offline — showing data from HH:MM".
   */
  onCachedAt?: (fetchedAt: Date | null) => void;
  /** Downloads (CSV export): the body as a Blob; an error body is still read as JSON for the catalogue. */
  responseType?: 'blob';
  /**
   * Cancels the request (a query's AbortSignal: leaving a screen cancels its requests). redaxios does
   * not forward a signal itself, so the request goes through a fetch that carries it. A cancelled call
   * rejects with the fetch's AbortError, untouched by the catalogue: nobody is waiting for it.
   */
  signal?: AbortSignal;
}

/** What every failed call rejects with, after the catalogue has done its part. */
export class ApiError extends Error {
  constructor(
    message: string,
    /** HTTP status, or null when no response came back. */
    readonly status: number | null,
    /** 422 field errors: field -> messages. */
    readonly errors: FieldErrors = {},
    /** The `status` string of the body (FORCE_RESET_PASSWORD, ...). */
    readonly code?: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const isApiError = (value: unknown): value is ApiError => value instanceof ApiError;

/** Seams for tests: a full page reload cannot run in jsdom. */
export const apiEnvironment = {
  reload: () => window.location.reload(),
};

const XSRF_COOKIE = 'XSRF-TOKEN';

const client = redaxios.create({
  baseURL: '/api',
  withCredentials: true,
  headers: { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
  xsrfCookieName: XSRF_COOKIE,
  xsrfHeaderName: 'X-XSRF-TOKEN',
});

let csrfRequest: Promise<void> | null = null;

const hasXsrfCookie = () => typeof document !== 'undefined' && new RegExp(`(^|;\\s*)${XSRF_COOKIE}=`).test(document.cookie);

/** GET /sanctum/csrf-cookie once before the first state-changing request when the cookie is missing. */
export async function ensureCsrfCookie() {
  if (hasXsrfCookie()) return;
  csrfRequest ??= fetch('/sanctum/csrf-cookie', { credentials: 'include', headers: { Accept: 'application/json' } })
    .then(() => undefined, (error) => { console.error('Could not fetch the CSRF cookie', error); });
  await csrfRequest;
}

/** Test seam: forget that the CSRF cookie was requested. */
export function resetCsrfState() {
  csrfRequest = null;
}

export function accountFor(url: string, explicit?: AccountType): AccountType {
  if (explicit) return explicit;
  if (/^\/?partner(\/|$)/.test(url)) return 'partner';
  return currentArea();
}

interface HttpFailure { status: number; data: unknown }

const isHttpFailure = (value: unknown): value is HttpFailure =>
  !!value && typeof value === 'object' && typeof (value as { status?: unknown }).status === 'number' && 'config' in value;

function bodyOf(data: unknown): { message?: string; status?: string; errors?: FieldErrors } {
  return data && typeof data === 'object' ? (data as { message?: string; status?: string; errors?: FieldErrors }) : {};
}

/** The bearer of an account type, for callers that cannot use redaxios (uploads with progress). */
export function authorizationHeaders(account: AccountType): Record<string, string> {
  const token = auth[account].token;
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/** spec §8, row by row. Returns the ApiError the caller receives. `failure` is a redaxios-like {status, data, config} or what fetch threw. */
export async function handleFailure(failure: unknown, account: AccountType, options: ApiOptions): Promise<ApiError> {
  if (!isHttpFailure(failure)) {
    // No response: fetch rejected (offline, DNS, refused connection, CORS).
    reportNoResponse();
    if (options.silent) console.error(NETWORK_ERROR_MESSAGE, failure);
    else notify.error(NETWORK_ERROR_MESSAGE, { toastId: 'network-error' });
    return new ApiError(NETWORK_ERROR_MESSAGE, null);
  }

  const { status } = failure;
  const body = bodyOf(failure.data);
  const serverMessage = typeof body.message === 'string' && body.message.trim() ? body.message : '';
  const error = new ApiError(serverMessage || DEFAULT_ERROR_MESSAGE, status, body.errors ?? {}, body.status, failure.data);

  if (status === 409 && body.status === FORCE_RESET_PASSWORD) {
    goToRoute(routeFor(account, 'force-reset-password'));
    return error;
  }
  if (status === 409 && body.status === TWO_FACTOR_SETUP_REQUIRED) {
    goToRoute(routeFor(account, 'two-factor-setup'));
    return error;
  }
  if (status === 409 && body.status === EMAIL_IS_NOT_VERIFIED) {
    goToRoute(routeFor(account, 'verify-email'));
    return error;
  }
  if (status === 401) {
    await clearAuth(account);
    notify.error(serverMessage || DEFAULT_ERROR_MESSAGE, { toastId: 'unauthenticated' });
    // Signed in again, they come back to the page they were on.
    navigate(loginPathFor(account, `${window.location.pathname}${window.location.search}`));
    return error;
  }
  if (status === 503 && !options.retriesLater) {
    await clearAuth(account);
    apiEnvironment.reload();
    return error;
  }
  if (options.silent) {
    console.error(`API ${status}: ${error.message}`);
    return error;
  }
  if (status === 419) csrfRequest = null; // CSRF token mismatch: fetch a fresh cookie next time.
  if (status === 422 && options.form && Object.keys(error.errors).length) return error;
  notify.error(serverMessage || DEFAULT_ERROR_MESSAGE);
  return error;
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

async function request<T>(method: Method, url: string, body: unknown, options: ApiOptions = {}): Promise<T> {
  const account = accountFor(url, options.account);
  if (method !== 'get') await ensureCsrfCookie();
  const token = auth[account].token;
  const params = options.params
    ? Object.fromEntries(Object.entries(options.params).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]))
    : undefined;
  const headers: Record<string, string> = { ...options.headers, ...(token ? { Authorization: `Bearer ${token}` } : {}) };
  const { signal } = options;
  const config = {
    headers, params,
    ...(options.responseType ? { responseType: options.responseType } : {}),
    ...(signal ? { fetch: (input: RequestInfo | URL, init?: RequestInit) => fetch(input, { ...init, signal }) } : {}),
  };
  try {
    const response = method === 'get' || method === 'delete'
      ? await client[method]<T>(url, config)
      : await client[method]<T>(url, body ?? {}, config);
    const cachedAt = (response.headers as Headers | undefined)?.get?.('x-from-cache') ?? null;
    if (cachedAt) reportNoResponse(); else reportResponse();
    options.onCachedAt?.(cachedAt ? new Date(cachedAt) : null);
    return response.data;
  } catch (failure) {
    if (signal?.aborted) throw failure;
    if (options.responseType && isHttpFailure(failure) && failure.data instanceof Blob) {
      failure.data = await failure.data.text().then((text) => JSON.parse(text) as unknown, () => ({}));
    }
    throw await handleFailure(failure, account, options);
  }
}

export const api = {
  get: <T>(url: string, options?: ApiOptions) => request<T>('get', url, undefined, options),
  delete: <T>(url: string, options?: ApiOptions) => request<T>('delete', url, undefined, options),
  post: <T>(url: string, body?: unknown, options?: ApiOptions) => request<T>('post', url, body, options),
  put: <T>(url: string, body?: unknown, options?: ApiOptions) => request<T>('put', url, body, options),
  patch: <T>(url: string, body?: unknown, options?: ApiOptions) => request<T>('patch', url, body, options),
};

/** Field errors of a failed call, for forms (spec §5: exposed to the form). */
export const fieldErrorsOf = (error: unknown): FieldErrors => (isApiError(error) ? error.errors : {});

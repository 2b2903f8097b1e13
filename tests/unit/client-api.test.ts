// @vitest-environment jsdom
// The API wrapper's error catalogue (spec §8): navigation target and toast text per status.
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn(), onChange: vi.fn(), isActive: vi.fn(() => false) }));
vi.mock('react-toastify', () => ({ toast: toasts }));

import { api, apiEnvironment, ApiError, DEFAULT_ERROR_MESSAGE, NETWORK_ERROR_MESSAGE, resetCsrfState } from '../../src/client/lib/api';
import { auth, hydrateAuth, storeLogin } from '../../src/client/stores/auth';
import type { LoginResponse } from '../../src/shared/schemas/auth';
import { loadToasts } from '../../src/client/lib/toast';

// Toasts load with the first one (lib/toast); here they are loaded up front so each toast is shown at once.
beforeAll(async () => { await loadToasts(); });

const user = { id: 1, name: 'Ada Admin', email: 'admin@example.com', user_type: 'admin', email_verified_at: '2024-01-01', doc_assigned: false, status: 'active', two_fa_enabled_at: null, is_enable_2fa: false, force_password_reset: false, phone: null, parent_id: null } as const;
const loginAnswer = (token: string): LoginResponse => ({
  data: { ...user }, access_token: token, permissions: { roles: ['admin'], permissions: ['can-view-dashboard'] },
  announcement: { status: 'off', message: '' }, message: 'Signed in successfully.', status: 'success',
});

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let fetchMock: ReturnType<typeof vi.fn>;

function respondWith(status: number, body: unknown) {
  fetchMock.mockImplementation(async (input: RequestInfo | URL) => {
    if (String(input).includes('/sanctum/csrf-cookie')) return new Response(null, { status: 204 });
    return json(status, body);
  });
}

async function failure(call: Promise<unknown>): Promise<ApiError> {
  try { await call; } catch (error) { return error as ApiError; }
  throw new Error('expected the call to fail');
}

beforeEach(async () => {
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
  Object.values(toasts).forEach((fn) => fn.mockReset());
  resetCsrfState();
  window.history.replaceState(null, '', '/dashboard');
  await hydrateAuth();
  await storeLogin('app', loginAnswer('app-token'));
  await storeLogin('partner', loginAnswer('partner-token'));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('request shape', () => {
  it('sends JSON under /api with the bearer token of the app account and credentials', async () => {
    respondWith(200, { ok: true });
    await api.get('/me');
    const [url, init] = fetchMock.mock.calls.at(-1)!;
    expect(url).toBe('/api/me');
    expect(init.credentials).toBe('include');
    expect(init.headers.authorization).toBe('Bearer app-token');
    expect(init.headers.accept).toBe('application/json');
  });

  it('uses the partner token for /partner calls and for any call made from a /partner page', async () => {
    respondWith(200, {});
    await api.get('/partner/me');
    expect(fetchMock.mock.calls.at(-1)![1].headers.authorization).toBe('Bearer partner-token');
    window.history.replaceState(null, '', '/partner/notification');
    await api.get('/notification');
    expect(fetchMock.mock.calls.at(-1)![1].headers.authorization).toBe('Bearer partner-token');
  });

  it('fetches the CSRF cookie once before the first state-changing request and echoes it', async () => {
    fetchMock.mockImplementation(async (input: RequestInfo | URL) => {
      if (String(input).includes('/sanctum/csrf-cookie')) {
        document.cookie = 'XSRF-TOKEN=abc%3D123; path=/';
        return new Response(null, { status: 204 });
      }
      return json(200, { message: 'ok' });
    });
    await api.post('/last-activity');
    await api.post('/last-activity');
    const csrfCalls = fetchMock.mock.calls.filter(([u]) => String(u).includes('/sanctum/csrf-cookie'));
    expect(csrfCalls).toHaveLength(1);
    const [, init] = fetchMock.mock.calls.at(-1)!;
    expect(init.headers['x-xsrf-token']).toBe('abc=123');
    document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  });
});

describe('error catalogue (spec §8)', () => {
  it('409 FORCE_RESET_PASSWORD goes to force-reset-password', async () => {
    respondWith(409, { message: 'Reset needed.', status: 'FORCE_RESET_PASSWORD' });
    const error = await failure(api.get('/dashboard'));
    expect(error.code).toBe('FORCE_RESET_PASSWORD');
    expect(window.location.pathname).toBe('/force-reset-password');
  });

  it('409 FORCE_RESET_PASSWORD on a partner call goes to the partner version', async () => {
    respondWith(409, { message: 'Reset needed.', status: 'FORCE_RESET_PASSWORD' });
    await failure(api.get('/partner/profile'));
    expect(window.location.pathname).toBe('/partner/force-reset-password');
  });

  it('409 EMAIL_IS_NOT_VERIFIED goes to verify-email (partner version under /partner)', async () => {
    respondWith(409, { message: 'Verify first.', status: 'EMAIL_IS_NOT_VERIFIED' });
    await failure(api.get('/dashboard'));
    expect(window.location.pathname).toBe('/verify-email');
    await failure(api.get('/partner/me'));
    expect(window.location.pathname).toBe('/partner/verify-email');
  });

  it('403 shows the server message as an error toast', async () => {
    respondWith(403, { message: 'This action is unauthorized.' });
    await failure(api.get('/setting/announcement'));
    expect(toasts.error).toHaveBeenCalledWith('This action is unauthorized.', { role: 'alert' });
    expect(window.location.pathname).toBe('/dashboard');
  });

  it('401 clears auth, shows the message and goes to login', async () => {
    respondWith(401, { message: 'Unauthenticated.' });
    await failure(api.get('/me'));
    expect(auth.app.isAuthenticated).toBe(false);
    expect(auth.app.token).toBeNull();
    expect(auth.partner.token).toBe('partner-token');
    expect(toasts.error.mock.calls[0][0]).toBe('Unauthenticated.');
    expect(window.location.pathname).toBe('/');
  });

  it('401 keeps the page the person was on, to bring them back to it once signed in again', async () => {
    window.history.replaceState(null, '', '/expense/12?tab=history');
    respondWith(401, { message: 'Unauthenticated.' });
    await failure(api.get('/expense/12'));
    expect(window.location.pathname).toBe('/');
    expect(new URLSearchParams(window.location.search).get('return_to')).toBe('/expense/12?tab=history');
  });

  it('401 on a partner call clears the partner auth and goes to partner.login', async () => {
    respondWith(401, { message: 'Unauthenticated.' });
    await failure(api.get('/partner/me'));
    expect(auth.partner.token).toBeNull();
    expect(auth.app.token).toBe('app-token');
    expect(window.location.pathname).toBe('/partner/login');
  });

  it('503 clears auth and reloads the page', async () => {
    const reload = vi.spyOn(apiEnvironment, 'reload').mockImplementation(() => {});
    respondWith(503, { message: 'Down for maintenance.' });
    await failure(api.get('/me'));
    expect(auth.app.token).toBeNull();
    expect(reload).toHaveBeenCalledOnce();
    expect(toasts.error).not.toHaveBeenCalled();
    reload.mockRestore();
  });

  it('other statuses show the server message, or the default text', async () => {
    respondWith(500, { message: 'Server Error' });
    await failure(api.get('/dashboard'));
    expect(toasts.error).toHaveBeenLastCalledWith('Server Error', { role: 'alert' });
    respondWith(500, 'not json');
    const error = await failure(api.get('/dashboard'));
    expect(toasts.error).toHaveBeenLastCalledWith(DEFAULT_ERROR_MESSAGE, { role: 'alert' });
    expect(error.message).toBe('An error occurred.');
    respondWith(429, { message: 'Too many attempts.' });
    await failure(api.post('/login', {}));
    expect(toasts.error).toHaveBeenLastCalledWith('Too many attempts.', { role: 'alert' });
  });

  it('no response shows the network message', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const error = await failure(api.get('/dashboard'));
    expect(error.status).toBeNull();
    expect(toasts.error.mock.calls[0][0]).toBe(NETWORK_ERROR_MESSAGE);
    expect(NETWORK_ERROR_MESSAGE).toBe('Network error or server is unreachable.');
  });

  it('422 exposes field errors to forms without a toast', async () => {
    respondWith(422, { message: 'The email field is required.', errors: { email: ['The email field is required.'] } });
    const error = await failure(api.post('/login', {}, { form: true }));
    expect(error.status).toBe(422);
    expect(error.errors).toEqual({ email: ['The email field is required.'] });
    expect(toasts.error).not.toHaveBeenCalled();
  });

  it('silent calls (heartbeat, notifications) only log failures', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    respondWith(500, { message: 'Server Error' });
    await failure(api.post('/last-activity', undefined, { silent: true }));
    expect(toasts.error).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalled();
    log.mockRestore();
  });
});

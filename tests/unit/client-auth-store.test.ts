// @vitest-environment jsdom
// Auth state per account type, persisted in IndexedDB (idb-keyval) and hydrated before routing.
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { get, set, clear } from 'idb-keyval';
import type { LoginResponse } from '../../src/shared/schemas/auth';

const answer = (token: string, name = 'Ada Admin'): LoginResponse => ({
  data: { id: 7, name, email: 'ada@example.com', user_type: 'admin', email_verified_at: null, doc_assigned: true, status: 'active', two_fa_enabled_at: null, is_enable_2fa: false, force_password_reset: false, phone: null, parent_id: null },
  access_token: token,
  permissions: { roles: ['admin'], permissions: ['can-view-dashboard', 'can-edit-profile'] },
  announcement: { status: 'on', message: 'Office closed on Friday' },
  message: 'Signed in successfully.',
  status: 'success',
});

/** A fresh module graph: what a page reload sees. */
async function freshStore() {
  vi.resetModules();
  return import('../../src/client/stores/auth');
}

beforeEach(async () => {
  await clear();
});

describe('auth store', () => {
  it('starts logged out and marks itself hydrated after reading IndexedDB', async () => {
    const store = await freshStore();
    expect(store.authStatus.hydrated).toBe(false);
    await store.hydrateAuth();
    expect(store.authStatus.hydrated).toBe(true);
    expect(store.auth.app.isAuthenticated).toBe(false);
    expect(store.auth.partner.isAuthenticated).toBe(false);
  });

  it('persists a login under auth:app and restores it after a reload', async () => {
    const first = await freshStore();
    await first.hydrateAuth();
    await first.storeLogin('app', answer('tok-1'));
    const stored = await get('auth:app');
    expect(stored).toMatchObject({ isAuthenticated: true, token: 'tok-1', accountType: 'app' });

    const second = await freshStore();
    await second.hydrateAuth();
    expect(second.auth.app).toMatchObject({
      isAuthenticated: true,
      token: 'tok-1',
      accountType: 'app',
      user: { id: 7, name: 'Ada Admin', doc_assigned: true },
      permissions: { roles: ['admin'], permissions: ['can-view-dashboard', 'can-edit-profile'] },
      announcementAlert: { status: 'on', message: 'Office closed on Friday' },
    });
    expect(second.auth.partner.isAuthenticated).toBe(false);
  });

  it('keeps the two account types apart', async () => {
    const store = await freshStore();
    await store.hydrateAuth();
    await store.storeLogin('partner', answer('partner-tok', 'Pat Partner'));
    expect(await get('auth:partner')).toMatchObject({ token: 'partner-tok', accountType: 'partner' });
    expect(await get('auth:app')).toBeUndefined();
    expect(store.auth.app.token).toBeNull();
  });

  it('clearing resets the state fully and removes the record', async () => {
    const store = await freshStore();
    await store.hydrateAuth();
    await store.storeLogin('app', answer('tok-2'));
    await store.storeLogin('partner', answer('tok-3'));
    await store.clearAuth('app');
    expect(store.auth.app).toEqual(store.emptyAuth('app'));
    expect(await get('auth:app')).toBeUndefined();
    expect(await get('auth:partner')).toMatchObject({ token: 'tok-3' });

    const reloaded = await freshStore();
    await reloaded.hydrateAuth();
    expect(reloaded.auth.app.isAuthenticated).toBe(false);
    expect(reloaded.auth.partner.token).toBe('tok-3');
  });

  it('treats a damaged record as logged out', async () => {
    await set('auth:app', { nonsense: true });
    const store = await freshStore();
    await store.hydrateAuth();
    expect(store.auth.app.isAuthenticated).toBe(false);
  });

  it('a /me answer refreshes user, permissions and announcement and is persisted', async () => {
    const store = await freshStore();
    await store.hydrateAuth();
    await store.storeLogin('app', answer('tok-4'));
    await store.storeMe('app', { ...answer('tok-4', 'Ada Lovelace'), permissions: { roles: ['admin'], permissions: ['can-view-dashboard'] }, announcement: { status: 'off', message: '' } });
    expect(store.auth.app.user?.name).toBe('Ada Lovelace');
    expect(await get('auth:app')).toMatchObject({ user: { name: 'Ada Lovelace' }, permissions: { permissions: ['can-view-dashboard'] }, announcementAlert: { status: 'off' } });
  });
});

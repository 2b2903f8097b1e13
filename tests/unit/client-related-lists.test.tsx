// @vitest-environment jsdom
// A detail page's related lists (issue 11: a partner's logins and engineers) against a stubbed API:
// each the other resource's list filtered by the field pointing at the record, with its own search
// state (not the url's), adding in a dialog that presets that field, and only for those who may view it.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { buildPageMeta } from '../../src/shared/pagination';
import { ikkPartner } from '../../src/shared/resources/ikk-partner';
import { RelatedLists } from '../../src/client/ui/resources/resource-detail';
import { clearAuth, hydrateAuth, storeLogin } from '../../src/client/stores/auth';
import { hasPermission } from '../../src/shared/permissions';
import type { LoginResponse } from '../../src/shared/schemas/auth';

const login = (permissions: string[]): LoginResponse => ({
  data: { id: 1, name: 'Ada', email: 'ada@example.com', user_type: 'admin', email_verified_at: '2024-01-01', doc_assigned: false, status: 'active', two_fa_enabled_at: null, is_enable_2fa: false, force_password_reset: false, phone: null, parent_id: null },
  access_token: 'tok', permissions: { roles: ['admin'], permissions }, announcement: { status: 'off', message: '' }, message: '', status: 'success',
});

const logins = [{ id: 3, partner_id: 7, name: 'Ravi Kumar', email: 'ravi@acme.example', phone: null, status: 'active', last_activity_at: null }];
const engineers = [{ id: 5, partner_id: 7, user_id: 9, engineer: { id: 9, name: 'Meera Iyer' }, engineer_name: 'Meera Iyer', rate_type: 'day', rate: 450, currency: 'EUR', valid_from: '2026-01-01', valid_to: null }];

let calls: { method: string; url: string; body: string }[] = [];

beforeEach(async () => {
  calls = [];
  vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    calls.push({ method, url, body: typeof init?.body === 'string' ? init.body : '' });
    if (url.startsWith('/sanctum')) return new Response(null, { status: 204 });
    if (method === 'POST') return new Response(JSON.stringify({ data: { ...logins[0], id: 4 }, message: 'Login created successfully.' }), { status: 201 });
    const data = url.includes('/api/partner-engineer') ? engineers : logins;
    return new Response(JSON.stringify({ data, meta: buildPageMeta(1, 15, data.length, (p) => `http://localhost/api/x?page=${p}`) }), { status: 200 });
  }));
  document.cookie = 'XSRF-TOKEN=x';
  await hydrateAuth();
  await clearAuth('app');
  window.history.replaceState(null, '', '/ikk-partner/7');
});
afterEach(() => { cleanup(); vi.unstubAllGlobals(); });

/** The permission check the detail page passes down, over a fixed set. */
const canWith = (held: string[]) => (permission?: string) => !!permission && hasPermission(held, permission);
const listCalls = (resource: string) => calls.filter((c) => c.method === 'GET' && c.url.startsWith(`/api/${resource}?`)).map((c) => c.url);

describe('RelatedLists', () => {
  it('lists the partner\'s logins and engineers, each filtered by partner_id, under its own heading', async () => {
    const held = ['can-view-partner'];
    await storeLogin('app', login(held));
    render(<RelatedLists definition={ikkPartner} account="app" id={7} can={canWith(held)} />);
    expect(await screen.findByRole('heading', { level: 2, name: 'Logins' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Engineers and agreed rates' })).toBeTruthy();
    expect(await screen.findByText('Ravi Kumar')).toBeTruthy();
    expect(await screen.findByText('Meera Iyer')).toBeTruthy();
    expect(listCalls('partner-account').every((url) => url.includes('partner_id=7'))).toBe(true);
    expect(listCalls('partner-engineer').every((url) => url.includes('partner_id=7'))).toBe(true);
    expect(listCalls('partner-account').length).toBeGreaterThan(0);
    // Viewing only: nothing to add.
    expect(screen.queryByRole('button', { name: 'Add a login' })).toBeNull();
  });

  it('keeps each list\'s search to itself, out of the url', async () => {
    const held = ['can-view-partner'];
    await storeLogin('app', login(held));
    render(<RelatedLists definition={ikkPartner} account="app" id={7} can={canWith(held)} />);
    await screen.findByText('Ravi Kumar');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search logins' }), { target: { value: 'ravi' } });
    await waitFor(() => expect(listCalls('partner-account').at(-1)).toContain('search=ravi'), { timeout: 1500 });
    expect(window.location.search).toBe('');
    expect(listCalls('partner-engineer').some((url) => url.includes('search='))).toBe(false);
  });

  it('adds a login in a dialog with the partner preset and not asked for', async () => {
    const held = ['can-view-partner', 'can-edit-partner'];
    await storeLogin('app', login(held));
    render(<RelatedLists definition={ikkPartner} account="app" id={7} can={canWith(held)} />);
    await screen.findByText('Ravi Kumar');
    fireEvent.click(screen.getByRole('button', { name: 'Add a login' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByLabelText(/Partner/)).toBeNull();
    fireEvent.change(within(dialog).getByLabelText(/^Name/), { target: { value: 'Bob' } });
    fireEvent.change(within(dialog).getByLabelText(/^Email/), { target: { value: 'bob@acme.example' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create login' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const sent = calls.find((c) => c.method === 'POST')!;
    expect(sent.url).toBe('/api/partner-account');
    expect(JSON.parse(sent.body)).toMatchObject({ partner_id: 7, name: 'Bob', email: 'bob@acme.example', status: 'active' });
  });

  it('shows nothing to someone who may not view the other resource', async () => {
    await storeLogin('app', login([]));
    const { container } = render(<RelatedLists definition={ikkPartner} account="app" id={7} can={canWith([])} />);
    expect(container.innerHTML).toBe('');
    expect(calls.filter((c) => c.url.startsWith('/api/partner'))).toEqual([]);
  });
});

// @vitest-environment jsdom
// The generic list screen against a stubbed API: rows, spec §4 badges, aria-sort, url state,
// debounced search, row actions by permission, and a refused delete that changes nothing.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { ToastContainer } from 'react-toastify';
import { buildPageMeta } from '../../src/shared/pagination';
import { country } from '../../src/shared/resources/country';
import { admin } from '../../src/shared/resources/user';
import { ResourceList } from '../../src/client/ui/resources/resource-list';
import ResourceScreen from '../../src/client/features/resources/resource-screen';
import { clearAuth, hydrateAuth, storeLogin } from '../../src/client/stores/auth';
import type { LoginResponse } from '../../src/shared/schemas/auth';

const login = (permissions: string[], roles = ['admin']): LoginResponse => ({
  data: { id: 1, name: 'Ada', email: 'ada@example.com', user_type: 'admin', email_verified_at: '2024-01-01', doc_assigned: false, status: 'active', two_fa_enabled_at: null, is_enable_2fa: false, force_password_reset: false, phone: null, parent_id: null },
  access_token: 'tok', permissions: { roles, permissions }, announcement: { status: 'off', message: '' }, message: '', status: 'success',
});

/** What the server says the caller may do with each row (issue 23): India's, Japan's. */
let abilities = [{ update: true, delete: true }, { update: true, delete: true }];
const rowsOf = () => [
  { id: 1, name: 'India', code: 'IN', status: 'active', created_at: '2024-03-01T10:00:00.000Z', abilities: abilities[0] },
  { id: 2, name: 'Japan', code: 'JP', status: 'inactive', created_at: '2024-03-02T10:00:00.000Z', abilities: abilities[1] },
];

let calls: string[] = [];
/** An empty list (nothing added yet, or nothing matching) answers no rows. */
let isListEmpty = false;
let deleteAnswer: { status: number; body: unknown } = { status: 200, body: { message: 'Country deleted successfully.' } };

beforeEach(async () => {
  calls = [];
  isListEmpty = false;
  abilities = [{ update: true, delete: true }, { update: true, delete: true }];
  vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    calls.push(`${init?.method ?? 'GET'} ${url}`);
    if (init?.method === 'DELETE') return new Response(JSON.stringify(deleteAnswer.body), { status: deleteAnswer.status });
    if (url.startsWith('/sanctum')) return new Response(null, { status: 204 });
    const rows = isListEmpty ? [] : rowsOf();
    const meta = buildPageMeta(1, 15, rows.length, (p) => `http://localhost/api/country?page=${p}`);
    return new Response(JSON.stringify({ data: rows, meta }), { status: 200 });
  }));
  document.cookie = 'XSRF-TOKEN=x';
  await hydrateAuth();
  await clearAuth('app');
  window.history.replaceState(null, '', '/country');
});
afterEach(() => { cleanup(); vi.unstubAllGlobals(); vi.useRealTimers(); });

const lastListCall = () => calls.filter((c) => c.startsWith('GET /api/country')).at(-1) ?? '';

describe('ResourceList', () => {
  it('renders rows with spec §4 status badges and the default sort as aria-sort', async () => {
    await storeLogin('app', login(['can-view-country']));
    // Viewing only: the server grants no row an edit or a delete.
    abilities = [{ update: false, delete: false }, { update: false, delete: false }];
    render(<ResourceList definition={country} account="app" />);
    expect(await screen.findByRole('link', { name: 'India' })).toBeTruthy();
    expect(screen.getByText('Active').className).toContain('emerald');
    expect(screen.getByText('Inactive').className).toContain('rose');
    expect(screen.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe('ascending');
    expect(screen.getByRole('columnheader', { name: /Code/ }).getAttribute('aria-sort')).toBe('none');
    expect(screen.getByText('2024-03-01')).toBeTruthy();
    // Viewing only: no add, edit or delete.
    expect(screen.queryByText('Add a country')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete India' })).toBeNull();
    expect(screen.getByRole('link', { name: 'View India' }).getAttribute('href')).toBe('/country/1');
  });

  it('offers Edit and Delete on exactly the rows whose abilities the server grants, whatever permissions are held (issue 23)', async () => {
    await storeLogin('app', login(['can-view-country', 'can-edit-country', 'can-delete-country']));
    abilities = [{ update: true, delete: false }, { update: false, delete: true }];
    render(<ResourceList definition={country} account="app" />);
    expect(await screen.findByRole('link', { name: 'Edit India' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Delete India' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Edit Japan' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Delete Japan' })).toBeTruthy();
  });

  it('offers adding admin accounts to admins only, and editing and deleting them where the rows say so (issue 20)', async () => {
    const writes = ['can-view-admin', 'can-add-admin', 'can-edit-admin', 'can-delete-admin'];
    await storeLogin('app', login(writes, ['user', 'people-clerk']));
    // The server refuses a non-admin any change to an admin's account, and says so on each row.
    abilities = [{ update: false, delete: false }, { update: false, delete: false }];
    window.history.replaceState(null, '', '/admin');
    const { unmount } = render(<ResourceList definition={admin} account="app" />);
    expect(await screen.findByRole('link', { name: 'India' })).toBeTruthy();
    expect(screen.queryByText('Add an admin')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Edit India' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete India' })).toBeNull();
    unmount();

    await storeLogin('app', login(writes, ['admin']));
    abilities = [{ update: true, delete: true }, { update: true, delete: true }];
    render(<ResourceList definition={admin} account="app" />);
    expect(await screen.findByText('Add an admin')).toBeTruthy();
    // The rows' actions follow the list's own render, a moment after the header's button on a busy machine.
    expect(await screen.findByRole('link', { name: 'Edit India' })).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Delete India' })).toBeTruthy();
  });

  it('tells a non-admin who opens the admin form by its address that only an admin adds admins (issue 20)', async () => {
    await storeLogin('app', login(['can-view-admin', 'can-add-admin'], ['user', 'people-clerk']));
    window.history.replaceState(null, '', '/admin/create');
    const { unmount } = render(<ResourceScreen account="app" params={{}} routeName="admin.create" />);
    expect(await screen.findByText('Only an admin can add or edit admin accounts.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /save|create/i })).toBeNull();
    unmount();

    await storeLogin('app', login(['can-view-admin', 'can-add-admin'], ['admin']));
    render(<ResourceScreen account="app" params={{}} routeName="admin.create" />);
    expect(await screen.findByRole('button', { name: /save|create/i })).toBeTruthy();
    expect(screen.queryByText('Only an admin can add or edit admin accounts.')).toBeNull();
  });

  it('says why Export CSV cannot be pressed on an empty list, and what it has to export otherwise', async () => {
    await storeLogin('app', login(['can-view-country']));
    isListEmpty = true;
    const { unmount } = render(<ResourceList definition={country} account="app" />);
    await screen.findByText(/No countries/);
    const button = screen.getByRole('button', { name: 'Export CSV' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.title).toBe('Nothing to export yet.');
    expect(document.getElementById(button.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Nothing to export yet.');
    unmount();

    // Searched to nothing, the reason is the search.
    window.history.replaceState(null, '', '/country?search=zz');
    render(<ResourceList definition={country} account="app" />);
    await screen.findByRole('button', { name: 'Export CSV', description: 'Nothing matches the search and filters, so there is nothing to export.' });
    cleanup();

    // With rows it can be pressed, and has nothing to explain.
    isListEmpty = false;
    window.history.replaceState(null, '', '/country');
    render(<ResourceList definition={country} account="app" />);
    await screen.findByRole('link', { name: 'India' });
    const live = screen.getByRole('button', { name: 'Export CSV' }) as HTMLButtonElement;
    expect(live.disabled).toBe(false);
    expect(live.hasAttribute('aria-describedby')).toBe(false);
    expect(live.title).toBe('');
  });

  it('keeps sort and a debounced search in the url and sends them to the API', async () => {
    await storeLogin('app', login(['can-view-country']));
    render(<ResourceList definition={country} account="app" />);
    await screen.findByRole('link', { name: 'India' });
    fireEvent.click(within(screen.getByRole('columnheader', { name: /Code/ })).getByRole('button'));
    await waitFor(() => expect(window.location.search).toBe('?sort=code&direction=asc'));
    await waitFor(() => expect(lastListCall()).toContain('sort=code'));

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search countries' }), { target: { value: 'ind' } });
    expect(window.location.search).not.toContain('search=');
    await waitFor(() => expect(window.location.search).toContain('search=ind'), { timeout: 1500 });
    await waitFor(() => expect(lastListCall()).toContain('search=ind'));
  });

  it('asks before deleting; a refused delete shows the server message and keeps the row', async () => {
    await storeLogin('app', login(['can-view-country', 'can-delete-country']));
    deleteAnswer = { status: 409, body: { message: 'This country cannot be deleted because 2 cities use it.' } };
    render(<><ResourceList definition={country} account="app" /><ToastContainer /></>);
    await screen.findByRole('link', { name: 'India' });
    const listCalls = calls.length;
    fireEvent.click(screen.getByRole('button', { name: 'Delete India' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('“India” will be deleted.');
    await act(async () => { fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' })); });
    await waitFor(() => expect(calls.some((c) => c === 'DELETE /api/country/1')).toBe(true));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // No reload of the list after a refusal: the rows stay as they were.
    expect(calls.slice(listCalls).filter((c) => c.startsWith('GET /api/country'))).toEqual([]);
    expect(screen.getByRole('link', { name: 'India' })).toBeTruthy();
    expect(await screen.findByText('This country cannot be deleted because 2 cities use it.')).toBeTruthy();
  });

  it('highlights and scrolls to the row named by ?highlight= (a notification link), and only that row', async () => {
    await storeLogin('app', login(['can-view-country']));
    const scrolled: Element[] = [];
    const scrollIntoView = vi.fn(function (this: Element) { scrolled.push(this); });
    Object.defineProperty(window.HTMLElement.prototype, 'scrollIntoView', { configurable: true, writable: true, value: scrollIntoView });
    window.history.replaceState(null, '', '/country?highlight=2');
    try {
      render(<ResourceList definition={country} account="app" />);
      await screen.findByRole('link', { name: 'Japan' });
      const japan = screen.getByRole('link', { name: 'Japan' }).closest('tr')!;
      const india = screen.getByRole('link', { name: 'India' }).closest('tr')!;
      expect(japan.getAttribute('aria-current')).toBe('true');
      expect(japan.className).toContain('amber');
      expect(india.getAttribute('aria-current')).toBeNull();
      expect(india.className).not.toContain('amber');
      await waitFor(() => expect(scrolled).toEqual([japan]));
      // The highlight is not a filter: the API is not asked for it.
      expect(lastListCall()).not.toContain('highlight');
    } finally {
      delete (window.HTMLElement.prototype as { scrollIntoView?: unknown }).scrollIntoView;
    }
  });
});

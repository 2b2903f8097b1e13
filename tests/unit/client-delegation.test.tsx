// @vitest-environment jsdom
// Approvals While Away (issue 28, decision 041): a manager chooses who decides for them from the managers
// the server offers, and the days; the list shows what is handed over both ways, and withdrawing it
// refetches the list. The form is the one engine's: the shared schema first, then the server's 422.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import DelegationScreen from '../../src/client/features/delegation/delegation';
import { queryClient } from '../../src/client/lib/query';
import { clearAuth, hydrateAuth, storeLogin } from '../../src/client/stores/auth';
import { addDays, today } from '../../src/shared/dates';
import type { AuthUser, LoginResponse } from '../../src/shared/schemas/auth';
import type { Delegation } from '../../src/shared/schemas/delegation';

const mark: AuthUser = {
  id: 7, name: 'Mark Manager', email: 'mark@example.com', user_type: 'manager', email_verified_at: '2024-01-01T00:00:00Z', doc_assigned: false,
  status: 'active', two_fa_enabled_at: null, is_enable_2fa: false, force_password_reset: false, phone: null, parent_id: null,
};
const login: LoginResponse = {
  data: mark, access_token: 'tok', permissions: { roles: ['manager'], permissions: ['can-delegate-approvals'] },
  announcement: { status: 'off', message: '' }, message: '', status: 'success',
};

const handOver = (values: Partial<Delegation>): Delegation => ({
  id: 1, manager: { id: 7, name: 'Mark Manager' }, delegate: { id: 8, name: 'Maria Manager' }, starts_on: '2030-03-04', ends_on: '2030-03-08',
  note: null, is_in_force: false, sentence: 'Maria Manager decides your approvals on 4–8 March 2030.', no_effect: null, ...values,
});

let list: { can_delegate: boolean; given: Delegation[]; received: Delegation[]; others: Delegation[] };
let calls: { method: string; url: string; body?: unknown }[];
let postAnswer: () => Response;

beforeEach(async () => {
  calls = [];
  list = { can_delegate: true, given: [], received: [], others: [] };
  postAnswer = () => new Response(JSON.stringify({ data: handOver({}), message: 'Maria Manager will decide your approvals on 4–8 March 2030.' }), { status: 201 });
  // The choices' popover measures itself (Headless UI); jsdom has no layout to observe.
  vi.stubGlobal('ResizeObserver', class { observe() {} unobserve() {} disconnect() {} });
  vi.stubGlobal('CSS', { escape: (value: string) => value.replace(/[^\w-]/g, (c) => `\\${c}`) });
  vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    if (url.startsWith('/sanctum')) return new Response(null, { status: 204 });
    calls.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    if (method === 'GET' && url.includes('/api/delegation/candidates')) {
      return new Response(JSON.stringify({ data: [{ id: 8, label: 'Maria Manager' }, { id: 9, label: 'Mo Manager' }] }), { status: 200 });
    }
    if (method === 'GET' && url.endsWith('/api/delegation')) return new Response(JSON.stringify({ data: list }), { status: 200 });
    if (method === 'POST') return postAnswer();
    if (method === 'DELETE') {
      list = { ...list, given: [] };
      return new Response(JSON.stringify({ message: 'You decide your approvals again.' }), { status: 200 });
    }
    return new Response('{}', { status: 200 });
  }));
  document.cookie = 'XSRF-TOKEN=x';
  queryClient.clear();
  await hydrateAuth();
  await clearAuth('app');
  await storeLogin('app', login);
});
afterEach(() => { cleanup(); vi.unstubAllGlobals(); queryClient.clear(); });

const renderScreen = () => render(<QueryClientProvider client={queryClient}><DelegationScreen account="app" params={{}} routeName="delegation" /></QueryClientProvider>);
const lists = () => calls.filter((call) => call.method === 'GET' && call.url.endsWith('/api/delegation')).length;

async function chooseDelegate(name: string) {
  const input = screen.getByRole('combobox', { name: /Manager who decides for you/ }) as HTMLInputElement;
  // Typing narrows the managers the server offered; Enter takes the first left.
  await act(async () => { fireEvent.change(input, { target: { value: name.split(' ')[0] } }); });
  await screen.findByRole('option', { name });
  await act(async () => { fireEvent.keyDown(input, { key: 'ArrowDown' }); });
  await act(async () => { fireEvent.keyDown(input, { key: 'Enter' }); });
  await waitFor(() => expect(input.value).toBe(name));
}

describe('Approvals While Away', { timeout: 30_000 }, () => {
  it('says nothing is handed over once loaded, and offers the form', async () => {
    renderScreen();
    expect(screen.getByRole('status', { name: 'Loading the hand-overs' })).toBeTruthy();
    expect(await screen.findByText('Nothing is handed over')).toBeTruthy();
    expect(screen.queryByRole('status', { name: 'Loading the hand-overs' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Hand over' })).toBeTruthy();
  });

  it('hands the approvals to the manager chosen from those the server offers, then refetches the list', async () => {
    renderScreen();
    await screen.findByText('Nothing is handed over');
    await chooseDelegate('Mo Manager');
    fireEvent.change(screen.getByRole('textbox', { name: /Note/ }), { target: { value: '  Visiting the client  ' } });
    const before = lists();
    await act(async () => { fireEvent.click(screen.getByRole('button', { name: 'Hand over' })); });
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    const sent = calls.find((call) => call.method === 'POST')!;
    expect(sent.url).toMatch(/\/api\/delegation$/);
    expect(sent.body).toMatchObject({ delegate_id: 9, note: 'Visiting the client' });
    expect(sent.body).not.toHaveProperty('manager_id');
    await waitFor(() => expect(lists()).toBeGreaterThan(before));
  });

  it('asks for a manager before sending, and shows the server\'s refusal on its field', async () => {
    renderScreen();
    await screen.findByText('Nothing is handed over');
    await act(async () => { fireEvent.click(screen.getByRole('button', { name: 'Hand over' })); });
    expect(await screen.findByText('Choose the manager who decides for you.')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    postAnswer = () => new Response(JSON.stringify({ message: 'The given data was invalid.', errors: { ends_on: ['The last day has passed: choose days from today on.'] } }), { status: 422 });
    await chooseDelegate('Maria Manager');
    await act(async () => { fireEvent.click(screen.getByRole('button', { name: 'Hand over' })); });
    expect(await screen.findByText('The last day has passed: choose days from today on.')).toBeTruthy();
  });

  it('lists the hand-overs both ways, and withdraws one after asking', async () => {
    list = {
      ...list,
      given: [handOver({})],
      received: [handOver({ id: 2, manager: { id: 10, name: 'Mona Manager' }, delegate: { id: 7, name: 'Mark Manager' }, is_in_force: true, note: 'Back on Monday', sentence: 'You decide Mona Manager\'s approvals until 6 March 2030.' })],
    };
    renderScreen();
    const given = await screen.findByRole('region', { name: 'Your approvals, handed over' });
    expect(within(given).getByText('Maria Manager decides your approvals on 4–8 March 2030.')).toBeTruthy();
    expect(within(given).getByText('Coming')).toBeTruthy();
    const received = screen.getByRole('region', { name: 'Approvals handed to you' });
    expect(within(received).getByText('You decide Mona Manager\'s approvals until 6 March 2030.')).toBeTruthy();
    expect(within(received).getByText('In force')).toBeTruthy();
    expect(within(received).getByText('Note: Back on Monday')).toBeTruthy();
    // Only the one who handed them over takes them back.
    expect(within(received).queryByRole('button', { name: 'Withdraw' })).toBeNull();

    await act(async () => { fireEvent.click(within(given).getByRole('button', { name: 'Withdraw' })); });
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Maria Manager will no longer decide your approvals, and is told so.')).toBeTruthy();
    await act(async () => { fireEvent.click(within(dialog).getByRole('button', { name: 'Withdraw' })); });
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE' && call.url.endsWith('/api/delegation/1'))).toBe(true));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Your approvals, handed over' })).toBeNull());
  });

  it('says when a hand-over has no effect, and why', async () => {
    const why = 'It has no effect: Maria Manager\'s account is inactive, so you decide your approvals yourself.';
    list = { ...list, given: [handOver({ is_in_force: true, no_effect: why })] };
    renderScreen();
    const given = await screen.findByRole('region', { name: 'Your approvals, handed over' });
    expect(within(given).getByText('No effect')).toBeTruthy();
    expect(within(given).queryByText('In force')).toBeNull();
    expect(within(given).getByText(why)).toBeTruthy();
  });

  it('starts the form on the first day not yet handed over', async () => {
    list = { ...list, given: [handOver({ starts_on: today(), ends_on: addDays(today(), 2), is_in_force: true })] };
    renderScreen();
    await screen.findByRole('region', { name: 'Your approvals, handed over' });
    expect((screen.getByLabelText(/First day/) as HTMLInputElement).value).toBe(addDays(today(), 3));
    expect((screen.getByLabelText(/Last day/) as HTMLInputElement).value).toBe(addDays(today(), 7));
  });
});

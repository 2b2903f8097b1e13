// @vitest-environment jsdom
// The expenses list's totals card (issue 9) while its answer is on the way: the card's frame with a
// bar per line, not a blank box, so the list below keeps its place when the totals come.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { ExpenseTotalsSummary } from '../../src/client/features/resources/expense';
import { queryClient } from '../../src/client/lib/query';
import { clearAuth, hydrateAuth, storeLogin } from '../../src/client/stores/auth';
import type { LoginResponse } from '../../src/shared/schemas/auth';
import type { ExpenseTotals } from '../../src/shared/schemas/expense';

const login: LoginResponse = {
  data: { id: 1, name: 'Fay Finance', email: 'fay@example.com', user_type: 'admin', email_verified_at: '2024-01-01', doc_assigned: false, status: 'active', two_fa_enabled_at: null, is_enable_2fa: false, force_password_reset: false, phone: null, parent_id: null },
  access_token: 'tok', permissions: { roles: ['admin'], permissions: ['can-view-expense'] }, announcement: { status: 'off', message: '' }, message: '', status: 'success',
};

const totals: ExpenseTotals = {
  count: 2,
  by_currency: [{ currency: 'EUR', amount: 91, count: 2 }],
  by_status: [{ status: 'pending', count: 2, amounts: [{ currency: 'EUR', amount: 91 }] }],
};

let answer: (() => void) | null = null;

beforeEach(async () => {
  queryClient.clear();
  vi.stubGlobal('fetch', vi.fn((input: RequestInfo | URL) => {
    if (!String(input).includes('/api/expense/totals')) return Promise.resolve(new Response('{}', { status: 200 }));
    // Held until the test lets it through: the loading state is what is looked at first.
    return new Promise<Response>((resolve) => { answer = () => resolve(new Response(JSON.stringify({ data: totals }), { status: 200 })); });
  }));
  await hydrateAuth();
  await clearAuth('app');
  await storeLogin('app', login);
  window.history.replaceState(null, '', '/expense');
});
afterEach(() => { cleanup(); vi.unstubAllGlobals(); answer = null; });

describe('the expenses list\'s totals', () => {
  it('draw their card with placeholder lines while they load, then the totals in the same card', async () => {
    render(<ExpenseTotalsSummary />);
    const loading = screen.getByRole('status', { name: 'Loading the totals' });
    // One bar for the amounts' line, one for the badges': the card's height once they come.
    expect(loading.children).toHaveLength(2);
    const frame = loading.className;

    await vi.waitFor(() => expect(answer).not.toBeNull());
    answer!();
    const card = await screen.findByRole('region', { name: 'Totals of the listed expenses' });
    expect(card.className).toBe(frame);
    expect(within(card).getByText('EUR 91.00')).toBeTruthy();
    expect(screen.queryByRole('status', { name: 'Loading the totals' })).toBeNull();
  });
});

// @vitest-environment jsdom
// First run on the client (issue 22): the admin's setup checklist panel (links to each screen, ticks
// from the server, "Keep these" for the starting lists, gone once done) and the firm's default
// currency pre-filling a new record's currency field.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { SetupChecklistPanel } from '../../src/client/features/dashboard/setup-checklist';
import { initialFormState } from '../../src/client/ui/resources/resource-form';
import { firm, refreshFirm, setFirm } from '../../src/client/stores/firm';
import { clearAuth, hydrateAuth, storeLogin } from '../../src/client/stores/auth';
import { expense } from '../../src/shared/resources/expense';
import type { SetupChecklist, SetupStep } from '../../src/shared/schemas/setup';
import type { LoginResponse } from '../../src/shared/schemas/auth';

const step = (key: SetupStep['key'], route: string, values: Partial<SetupStep> = {}): SetupStep => ({
  key, title: `Title of ${key}`, description: `What ${key} is.`, route, is_done: false, can_confirm: false, confirmed: null, ...values,
});

let answer: SetupChecklist;
const posted: string[] = [];

const login: LoginResponse = {
  data: { id: 1, name: 'Ada Admin', email: 'ada@example.com', user_type: 'admin', email_verified_at: '2024-01-01', doc_assigned: false, status: 'active', two_fa_enabled_at: null, is_enable_2fa: false, force_password_reset: false, phone: null, parent_id: null },
  access_token: 'tok', permissions: { roles: ['admin'], permissions: ['can-view-dashboard'] }, announcement: { status: 'off', message: '' }, message: '', status: 'success',
};

beforeEach(async () => {
  posted.length = 0;
  answer = {
    is_done: false,
    steps: [
      step('firm-profile', 'setting.index', { is_done: true }),
      step('expense-categories', 'category-expense.index', { can_confirm: true }),
      step('invite-people', 'user.index'),
    ],
  };
  vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (url.includes('/api/setup-checklist/expense-categories/confirm') && init?.method?.toUpperCase() === 'POST') {
      posted.push(url);
      answer = { ...answer, steps: answer.steps.map((s) => (s.key === 'expense-categories' ? { ...s, is_done: true, can_confirm: false, confirmed: { by: 'Ada Admin', at: '2026-11-25T10:00:00.000Z' } } : s)) };
      return new Response(JSON.stringify({ data: answer, message: 'Marked as reviewed.' }), { status: 200 });
    }
    if (url.includes('/api/setup-checklist')) return new Response(JSON.stringify({ data: answer }), { status: 200 });
    if (url.endsWith('/api/firm')) return new Response(JSON.stringify({ data: { name: 'Northwind Staffing', default_currency: 'INR', logo_url: '/api/firm/logo?v=1' } }), { status: 200 });
    return new Response('{}', { status: 200 });
  }));
  await hydrateAuth();
  await clearAuth('app');
  await storeLogin('app', login);
});
afterEach(() => { cleanup(); vi.unstubAllGlobals(); });

describe('the setup checklist panel', () => {
  it('lists each step with a link to its screen and says which are done', async () => {
    render(<SetupChecklistPanel />);
    expect(await screen.findByText('1 of 3 steps done. Each step is ticked when it is done, and this list goes away when all are.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Title of expense-categories' }).getAttribute('href')).toBe('/expense-category');
    expect(screen.getByRole('link', { name: 'Open Title of invite-people' }).getAttribute('href')).toBe('/user');
    expect(screen.getByTestId('setup-step-firm-profile').getAttribute('data-done')).toBe('true');
    expect(screen.getByTestId('setup-step-invite-people').getAttribute('data-done')).toBe('false');
    // Only a starting list can be kept as it is.
    expect(screen.getAllByRole('button', { name: 'Keep these' })).toHaveLength(1);
  });

  it('keeps a starting list with "Keep these", and the server ticks it', async () => {
    render(<SetupChecklistPanel />);
    // Its name is what it shows (WCAG 2.5.3); the step it keeps is its description.
    const keep = await screen.findByRole('button', { name: 'Keep these', description: 'Title of expense-categories' });
    await act(async () => { fireEvent.click(keep); });
    expect(posted).toHaveLength(1);
    expect((await screen.findByTestId('setup-step-expense-categories')).getAttribute('data-done')).toBe('true');
    expect(screen.getByText('Kept by Ada Admin on 2026-11-25.')).toBeTruthy();
  });

  it('is not shown once every step is done', async () => {
    answer = { is_done: true, steps: answer.steps.map((s) => ({ ...s, is_done: true })) };
    render(<SetupChecklistPanel />);
    await act(async () => { await new Promise((resolve) => setTimeout(resolve, 20)); });
    expect(screen.queryByTestId('setup-checklist')).toBeNull();
  });
});

describe("the firm's default currency", () => {
  it('pre-fills the currency of a new expense claim, and leaves an existing one alone', () => {
    setFirm({ name: 'Acme', default_currency: 'EUR', logo_url: null });
    expect(firm.default_currency).toBe('EUR');
    expect(initialFormState(expense, null).values.currency).toBe('EUR');
    expect(initialFormState(expense, { id: 1, currency: 'INR' }).values.currency).toBe('INR');
    setFirm({ name: 'Acme', default_currency: 'GBP', logo_url: null });
    expect(initialFormState(expense, null).values.currency).toBe('GBP');
  });
});

describe("the firm's profile on the page", () => {
  it('follows the server when read again (a page from the precached shell carries an old copy)', async () => {
    setFirm({ name: 'Old name', default_currency: 'USD', logo_url: null });
    await refreshFirm();
    expect({ ...firm }).toEqual({ name: 'Northwind Staffing', default_currency: 'INR', logo_url: '/api/firm/logo?v=1' });
  });
});

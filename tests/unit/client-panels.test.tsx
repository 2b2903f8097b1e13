// @vitest-environment jsdom
// The frames shared by several screens (review D1, D2): the engineer's home is drawn with the
// dashboard's panel components (rows linking to what they show, the empty sentence), and the public
// capability-link pages with one frame (the firm's brand above the card, the notices).
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { EngineerHome } from '../../src/client/features/dashboard/engineer-home';
import { AppDashboardPanels } from '../../src/client/features/dashboard/app-dashboard-panels';
import { PublicNotice, PublicPage } from '../../src/client/layout/public-page';
import { clearAuth, hydrateAuth, storeLogin } from '../../src/client/stores/auth';
import type { LoginResponse } from '../../src/shared/schemas/auth';
import type { Home } from '../../src/shared/schemas/home';

const login = (permissions: string[]): LoginResponse => ({
  data: { id: 7, name: 'Eve Engineer', email: 'eve@example.com', user_type: 'user', email_verified_at: '2024-01-01', doc_assigned: false, status: 'active', two_fa_enabled_at: null, is_enable_2fa: false, force_password_reset: false, phone: null, parent_id: null },
  access_token: 'tok', permissions: { roles: ['user'], permissions }, announcement: { status: 'off', message: '' }, message: '', status: 'success',
});

describe('the engineer\'s home, in the dashboard\'s panels', () => {
  let home: Home;
  beforeEach(async () => {
    vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL) => (String(input).includes('/api/dashboard/mine')
      ? new Response(JSON.stringify({ data: home }), { status: 200 })
      : new Response('{}', { status: 200 }))));
    await hydrateAuth();
    await clearAuth('app');
    await storeLogin('app', login(['can-view-dashboard', 'can-view-leave-application', 'can-create-leave-application', 'can-view-expense', 'can-add-expense']));
  });
  afterEach(async () => { vi.unstubAllGlobals(); await clearAuth('app'); });

  it('lists the balances and each item with what it waits for, linking to the item', async () => {
    home = {
      leave_balances: { year: 2026, items: [{ leave_type_id: 1, name: 'Annual', allowance: 20, used: 2, pending: 1, remaining: 17 }] },
      items: [{ resource: 'expense', id: 42, title: 'Taxi to the client · EUR 20.00', status: 'pending', status_label: 'Pending', tone: 'yellow', waits_for: 'Waits for your manager', created_at: '2026-11-20T10:00:00Z' }],
      documents: null,
    };
    render(<EngineerHome />);
    const balances = await screen.findByTestId('leave-balances');
    expect(within(balances).getByText('Annual')).toBeTruthy();
    expect(within(balances).getByText('17 days left')).toBeTruthy();
    const grid = screen.getByTestId('engineer-home');
    expect(within(grid).getByRole('heading', { name: 'Your leave' })).toBeTruthy();
    const link = within(screen.getByTestId('my-items')).getByRole('link', { name: /Taxi to the client/ });
    expect(link.getAttribute('href')).toBe('/expense/42');
    expect(link.textContent).toContain('Waits for your manager.');
  });

  it('says so when nothing of theirs waits for anyone', async () => {
    home = { leave_balances: null, items: [], documents: null };
    render(<EngineerHome />);
    expect(await screen.findByText('Nothing of yours is waiting for anyone.')).toBeTruthy();
    expect(screen.queryByTestId('leave-balances')).toBeNull();
  });
});

afterEach(() => { cleanup(); });

describe('the main dashboard\'s panels', () => {
  it('draw a list with its rows, its empty sentence and its footer link from the same components', () => {
    render(<AppDashboardPanels data={{
      waiting: [],
      lists: [{ key: 'expiring', title: 'Expiring documents', description: 'Soon.', empty: 'Nothing expires.', items: [], all: null }],
    } as never} />);
    const grid = screen.getByTestId('dashboard-panels');
    expect(within(grid).getByText(/Nothing waits for you/)).toBeTruthy();
    expect(within(grid).getByText('Nothing expires.')).toBeTruthy();
    expect(within(grid).getAllByRole('heading').map((h) => h.textContent)).toEqual(['Waiting for you', 'Expiring documents']);
  });
});

describe('the main dashboard\'s waiting lines', () => {
  it('name the list over where its records stand, each linking to that filtered list', () => {
    render(<AppDashboardPanels data={{
      waiting: [{ key: 'expense:reviewed by accounting', label: 'Expenses', detail: 'Waiting for finance to approve', count: 12, resource: 'expense', query: { status: 'reviewed by accounting' } }],
    } as never} />);
    const line = screen.getByRole('link', { name: /Expenses/ });
    expect(line.textContent).toBe('ExpensesWaiting for finance to approve12');
    expect(line.getAttribute('href')).toContain('status=reviewed');
  });
});

describe('the public capability-link pages\' frame', () => {
  it('puts the firm\'s brand above one card holding the page', () => {
    render(<PublicPage><PublicNotice icon="alert" title="This link is invalid or has expired." text="Ask the recruiter who sent it for a new link." /></PublicPage>);
    const notice = screen.getByRole('status');
    expect(within(notice).getByRole('heading', { name: 'This link is invalid or has expired.' })).toBeTruthy();
    expect(notice.closest('.rounded-2xl')).not.toBeNull();
    expect(document.querySelector('img')?.getAttribute('src')).toBe('/logo.svg');
  });
});

describe('the main dashboard\'s money panels when there is nothing to show', () => {
  const stages = ['lead', 'qualified', 'won'].map((stage, i) => ({ stage, probability: 10 * (i + 1), count: 0, amounts: [] }));
  it('say in a sentence that no invoice waits for payment and no deal is recorded, instead of zeros over dashes', () => {
    render(<AppDashboardPanels data={{
      invoices_awaiting_payment: { count: 0, totals: [], resource: 'partner-invoice', query: { status: 'approved' } },
      pipeline: { resource: 'deal-tracking', by_stage: stages, by_owner: [], lost_reasons: [] },
    }} />);
    const grid = screen.getByTestId('dashboard-panels');
    expect(within(grid).getByText('No approved invoice is waiting for payment.')).toBeTruthy();
    expect(within(grid).getByText(/^No deals recorded yet\./)).toBeTruthy();
    expect(within(grid).queryByText('—')).toBeNull();
    expect(within(grid).queryByText(/Lead \(10%\)/)).toBeNull();
  });

  it('still show the count, the amounts and the stages once there are some', () => {
    render(<AppDashboardPanels data={{
      invoices_awaiting_payment: { count: 2, totals: [{ currency: 'EUR', amount: 2950 }], resource: 'partner-invoice', query: { status: 'approved' } },
      pipeline: { resource: 'deal-tracking', by_stage: [{ ...stages[0], count: 1, amounts: [{ currency: 'EUR', value: 1000, weighted: 100 }] }, stages[1]], by_owner: [], lost_reasons: [] },
    }} />);
    const grid = screen.getByTestId('dashboard-panels');
    expect(within(grid).getByText('2')).toBeTruthy();
    expect(within(grid).getByText(/EUR 2,950\.00/)).toBeTruthy();
    expect(within(grid).getByText(/Lead \(10%\) · 1/)).toBeTruthy();
    expect(within(grid).queryByText(/No deals recorded yet/)).toBeNull();
    // A stage with a deal leads to its deals; a stage of none is plain text, not a link to an empty list.
    expect(within(grid).getByText(/Lead \(10%\) · 1/).closest('a')!.getAttribute('href')).toBe('/deal-tracking?stage=lead');
    expect(within(grid).getByText(/Qualified \(20%\) · 0/).closest('a')).toBeNull();
  });
});

describe('the main dashboard\'s counts by status', () => {
  it('link each status that has records to its filtered list, and say a status of none as plain text', () => {
    render(<AppDashboardPanels data={{
      breakdowns: [{ key: 'requests', title: 'Requests by status', description: 'The service requests you can see.', resource: 'request', field: 'status', items: [
        { value: 'open', label: 'Open', count: 2, query: { status: 'open' } },
        { value: 'closed', label: 'Closed', count: 0, query: { status: 'closed' } },
      ] }],
    }} />);
    const grid = screen.getByTestId('dashboard-panels');
    expect(within(grid).getByText('Open').closest('a')!.getAttribute('href')).toBe('/request?status=open');
    expect(within(grid).getByText('Closed').closest('a')).toBeNull();
  });
});

describe('the weighted pipeline at a phone\'s width', () => {
  // jsdom lays nothing out; in Chromium at 390 px these two made the page 572 px wide: an owner's long
  // name widened the charts' implicit grid column, and three currencies' amounts would not shrink.
  const amounts = ['EUR', 'GBP', 'USD'].map((currency) => ({ currency, value: 1234567.89, weighted: 925925.92 }));
  const owner = { id: 2, name: 'Maximiliane Alexandra Oberhauser-Württemberg' };
  const data = { pipeline: { resource: 'deal-tracking', by_stage: [{ stage: 'negotiation', probability: 75, count: 3, amounts }], by_owner: [{ owner, count: 3, amounts }], lost_reasons: [] } };

  it('keeps its two charts in one column that a long owner name cannot widen', () => {
    render(<AppDashboardPanels data={data} />);
    // grid-cols-1 is minmax(0, 1fr): the column is the card's width, whatever its content.
    expect(screen.getByTestId('pipeline-charts').className.split(' ')).toContain('grid-cols-1');
    const label = screen.getByText(`${owner.name} · 3 open`);
    expect(label.getAttribute('title')).toBe(`${owner.name} · 3 open`);
  });

  it('lets an amount in several currencies wrap under its label instead of running past the card', () => {
    render(<AppDashboardPanels data={data} />);
    for (const value of screen.getAllByTestId('bar-value')) {
      expect(value.textContent).toMatch(/^EUR.* · GBP.* · USD/);
      const classes = value.className.split(' ');
      expect(classes).not.toContain('shrink-0');
      expect(classes).not.toContain('whitespace-nowrap');
      expect(value.parentElement!.className.split(' ')).toContain('flex-wrap');
    }
  });
});

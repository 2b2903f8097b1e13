// @vitest-environment jsdom
// The partner's approved statement on the portal against a stubbed API: its final state shows no step,
// so the page says what comes next and leads to the invoice form while no invoice bills it yet.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { preBilling } from '../../src/shared/resources/pre-billing';
import { queryClient } from '../../src/client/lib/query';
import { storeLogin } from '../../src/client/stores/auth';
import { json, loginAs, PARTNER_LOGIN, showDetail, stubDetailPage } from './detail-page-harness';

const login = (permissions: string[]) => loginAs(PARTNER_LOGIN, permissions);

const statement = (status: string) => ({
  id: 1, partner_id: 1, month: '2026-10-01', currency: 'EUR', total: 5000, note: null, status, version: 1, supplements_id: null, supplements: null,
  spreadsheet: [], created_at: '2026-11-27T11:00:00Z', updated_at: '2026-11-27T11:09:00Z', available_transitions: [], abilities: { update: false, delete: false },
  lines: [{ id: 1, engineer_id: 3, client_id: 1, quantity: 10, rate: 500, rate_type: 'day', amount: 5000, engineer: { id: 3, name: 'Dev Dara' }, client: { id: 1, name: 'Contoso' } }],
});

let row: Record<string, unknown>;
let billable: { id: number }[];

stubDetailPage({
  area: 'partner',
  path: '/partner/pre-billing/1',
  answer: (url) => {
    if (url.includes('/api/partner/invoice/billable')) return json({ data: billable });
    if (/\/api\/partner\/pre-billing\/1(\?|$)/.test(url)) return json({ data: row });
    // The firm's agreed rates (the form's currency): one engineer, in EUR.
    if (url.includes('/api/partner/engineer?')) return json({ data: [{ id: 1, currency: 'EUR', rate_type: 'day', rate: 500 }] });
    // History, versions, the form's pickers and agreed currencies: none.
    return json({ data: [] });
  },
});

const show = () => showDetail(preBilling, 'partner', '1');

describe('an approved statement on the partner portal', () => {
  it('says it is ready to invoice and leads to the invoice form while no invoice bills it', async () => {
    await storeLogin('partner', login(['can-view-invoice', 'can-add-invoice']));
    row = statement('approved');
    billable = [{ id: 1 }];
    show();
    // The statement first, then what the portal asks of the invoices: two answers, waited for one by one.
    await screen.findByText('Dev Dara');
    expect(await screen.findByRole('heading', { name: 'Ready to invoice' })).toBeTruthy();
    expect(screen.getByText('Accounting approved this statement: you may now send the invoice for it.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Create the invoice' }).getAttribute('href')).toBe('/partner/invoice/create');
  });

  it('says nothing more once an invoice bills it, or to a login that may not invoice', async () => {
    await storeLogin('partner', login(['can-view-invoice', 'can-add-invoice']));
    row = statement('approved');
    billable = [];
    show();
    await screen.findByText('Dev Dara');
    expect(screen.queryByRole('heading', { name: 'Ready to invoice' })).toBeNull();
    cleanup();
    queryClient.clear();
    await storeLogin('partner', login(['can-view-invoice']));
    billable = [{ id: 1 }];
    show();
    await screen.findByText('Dev Dara');
    expect(screen.queryByRole('link', { name: 'Create the invoice' })).toBeNull();
  });
});

describe('the partner\'s statement form', () => {
  it('starts in the currency the firm\'s rates are agreed in', async () => {
    await storeLogin('partner', login(['can-view-invoice', 'can-add-invoice']));
    window.history.replaceState(null, '', '/partner/pre-billing/create');
    const { PreBillingForm } = await import('../../src/client/features/resources/pre-billing');
    render(<PreBillingForm definition={preBilling} row={null} onSaved={() => undefined} onCancel={() => undefined} />);
    const currency = await screen.findByLabelText(/^Currency/);
    await waitFor(() => expect((currency as HTMLInputElement).value).toBe('EUR'));
  });

  it('puts focus on the first field refused when the statement is sent incomplete', async () => {
    await storeLogin('partner', login(['can-view-invoice', 'can-add-invoice']));
    row = statement('pending');
    billable = [];
    window.history.replaceState(null, '', '/partner/pre-billing/create');
    const { PreBillingForm } = await import('../../src/client/features/resources/pre-billing');
    render(<PreBillingForm definition={preBilling} row={null} onSaved={() => undefined} onCancel={() => undefined} />);
    const send = await screen.findByRole('button', { name: 'Submit pre-billing' });
    send.focus();
    fireEvent.click(send);
    expect(await screen.findByText('The month field is required.')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText(/^Month/)));
  });
});

// @vitest-environment jsdom
// The invoice's detail page (issue 21) against a stubbed API: a taxed invoice is compared like with
// like (its net with the statement's total), a net that differs is said once with by how much, and
// finance records a payment from the Payments section with the outstanding offered.
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { partlyPaidNote, partnerInvoice } from '../../src/shared/resources/partner-invoice';
import { storeLogin } from '../../src/client/stores/auth';
import { FINANCE, json, loginAs, showDetail, stubDetailPage } from './detail-page-harness';

const login = (permissions: string[]) => loginAs(FINANCE, permissions);

/** An approved invoice: net 7,200 + tax 1,440 = 8,640, half paid. */
const invoice = (overrides: Record<string, unknown> = {}) => ({
  id: 5, invoice_number: 'INV-7', partner_id: 3, partner: { id: 3, name: 'Acme' }, pre_billing_id: 9, pre_billing: { id: 9, month: '2026-10-01' },
  invoice_date: '2026-11-01', due_date: '2026-12-01', amount: 7200, tax: 1440, total: 8640, currency: 'EUR', status: 'approved',
  pre_billing_total: 7200, is_net_mismatch: false, amount_paid: 4320, outstanding: 4320, payment_date: null, is_overdue: false, status_reason: null,
  file: [], created_at: '2026-11-01T10:00:00Z', available_transitions: [],
  payments: [{ id: 1, payment_date: '2026-11-20', amount: 4320, method: 'bank transfer', reference: 'RT-5521', recorded_by: { id: 1, name: 'Fiona' } }],
  ...overrides,
});

let row: Record<string, unknown>;
let posted: { url: string; body: unknown }[] = [];
let refusal: Record<string, unknown> | null = null;

stubDetailPage({
  area: 'app',
  path: '/ikk-partner/invoice/5',
  answer: (url, init) => {
    if (init?.method === 'POST') {
      posted.push({ url, body: JSON.parse(String(init.body)) });
      if (refusal) return json(refusal, 422);
      return json({ data: row, message: 'Payment of EUR 4,320.00 recorded. Invoice INV-7 is now paid in full.' }, 201);
    }
    if (url.includes('/history')) return json({ data: [] });
    return json({ data: row });
  },
});

beforeEach(() => {
  posted = [];
  refusal = null;
});

const show = () => showDetail(partnerInvoice, 'app', '5');

describe('the invoice detail page', () => {
  it('does not flag a taxed invoice whose net is the statement\'s total, and names net and gross', async () => {
    await storeLogin('app', login(['can-view-partner-invoice']));
    row = invoice();
    show();
    await screen.findByText('Net amount');
    expect(screen.getByText('Total with tax')).toBeTruthy();
    expect(screen.queryByText(/differs|more than the approved|less than the approved/i)).toBeNull();
    expect(screen.getByTestId('payment-summary').textContent).toBe('EUR\u00a04,320.00 paid of EUR\u00a08,640.00 with tax; EUR\u00a04,320.00 outstanding.');
    expect(within(screen.getByTestId('payments')).getByText('RT-5521')).toBeTruthy();
    // Viewing only: no payment to record.
    expect(screen.queryByRole('button', { name: 'Record payment' })).toBeNull();
  });

  it('says beside the state of an invoice paid in part what was received and what is outstanding (the server\'s note)', async () => {
    await storeLogin('app', login(['can-view-partner-invoice']));
    expect(partlyPaidNote(invoice())).toBe('Partly paid: EUR\u00a04,320.00 received, EUR\u00a04,320.00 outstanding.');
    expect(partlyPaidNote(invoice({ amount_paid: 0, outstanding: 8640 }))).toBeNull();
    expect(partlyPaidNote(invoice({ status: 'on hold' }))).toBeNull();
    row = invoice({ status_note: partlyPaidNote(invoice()) });
    show();
    const status = await screen.findByRole('region', { name: 'Status' });
    expect(status.textContent).toContain('Partly paid: EUR\u00a04,320.00 received, EUR\u00a04,320.00 outstanding.');
    expect(status.textContent).not.toContain('Waiting for payment');
  });

  it('says who returned an invoice and why beside its state (decision 063), and has no empty "Reason" row otherwise', async () => {
    await storeLogin('app', login(['can-view-partner-invoice']));
    row = invoice({
      status: 'rejected', status_reason: 'The tax rate is 19%, not 20%.', status_note: 'Returned by Fiona Finance: The tax rate is 19%, not 20%.',
      amount_paid: 0, outstanding: 8640, payments: [],
    });
    show();
    const status = await screen.findByRole('region', { name: 'Status' });
    expect(status.textContent).toContain('Returned by Fiona Finance: The tax rate is 19%, not 20%.');
    // One note, the decision's, not a second one the screen put together from the reason.
    expect(status.textContent).not.toContain('Reason:');
    expect(screen.queryByText('Reason', { selector: 'dt' })).toBeNull();
    cleanup();
    row = invoice();
    show();
    await screen.findByText('Net amount');
    expect(screen.queryByText('Reason', { selector: 'dt' })).toBeNull();
  });

  it('keeps the step of an approved invoice nothing has been paid of', async () => {
    await storeLogin('app', login(['can-view-partner-invoice']));
    row = invoice({ amount_paid: 0, outstanding: 8640, payments: [] });
    show();
    const status = await screen.findByRole('region', { name: 'Status' });
    expect(status.textContent).toContain('Waiting for payment');
    expect(status.textContent).not.toContain('Partly paid');
  });

  it('links the statement it bills for a viewer who may open it, and names it plainly for one who may not', async () => {
    await storeLogin('app', login(['can-view-partner-invoice', 'can-view-pre-billing']));
    row = invoice();
    show();
    expect((await screen.findByRole('link', { name: 'October 2026' })).getAttribute('href')).toBe('/ikk-partner/pre-billing/9');
    cleanup();
    await storeLogin('app', login(['can-view-partner-invoice']));
    show();
    expect(await screen.findByText('October 2026')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'October 2026' })).toBeNull();
  });

  it('says once, on the net, what differs from the statement and by how much', async () => {
    await storeLogin('app', login(['can-view-partner-invoice']));
    row = invoice({ amount: 7250, tax: 1450, total: 8700, is_net_mismatch: true });
    show();
    const sentence = 'The invoice\'s net is EUR\u00a07,250.00, EUR\u00a050.00 more than the approved statement of EUR\u00a07,200.00.';
    expect((await screen.findByTestId('net-difference')).textContent).toBe(sentence);
    expect(document.body.textContent!.split('than the approved statement')).toHaveLength(2);
  });

  it('lets finance record a payment, offering what is outstanding', async () => {
    await storeLogin('app', login(['can-view-partner-invoice', 'can-pay-partner-invoice']));
    row = invoice();
    show();
    fireEvent.click(await screen.findByRole('button', { name: 'Record payment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Record a payment for invoice INV-7' });
    expect((within(dialog).getByLabelText(/^Amount/) as HTMLInputElement).value).toBe('4320.00');
    fireEvent.change(within(dialog).getByLabelText(/^Amount/), { target: { value: '5000' } });
    fireEvent.change(within(dialog).getByLabelText(/^Reference/), { target: { value: 'RT-5522' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Record payment' }));
    // More than is outstanding is said before anything is sent.
    await waitFor(() => expect(dialog.textContent).toContain('The payment of EUR\u00a05,000.00 is more than the EUR\u00a04,320.00 outstanding on this invoice.'));
    expect(posted).toEqual([]);
    fireEvent.change(within(dialog).getByLabelText(/^Amount/), { target: { value: '4,320' } });
    fireEvent.change(within(dialog).getByLabelText(/^Method/), { target: { value: 'cheque' } });
    // Paid in full: the invoice read again has no Record payment button to give focus back to.
    row = invoice({ status: 'paid', amount_paid: 8640, outstanding: 0, payment_date: '2026-11-27' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Record payment' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    // Focus is on the summary, which once the invoice is read again says what was paid, not lost to the page.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('payment-summary')));
    await waitFor(() => expect(screen.getByTestId('payment-summary').textContent).toMatch(/^Paid in full/));
    expect(screen.queryByRole('button', { name: 'Record payment' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByTestId('payment-summary'));
    expect(posted[0]).toEqual({ url: '/api/partner-invoice/5/payments', body: { payment_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), amount: 4320, method: 'cheque', reference: 'RT-5522' } });
  });

  it('puts the server\'s refusal under its field and asks before Cancel throws the typed payment away', async () => {
    await storeLogin('app', login(['can-view-partner-invoice', 'can-pay-partner-invoice']));
    row = invoice();
    refusal = { message: 'The given data was invalid.', errors: { reference: ['The reference has already been recorded on this invoice.'] } };
    show();
    fireEvent.click(await screen.findByRole('button', { name: 'Record payment' }));
    const dialog = await screen.findByRole('dialog');
    const reference = within(dialog).getByLabelText(/^Reference/);
    fireEvent.change(reference, { target: { value: 'RT-5521' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Record payment' }));
    await waitFor(() => expect(reference.getAttribute('aria-describedby') ?? '').toMatch(/error/));
    expect(document.getElementById(reference.getAttribute('aria-describedby')!.split(' ').find((id) => id.includes('error'))!)?.textContent)
      .toContain('The reference has already been recorded on this invoice.');
    await waitFor(() => expect(document.activeElement).toBe(reference));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('button', { name: 'Keep editing' })).toBeTruthy();
  });
});

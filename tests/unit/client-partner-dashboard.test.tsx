// @vitest-environment jsdom
// The partner portal's dashboard says what the invoice's own page says: nothing to correct is plain
// text (not a link to an empty list), and a payment that left an invoice open reads "Partly paid".
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { PartnerDashboardPanels, type PartnerDashboardData } from '../../src/client/features/dashboard/partner-dashboard';

afterEach(cleanup);

const data = (overrides: Partial<PartnerDashboardData> = {}): PartnerDashboardData => ({
  unread_notifications: 0, to_correct: { pre_billings: 0, invoices: 2 }, year: 2026, amounts: [], recent: [], ...overrides,
});

describe('partner dashboard', () => {
  it('names what has nothing to correct in plain text and links only what has something', () => {
    render(<PartnerDashboardPanels data={data()} />);
    const waiting = screen.getByTestId('partner-to-correct');
    expect(within(waiting).queryByRole('link', { name: /Pre-billing statements to correct/ })).toBeNull();
    expect(within(waiting).getByText('Pre-billing statements to correct').closest('li')?.textContent).toBe('Pre-billing statements to correctNone');
    expect(within(waiting).getByRole('link', { name: /Invoices to correct/ }).getAttribute('href')).toBe('/partner/invoice?status=rejected');
  });

  it('reads a payment that left the invoice open as partly paid, and one that closed it as paid', () => {
    const entry = { resource: 'partner-invoice' as const, record_id: 4, title: 'INV-7', transition: 'payment-received', actor: 'Fiona Finance', comment: null };
    render(<PartnerDashboardPanels data={data({ recent: [
      { ...entry, to: 'paid', created_at: '2026-05-04T10:00:00Z' },
      { ...entry, to: 'approved', created_at: '2026-05-03T10:00:00Z' },
      { ...entry, transition: 'approve', to: 'approved', actor: 'Fiona Finance', created_at: '2026-05-02T10:00:00Z' },
    ] })} />);
    const lines = within(screen.getByTestId('partner-recent')).getAllByRole('link').map((link) => link.textContent ?? '');
    expect(lines[0]).toMatch(/^Invoice INV-7Paid/);
    expect(lines[1]).toMatch(/^Invoice INV-7Partly paidFiona Finance recorded a payment/);
    // The approval itself, before any payment, still reads as what it was then.
    expect(lines[2]).toMatch(/^Invoice INV-7Approved, awaiting payment/);
  });
});

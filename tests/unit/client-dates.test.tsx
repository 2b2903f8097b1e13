// @vitest-environment jsdom
// Calendar dates on screen (issue 21). This file also runs under TZ=America/Los_Angeles and
// TZ=Pacific/Auckland (the unit-la and unit-auckland projects): a calendar date reads the same in
// every zone, and a timestamp reads as the day it falls on where the reader is.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { AppDashboardPanels } from '../../src/client/features/dashboard/app-dashboard-panels';
import { formatDate, formatDateTime } from '../../src/client/lib/format';
import { displayText } from '../../src/client/ui/resources/resource-values';
import { contract } from '../../src/shared/resources/contract';

afterEach(cleanup);

describe('calendar dates on screen', () => {
  it('shows a contract ending 2026-12-05 as 2026-12-05 on the dashboard', () => {
    render(<AppDashboardPanels data={{
      lists: [{
        key: 'expiring-contracts', title: 'Expiring contracts', empty: 'No contract ends in the next 30 days.',
        items: [{ id: 1, title: 'PO-1001', detail: 'Acme · Active', date: '2026-12-05', badge: { label: 'In 10 days', tone: 'yellow' }, resource: 'contract' }],
      }],
    }} />);
    expect(screen.getByText('2026-12-05')).toBeTruthy();
    expect(screen.queryByText('2026-12-04')).toBeNull();
    expect(screen.queryByText('2026-12-06')).toBeNull();
  });

  it('formats a calendar date as written, in lists and on detail pages', () => {
    expect(formatDate('2026-12-05')).toBe('2026-12-05');
    expect(formatDateTime('2026-12-05')).toBe('2026-12-05');
    expect(formatDate('2026-01-01')).toBe('2026-01-01');
    const row = { end_date: '2026-12-05' };
    expect(displayText(contract.fields.end_date, 'end_date', row, 'list')).toBe('2026-12-05');
    expect(displayText(contract.fields.end_date, 'end_date', row, 'detail')).toBe('2026-12-05');
  });

  it('formats a timestamp as the day and time where the reader is', () => {
    const at = new Date(2026, 11, 5, 23, 30); // 23:30 on 5 December on this machine's clock
    expect(formatDate(at.toISOString())).toBe('2026-12-05');
    expect(formatDateTime(at.toISOString())).toBe('2026-12-05 23:30');
  });
});

// @vitest-environment jsdom
// What the lists say and how they hold long values: labels inside sentences keep their acronyms
// ("Search PO number…", not "po number"), file rules read as a sentence, a month sorts by time, a
// list's status badge may wrap, and a wide table's sticky actions show an edge while columns pass beneath.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { buildPageMeta } from '../../src/shared/pagination';
import { contract } from '../../src/shared/resources/contract';
import { preBilling } from '../../src/shared/resources/pre-billing';
import { leaveApplication } from '../../src/shared/resources/leave-application';
import { inSentence } from '../../src/client/lib/format';
import { fileRules } from '../../src/client/ui/resources/file-field';
import { displayValue, workflowFor } from '../../src/client/ui/resources/resource-values';
import { ResourceList } from '../../src/client/ui/resources/resource-list';
import { DataTable } from '../../src/client/ui/table';
import { DateField } from '../../src/client/ui/date-input';
import { Button } from '../../src/client/ui/button';
import { clearAuth, hydrateAuth, storeLogin } from '../../src/client/stores/auth';
import type { LoginResponse } from '../../src/shared/schemas/auth';

const login = (permissions: string[]): LoginResponse => ({
  data: { id: 1, name: 'Ada', email: 'ada@example.com', user_type: 'admin', email_verified_at: '2024-01-01', doc_assigned: false, status: 'active', two_fa_enabled_at: null, is_enable_2fa: false, force_password_reset: false, phone: null, parent_id: null },
  access_token: 'tok', permissions: { roles: ['admin'], permissions }, announcement: { status: 'off', message: '' }, message: '', status: 'success',
});

beforeEach(async () => {
  vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL) => {
    if (String(input).startsWith('/sanctum')) return new Response(null, { status: 204 });
    return new Response(JSON.stringify({ data: [], meta: buildPageMeta(1, 15, 0, (p) => `http://localhost/api/x?page=${p}`) }), { status: 200 });
  }));
  document.cookie = 'XSRF-TOKEN=x';
  await hydrateAuth();
  await clearAuth('app');
});
afterEach(() => { cleanup(); vi.unstubAllGlobals(); vi.restoreAllMocks(); });

describe('labels inside sentences', () => {
  it('lower-cases the words but keeps the acronyms', () => {
    expect(inSentence('PO number')).toBe('PO number');
    expect(inSentence('BGV Checks')).toBe('BGV checks');
    expect(inSentence('Employee ID')).toBe('employee ID');
    expect(inSentence('End (expiry) date')).toBe('end (expiry) date');
    expect(inSentence('Leave Applications')).toBe('leave applications');
  });

  it('searches a contract list by "PO number", and sorts statements by month as time', async () => {
    await storeLogin('app', login(['can-view-contract', 'can-view-pre-billing']));
    window.history.replaceState(null, '', '/contract');
    const { unmount } = render(<ResourceList definition={contract} account="app" />);
    expect(screen.getByRole('searchbox').getAttribute('placeholder')).toBe('Search PO number…');
    unmount();

    window.history.replaceState(null, '', '/ikk-partner/pre-billing');
    render(<ResourceList definition={preBilling} account="app" />);
    const sort = screen.getByRole('combobox', { name: 'Sort by' });
    const labels = [...sort.querySelectorAll('option')].map((option) => option.textContent);
    expect(labels).toContain('Month: newest');
    expect(labels).not.toContain('Month: Z–A');
  });
});

describe('file rules', () => {
  it('reads as a sentence, for many files and for one', () => {
    expect(fileRules({ extensions: ['pdf', 'png', 'jpg'], maxBytes: 10 * 1024 * 1024, isMultiple: true, maxFiles: 10 }))
      .toBe('PDF, PNG or JPG files of up to 10\u00a0MB each, at most 10.');
    expect(fileRules({ extensions: ['pdf'], maxBytes: 10 * 1024 * 1024 })).toBe('One PDF file of up to 10\u00a0MB.');
  });
});

describe('buttons', () => {
  it('look unavailable when disabled or busy, in every variant', () => {
    // `unavailable:` is styles.css's variant for :disabled and [aria-disabled="true"] (a busy button keeps its focus).
    render(<>{(['primary', 'secondary', 'ghost', 'danger'] as const).map((variant) => <Button key={variant} variant={variant} disabled>{variant}</Button>)}</>);
    for (const variant of ['secondary', 'ghost', 'danger']) expect(screen.getByRole('button', { name: variant }).className).toMatch(/\bunavailable:opacity-\d+/);
    expect(screen.getByRole('button', { name: 'primary' }).className).toContain('unavailable:bg-');
  });
});

describe('date fields', () => {
  it('show the format once, in the box, and describe the box by a hint only when there is one', () => {
    const { unmount } = render(<DateField name="from" label="Start date" value="" onChange={() => {}} />);
    const box = screen.getByRole('textbox', { name: 'Start date' });
    expect(box.getAttribute('placeholder')).toBe('YYYY-MM-DD');
    expect(screen.queryByText('YYYY-MM-DD')).toBeNull();
    expect(box.getAttribute('aria-describedby')).toBeNull();
    unmount();
    render(<DateField name="from" label="Start date" value="" onChange={() => {}} hint="The first working day." />);
    const hint = screen.getByText('The first working day.');
    expect(screen.getByRole('textbox', { name: 'Start date' }).getAttribute('aria-describedby')).toBe(hint.id);
  });
});

describe('long values in lists', () => {
  it('lets a status badge wrap in a list cell, not on a detail page', () => {
    const row = { status: 'SBD request Leave taken Back fill not available/arranged' };
    const workflow = workflowFor(leaveApplication, 'status');
    const { unmount } = render(<>{displayValue(leaveApplication.fields.status, 'status', row, 'list', workflow)}</>);
    expect(screen.getByText(row.status).className).not.toContain('whitespace-nowrap');
    unmount();
    render(<>{displayValue(leaveApplication.fields.status, 'status', row, 'detail', workflow)}</>);
    expect(screen.getByText(row.status).className).toContain('whitespace-nowrap');
  });

  it('keeps a day on one line in a list cell', () => {
    render(<>{displayValue(contract.fields.end_date, 'end_date', { end_date: '2026-11-26' }, 'list')}</>);
    expect(screen.getByText('2026-11-26').className).toContain('whitespace-nowrap');
  });

  it('marks the sticky actions while columns are hidden beneath them, and the title once scrolled', () => {
    // jsdom lays nothing out: the scroller's widths are given, as a 1,050 px box holding a 1,160 px table.
    const widths = { clientWidth: 1050, scrollWidth: 1160 };
    for (const [key, value] of Object.entries(widths)) {
      vi.spyOn(HTMLElement.prototype, key as 'clientWidth', 'get').mockImplementation(function (this: HTMLElement) {
        return this.classList.contains('md:overflow-x-auto') ? value : 0;
      });
    }
    const rows = [{ id: 1, name: 'PO-1' }];
    const { container } = render(
      <DataTable caption="Contracts" rows={rows} rowKey={(row) => row.id} actions={() => <button type="button">View</button>}
        columns={[{ key: 'name', header: 'PO number', render: (row) => row.name, isPrimary: true }]} />,
    );
    const actions = () => screen.getByRole('button', { name: 'View' }).closest('td')!;
    const title = () => screen.getByText('PO-1').closest('td')!;
    expect(actions().className).toContain('before:bg-linear-to-l');
    expect(title().className).not.toContain('before:bg-linear-to-r');

    const scroller = container.querySelector<HTMLElement>('.md\\:overflow-x-auto')!;
    act(() => { scroller.scrollLeft = 110; fireEvent.scroll(scroller); });
    expect(actions().className).not.toContain('before:bg-linear-to-l');
    expect(title().className).toContain('before:bg-linear-to-r');
  });
});

// @vitest-environment jsdom
// The engineer's own screens as they read on a first visit and after a step, against a stubbed API:
// what an empty list tells them, what a phone shows of their leave balance and of a review comment,
// and which week an upload starts on.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { buildPageMeta } from '../../src/shared/pagination';
import MyDocuments from '../../src/client/features/compliance/my-documents';
import { UploadDialogForm } from '../../src/client/features/time-sheet/upload-dialog';
import TimeSheetScreen from '../../src/client/features/time-sheet/time-sheet';
import { LeaveBalanceCard } from '../../src/client/features/profile/leave-balance';
import { clearAuth, hydrateAuth, storeLogin } from '../../src/client/stores/auth';
import { queryClient } from '../../src/client/lib/query';
import type { LoginResponse } from '../../src/shared/schemas/auth';

const login = (permissions: string[]): LoginResponse => ({
  data: { id: 7, name: 'Eve Engineer', email: 'eve@example.com', user_type: 'user', email_verified_at: '2024-01-01', doc_assigned: false, status: 'active', two_fa_enabled_at: null, is_enable_2fa: false, force_password_reset: false, phone: null, parent_id: 3 },
  access_token: 'tok', permissions: { roles: ['user'], permissions }, announcement: { status: 'off', message: '' }, message: '', status: 'success',
});

/** Answers per path prefix; a list answers with its rows and Laravel's meta. */
let answers: Record<string, unknown> = {};
/** The writes the screen sent, as "POST /path". */
let posted: string[] = [];
const list = (rows: unknown[], path: string) => ({ data: rows, meta: buildPageMeta(1, 15, rows.length, (p) => `http://localhost/api${path}?page=${p}`) });

beforeEach(async () => {
  answers = {};
  posted = [];
  vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname.startsWith('/sanctum')) return new Response(null, { status: 204 });
    const path = url.pathname.replace(/^\/api/, '');
    const method = init?.method ?? 'GET';
    if (method !== 'GET') posted.push(`${method} ${path}`);
    const answer = answers[method === 'GET' ? path : `${method} ${path}`];
    return answer === undefined ? new Response(JSON.stringify({ message: `No stub for ${path}` }), { status: 404 }) : new Response(JSON.stringify(answer), { status: 200 });
  }));
  document.cookie = 'XSRF-TOKEN=x';
  await hydrateAuth();
  await clearAuth('app');
  await storeLogin('app', login(['can-view-own-document', 'can-view-leave-application', 'can-create-leave-application', 'can-view-time-sheet', 'can-add-time-sheet']));
});
afterEach(async () => { cleanup(); queryClient.clear(); vi.unstubAllGlobals(); await clearAuth('app'); });

describe('My Documents on a first visit', () => {
  it('tells the engineer what to add to their own documents, not "No own documents yet"', async () => {
    answers['/document-assign-history'] = { data: [] };
    answers['/document'] = list([], '/document');
    window.history.replaceState(null, '', '/document');
    render(<MyDocuments account="app" params={{}} routeName="upload-assigned-document.index" />);
    expect(await screen.findByText('You have not added any documents yet')).toBeTruthy();
    expect(screen.getByText(/certification, visa, clearance or NDA you hold/)).toBeTruthy();
    expect(screen.queryByText(/own documents yet/i)).toBeNull();
    expect(screen.queryByText(/first own document/i)).toBeNull();
  });

  it('does not count "0 waiting for you" above a list that says nothing is assigned', async () => {
    answers['/document-assign-history'] = { data: [] };
    answers['/document'] = list([], '/document');
    render(<MyDocuments account="app" params={{}} routeName="upload-assigned-document.index" />);
    expect(await screen.findByText('Nothing is assigned to you.')).toBeTruthy();
    expect(screen.queryByText(/0 waiting for you/)).toBeNull();
  });
});

describe('the leave balance on the profile', () => {
  it('puts the days left right after the leave type, where a phone shows them without scrolling the table', async () => {
    answers['/leave-application/balance'] = { data: {
      user: { id: 7, name: 'Eve Engineer' }, year: 2026, request: null,
      balances: [{ leave_type_id: 1, name: 'Compensatory', allowance: 5, used: 1, pending: 2, remaining: 2 }],
    } };
    render(<LeaveBalanceCard canApply />);
    const table = await screen.findByRole('table');
    expect(within(table).getAllByRole('columnheader').map((header) => header.textContent)).toEqual(['Leave type', 'Remaining', 'Allowance', 'Used', 'Pending']);
    const [type, remaining] = within(table).getAllByRole('row')[1].children;
    expect(type.textContent).toBe('Compensatory');
    expect(within(remaining as HTMLElement).getByLabelText('2 days').textContent).toBe('2');
  });
});

describe('the time-sheet upload', () => {
  // Friday 27 November 2026, at noon wherever the tests run.
  beforeEach(() => { vi.useFakeTimers({ toFake: ['Date'] }); vi.setSystemTime(new Date('2026-11-27T12:00:00Z')); answers['/client/options'] = { data: [] }; });
  afterEach(() => { vi.useRealTimers(); });
  const start = () => screen.getByLabelText(/Period start/) as HTMLInputElement;

  it('starts a week on this week\'s Monday, not on the 1st of the month', () => {
    render(<UploadDialogForm onDone={() => {}} />);
    expect(start().value).toBe('2026-11-01');
    fireEvent.change(screen.getByLabelText(/^Period/, { selector: 'select' }), { target: { value: 'week' } });
    expect(start().value).toBe('2026-11-23');
    fireEvent.change(screen.getByLabelText(/^Period/, { selector: 'select' }), { target: { value: 'month' } });
    expect(start().value).toBe('2026-11-01');
  });

  it('keeps a start the engineer typed when they change the period', () => {
    render(<UploadDialogForm onDone={() => {}} />);
    fireEvent.change(start(), { target: { value: '2026-11-16' } });
    fireEvent.change(screen.getByLabelText(/^Period/, { selector: 'select' }), { target: { value: 'week' } });
    expect(start().value).toBe('2026-11-16');
  });
});

describe('the engineer\'s time-sheet list', () => {
  const rejected = {
    id: 1, user_id: 7, client_id: 2, period_type: 'week', period_start: '2026-11-23', period_end: '2026-11-29', hours: 40, status: 'rejected',
    file_name: 'week.pdf', note: null, comment: 'The hours for Wednesday are missing the client sign-off. Ask Dana at Northwind to countersign page 2.',
    created_at: '2026-11-27T10:00:00Z', user: { id: 7, name: 'Eve Engineer' }, client: { id: 2, name: 'Northwind' },
    available_transitions: [], abilities: { update: false, delete: false },
  };

  it('shows the whole review comment, not two clamped lines of it', async () => {
    answers['/time-sheet'] = list([rejected], '/time-sheet');
    answers['/client/options'] = { data: [] };
    window.history.replaceState(null, '', '/time-sheet');
    render(<TimeSheetScreen account="app" params={{}} routeName="time-sheet.index" />);
    const comment = await screen.findByText(rejected.comment);
    expect(comment.className).not.toMatch(/line-clamp/);
    expect(screen.getByText(/Your manager reviews it; a rejected sheet says why/)).toBeTruthy();
  });

  it('opens the upload of a rejected sheet with its client, period and hours, so only the corrected file is chosen', async () => {
    answers['/time-sheet'] = list([rejected], '/time-sheet');
    answers['/client/options'] = { data: [] };
    window.history.replaceState(null, '', '/time-sheet');
    render(<TimeSheetScreen account="app" params={{}} routeName="time-sheet.index" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Upload the time sheet from 2026-11-23 again' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upload time sheet' });
    expect((within(dialog).getByRole('combobox', { name: /Client/ }) as HTMLInputElement).value).toBe('Northwind');
    expect((within(dialog).getByLabelText(/^Period/, { selector: 'select' }) as HTMLSelectElement).value).toBe('week');
    expect((within(dialog).getByLabelText(/Period start/) as HTMLInputElement).value).toBe('2026-11-23');
    expect((within(dialog).getByLabelText(/Hours/) as HTMLInputElement).value).toBe('40');
  });

  it('offers the engineer Withdraw on a sheet still waiting for review, asks first, and sends it (decision 058)', async () => {
    const pending = { ...rejected, id: 2, status: 'pending', comment: null, available_transitions: [{ name: 'withdraw', label: 'Withdraw', requires_comment: false, tone: 'neutral' }] };
    answers['/time-sheet'] = list([pending, rejected], '/time-sheet');
    answers['/client/options'] = { data: [] };
    answers['POST /time-sheet/2/transitions/withdraw'] = { data: { ...pending, status: 'withdrawn', available_transitions: [] }, message: 'You withdrew the time sheet.' };
    window.history.replaceState(null, '', '/time-sheet');
    render(<TimeSheetScreen account="app" params={{}} routeName="time-sheet.index" />);
    const withdraw = await screen.findByRole('button', { name: 'Withdraw time sheet from 2026-11-23' });
    // One per waiting sheet, and no review button for the engineer's own.
    expect(screen.getAllByRole('button', { name: /^Withdraw/ })).toHaveLength(1);
    expect(screen.queryByRole('button', { name: /^Review/ })).toBeNull();
    fireEvent.click(withdraw);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Withdraw your time sheet for 2026-11-23 to 2026-11-29 (40 h)?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Withdraw' }));
    await waitFor(() => expect(posted).toContain('POST /time-sheet/2/transitions/withdraw'));
    // Its button is gone with the sheet's new state: focus goes to the next step, not to the page.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Upload time sheet' })));
  });
});

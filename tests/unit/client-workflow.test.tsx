// @vitest-environment jsdom
// The generic screens of a workflow definition against a stubbed API: transition buttons come from
// the row's available_transitions only, a required comment is asked before anything is sent, a 409
// or 422 is handled, the list's bulk bar offers what all selected rows allow and posts their ids,
// and the history reads as a timeline, oldest first.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { ToastContainer } from 'react-toastify';
import { z } from 'zod';
import { buildPageMeta } from '../../src/shared/pagination';
import { defineResource, requiredText, type AvailableTransition, type HistoryEntry, withReason } from '../../src/shared/resources/define';
import { ResourceDetail } from '../../src/client/ui/resources/resource-detail';
import { ResourceList } from '../../src/client/ui/resources/resource-list';
import { bulkSummary, commonTransitions } from '../../src/client/ui/resources/workflow';
import { clearAuth, hydrateAuth, storeLogin } from '../../src/client/stores/auth';
import type { LoginResponse } from '../../src/shared/schemas/auth';

const leave = defineResource({
  name: 'test-leave',
  label: 'Leave Application',
  pluralLabel: 'Leave Applications',
  schema: z.object({ reason: requiredText('reason') }),
  fields: {
    reason: { label: 'Reason', input: 'text', isColumn: true },
    status: { label: 'Status', input: 'select', isColumn: true, isInForm: false },
  },
  titleKey: 'reason',
  search: ['reason'],
  defaultSort: { key: 'reason', direction: 'asc' },
  permissions: { view: 'can-view-leave-application' },
  routes: { index: 'leave-application.index', show: 'leave-application.show' },
  workflow: {
    field: 'status', initial: 'pending', ownerField: 'user_id',
    states: {
      pending: { label: 'Pending', tone: 'yellow', step: 'Waiting for the manager' },
      approved: { label: 'Approved', tone: 'green', isFinal: true, step: 'Never shown' },
      rejected: { label: 'Rejected', tone: 'red', isFinal: true },
    },
    transitions: [
      { name: 'approve', label: 'Approve', from: ['pending'], to: 'approved', permission: 'can-edit-leave-application', comment: 'optional',
        words: { confirm: (r) => `Approve the leave for ${String(r.reason)}?`, confirmMany: (n) => `Approve ${n} leaves?`, doneMany: (n) => `You approved ${n} leaves.`, history: (actor) => `${actor} approved the leave` } },
      { name: 'reject', label: 'Reject', from: ['pending'], to: 'rejected', permission: 'can-edit-leave-application', comment: 'required', tone: 'danger',
        words: { confirm: (r) => `Reject the leave for ${String(r.reason)}?`, confirmMany: (n) => `Reject ${n} leaves?`, doneMany: (n) => `You rejected ${n} leaves.`, history: (actor) => `${actor} rejected the leave`,
          note: (f) => withReason(`Rejected by ${f.actor}`, f.comment) } },
      { name: 'cancel', label: 'Cancel', from: ['pending'], to: 'rejected', permission: 'can-view-leave-application', comment: 'none',
        words: { confirm: () => 'Cancel your leave?', confirmMany: (n) => `Cancel ${n} leaves?`, doneMany: (n) => `You cancelled ${n} leaves.`, history: (actor) => `${actor} cancelled the leave` } },
    ],
    events: { create: { history: (actor) => `${actor} applied for the leave` } },
  },
});

const approve: AvailableTransition = { name: 'approve', label: 'Approve', requires_comment: false, tone: 'primary' };
const reject: AvailableTransition = { name: 'reject', label: 'Reject', requires_comment: true, tone: 'danger' };

const login = (permissions: string[]): LoginResponse => ({
  data: { id: 1, name: 'Ada', email: 'ada@example.com', user_type: 'admin', email_verified_at: '2024-01-01', doc_assigned: false, status: 'active', two_fa_enabled_at: null, is_enable_2fa: false, force_password_reset: false, phone: null, parent_id: null },
  access_token: 'tok', permissions: { roles: ['admin'], permissions }, announcement: { status: 'off', message: '' }, message: '', status: 'success',
});

type Answer = { status: number; body: unknown };
let calls: { method: string; url: string; body: unknown }[] = [];
let record: Record<string, unknown>;
let listRows: Record<string, unknown>[];
let history: HistoryEntry[];
let transitionAnswer: Answer;
let bulkAnswer: Answer;

const json = (answer: Answer) => new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'Content-Type': 'application/json' } });

beforeEach(async () => {
  // jsdom has no CSS.escape; the form engine uses it to focus the first field with an error.
  vi.stubGlobal('CSS', { escape: (value: string) => value.replace(/[^\w-]/g, (c) => `\\${c}`) });
  calls = [];
  record = { id: 1, reason: 'Family trip', status: 'pending', available_transitions: [approve] };
  listRows = [];
  history = [];
  transitionAnswer = { status: 200, body: { data: { ...record, status: 'approved', available_transitions: [] }, message: 'Leave application approved.' } };
  bulkAnswer = { status: 200, body: { data: [] } };
  vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    calls.push({ method, url, body: typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body });
    if (url.startsWith('/sanctum')) return new Response(null, { status: 204 });
    if (method === 'POST' && /\/api\/test-leave\/transitions\//.test(url)) return json(bulkAnswer);
    if (method === 'POST' && /\/api\/test-leave\/\d+\/transitions\//.test(url)) return json(transitionAnswer);
    if (/\/api\/test-leave\/\d+\/history/.test(url)) return json({ status: 200, body: { data: history } });
    if (/\/api\/test-leave\/\d+/.test(url)) return json({ status: 200, body: { data: record } });
    const meta = buildPageMeta(1, 15, listRows.length, (p) => `http://localhost/api/test-leave?page=${p}`);
    return json({ status: 200, body: { data: listRows, meta } });
  }));
  document.cookie = 'XSRF-TOKEN=x';
  await hydrateAuth();
  await clearAuth('app');
  await storeLogin('app', login(['can-view-leave-application']));
  window.history.replaceState(null, '', '/leave-application');
});
afterEach(() => { cleanup(); vi.unstubAllGlobals(); });

const gets = (pattern: RegExp) => calls.filter((c) => c.method === 'GET' && pattern.test(c.url)).length;
const posts = () => calls.filter((c) => c.method === 'POST' && c.url.includes('/transitions/'));

describe('workflow on the detail page', () => {
  it('shows the state with its step and one button per available transition only', async () => {
    render(<ResourceDetail definition={leave} account="app" id="1" />);
    const badge = await screen.findByText('Pending');
    expect(badge.className).toContain('yellow');
    expect(screen.getByText('Waiting for the manager')).toBeTruthy();
    const actions = screen.getByRole('group', { name: 'Actions' });
    // The workflow defines approve, reject and cancel; the server offered approve only.
    expect(within(actions).getAllByRole('button').map((b) => b.textContent)).toEqual(['Approve']);
    expect(screen.queryByRole('button', { name: 'Reject' })).toBeNull();
  });

  it('says beside the state who decided and why (decision 063), as the record carries it, in place of the step', async () => {
    record = { id: 1, reason: 'Family trip', status: 'rejected', status_note: 'Rejected by Maria Manager: Too many people away that week.', available_transitions: [] };
    render(<ResourceDetail definition={leave} account="app" id="1" />);
    const status = await screen.findByRole('region', { name: 'Status' });
    expect(within(status).getByText('Rejected')).toBeTruthy();
    expect(within(status).getByText('Rejected by Maria Manager: Too many people away that week.')).toBeTruthy();
  });

  it('shows no step and no buttons for a final state', async () => {
    record = { id: 1, reason: 'Family trip', status: 'approved', available_transitions: [] };
    render(<ResourceDetail definition={leave} account="app" id="1" />);
    expect((await screen.findByText('Approved')).className).toContain('emerald');
    expect(screen.queryByText('Never shown')).toBeNull();
    expect(screen.queryByRole('group', { name: 'Actions' })).toBeNull();
  });

  it('does not send a required-comment transition without a comment, then sends it and refetches', async () => {
    record.available_transitions = [approve, reject];
    transitionAnswer = { status: 200, body: { data: { ...record, status: 'rejected', available_transitions: [] }, message: 'Leave application rejected.' } };
    render(<><ResourceDetail definition={leave} account="app" id="1" /><ToastContainer /></>);
    const rejectButton = await screen.findByRole('button', { name: 'Reject' });
    expect(rejectButton.className).toContain('rose');
    fireEvent.click(rejectButton);
    const dialog = await screen.findByRole('dialog');
    const comment = within(dialog).getByRole('textbox', { name: /Comment/ });
    expect(comment.getAttribute('aria-required')).toBe('true');
    await act(async () => { fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' })); });
    expect(within(dialog).getByText('The comment field is required.')).toBeTruthy();
    expect(posts()).toEqual([]);

    const recordGets = gets(/\/api\/test-leave\/1$/);
    const historyGets = gets(/\/history/);
    record = { ...record, status: 'rejected', available_transitions: [] };
    fireEvent.change(comment, { target: { value: 'Too many people away that week' } });
    await act(async () => { fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' })); });
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]).toMatchObject({ url: '/api/test-leave/1/transitions/reject', body: { comment: 'Too many people away that week' } });
    expect(await screen.findByText('Leave application rejected.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(gets(/\/api\/test-leave\/1$/)).toBeGreaterThan(recordGets));
    await waitFor(() => expect(gets(/\/history/)).toBeGreaterThan(historyGets));
    expect(await screen.findByText('Rejected')).toBeTruthy();
  });

  it('asks a plain confirmation for a transition without comment and sends an empty body', async () => {
    render(<ResourceDetail definition={leave} account="app" id="1" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByRole('textbox')).toBeNull();
    // Issue 24: the transition's own question about this record.
    expect(within(dialog).getByRole('heading').textContent).toBe('Approve the leave for Family trip?');
    await act(async () => { fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' })); });
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0].body).toEqual({});
  });

  it('moves focus to the status, which reads the new state, once a decision is taken and its button is gone', async () => {
    record = { ...record, available_transitions: [approve, reject] };
    transitionAnswer = { status: 200, body: { data: { ...record, status: 'approved', available_transitions: [] }, message: 'Leave application approved.' } };
    render(<ResourceDetail definition={leave} account="app" id="1" />);
    const approveButton = await screen.findByRole('button', { name: 'Approve' });
    approveButton.focus();
    fireEvent.click(approveButton);
    const dialog = await screen.findByRole('dialog');
    record = { ...record, status: 'approved', available_transitions: [] };
    await act(async () => { fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' })); });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const status = screen.getByRole('region', { name: 'Status' });
    await waitFor(() => expect(document.activeElement).toBe(status));
    expect(within(status).getByText('Approved')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
  });

  it('shows the message of a 409 (someone decided first) and refetches the record', async () => {
    transitionAnswer = { status: 409, body: { message: 'This leave application is no longer pending.' } };
    render(<><ResourceDetail definition={leave} account="app" id="1" /><ToastContainer /></>);
    fireEvent.click(await screen.findByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog');
    const before = gets(/\/api\/test-leave\/1$/);
    await act(async () => { fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' })); });
    expect(await screen.findByText('This leave application is no longer pending.')).toBeTruthy();
    await waitFor(() => expect(gets(/\/api\/test-leave\/1$/)).toBeGreaterThan(before));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('keeps the dialog open with the 422 field error under the comment', async () => {
    record.available_transitions = [reject];
    transitionAnswer = { status: 422, body: { message: 'Invalid.', errors: { comment: ['The comment field must not be greater than 1000 characters.'] } } };
    render(<ResourceDetail definition={leave} account="app" id="1" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Comment/ }), { target: { value: 'x'.repeat(1001) } });
    await act(async () => { fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' })); });
    expect(await within(dialog).findByText('The comment field must not be greater than 1000 characters.')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('textbox', { name: /Comment/ })));
  });

  it('asks before Cancel throws a typed comment away', async () => {
    record.available_transitions = [reject];
    render(<ResourceDetail definition={leave} account="app" id="1" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Comment/ }), { target: { value: 'Overlaps the release' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Keep editing' }));
    expect((within(dialog).getByRole('textbox', { name: /Comment/ }) as HTMLTextAreaElement).value).toBe('Overlaps the release');
    expect(posts()).toHaveLength(0);
  });

  it('renders the history as a timeline, oldest first, with who, what, when and the comment', async () => {
    history = [
      { transition: 'create', from: null, to: 'pending', actor: { id: 2, name: 'Grace' }, comment: null, created_at: '2024-05-01T09:15:00.000Z' },
      { transition: 'reject', from: 'pending', to: 'rejected', actor: { id: 3, name: 'Linus' }, comment: 'Overlaps the release', created_at: '2024-05-02T10:30:00.000Z' },
      { transition: 'reopen', from: 'rejected', to: 'pending', actor: null, comment: null, created_at: '2024-05-03T11:45:00.000Z' },
    ];
    render(<ResourceDetail definition={leave} account="app" id="1" />);
    const timeline = await screen.findByRole('list', { name: 'History' });
    const items = within(timeline).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[0].textContent).toContain('Grace applied for the leave');
    expect(items[1].textContent).toContain('Linus rejected the leave');
    expect(within(items[1]).getByText('Pending')).toBeTruthy();
    expect(within(items[1]).getByText('Rejected').className).toContain('rose');
    expect(items[1].textContent).toContain('Overlaps the release');
    // A transition the definition no longer declares says only that the status changed; no actor is a public link.
    expect(items[2].textContent).toContain('Someone using a public link changed the status');
    expect(items[0].querySelector('time')?.textContent).toMatch(/^2024-05-01 \d{2}:\d{2}$/);
  });

  it('shows a step that keeps the state with that state once, without an arrow to itself', async () => {
    history = [
      { transition: 'create', from: null, to: 'pending', actor: { id: 2, name: 'Grace' }, comment: null, created_at: '2024-05-01T09:15:00.000Z' },
      { transition: 'approve', from: 'pending', to: 'pending', actor: { id: 3, name: 'Linus' }, comment: 'Noted', created_at: '2024-05-02T10:30:00.000Z' },
    ];
    render(<ResourceDetail definition={leave} account="app" id="1" />);
    const items = within(await screen.findByRole('list', { name: 'History' })).getAllByRole('listitem');
    expect(within(items[1]).getAllByText('Pending')).toHaveLength(1);
    expect(within(items[1]).queryByText('to')).toBeNull();
  });

  it('says so when there is no history yet', async () => {
    render(<ResourceDetail definition={leave} account="app" id="1" />);
    expect(await screen.findByText('No history yet')).toBeTruthy();
  });
});

describe('workflow on the list', () => {
  beforeEach(() => {
    listRows = [
      { id: 1, reason: 'Family trip', status: 'pending', available_transitions: [approve, reject] },
      { id: 2, reason: 'Conference', status: 'pending', available_transitions: [approve] },
      { id: 3, reason: 'Moving house', status: 'approved', available_transitions: [] },
    ];
  });

  it('gives focus to the list when the decided row leaves it with its button', async () => {
    transitionAnswer = { status: 200, body: { data: { ...listRows[1], status: 'approved', available_transitions: [] }, message: 'Leave application approved.' } };
    render(<ResourceList definition={leave} account="app" />);
    const button = await screen.findByRole('button', { name: 'Approve Conference' });
    button.focus();
    fireEvent.click(button);
    const dialog = await screen.findByRole('dialog');
    listRows = listRows.filter((row) => row.id !== 2);
    await act(async () => { fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' })); });
    await waitFor(() => expect(screen.queryByText('Conference')).toBeNull());
    const list = screen.getByText(/found$/, { selector: '[role="status"]' }).closest('[tabindex="-1"]');
    await waitFor(() => expect(document.activeElement).toBe(list));
  });

  it('shows state labels with their tone and row actions from each row’s transitions', async () => {
    render(<ResourceList definition={leave} account="app" />);
    await screen.findByText('Family trip');
    expect(screen.getAllByText('Pending')[0].className).toContain('yellow');
    expect(screen.getByText('Approved').className).toContain('emerald');
    expect(screen.getByRole('button', { name: 'Approve Family trip' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reject Family trip' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Approve Conference' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Reject Conference' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Moving house/ })).toBeNull();
    // Nothing to do on a final row: no tick box for it.
    expect(screen.queryByRole('checkbox', { name: 'Select Moving house' })).toBeNull();
  });

  it('offers in the bulk bar only the transitions all selected rows allow, and posts their ids', async () => {
    bulkAnswer = { status: 200, body: { data: [{ id: 1, status: 200, message: 'Leave application approved.' }, { id: 2, status: 409, message: 'This leave application is no longer pending.' }] } };
    render(<><ResourceList definition={leave} account="app" /><ToastContainer /></>);
    await screen.findByText('Family trip');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Family trip' }));
    let bar = screen.getByRole('region', { name: 'Bulk actions' });
    expect(within(bar).getAllByRole('button').map((b) => b.textContent)).toEqual(['Approve', 'Reject', 'Clear selection']);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Conference' }));
    bar = screen.getByRole('region', { name: 'Bulk actions' });
    expect(bar.textContent).toContain('2 selected');
    expect(within(bar).getAllByRole('button').map((b) => b.textContent)).toEqual(['Approve', 'Clear selection']);

    const listGets = gets(/\/api\/test-leave\?/);
    fireEvent.click(within(bar).getByRole('button', { name: 'Approve 2 selected leave applications' }));
    const dialog = await screen.findByRole('dialog');
    await act(async () => { fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' })); });
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]).toMatchObject({ url: '/api/test-leave/transitions/approve', body: { ids: [1, 2] } });
    expect(await screen.findByText('You approved 1 leaves. 1 was left as it was: This leave application is no longer pending.')).toBeTruthy();
    await waitFor(() => expect(gets(/\/api\/test-leave\?/)).toBeGreaterThan(listGets));
    expect(screen.queryByRole('region', { name: 'Bulk actions' })).toBeNull();
  });

  it('selects every actionable row of the page with the select-all box (keyboard: a native checkbox)', async () => {
    render(<ResourceList definition={leave} account="app" />);
    await screen.findByText('Family trip');
    const [selectAll] = screen.getAllByRole('checkbox', { name: 'Select all on this page' });
    fireEvent.click(selectAll);
    expect((screen.getByRole('checkbox', { name: 'Select Family trip' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('checkbox', { name: 'Select Conference' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('region', { name: 'Bulk actions' }).textContent).toContain('2 selected');
    fireEvent.click(selectAll);
    expect(screen.queryByRole('region', { name: 'Bulk actions' })).toBeNull();
  });

  it('asks for the required comment before a bulk reject and sends it with the ids', async () => {
    listRows = listRows.map((row) => ({ ...row, available_transitions: row.id === 3 ? [] : [approve, reject] }));
    bulkAnswer = { status: 200, body: { data: [{ id: 1, status: 200 }, { id: 2, status: 200 }] } };
    render(<><ResourceList definition={leave} account="app" /><ToastContainer /></>);
    await screen.findByText('Family trip');
    fireEvent.click(screen.getAllByRole('checkbox', { name: 'Select all on this page' })[0]);
    fireEvent.click(within(screen.getByRole('region', { name: 'Bulk actions' })).getByRole('button', { name: /^Reject/ }));
    const dialog = await screen.findByRole('dialog');
    await act(async () => { fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' })); });
    expect(posts()).toEqual([]);
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Comment/ }), { target: { value: 'Budget freeze' } });
    await act(async () => { fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' })); });
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0].body).toEqual({ ids: [1, 2], comment: 'Budget freeze' });
    expect(await screen.findByText('You rejected 2 leaves.')).toBeTruthy();
  });
});

describe('workflow helpers', () => {
  it('keeps the transitions every row offers, in the first row’s order', () => {
    const rows = [
      { id: 1, available_transitions: [approve, reject] },
      { id: 2, available_transitions: [reject, approve] },
      { id: 3, available_transitions: [reject] },
    ];
    expect(commonTransitions(rows).map((t) => t.name)).toEqual(['reject']);
    expect(commonTransitions(rows.slice(0, 2)).map((t) => t.name)).toEqual(['approve', 'reject']);
    expect(commonTransitions([])).toEqual([]);
  });

  it('summarises bulk results by outcome and groups failures by message', () => {
    const results = [
      { id: 1, status: 200 }, { id: 2, status: 200 }, { id: 3, status: 200 },
      { id: 4, status: 409, message: 'No longer pending.' }, { id: 5, status: 403, message: 'You may not.' }, { id: 6, status: 409, message: 'No longer pending.' },
    ];
    // The transition's declared words, never the target state's label.
    expect(bulkSummary(results, approve, leave.workflow)).toEqual({
      kind: 'warning', text: 'You approved 3 leaves. 2 were left as they were: No longer pending. 1 was left as it was: You may not.',
    });
    expect(bulkSummary(results.slice(0, 2), approve, leave.workflow)).toEqual({ kind: 'success', text: 'You approved 2 leaves.' });
    expect(bulkSummary(results.slice(3, 4), approve, leave.workflow)).toEqual({ kind: 'error', text: '1 was left as it was: No longer pending.' });
  });
});

// @vitest-environment jsdom
// File fields in the generic screens: the form sends bracketed multipart (spec §7) through the
// progress-reporting upload when files are added or removed and JSON otherwise, checks extension,
// size and count before sending, and the detail page downloads and previews attachments.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { z } from 'zod';
import { defineResource, optionalText, requiredText } from '../../src/shared/resources/define';
import { clearAuth, hydrateAuth, storeLogin } from '../../src/client/stores/auth';
import { uploadWithProgress } from '../../src/client/lib/upload';
import { buildMultipart } from '../../src/client/ui/resources/resource-api';
import { ResourceDetail } from '../../src/client/ui/resources/resource-detail';
import { ResourceForm } from '../../src/client/ui/resources/resource-form';
import { addFiles, formatFileSize } from '../../src/client/ui/resources/file-field';
import type { LoginResponse } from '../../src/shared/schemas/auth';

vi.mock('../../src/client/lib/upload', () => ({ uploadWithProgress: vi.fn() }));
const upload = vi.mocked(uploadWithProgress);

const expense = defineResource({
  name: 'test-expense',
  label: 'Expense',
  pluralLabel: 'Expenses',
  schema: z.object({
    title: requiredText('title'),
    amount: z.number({ error: 'The amount field is required.' }),
    is_billable: z.boolean(),
    note: optionalText('note'),
    tags: z.array(z.string()),
  }),
  fields: {
    title: { label: 'Title', input: 'text', isColumn: true },
    amount: { label: 'Amount', input: 'number' },
    is_billable: { label: 'Billable', input: 'boolean' },
    note: { label: 'Note', input: 'textarea' },
    tags: { label: 'Tags', input: 'multiselect', options: [{ value: 'travel', label: 'Travel' }, { value: 'food', label: 'Food' }] },
    receipts: { label: 'Receipts', input: 'file', file: { extensions: ['pdf', 'png'], maxBytes: 1024, isMultiple: true, maxFiles: 2 } },
  },
  titleKey: 'title',
  search: ['title'],
  defaultSort: { key: 'title', direction: 'asc' },
  permissions: { view: 'can-view-expense', add: 'can-add-expense', edit: 'can-edit-expense' },
  routes: { index: 'expense.index', show: 'expense.show' },
});

const login = (permissions: string[]): LoginResponse => ({
  data: { id: 1, name: 'Ada', email: 'ada@example.com', user_type: 'admin', email_verified_at: '2024-01-01', doc_assigned: false, status: 'active', two_fa_enabled_at: null, is_enable_2fa: false, force_password_reset: false, phone: null, parent_id: null },
  access_token: 'tok', permissions: { roles: ['admin'], permissions }, announcement: { status: 'off', message: '' }, message: '', status: 'success',
});

const pdf = (name = 'receipt.pdf', bytes = 100) => new File(['x'.repeat(bytes)], name, { type: 'application/pdf' });
const existing = { id: 1, title: 'Taxi', amount: 12.5, is_billable: true, note: null, tags: ['travel'], receipts: [{ id: 7, name: 'old.pdf', size: 2048, mime: 'application/pdf' }, { id: 8, name: 'photo.png', size: 512, mime: 'image/png' }] };

let calls: { method: string; url: string; body: unknown; headers: Record<string, string> }[] = [];

beforeEach(async () => {
  calls = [];
  upload.mockReset();
  // jsdom has no CSS.escape; the form uses it to focus the first field with an error.
  vi.stubGlobal('CSS', { escape: (value: string) => value.replace(/[^\w-]/g, (c) => `\\${c}`) });
  vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    calls.push({ method, url, body: typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body, headers: Object.fromEntries(new Headers(init?.headers).entries()) });
    if (url.startsWith('/sanctum')) return new Response(null, { status: 204 });
    if (url.includes('/attachments/')) {
      return new Response('PNGDATA', { status: 200, headers: { 'Content-Type': 'image/png' } });
    }
    if (url.endsWith('/test-expense/1')) return new Response(JSON.stringify({ data: existing }), { status: 200 });
    return new Response(JSON.stringify({ data: { id: 2 }, message: 'Expense created successfully.' }), { status: 201 });
  }));
  document.cookie = 'XSRF-TOKEN=x';
  await hydrateAuth();
  await clearAuth('app');
  await storeLogin('app', login(['can-view-expense', 'can-add-expense', 'can-edit-expense']));
});
afterEach(() => { cleanup(); vi.unstubAllGlobals(); });

const entries = (form: FormData) => [...form.entries()].map(([key, value]) => [key, typeof value === 'string' ? value : `file:${value.name}`]);

function fillRequired() {
  fireEvent.change(screen.getByRole('textbox', { name: /Title/ }), { target: { value: 'Taxi' } });
  fireEvent.change(screen.getByRole('spinbutton', { name: /Amount/ }), { target: { value: '12.5' } });
  fireEvent.click(screen.getByRole('checkbox', { name: 'Travel' }));
}
const fileInput = () => screen.getByLabelText('Receipts: choose files') as HTMLInputElement;

describe('buildMultipart', () => {
  it('brackets values under the resource name: arrays as [], booleans 1/0, null empty, files and kept ids as field[]', () => {
    const file = pdf();
    const form = buildMultipart(expense, { title: 'Taxi', amount: 12.5, is_billable: false, note: null, tags: ['travel', 'food'] },
      { receipts: { kept: [{ id: 7, name: 'old.pdf', size: 1, mime: 'application/pdf' }], added: [file] } }, true);
    expect(entries(form)).toEqual([
      ['test-expense[title]', 'Taxi'], ['test-expense[amount]', '12.5'], ['test-expense[is_billable]', '0'], ['test-expense[note]', ''],
      ['test-expense[tags][]', 'travel'], ['test-expense[tags][]', 'food'],
      ['test-expense[receipts][]', '7'], ['test-expense[receipts][]', 'file:receipt.pdf'],
    ]);
  });

  it('sends an explicit empty part on an update that keeps no attachment, and no kept part on a create', () => {
    const selection = { receipts: { kept: [], added: [] } };
    expect(entries(buildMultipart(expense, {}, selection, true))).toEqual([['test-expense[receipts][]', '']]);
    expect(entries(buildMultipart(expense, {}, selection, false))).toEqual([]);
  });
});

describe('the generic form with a file field', () => {
  it('uploads bracketed multipart with a progress bar when a file is chosen', async () => {
    let finish: (value: unknown) => void = () => {};
    upload.mockImplementation((_url, _form, onProgress) => { onProgress(0.4); return new Promise((resolve) => { finish = resolve; }); });
    const onSaved = vi.fn();
    render(<ResourceForm definition={expense} row={null} onSaved={onSaved} onCancel={() => {}} />);
    fillRequired();
    fireEvent.change(fileInput(), { target: { files: [pdf('taxi.pdf', 300)] } });
    expect(screen.getByRole('list', { name: 'Receipts: files' }).textContent).toContain('taxi.pdf');
    expect(screen.getByText('300 B')).toBeTruthy();
    await act(async () => { fireEvent.click(screen.getByRole('button', { name: 'Create expense' })); });
    expect(upload).toHaveBeenCalledTimes(1);
    const [url, form, , options] = upload.mock.calls[0];
    expect(url).toBe('/test-expense');
    expect(options).toMatchObject({ method: 'POST', form: true });
    expect(entries(form)).toEqual([
      ['test-expense[title]', 'Taxi'], ['test-expense[amount]', '12.5'], ['test-expense[is_billable]', '0'], ['test-expense[note]', ''],
      ['test-expense[tags][]', 'travel'], ['test-expense[receipts][]', 'file:taxi.pdf'],
    ]);
    expect(screen.getByRole('progressbar', { name: 'Upload progress' }).getAttribute('aria-valuenow')).toBe('40');
    await act(async () => { finish({ data: { id: 2 }, message: 'Expense created successfully.' }); });
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith({ id: 2 }));
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('sends JSON as before when no file is chosen', async () => {
    const onSaved = vi.fn();
    render(<ResourceForm definition={expense} row={null} onSaved={onSaved} onCancel={() => {}} />);
    fillRequired();
    await act(async () => { fireEvent.click(screen.getByRole('button', { name: 'Create expense' })); });
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(upload).not.toHaveBeenCalled();
    const post = calls.find((c) => c.method === 'POST');
    expect(post).toMatchObject({ url: '/api/test-expense', body: { title: 'Taxi', amount: 12.5, is_billable: false, note: null, tags: ['travel'] } });
    expect(post!.body).not.toHaveProperty('receipts');
  });

  it('refuses a wrong type, a file too large and files beyond the maximum, naming them', () => {
    render(<ResourceForm definition={expense} row={null} onSaved={() => {}} onCancel={() => {}} />);
    fireEvent.change(fileInput(), { target: { files: [new File(['x'], 'virus.exe'), pdf('huge.pdf', 2000), pdf('ok.pdf')] } });
    expect(screen.getByText('“virus.exe” is not an accepted type (pdf, png).')).toBeTruthy();
    expect(screen.getByText('“huge.pdf” is larger than 1 KB.')).toBeTruthy();
    expect(screen.getByRole('list', { name: 'Receipts: files' }).textContent).toContain('ok.pdf');
    expect(screen.getByRole('list', { name: 'Receipts: files' }).textContent).not.toContain('huge.pdf');
    fireEvent.change(fileInput(), { target: { files: [pdf('two.pdf'), pdf('three.pdf')] } });
    expect(screen.getByText('At most 2 files can be attached; 1 was left out.')).toBeTruthy();
    expect(within(screen.getByRole('list', { name: 'Receipts: files' })).getAllByRole('listitem')).toHaveLength(2);
    expect(fileInput().getAttribute('accept')).toBe('.pdf,.png');
    expect(fileInput().multiple).toBe(true);
  });

  it('lists the record’s attachments; removing one sends the kept ids by PUT', async () => {
    upload.mockResolvedValue({ data: existing, message: 'Expense updated successfully.' });
    render(<ResourceForm definition={expense} row={existing} onSaved={() => {}} onCancel={() => {}} />);
    expect(screen.getByText('old.pdf')).toBeTruthy();
    expect(screen.getByText('2 KB')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove old.pdf' }));
    await act(async () => { fireEvent.click(screen.getByRole('button', { name: 'Save changes' })); });
    expect(upload).toHaveBeenCalledTimes(1);
    const [url, form, , options] = upload.mock.calls[0];
    expect(url).toBe('/test-expense/1');
    expect(options).toMatchObject({ method: 'PUT' });
    expect(form.getAll('test-expense[receipts][]')).toEqual(['8']);
  });

  it('keeps every attachment with a plain JSON update when the files are untouched', async () => {
    render(<ResourceForm definition={expense} row={existing} onSaved={() => {}} onCancel={() => {}} />);
    await act(async () => { fireEvent.click(screen.getByRole('button', { name: 'Save changes' })); });
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(upload).not.toHaveBeenCalled();
  });

  it('shows the server’s 422 errors for the file field under it', async () => {
    const { ApiError } = await import('../../src/client/lib/api');
    upload.mockRejectedValue(new ApiError('Invalid.', 422, { 'receipts.0': ['The receipts.0 file content does not match its extension.'] }));
    render(<ResourceForm definition={expense} row={null} onSaved={() => {}} onCancel={() => {}} />);
    fillRequired();
    fireEvent.change(fileInput(), { target: { files: [pdf()] } });
    await act(async () => { fireEvent.click(screen.getByRole('button', { name: 'Create expense' })); });
    expect(await screen.findByText('The receipts.0 file content does not match its extension.')).toBeTruthy();
  });
});

describe('file helpers', () => {
  it('formats sizes and replaces the file of a single-file field', () => {
    expect([formatFileSize(512), formatFileSize(1536), formatFileSize(5 * 1024 * 1024)]).toEqual(['512 B', '1.5 KB', '5 MB']);
    const single = { extensions: ['pdf'], maxBytes: 1000 };
    const { next } = addFiles(single, { kept: [{ id: 1, name: 'cv.pdf', size: 1, mime: 'application/pdf' }], added: [] }, [pdf('new-cv.pdf')]);
    expect(next.kept).toEqual([]);
    expect(next.added.map((f) => f.name)).toEqual(['new-cv.pdf']);
  });
});

describe('attachments on the detail page', () => {
  it('downloads with the bearer token and previews an image from a blob url, closed by Escape', async () => {
    const created: string[] = [];
    const revoked: string[] = [];
    vi.stubGlobal('URL', Object.assign(URL, {
      createObjectURL: vi.fn(() => { created.push(`blob:preview-${created.length}`); return created.at(-1)!; }),
      revokeObjectURL: vi.fn((url: string) => { revoked.push(url); }),
    }));
    render(<ResourceDetail definition={expense} account="app" id="1" />);
    expect(await screen.findByText('old.pdf')).toBeTruthy();
    expect(screen.getByText('512 B')).toBeTruthy();
    // PDFs and images have a preview; both can be downloaded.
    expect(screen.getByRole('button', { name: 'Preview old.pdf' })).toBeTruthy();

    await act(async () => { fireEvent.click(screen.getByRole('button', { name: 'Download photo.png' })); });
    await waitFor(() => expect(calls.some((c) => c.url === '/api/test-expense/1/attachments/8')).toBe(true));
    expect(calls.find((c) => c.url === '/api/test-expense/1/attachments/8')!.headers.authorization).toBe('Bearer tok');

    fireEvent.click(screen.getByRole('button', { name: 'Preview photo.png' }));
    const dialog = await screen.findByRole('dialog');
    const image = await within(dialog).findByRole('img', { name: 'photo.png' });
    expect(image.getAttribute('src')).toMatch(/^blob:preview-/);
    expect(calls.some((c) => c.url === '/api/test-expense/1/attachments/8?disposition=inline')).toBe(true);
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(revoked).toContain(image.getAttribute('src'));
  });
});

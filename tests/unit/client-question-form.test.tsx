// @vitest-environment jsdom
// A question's options (decision 013-one-form-engine "List fields"): a react-hook-form field array in the
// generic resource form. An error stays with its option when an earlier one is removed, a 422 on options.2
// lands under the third option, and the server receives the options as texts.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { question } from '../../src/shared/resources/question';
import { ResourceForm } from '../../src/client/ui/resources/resource-form';
import { clearAuth, hydrateAuth, storeLogin } from '../../src/client/stores/auth';
import type { LoginResponse } from '../../src/shared/schemas/auth';

const login: LoginResponse = {
  data: { id: 1, name: 'Ada', email: 'ada@example.com', user_type: 'admin', email_verified_at: '2024-01-01', doc_assigned: false, status: 'active', two_fa_enabled_at: null, is_enable_2fa: false, force_password_reset: false, phone: null, parent_id: null },
  access_token: 'tok', permissions: { roles: ['admin'], permissions: ['can-add-question'] }, announcement: { status: 'off', message: '' }, message: '', status: 'success',
};

let sent: unknown[] = [];
let answer: () => Response;

beforeEach(async () => {
  vi.stubGlobal('CSS', { escape: (value: string) => value.replace(/[^\w-]/g, (c) => `\\${c}`) });
  sent = [];
  vi.stubGlobal('fetch', vi.fn(async (_url: string, init?: RequestInit) => {
    sent.push(init?.body ? JSON.parse(String(init.body)) : null);
    return answer();
  }));
  document.cookie = 'XSRF-TOKEN=x';
  await hydrateAuth();
  await clearAuth('app');
  await storeLogin('app', login);
});
afterEach(() => { cleanup(); vi.unstubAllGlobals(); });

const option = (n: number) => screen.getByRole('textbox', { name: `Option ${n}` }) as HTMLInputElement;
const fill = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });

function renderForm() {
  const onSaved = vi.fn();
  render(<ResourceForm definition={question} row={null} parentId="3" onSaved={onSaved} onCancel={() => {}} />);
  fill(screen.getByRole('textbox', { name: /Question/ }), 'Which keyword makes a field belong to the class?');
  return onSaved;
}

// The whole generic form in jsdom: a few seconds a test on a busy machine.
describe('a question\'s options', { timeout: 20_000 }, () => {
  it('keeps an option\'s error with it when an earlier option is removed', async () => {
    renderForm();
    fireEvent.click(screen.getByRole('button', { name: 'Add option' }));
    fill(option(1), 'static');
    fill(option(2), 'x'.repeat(501));
    fill(option(3), 'final');
    fireEvent.click(screen.getByRole('button', { name: 'Create question' }));
    await waitFor(() => expect(option(2).getAttribute('aria-invalid')).toBe('true'));
    expect(option(1).getAttribute('aria-invalid')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Remove option 1' }));
    await waitFor(() => expect(option(1).getAttribute('aria-invalid')).toBe('true'));
    expect(option(1).value).toBe('x'.repeat(501));
    expect(option(2).value).toBe('final');
    expect(option(2).getAttribute('aria-invalid')).toBeNull();
    expect(sent).toEqual([]);
  });

  it('adds and removes options by keyboard: Enter adds one below and focuses it, a removed one hands focus on', async () => {
    renderForm();
    // A question starts with the two options it needs at least.
    expect(screen.getAllByRole('textbox', { name: /^Option \d$/ })).toHaveLength(2);
    option(1).focus();
    fill(option(1), 'static');
    fill(option(2), 'final');
    fireEvent.keyDown(option(1), { key: 'Enter' });
    await waitFor(() => expect(document.activeElement).toBe(option(2)));
    expect([option(1).value, option(2).value, option(3).value]).toEqual(['static', '', 'final']);

    // Add at the end takes focus too.
    fireEvent.click(screen.getByRole('button', { name: 'Add option' }));
    await waitFor(() => expect(document.activeElement).toBe(option(4)));

    // Removing the second: focus goes to the option now second, not to the page.
    const remove = screen.getByRole('button', { name: 'Remove option 2' });
    remove.focus();
    fireEvent.click(remove);
    await waitFor(() => expect(document.activeElement).toBe(option(2)));
    expect(option(2).value).toBe('final');
    // Removing the last: focus goes to the one before it.
    fireEvent.click(screen.getByRole('button', { name: 'Remove option 3' }));
    await waitFor(() => expect(document.activeElement).toBe(option(2)));
    expect(screen.queryByRole('textbox', { name: 'Option 3' })).toBeNull();
    // Enter never submitted the form.
    expect(sent).toEqual([]);
  });

  it('sends the options as texts, and puts a 422 on options.2 under the third option', async () => {
    answer = () => new Response(JSON.stringify({ message: 'The given data was invalid.', errors: { 'options.2': ['The options.2 field has a duplicate value.'] } }),
      { status: 422, headers: { 'content-type': 'application/json' } });
    const onSaved = renderForm();
    fireEvent.click(screen.getByRole('button', { name: 'Add option' }));
    fill(option(1), 'static');
    fill(option(2), 'final');
    fill(option(3), 'static ');
    fireEvent.change(screen.getByRole('combobox', { name: /Correct Answer/ }), { target: { value: 'static' } });
    fireEvent.change(screen.getByRole('combobox', { name: /Skill Level/ }), { target: { value: '1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create question' }));
    await waitFor(() => expect(option(3).getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('The options.2 field has a duplicate value.')).toBeTruthy();
    expect(sent[0]).toMatchObject({ options: ['static', 'final', 'static'], correct_answer: 'static', question_category_id: 3 });
    expect(onSaved).not.toHaveBeenCalled();
  });
});

// @vitest-environment jsdom
// Send Assessment on the form engine (decision 013): the shared schema checks the form before anything is
// sent, a 422 lands under the field it names, and a sent link is shown once with the candidate refetched.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import SendAssessment from '../../src/client/features/assessment/send-assessment';
import type { ScreenProps } from '../../src/client/routes';
import { clearAuth, hydrateAuth, storeLogin } from '../../src/client/stores/auth';
import type { LoginResponse } from '../../src/shared/schemas/auth';

const login: LoginResponse = {
  data: { id: 1, name: 'Ada', email: 'ada@example.com', user_type: 'admin', email_verified_at: '2024-01-01', doc_assigned: false, status: 'active', two_fa_enabled_at: null, is_enable_2fa: false, force_password_reset: false, phone: null, parent_id: null },
  access_token: 'tok', permissions: { roles: ['admin'], permissions: ['can-edit-candidate'] }, announcement: { status: 'off', message: '' }, message: '', status: 'success',
};
const formData = {
  candidate: { id: 4, name: 'Ravi Kumar', email: 'ravi@example.com' },
  categories: [{ id: 7, name: 'Java', questions_per_level: { 1: 9, 2: 5, 3: 2 } }],
};

let posts: Record<string, unknown>[] = [];
let refusal: Record<string, string[]> | null = null;
beforeEach(async () => {
  posts = [];
  refusal = null;
  vi.stubGlobal('CSS', { escape: (value: string) => value.replace(/[^\w-]/g, (c) => `\\${c}`) });
  vi.stubGlobal('fetch', vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => {
    if (init?.method === 'POST') {
      posts.push(JSON.parse(String(init.body)));
      if (refusal) return new Response(JSON.stringify({ message: 'The given data was invalid.', errors: refusal }), { status: 422 });
      return new Response(JSON.stringify({ data: { id: 1, url: 'https://example.com/assessment/abc' }, message: 'The assessment link was sent.' }), { status: 200 });
    }
    return new Response(JSON.stringify({ data: formData }), { status: 200 });
  }));
  document.cookie = 'XSRF-TOKEN=x';
  await hydrateAuth();
  await clearAuth('app');
  await storeLogin('app', login);
});
afterEach(() => { cleanup(); vi.unstubAllGlobals(); });

const screenProps = { account: 'app', params: { id: '4' }, routeName: 'candidate.send-assessment-link' } as unknown as ScreenProps;

describe('Send Assessment', () => {
  it('refuses a link without a category before sending, then sends the numbers the server reads', async () => {
    render(<SendAssessment {...screenProps} />);
    const send = await screen.findByRole('button', { name: 'Send link' });
    expect(screen.getByRole('link', { name: 'Back to Ravi Kumar' }).getAttribute('href')).toBe('/candidate/4');
    fireEvent.click(send);
    expect(await screen.findByText('Choose at least one question category.')).toBeTruthy();
    expect(posts).toEqual([]);
    fireEvent.click(screen.getByRole('checkbox', { name: /Java/ }));
    fireEvent.change(screen.getByRole('spinbutton', { name: /Duration/ }), { target: { value: '45' } });
    fireEvent.click(send);
    const link = await screen.findByRole('textbox', { name: 'Assessment link' });
    // The Send button is gone with the form: focus is on the link (selected, ready to copy), not lost to the page.
    await waitFor(() => expect(document.activeElement).toBe(link));
    expect(link.getAttribute('aria-describedby')).toBe(screen.getByRole('heading', { name: 'Link sent' }).id);
    expect(posts[0]).toMatchObject({ question_category_ids: [7], questions_per_level: { 1: 5, 2: 3, 3: 2 }, duration_minutes: 45 });
    expect(String(posts[0].expires_at)).toMatch(/Z$/);
  });

  it('puts a 422 under the field it names', async () => {
    refusal = { 'questions_per_level.3': ['Java has only 2 advanced questions.'] };
    render(<SendAssessment {...screenProps} />);
    fireEvent.click(await screen.findByRole('checkbox', { name: /Java/ }));
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Advanced' }), { target: { value: '4' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send link' }));
    expect(await screen.findByText('Java has only 2 advanced questions.')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('spinbutton', { name: 'Advanced' }).getAttribute('aria-invalid')).toBe('true'));
    expect(posts).toHaveLength(1);
  });
});

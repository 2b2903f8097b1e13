// @vitest-environment jsdom
// Issue 22 / decision 012: after a people import, the invitations' progress is a query that asks again
// every PROGRESS_POLL_MS while the job sends them, and stops asking once the job says all are sent; a
// finished import asks nothing at all.
import 'fake-indexeddb/auto';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ImportProgress, PROGRESS_POLL_MS } from '../../src/client/features/import/import-screen';
import { clearAuth, hydrateAuth, storeLogin } from '../../src/client/stores/auth';
import { user } from '../../src/shared/resources/user';
import type { LoginResponse } from '../../src/shared/schemas/auth';

const login: LoginResponse = {
  data: { id: 1, name: 'Ada', email: 'ada@example.com', user_type: 'admin', email_verified_at: '2024-01-01T00:00:00Z', doc_assigned: false, status: 'active', two_fa_enabled_at: null, is_enable_2fa: false, force_password_reset: false, phone: null, parent_id: null },
  access_token: 'tok', permissions: { roles: ['admin'], permissions: ['can-add-user'] }, announcement: { status: 'off', message: '' }, message: '', status: 'success',
};

const status = (sent: number, done = false) => ({
  id: 7, resource: 'user', mode: 'all' as const, created_at: '2026-11-26T07:59:00Z', rows_total: 3, rows_imported: 3, invitations_total: 3, invitations_sent: sent, invitations_done_at: done ? '2026-11-26T08:00:00Z' : null,
});

/** What the job answers, one after another (the last one again when asked more). */
let answers: ReturnType<typeof status>[] = [];
let asked: string[] = [];

beforeEach(async () => {
  asked = [];
  vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    asked.push(url);
    const answer = answers.length > 1 ? answers.shift()! : answers[0];
    return new Response(JSON.stringify({ data: answer }), { status: 200, headers: { 'content-type': 'application/json' } });
  }));
  await hydrateAuth();
  await clearAuth('app');
  await storeLogin('app', login);
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => { vi.useRealTimers(); cleanup(); vi.unstubAllGlobals(); });

/** Lets the clock run one poll interval, and React draw what the query answered. */
const tick = () => act(() => vi.advanceTimersByTimeAsync(PROGRESS_POLL_MS));
/** Waits for the answer to be read and drawn (the clock moves a few ms a check, far from the next poll). */
const shows = (text: string) => vi.waitFor(() => expect(screen.getByRole('status').textContent).toBe(text), { interval: 5 });

describe('the invitations\' progress after an import', () => {
  it('asks every interval while invitations go out, and stops once all are sent', async () => {
    answers = [status(1), status(3, true)];
    render(<ImportProgress definition={user} initial={status(0)} message="3 people were imported." back={null} />);
    expect(screen.getByRole('status').textContent).toBe('0 of 3 sent…');
    expect(asked).toEqual([]);

    await tick();
    expect(asked).toEqual(['/api/import/user/7']);
    await shows('1 of 3 sent…');

    await tick();
    expect(asked).toHaveLength(2);
    await shows('All 3 invitations have been sent.');

    // Finished: however long the page stays open, nothing more is asked.
    for (let i = 0; i < 5; i++) await tick();
    expect(asked).toHaveLength(2);
  });

  it('asks nothing for an import whose invitations were all sent already', async () => {
    answers = [status(3, true)];
    render(<ImportProgress definition={user} initial={status(3, true)} message="3 people were imported." back={null} />);
    for (let i = 0; i < 3; i++) await tick();
    expect(asked).toEqual([]);
    expect(screen.getByRole('status').textContent).toBe('All 3 invitations have been sent.');
  });
});

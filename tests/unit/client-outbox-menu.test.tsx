// @vitest-environment jsdom
// The outbox menu in the header (issue 5) while the page under it changes: a page's heading takes the
// focus when it is drawn (lib/navigation.ts, routeFocus), and a heading drawn late (the dashboard's, once
// its answers are in) used to take it from the menu the person had opened meanwhile, which closed it:
// its Fix left the page under the finger (a flaky e2e journey, and a slow phone).
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { proxy, useSnapshot } from 'valtio';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { AuthenticatedLayout } from '../../src/client/layout/authenticated-layout';
import { navigate } from '../../src/client/lib/navigation';
import { clearAuth, hydrateAuth, storeLogin } from '../../src/client/stores/auth';
import { outbox, type OutboxSummary } from '../../src/client/stores/outbox';
import { ui } from '../../src/client/stores/ui';
import { PageHeader } from '../../src/client/ui/card';
import type { LoginResponse } from '../../src/shared/schemas/auth';

const login: LoginResponse = {
  data: { id: 3, name: 'Eli Engineer', email: 'eli@example.com', user_type: 'user', email_verified_at: '2024-01-01', doc_assigned: false, status: 'active', two_fa_enabled_at: null, is_enable_2fa: false, force_password_reset: false, phone: null, parent_id: null },
  access_token: 'tok', permissions: { roles: ['user'], permissions: ['can-view-dashboard'] }, announcement: { status: 'off', message: '' }, message: '', status: 'success',
};

/** A withdrawal the server refused: it waits in the outbox with a Fix that leads to its record. */
const refused: OutboxSummary = {
  id: 'w1', label: 'Your leave application for 10–11 March 2030, to withdraw', method: 'POST', url: '/leave-application/5/withdraw',
  account: 'app', userId: 3, createdAt: '2030-03-01T09:00:00Z', attempts: 1, status: 'failed', nextAttemptAt: null,
  message: 'This leave application was approved meanwhile.', fieldErrors: {}, editPath: '/leave-application/5', size: 2,
  resource: 'leave-application', recordId: '5', preview: null, isFixedHere: true,
};

/** A page whose heading is drawn once its answers are in, as the dashboard's is (decision 046). */
const latePage = proxy({ isDrawn: false });
const drawPage = () => { latePage.isDrawn = true; };
function LatePage() {
  const { isDrawn } = useSnapshot(latePage);
  return isDrawn ? <PageHeader title="Good morning, Eli" /> : <p>Loading…</p>;
}

beforeEach(async () => {
  // /me answers with the same person; every other call of the layout (bell, heartbeat) with nothing.
  vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL) => new Response(
    JSON.stringify(String(input).includes('/api/me') ? { data: login.data } : { data: [] }), { status: 200 })));
  await hydrateAuth();
  await clearAuth('app');
  await storeLogin('app', login);
  ui.sidebarCollapsed = false;
  outbox.items = [refused];
  latePage.isDrawn = false;
  window.history.replaceState(null, '', '/leave-application/5');
});
afterEach(() => {
  cleanup();
  outbox.items = [];
  vi.unstubAllGlobals();
});

/** A person's click: the press, then the click. */
function press(element: Element) {
  fireEvent.pointerDown(element);
  fireEvent.mouseDown(element);
  fireEvent.pointerUp(element);
  fireEvent.mouseUp(element);
  fireEvent.click(element);
}

/** On the record's page, then moved in-app to the dashboard, whose heading is not drawn yet. */
async function movedToALatePage() {
  render(<AuthenticatedLayout account="app" routeName="dashboard"><LatePage /></AuthenticatedLayout>);
  await act(async () => { navigate('/dashboard'); });
}

// The first test draws the whole layout cold (its imports, headless UI): seconds on a loaded machine.
describe('the outbox menu while the page changes under it', { timeout: 20_000 }, () => {
  it.each([
    ['a pointer', press],
    ['a screen reader (a click alone)', (element: Element) => fireEvent.click(element)],
  ])('stays open with the same Fix when the new page\'s heading is drawn after the person opened it with %s', async (_how, open) => {
    await movedToALatePage();
    const button = screen.getByTestId('outbox-button');
    await act(async () => { open(button); });
    const fix = screen.getByRole('link', { name: 'Fix' });
    expect(document.activeElement).toBe(button);

    await act(async () => { drawPage(); });
    expect(screen.getByRole('heading', { name: 'Good morning, Eli' })).toBeTruthy();
    // The person's focus is left where they put it: the menu is still open, its Fix the same element.
    expect(fix.isConnected).toBe(true);
    expect(screen.getByRole('link', { name: 'Fix' })).toBe(fix);
    expect(document.activeElement).toBe(button);
  });

  it('still gives the new page\'s heading the focus when the person has done nothing since the move', async () => {
    await movedToALatePage();
    await act(async () => { drawPage(); });
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Good morning, Eli' }));
  });

  it('gives it the focus when something else than the person moved the focus since (a menu handing it back to its button)', async () => {
    await movedToALatePage();
    // What headless UI's menus do the frame after one of their items led to another page.
    const menuButton = screen.getByRole('button', { name: 'Eli Engineer, user menu' });
    act(() => { menuButton.focus(); });
    await act(async () => { drawPage(); });
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Good morning, Eli' }));
  });
});

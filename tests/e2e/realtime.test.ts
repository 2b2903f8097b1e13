// Live notifications as users meet them (issue 3, spec §4 "Real-time events"): the production build in
// Chromium over the real websocket. Two browser contexts: the admin and an engineer whose manager
// (parent) is the admin.
import { eq } from 'drizzle-orm';
import type { Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissions, roleHasPermissions, roles, users } from '../../src/server/db/schema/accounts';
import { assignRoles } from '../../src/server/db/seed';
import { clients } from '../../src/server/db/schema/master-data';
import { multipart, PDF } from '../helpers/multipart';
import { goInApp, hasBrowser, loginThroughForm, markPage, PASSWORD, type Stack, startStack, subscribed, wasNotReloaded } from './browser';

describe.skipIf(!hasBrowser)('live notifications in the browser', () => {
  let stack: Stack;
  let adminId: number;
  /** The login screen the first test opens; the admin signs in on it in the second (a new context and a first load cost Chromium more than the form). */
  let loginScreen: Awaited<ReturnType<Stack['newPage']>>;
  /** The engineer's browser of the second test; the viewer signs in there in the third once the engineer has signed out. */
  let engineerBrowser: Awaited<ReturnType<Stack['newPage']>>;
  beforeAll(async () => {
    stack = await startStack();
    const [admin] = await stack.app.db.select({ id: users.id }).from(users).where(eq(users.email, 'admin@example.com'));
    adminId = admin.id;
  });
  afterAll(async () => { await stack?.close(); });

  it('keeps the websocket client out of the login screen', async () => {
    loginScreen = await stack.newPage();
    const { page } = loginScreen;
    const requested: string[] = [];
    let socketCount = 0;
    const recordRequest = (request: Request) => requested.push(request.url());
    const countSocket = () => { socketCount += 1; };
    page.on('request', recordRequest);
    page.on('websocket', countSocket);
    await page.goto('/');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(requested.filter((url) => /pusher|echo/i.test(url))).toEqual([]);
    expect(socketCount).toBe(0);
    page.off('request', recordRequest);
    page.off('websocket', countSocket);
  });

  it('a time sheet upload reaches the manager; the announcement reaches every tab', async () => {
    await stack.createUser({ email: 'engineer@example.com', name: 'Eve Engineer', user_type: 'user', parent_id: adminId });

    // The admin, on the dashboard, subscribed to their own time sheet channel: signed in on the first test's login screen.
    const admin = loginScreen;
    const adminSubscribed = subscribed(admin.page, `private-time-sheet-upload-event.${adminId}`);
    await admin.page.getByLabel('Email').fill('admin@example.com');
    await admin.page.locator('input[name="password"]').fill('password');
    await admin.page.getByRole('button', { name: 'Sign in' }).click();
    await admin.page.waitForURL('**/dashboard');
    await adminSubscribed;
    await markPage(admin.page);
    await expect.poll(() => admin.page.getByTestId('unread-count').count()).toBe(0);

    // The engineer, in a second context, subscribed to the announcement channel; no banner yet.
    const engineer = engineerBrowser = await stack.newPage({ width: 390, height: 844 });
    const engineerSubscribed = subscribed(engineer.page, 'private-announcement-alert');
    await loginThroughForm(engineer.page, 'engineer@example.com', PASSWORD);
    await engineer.page.waitForURL('**/dashboard');
    await engineerSubscribed;
    await markPage(engineer.page);
    expect(await engineer.page.getByRole('region', { name: 'Announcement' }).count()).toBe(0);

    // The engineer uploads a time sheet through the API, as the upload dialog does.
    const [client] = await stack.app.db.insert(clients).values({ name: 'Contoso' }).returning();
    const login = await stack.app.inject({ method: 'POST', url: '/api/login', payload: { email: 'engineer@example.com', password: PASSWORD } });
    const form = multipart({ client_id: client.id, period_type: 'month', period_start: '2026-03-01', hours: 160 }, { name: 'march.pdf', type: 'application/pdf', content: PDF }, 'time-sheet');
    const uploaded = await stack.app.inject({
      method: 'POST', url: '/api/time-sheet', payload: form.body, headers: { ...form.headers, authorization: `Bearer ${login.json<{ access_token: string }>().access_token}` },
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const toast = admin.page.getByTestId('realtime-toast');
    await toast.getByText('A time sheet waits for your review').waitFor();
    await toast.getByText('Eve Engineer uploaded their time sheet for 2026-03-01 to 2026-03-31 (160 h). Approve it, or reject it with the reason.').waitFor();
    await expect.poll(() => admin.page.getByTestId('unread-count').textContent()).toBe('1');
    // The bell lists it.
    await admin.page.getByRole('button', { name: /Notifications, 1 unread/ }).click();
    await admin.page.getByRole('button', { name: 'A time sheet waits for your review' }).waitFor();
    await admin.page.keyboard.press('Escape');
    // The engineer is not the manager: nothing for them.
    expect(await engineer.page.getByTestId('realtime-toast').count()).toBe(0);

    // The admin turns the announcement on from the settings screen, reached through the menu.
    await admin.page.getByRole('link', { name: 'Setting' }).first().click();
    await admin.page.waitForURL('**/setting');
    const status = admin.page.getByRole('switch', { name: 'Show the announcement' });
    await status.waitFor();
    expect(await status.getAttribute('aria-checked')).toBe('false');
    await status.click();
    // On without a message is refused under the field.
    await admin.page.getByRole('button', { name: 'Save the announcement' }).click();
    await admin.page.getByText('The message field is required when the announcement is on.').waitFor();
    await admin.page.getByLabel('Message').fill('Office closed on Friday for the public holiday.');
    await admin.page.getByRole('button', { name: 'Save the announcement' }).click();
    await admin.page.getByText('Announcement updated successfully.').waitFor();

    // The engineer's marquee shows it, live; so does the admin's own.
    const engineerBanner = engineer.page.getByRole('region', { name: 'Announcement' });
    await engineerBanner.getByText('Office closed on Friday for the public holiday.').waitFor();
    await admin.page.getByRole('region', { name: 'Announcement' }).getByText('Office closed on Friday').waitFor();

    // Off again: the banner goes away in the other context.
    await status.click();
    expect(await status.getAttribute('aria-checked')).toBe('false');
    await admin.page.getByRole('button', { name: 'Save the announcement' }).click();
    await engineerBanner.waitFor({ state: 'detached' });
    await admin.page.getByRole('region', { name: 'Announcement' }).waitFor({ state: 'detached' });

    expect(await wasNotReloaded(admin.page)).toBe(true);
    expect(await wasNotReloaded(engineer.page)).toBe(true);
    expect(admin.errors).toEqual([]);
    expect(engineer.errors).toEqual([]);
    await admin.context.close();
  });

  it('shows the settings form read-only without can-edit-setting', async () => {
    const viewer = await stack.createUser({ email: 'viewer@example.com', name: 'Vic Viewer', user_type: 'user' }, []);
    // A role that may view the settings but not change them.
    const [role] = await stack.app.db.insert(roles).values({ name: 'setting-viewer', account_type: 'app' }).returning({ id: roles.id });
    const granted = await stack.app.db.select({ id: permissions.id, name: permissions.name }).from(permissions);
    await stack.app.db.insert(roleHasPermissions).values(granted
      .filter((p) => p.name === 'can-view-setting' || p.name === 'can-view-dashboard')
      .map((p) => ({ role_id: role.id, permission_id: p.id })));
    await assignRoles(stack.app.db, 'app', viewer.id, ['setting-viewer']);

    // In the engineer's browser, at desktop width: the engineer signs out and the viewer signs in through the form.
    const { page, context } = engineerBrowser;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('button', { name: /user menu/i }).click();
    await page.getByRole('menuitem', { name: 'Log Out' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByLabel('Email').fill('viewer@example.com');
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/dashboard');
    await goInApp(page, '/setting');
    await page.getByText('You can view this setting but not change it.').waitFor();
    expect(await page.getByRole('switch', { name: 'Show the announcement' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
    await context.close();
  });
});

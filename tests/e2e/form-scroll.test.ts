// On a phone, a form's first invalid field must come into view below the sticky header, not under it (issue 14).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goInApp, hasBrowser, loginThroughForm, type Stack, startStack } from './browser';

describe.skipIf(!hasBrowser)('form focus on a phone', () => {
  let stack: Stack;
  beforeAll(async () => { stack = await startStack(); });
  afterAll(async () => { await stack?.close(); });

  it('scrolls the first invalid field clear of the sticky header', async () => {
    const { page, errors } = await stack.newPage({ width: 390, height: 420 });
    await loginThroughForm(page, 'admin@example.com', 'password');
    await page.waitForURL('**/dashboard');
    await goInApp(page, '/country/create');
    const name = page.getByLabel('Name');
    await name.waitFor();
    // The field sits under the sticky header but inside the viewport, as after scrolling a long form
    // down to its button: the browser sees it "in view" and, without a scroll margin, leaves it hidden.
    await page.getByLabel('Code').evaluate((input) => { (input.closest('[data-field], div') as HTMLElement).style.marginBottom = '240px'; });
    await name.evaluate((input) => window.scrollBy(0, input.getBoundingClientRect().top - 16));
    const before = await name.boundingBox();
    expect(before!.y).toBeLessThan(40);
    expect(before!.y).toBeGreaterThanOrEqual(0);

    // Submitted without scrolling (a click through Playwright would scroll the button into view first).
    await page.getByRole('button', { name: 'Create country' }).evaluate((button) => (button as HTMLButtonElement).click());
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name') ?? document.activeElement?.id)).toMatch(/name/i);
    const headerBottom = await page.locator('header').first().evaluate((header) => header.getBoundingClientRect().bottom);
    expect(headerBottom).toBeGreaterThanOrEqual(64);
    await expect.poll(async () => (await name.boundingBox())!.y).toBeGreaterThanOrEqual(headerBottom);
    expect(errors).toEqual([]);
  });
});

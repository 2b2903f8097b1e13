// Issue 22: an admin imports people from a file in Chromium: downloads the template, uploads a file
// with a bad row, reads the preview's errors, fixes the file, imports and watches the invitations go out.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cities, countries, employeeTypes } from '../../src/server/db/schema/master-data';
import { goInApp, hasBrowser, loginThroughForm, type Stack, startStack } from './browser';

describe.skipIf(!hasBrowser)('importing people in the browser', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
    const [india] = await stack.app.db.insert(countries).values({ name: 'India', code: 'IN' }).returning();
    await stack.app.db.insert(cities).values({ name: 'Pune', country_id: india.id });
    await stack.app.db.insert(employeeTypes).values({ name: 'Full-time' });
    await stack.createUser({ email: 'lead@example.com', name: 'Lead Person', user_type: 'manager' });
  });
  afterAll(async () => { await stack?.close(); });

  it('takes the template, shows a bad row\'s errors, imports the fixed file and shows the invitations going out', async () => {
    const { page, errors } = await stack.newPage();
    await loginThroughForm(page, 'admin@example.com', 'password');
    await page.waitForURL('**/dashboard');
    await goInApp(page, '/user');
    await page.getByRole('link', { name: 'Import users from a file' }).click();
    await page.waitForURL('**/user/import');
    await page.getByRole('heading', { name: 'Import users' }).waitFor();

    // The template: its heading row is the importer's columns.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Template (CSV)' }).click()]);
    expect(download.suggestedFilename()).toBe('user-import-template.csv');
    const template = await readFile((await download.path())!, 'utf8');
    const heading = template.split('\r\n')[0];
    expect(heading).toBe('Name,Email,Phone,Employee Type,Manager Email,Country,City,Roles,Employee ID,Job Title,Department,Join Date,Work Location');

    const good = [
      'Asha Patel,asha@example.com,,Full-time,lead@example.com,India,Pune,,E-1,Engineer,Engineering,2026-01-05,Pune',
      'Meera Shah,meera@example.com,,Full-time,lead@example.com,India,Pune,,E-3,Designer,Design,2026-02-01,Pune',
    ];
    const bad = 'Ravi Kumar,ravi@example.com,,Full-time,nobody@example.com,India,Pune,,E-2,Tester,QA,05/01/2026,Pune';
    const fixed = 'Ravi Kumar,ravi@example.com,,Full-time,lead@example.com,India,Pune,,E-2,Tester,QA,2026-01-05,Pune';
    const file = (rows: string[]) => ({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from([heading, ...rows].join('\n')) });

    // A bad row: its errors named by column, and "Import all" refused until it is fixed.
    await page.getByLabel('File (CSV or XLSX)').setInputFiles(file([good[0], bad, good[1]]));
    await page.getByRole('button', { name: 'Check file' }).click();
    await page.getByText('3 rows checked: 2 ready to import, 1 with errors.').waitFor();
    const row = page.getByRole('row', { name: /^3 / });
    await row.getByText('Unknown manager: nobody who can be a manager has the email nobody@example.com.').waitFor();
    await row.getByText('The join date must be a date written YYYY-MM-DD; the file says "05/01/2026".').waitFor();
    expect(await page.getByRole('button', { name: 'Import all 3 rows' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Import 2 valid rows' }).waitFor();

    // The fixed file: every row ready, imported together.
    await page.getByLabel('File (CSV or XLSX)').setInputFiles(file([good[0], fixed, good[1]]));
    await page.getByRole('button', { name: 'Check file' }).click();
    await page.getByText('3 rows checked: 3 ready to import, 0 with errors.').waitFor();
    await page.getByRole('button', { name: 'Import all 3 rows' }).click();
    await page.getByText('3 users were imported.').first().waitFor();
    await page.getByText('0 of 3 sent…').waitFor();

    // The background job sends them (the server under test runs no job loop of its own); the screen follows.
    await stack.app.jobs.runDue();
    await page.getByText('All 3 invitations have been sent.').waitFor();
    expect(await page.getByRole('progressbar', { name: 'Invitations' }).getAttribute('aria-valuenow')).toBe('3');
    for (const email of ['asha@example.com', 'ravi@example.com', 'meera@example.com']) await stack.smtp.waitFor(email, /Set Your Password/);

    // The people list shows them as invited, with their HR record; ticked, they can be invited again.
    await goInApp(page, '/user');
    const ravi = page.getByRole('row', { name: /Ravi Kumar/ });
    await ravi.getByText('Invited', { exact: true }).waitFor();
    await ravi.getByRole('cell', { name: 'QA', exact: true }).waitFor();
    await page.getByRole('checkbox', { name: 'Select Ravi Kumar' }).check();
    await page.getByRole('region', { name: 'Chosen people' }).getByRole('button', { name: 'Resend invitation' }).click();
    await page.getByText('A new invitation is on its way to Ravi Kumar.').waitFor();
    expect(errors).toEqual([]);
  });
});

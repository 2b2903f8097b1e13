// Every export with an amount carries its currency beside it, amounts with two decimals, dates as
// YYYY-MM-DD (issue 21). The exports are the generic CSV of each registered list (the main
// application's and the partner portal's): the first test walks all of them, the others read files.
// On the embedded database too: amounts, currencies and dates as the embedded driver returns them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expenses } from '../../src/server/db/schema/hr';
import { clients, expenseCategories } from '../../src/server/db/schema/master-data';
import { exportFields } from '../../src/server/resources/csv';
import { registeredResources } from '../../src/server/resources/register';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
});
afterAll(async () => { await t?.close(); });

/** The CSV as rows of cells (no cell here holds a comma or a quote). */
async function csv(url: string): Promise<string[][]> {
  const res = await t.call('GET', url, { token: admin });
  expect(res.status, String(res.body)).toBe(200);
  return String(res.body).trim().split('\r\n').map((line) => line.split(','));
}

const MONEY = /^(amount|tax|total|value|weighted_value|rate|current_cost|expected_cost)$/;

describe('exports', () => {
  it('names a currency for every amount of every registered list, and exports it right after the amount or as a column of its own', () => {
    const definitions = registeredResources(t.app).map((resource) => resource.definition);
    expect(definitions.length).toBeGreaterThan(20);
    for (const definition of definitions) {
      const fields = exportFields(definition);
      const keys = fields.map(([key]) => key);
      for (const [key, field] of Object.entries(definition.fields)) {
        if (field.input !== 'number' || !MONEY.test(key)) continue;
        expect(field.currencyField, `${definition.name}.${key} names its currency`).toBeTruthy();
        expect(definition.fields[field.currencyField!], `${definition.name}.${field.currencyField} exists`).toBeDefined();
        if (keys.includes(key)) expect(keys, `${definition.name} exports ${key} with its currency`).toContain(field.currencyField);
      }
    }
  });

  it('writes the expense of the issue as 64.50 GBP, its date as YYYY-MM-DD', async () => {
    const [category] = await t.app.db.insert(expenseCategories).values({ name: 'Travel' }).returning();
    await t.app.db.insert(expenses).values({
      user_id: 1, expense_category_id: category.id, expense_date: '2026-12-05', amount: 64.5, currency: 'GBP', description: 'Train to the client', status: 'pending',
    });
    const [header, row] = await csv('/api/expense/export');
    const at = (label: string) => row[header.indexOf(label)];
    expect(header.indexOf('Currency')).toBe(header.indexOf('Amount') + 1);
    expect(at('Amount')).toBe('64.50');
    expect(at('Currency')).toBe('GBP');
    expect(at('Date')).toBe('2026-12-05');
  });

  it('writes contract values with two decimals and their currency, and calendar dates as they are', async () => {
    const [client] = await t.app.db.insert(clients).values({ name: 'Contoso' }).returning();
    for (const [po, value, currency] of [['PO-EUR', 5000.5, 'EUR'], ['PO-INR', 120000, 'INR']] as const) {
      const res = await t.call('POST', '/api/contract', {
        token: admin, body: { po_number: po, client_id: client.id, start_date: '2026-01-01', end_date: '2026-12-05', value, currency },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const [header, ...rows] = await csv('/api/contract/export?sort=po_number');
    expect(header.slice(header.indexOf('Value'), header.indexOf('Value') + 2)).toEqual(['Value', 'Currency']);
    const cells = rows.map((row) => [row[header.indexOf('PO number')], row[header.indexOf('Value')], row[header.indexOf('Currency')], row[header.indexOf('End (expiry) date')]]);
    expect(cells).toEqual([['PO-EUR', '5000.50', 'EUR', '2026-12-05'], ['PO-INR', '120000.00', 'INR', '2026-12-05']]);
  });

  it('writes a timestamp as the day it falls on in the firm’s time zone', async () => {
    const saved = await t.call('PUT', '/api/setting/time-zone', { token: admin, body: { time_zone: 'Pacific/Auckland' } });
    expect(saved.status).toBe(200);
    // Created 11:30 UTC on 4 December: 00:30 on the 5th in Auckland.
    await t.app.db.insert(expenseCategories).values({ name: 'Late night', created_at: new Date('2026-12-04T11:30:00Z') });
    const [header, ...rows] = await csv('/api/expense-category/export?search=Late%20night');
    const created = header.findIndex((label) => /created/i.test(label));
    expect(created).toBeGreaterThanOrEqual(0);
    expect(rows.map((row) => row[created])).toEqual(['2026-12-05']);
  });
});

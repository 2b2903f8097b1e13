// A fresh install (issue 22): the defaults it starts with, the first admin's setup checklist computed
// from the data, the firm profile, and a walk through every screen the checklist links to with the
// optional fields left empty, which must never answer 500. Starts from an empty database (not the
// run's snapshot, which leaves the firm's starting lists out), as `npm start` on a new DATA_DIR does.
// On the embedded database too: a new installation on an empty data directory, as `npm start` makes one.
import { inflateSync } from 'node:zlib';
import { and, eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defaultRolePermissions } from '../../src/shared/permissions';
import { resourceByName } from '../../src/shared/resources/registry';
import { defaultExpenseCategories } from '../../src/shared/resources/expense-category';
import { defaultChecklistTemplates } from '../../src/shared/resources/onboarding-template';
import { defaultLeaveTypes } from '../../src/shared/resources/leave-type';
import { OFFER_PLACEHOLDERS } from '../../src/shared/resources/interview';
import { DEFAULT_OFFER_TEMPLATE } from '../../src/shared/resources/offer-template';
import type { SetupChecklist } from '../../src/shared/schemas/setup';
import { seed } from '../../src/server/db/seed';
import { modelHasRoles, users } from '../../src/server/db/schema/accounts';
import { clients, positions } from '../../src/server/db/schema/master-data';
import { candidates } from '../../src/server/db/schema/recruitment';
import { today } from '../../src/shared/dates';
import { createTestApp, type TestApp } from '../helpers/app';
import { multipart } from '../helpers/multipart';

const FIRST = { email: 'first-admin@example.com', password: 'first-password' };
let t: TestApp;
let admin: string;

const as = () => ({ token: admin });
const list = async (segment: string, query = 'per_page=100') => {
  const answer = await t.call('GET', `/api/${segment}?${query}`, as());
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data as Record<string, any>[];
};
const checklist = async () => {
  const answer = await t.call('GET', '/api/setup-checklist', as());
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data as SetupChecklist;
};
const openSteps = async () => (await checklist()).steps.filter((step) => !step.is_done).map((step) => step.key);

beforeAll(async () => {
  // Another first admin than the snapshot's, on a database of its own: migrated and seeded from empty.
  t = await createTestApp({ adminEmail: FIRST.email, adminPassword: FIRST.password, inMemoryDatabase: false });
  admin = await t.login(FIRST.email, FIRST.password);
}, 120_000);
afterAll(async () => { await t?.close(); });

describe('a fresh install', () => {
  it('starts with the default expense categories, leave types, checklist templates and roles', async () => {
    expect((await list('expense-category')).map((row) => row.name).sort()).toEqual(defaultExpenseCategories.map((c) => c.name).sort());
    expect((await list('leave-type')).map((row) => row.name).sort()).toEqual(defaultLeaveTypes.map((c) => c.name).sort());
    const templates = await list('onboarding-template');
    expect(templates).toHaveLength(defaultChecklistTemplates.length);
    expect(new Set(templates.map((row) => row.phase))).toEqual(new Set(['onboarding', 'offboarding']));
    const roles = await list('role');
    for (const name of ['admin', 'manager', 'user', 'finance', 'recruiter', 'account manager']) {
      const role = roles.find((row) => row.name === name);
      expect(role, name).toBeDefined();
      if (name !== 'admin') expect(role!.permissions.map((p: { name: string }) => p.name).sort()).toEqual([...defaultRolePermissions[name as keyof typeof defaultRolePermissions]].sort());
    }
  });

  it('lets the admin edit the defaults', async () => {
    const category = (await list('expense-category')).find((row) => row.name === 'Mileage')!;
    const renamed = await t.call('PUT', `/api/expense-category/${category.id}`, { ...as(), body: { name: 'Car mileage', description: null, status: 'active' } });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    const task = (await list('onboarding-template')).find((row) => row.phase === 'offboarding')!;
    const edited = await t.call('PATCH', `/api/onboarding-template/${task.id}`, { ...as(), body: { due_after_days: 10 } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data.due_after_days).toBe(10);
    const recruiter = (await list('role')).find((row) => row.name === 'recruiter')!;
    const trimmed = await t.call('PUT', `/api/role/${recruiter.id}`, { ...as(), body: { name: 'recruiter', permission_ids: recruiter.permission_ids.slice(1) } });
    expect(trimmed.status, JSON.stringify(trimmed.body)).toBe(200);
  });

  it('does not get the defaults twice when the seed runs again on the next start', async () => {
    await seed(t.app.db, FIRST);
    expect(await list('expense-category')).toHaveLength(defaultExpenseCategories.length);
    expect(await list('onboarding-template')).toHaveLength(defaultChecklistTemplates.length);
    expect(await list('offer-template')).toHaveLength(1);
  });
});

/** The text of a PDF's content streams (pdf-lib deflates them; the standard fonts' text is hex). */
function pdfContent(bytes: Buffer): string {
  const raw = bytes.toString('latin1');
  const streams = [...raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)].map((m) => Buffer.from(m[1], 'latin1'));
  return streams.map((stream) => { try { return inflateSync(stream).toString('latin1'); } catch { return stream.toString('latin1'); } }).join('\n');
}
const pdfHex = (text: string) => Buffer.from(text, 'latin1').toString('hex').toUpperCase();

describe('the offer letter template a fresh install starts with (issue 28)', () => {
  let templateId: number;

  it('is there, using every placeholder the offer fills in, and the firm can edit it', async () => {
    const templates = await list('offer-template');
    expect(templates.map((row) => row.name)).toEqual([DEFAULT_OFFER_TEMPLATE.name]);
    for (const placeholder of OFFER_PLACEHOLDERS) expect(templates[0].body, placeholder).toContain(placeholder);
    templateId = templates[0].id;
    const edited = await t.call('PATCH', `/api/offer-template/${templateId}`, { ...as(), body: { body: `${templates[0].body}\n\nP.S. Parking is free on site.` } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data.body).toMatch(/Parking is free on site\.$/);
    // The recruiter's offer dialog picks it from the options.
    const options = await t.call('GET', '/api/offer-template/options', as());
    expect(options.body.data).toEqual([{ id: templateId, label: DEFAULT_OFFER_TEMPLATE.name }]);
  });

  it('makes the first offer letter, as a PDF, without a template written first', async () => {
    const [client] = await t.app.db.insert(clients).values({ name: 'Northwind Traders' }).returning();
    const [position] = await t.app.db.insert(positions).values({ title: 'Data Engineer', client_id: client.id, location: 'Dublin', count: 1 }).returning();
    const [candidate] = await t.app.db.insert(candidates).values({
      name: 'Nora Byrne', email: 'nora@example.com', phone: '+353 85 000 0001', position_id: position.id, stage: 'Offer Letter Review',
    }).returning();
    const made = await t.call('POST', `/api/candidate/${candidate.id}/offer-letters`, {
      ...as(), body: { template_id: templateId, start_date: '2027-02-01', rate: 520, currency: 'EUR', rate_period: 'day' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);

    // Every placeholder filled: the letter names the candidate, position, client, start date and rate.
    const token = new URL(made.body.data.url as string).searchParams.get('token')!;
    const letter = await t.call('GET', `/api/public/offer-letter/${token}`);
    expect(letter.status).toBe(200);
    const body = letter.body.data.body as string;
    expect(body).not.toContain('{{');
    for (const filled of ['Dear Nora Byrne,', 'Data Engineer', 'Northwind Traders', '2027-02-01', 'EUR 520.00 per day']) expect(body).toContain(filled);

    const pdf = await t.app.inject({ method: 'GET', url: `/api/offer-letter/${made.body.data.id}/pdf`, headers: { authorization: `Bearer ${admin}` } });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    expect((await PDFDocument.load(pdf.rawPayload)).getTitle()).toBe('Offer letter for Nora Byrne');
    const content = pdfContent(pdf.rawPayload);
    expect(content).toContain(pdfHex('Dear Nora Byrne,'));
    expect(content).toContain(pdfHex('Yours sincerely,'));
  });
});

describe('the setup checklist', () => {
  it('is open at every step on a fresh install, the defaults included', async () => {
    const answer = await checklist();
    expect(answer.is_done).toBe(false);
    expect(answer.steps.map((step) => step.key)).toEqual(['firm-profile', 'holidays', 'expense-categories', 'leave-types', 'checklist-templates', 'roles', 'invite-people']);
    expect(await openSteps()).toHaveLength(7);
    // The review steps can be kept at once; the others only by doing them.
    expect(answer.steps.filter((step) => step.can_confirm).map((step) => step.key)).toEqual(['expense-categories', 'leave-types', 'checklist-templates', 'roles']);
    expect(answer.steps.every((step) => typeof step.route === 'string' && step.title && step.description)).toBe(true);
  });

  it('is refused to anyone but an admin', async () => {
    const manager = await t.createUser({ email: 'setup-manager@example.com', user_type: 'manager' });
    const token = await manager.token();
    expect((await t.call('GET', '/api/setup-checklist', { token })).status).toBe(403);
    expect((await t.call('POST', '/api/setup-checklist/roles/confirm', { token })).status).toBe(403);
    expect((await t.call('GET', '/api/setup-checklist')).status).toBe(401);
    // That account counts as someone other than the first admin: remove it for the steps below.
    await t.app.db.delete(modelHasRoles).where(and(eq(modelHasRoles.account_type, 'app'), eq(modelHasRoles.account_id, manager.id)));
    await t.app.db.delete(users).where(eq(users.id, manager.id));
  });

  it('ticks the firm profile when the firm name is saved', async () => {
    expect((await t.call('GET', '/api/firm')).body.data).toMatchObject({ name: null, default_currency: 'USD', logo_url: null });
    const saved = await t.call('PUT', '/api/setting/firm', { ...as(), body: { name: 'Acme Consulting', default_currency: 'EUR' } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(await openSteps()).not.toContain('firm-profile');
    // Public: the sign-in page and the page titles name the firm.
    expect((await t.call('GET', '/api/firm')).body.data).toMatchObject({ name: 'Acme Consulting', default_currency: 'EUR' });
  });

  it('ticks countries and holidays when a holiday of this year exists', async () => {
    const country = await t.call('POST', '/api/country', { ...as(), body: { name: 'Ireland', code: 'IE', status: 'active' } });
    expect(country.status, JSON.stringify(country.body)).toBe(201);
    const lastYear = `${Number(today().slice(0, 4)) - 1}-12-25`;
    expect((await t.call('POST', '/api/holiday', { ...as(), body: { name: 'Christmas Day', date: lastYear, country_id: country.body.data.id } })).status).toBe(201);
    expect(await openSteps()).toContain('holidays');
    const thisYear = `${today().slice(0, 4)}-12-25`;
    expect((await t.call('POST', '/api/holiday', { ...as(), body: { name: 'Christmas Day', date: thisYear, country_id: country.body.data.id } })).status).toBe(201);
    expect(await openSteps()).not.toContain('holidays');
  });

  it('ticks a review step when the admin keeps its list, and only while it has something to use', async () => {
    const kept = await t.call('POST', '/api/setup-checklist/expense-categories/confirm', as());
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    const step = kept.body.data.steps.find((s: { key: string }) => s.key === 'expense-categories');
    expect(step).toMatchObject({ is_done: true, can_confirm: false, confirmed: { by: 'Administrator' } });

    // Every offboarding task retired: the checklists cannot be kept, and say why.
    const offboarding = (await list('onboarding-template')).filter((row) => row.phase === 'offboarding');
    for (const task of offboarding) await t.call('PATCH', `/api/onboarding-template/${task.id}`, { ...as(), body: { status: 'inactive' } });
    const refused = await t.call('POST', '/api/setup-checklist/checklist-templates/confirm', as());
    expect(refused.status).toBe(422);
    expect(refused.body.errors.step[0]).toBe('Add or activate at least one onboarding task and one offboarding task first.');
    await t.call('PATCH', `/api/onboarding-template/${offboarding[0].id}`, { ...as(), body: { status: 'active' } });
    expect((await t.call('POST', '/api/setup-checklist/checklist-templates/confirm', as())).status).toBe(200);

    for (const key of ['leave-types', 'roles']) expect((await t.call('POST', `/api/setup-checklist/${key}/confirm`, as())).status).toBe(200);
    expect(await openSteps()).toEqual(['invite-people']);

    // A list emptied after it was kept is open again: nothing to choose from is not done.
    const leaveTypes = await list('leave-type');
    for (const type of leaveTypes) await t.call('PATCH', `/api/leave-type/${type.id}`, { ...as(), body: { status: 'inactive' } });
    expect(await openSteps()).toEqual(['leave-types', 'invite-people']);
    for (const type of leaveTypes) await t.call('PATCH', `/api/leave-type/${type.id}`, { ...as(), body: { status: 'active' } });
  });

  it('does not let a step that is ticked by doing it be confirmed, nor an unknown step', async () => {
    expect((await t.call('POST', '/api/setup-checklist/invite-people/confirm', as())).status).toBe(422);
    expect((await t.call('POST', '/api/setup-checklist/everything/confirm', as())).status).toBe(422);
  });

  it('ticks inviting people when an account other than the first admin exists, and then is done', async () => {
    const invited = await t.call('POST', '/api/user', { ...as(), body: { name: 'Asha Rao', email: 'asha@example.com', status: 'active' } });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    const answer = await checklist();
    expect(answer.steps.filter((step) => !step.is_done)).toEqual([]);
    expect(answer.is_done).toBe(true);
    // The invitation names the firm saved above, not the product.
    const mail = await t.smtp.waitFor('asha@example.com', /Set Your Password/);
    expect(mail.raw).toContain('You have been invited to Acme Consulting');
  });
});

describe('the firm profile', () => {
  it('refuses a missing name and an unknown currency', async () => {
    const answer = await t.call('PUT', '/api/setting/firm', { ...as(), body: { name: ' ', default_currency: 'XXX' } });
    expect(answer.status).toBe(422);
    expect(Object.keys(answer.body.errors).sort()).toEqual(['default_currency', 'name']);
  });

  it('takes a logo image, serves it publicly, and refuses a file that is not one', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const upload = multipart({}, { field: 'logo', name: 'logo.png', type: 'image/png', content: png });
    const saved = await t.call('PUT', '/api/setting/firm/logo', { ...as(), body: upload.body, headers: upload.headers });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const logo = await t.app.inject({ method: 'GET', url: saved.body.data.logo_url });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
    const fake = multipart({}, { field: 'logo', name: 'logo.png', type: 'image/png', content: Buffer.from('not an image at all') });
    const refused = await t.call('PUT', '/api/setting/firm/logo', { ...as(), body: fake.body, headers: fake.headers });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.logo[0]).toBe('logo.png is not a real image. Choose the original file and try again.');
  });
});

/** A body of the schema's required fields (given) with every optional field left empty (null). */
function withOptionalsEmpty(resource: string, required: Record<string, unknown>): Record<string, unknown> {
  const shape = resourceByName[resource].schema.shape as Record<string, z.ZodType>;
  const body: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(shape)) {
    if (key in required) body[key] = required[key];
    else if (field.safeParse(null).success) body[key] = null;
  }
  return body;
}

describe('walking the setup with the optional fields empty', () => {
  it('saves a checklist task without an order (it was a 500)', async () => {
    const created = await t.call('POST', '/api/onboarding-template', {
      ...as(), body: { phase: 'onboarding', title: 'Order the business cards', due_after_days: 3, status: 'active', sort_order: null, assignee_id: null, description: null },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.sort_order).toBe(0);
    const edited = await t.call('PUT', `/api/onboarding-template/${created.body.data.id}`, {
      ...as(), body: { phase: 'onboarding', title: 'Order the business cards', due_after_days: 3, status: 'active', sort_order: null },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
  });

  const screens: { resource: string; required: () => Record<string, unknown> }[] = [
    { resource: 'expense-category', required: () => ({ name: 'Client entertainment', status: 'active' }) },
    { resource: 'leave-type', required: () => ({ name: 'Parental', status: 'active' }) },
    { resource: 'onboarding-template', required: () => ({ phase: 'offboarding', title: 'Return the parking card', due_after_days: 0, status: 'active' }) },
    { resource: 'role', required: () => ({ name: 'auditor', permission_ids: [] }) },
    { resource: 'country', required: () => ({ name: 'Portugal', code: 'PT', status: 'active' }) },
    { resource: 'user', required: () => ({ name: 'Ravi Kumar', email: 'ravi@example.com', status: 'active' }) },
  ];
  for (const screen of screens) {
    it(`creates and edits a ${screen.resource} with every optional field empty`, async () => {
      const body = withOptionalsEmpty(screen.resource, screen.required());
      const created = await t.call('POST', `/api/${screen.resource}`, { ...as(), body });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const edited = await t.call('PUT', `/api/${screen.resource}/${created.body.data.id}`, { ...as(), body });
      expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    });
  }

  it('saves the settings the firm profile step links to', async () => {
    expect((await t.call('PUT', '/api/setting/time-zone', { ...as(), body: { time_zone: 'Europe/Dublin' } })).status).toBe(200);
    expect((await t.call('PUT', '/api/setting/firm', { ...as(), body: { name: 'Acme', default_currency: 'GBP' } })).status).toBe(200);
    expect((await t.call('DELETE', '/api/setting/firm/logo', as())).status).toBe(200);
  });
});

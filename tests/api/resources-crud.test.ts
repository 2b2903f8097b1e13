// Every resource the generic routes can create, walked through its whole life as the admin: one
// table of payloads, one loop. A new creatable definition must add a row here (first test).
// On the embedded database too: every resource's whole life through the generic routes, on the embedded driver's types.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceByName, resourceDefinitions } from '../../src/shared/resources/registry';
import { asSubject } from '../../src/shared/words';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';
import { multipart, PDF } from '../helpers/multipart';

type Body = Record<string, unknown>;

/** Rows the payloads refer to, made through the API before the table is walked. */
interface Fixtures {
  countryId: number;
  otherCountryId: number;
  cityId: number;
  clientId: number;
  employeeTypeId: number;
  managerId: number;
  categoryId: number;
  otherCategoryId: number;
  permissionId: number;
  leaveTypeId: number;
  expenseCategoryId: number;
  partnerId: number;
  engineerId: number;
  positionId?: number;
  onboardingId?: number;
  interviewCandidateId?: number;
}

interface CrudCase {
  resource: string;
  /** A body the create route (and PUT) accepts; the value of the definition's first search field must be unique. */
  valid: (f: Fixtures) => Body;
  /** Merged over `valid` and sent with PUT. */
  put: Body;
  /** Sent alone with PATCH. */
  patch: Body;
  /** Merged over `valid`: breaks exactly one field. */
  invalid: (f: Fixtures) => Body;
  /** The one field the 422 names, and its message. */
  error: [field: string, message: string];
  /** A file field the create requires: the payload goes as multipart with a PDF in it (issue 10). */
  file?: string;
  /** What the routes say, where the resource words its own (said to whoever files it), not "X created successfully.". */
  messages?: { created?: string; updated?: string; deleted?: string };
}

const person = (type: string) => (f: Fixtures): Body => ({
  name: `Crud ${type} Person`, email: `crud-${type}@example.com`, phone: '+91 98000 00001', employee_type_id: f.employeeTypeId,
  parent_id: f.managerId, country_id: f.countryId, city_id: f.cityId, status: 'active',
});

const cases: CrudCase[] = [
  {
    resource: 'country', valid: () => ({ name: 'Crudland', code: 'CR', status: 'active' }),
    put: { name: 'Crudlandia' }, patch: { status: 'inactive' },
    invalid: () => ({ code: 'CRU' }), error: ['code', 'The code field must be 2 letters.'],
  },
  {
    resource: 'city', valid: (f) => ({ name: 'Crudville', country_id: f.countryId, status: 'active' }),
    put: { name: 'Crudville East' }, patch: { status: 'inactive' },
    invalid: () => ({ country_id: 987654 }), error: ['country_id', 'The country you chose has been removed or cannot be chosen here. Choose another.'],
  },
  {
    resource: 'client', valid: (f) => ({ name: 'Crud Client Ltd', email: 'buyer@crud-client.example', phone: '+31 20 000 0000', address: '1 Main St', country_id: f.countryId, status: 'active' }),
    put: { address: '2 Side St' }, patch: { email: 'accounts@crud-client.example' },
    invalid: () => ({ name: '  ' }), error: ['name', 'The name field is required.'],
  },
  {
    resource: 'employee-type', valid: () => ({ name: 'Crud Contractor', description: 'Paid by the hour', status: 'active' }),
    put: { description: 'Paid by the day' }, patch: { status: 'inactive' },
    invalid: () => ({ name: 'x'.repeat(101) }), error: ['name', 'The name field must not be greater than 100 characters.'],
  },
  {
    resource: 'expense-category', valid: () => ({ name: 'Crud Travel', description: 'Trains and planes', status: 'active' }),
    put: { name: 'Crud Travel Abroad' }, patch: { description: null },
    invalid: () => ({ status: 'maybe' }), error: ['status', 'The selected status is invalid.'],
  },
  {
    resource: 'position', valid: (f) => ({ title: 'Crud Network Engineer', client_id: f.clientId, location: 'Pune', count: 2, status: 'open', description: null }),
    put: { count: 5 }, patch: { status: 'on hold' },
    invalid: () => ({ count: 0 }), error: ['count', 'The count field must be at least 1.'],
  },
  {
    resource: 'question-category', valid: () => ({ name: 'Crud Networking', description: 'Ports and protocols', status: 'active' }),
    put: { name: 'Crud Networking Basics' }, patch: { status: 'inactive' },
    invalid: () => ({ name: undefined }), error: ['name', 'The name field is required.'],
  },
  {
    resource: 'question', valid: (f) => ({ question_category_id: f.categoryId, question: 'Crud: the port of HTTPS?', options: ['80', '443', '22'], correct_answer: '443', skill_level: 1 }),
    put: { options: ['443', '8443'], correct_answer: '8443' }, patch: { skill_level: 3 },
    invalid: () => ({ correct_answer: '25' }), error: ['correct_answer', 'The correct answer must be one of the options.'],
  },
  // No permission case: the catalogue comes from the code and its screen is read-only (issue 28).
  {
    resource: 'role', valid: (f) => ({ name: 'crud-auditor', permission_ids: [f.permissionId] }),
    put: { name: 'crud-inspector' }, patch: { permission_ids: [] },
    invalid: () => ({ permission_ids: [987654] }), error: ['permission_ids', 'One of the permissions you chose has been removed or cannot be chosen here. Choose again.'],
  },
  {
    resource: 'admin', valid: person('admin'),
    put: { name: 'Crud Admin Renamed' }, patch: { phone: '+91 98000 00002' },
    invalid: () => ({ email: 'not-an-email' }), error: ['email', 'The email field must be a valid email address.'],
  },
  {
    resource: 'manager', valid: (f) => ({ ...person('manager')(f), parent_id: null }),
    put: { name: 'Crud Manager Renamed' }, patch: { status: 'inactive' },
    invalid: () => ({ email: ADMIN.email.toUpperCase() }), error: ['email', 'The email has already been taken.'],
  },
  {
    resource: 'user', valid: person('user'),
    put: { name: 'Crud User Renamed', employee_type_id: null }, patch: { parent_id: null },
    invalid: (f) => ({ country_id: f.otherCountryId }), error: ['city_id', 'The selected city is not in the selected country.'],
  },
  {
    resource: 'leave-type', valid: () => ({ name: 'Crud Sabbatical', yearly_allowance: 30, status: 'active' }),
    put: { yearly_allowance: 25 }, patch: { yearly_allowance: null },
    invalid: () => ({ yearly_allowance: -1 }), error: ['yearly_allowance', 'The yearly allowance field must be at least 0.'],
  },
  {
    resource: 'holiday', valid: (f) => ({ date: '2031-01-26', name: 'Crud Republic Day', country_id: f.countryId }),
    put: { name: 'Crud Republic Day (observed)' }, patch: { date: '2031-01-27' },
    invalid: () => ({ date: '2031-02-30' }), error: ['date', 'The date field must be a real date in the format YYYY-MM-DD.'],
  },
  {
    // The admin applies for themselves; the days are counted by the server.
    resource: 'leave-application',
    messages: { created: 'The leave application for 2 days is sent to the manager, who decides it and arranges the back fill.', updated: 'The leave application is updated.' },
    valid: (f) => ({ leave_type_id: f.leaveTypeId, from_date: '2031-02-03', to_date: '2031-02-04', reason: 'Crud family wedding', is_half_day_start: false }),
    put: { reason: 'Crud family wedding abroad' }, patch: { to_date: '2031-02-05' },
    invalid: () => ({ to_date: '2031-02-02' }), error: ['to_date', 'The leave cannot end before it starts.'],
  },
  {
    // The admin files a claim for themselves, below the receipt threshold (JSON, no receipt needed).
    resource: 'expense', valid: (f) => ({ description: 'Crud taxi fare', expense_category_id: f.expenseCategoryId, expense_date: '2031-03-03', amount: 25.5, currency: 'EUR', client_id: f.clientId, is_rebillable: true }),
    put: { amount: 30 }, patch: { currency: 'USD' },
    invalid: () => ({ amount: 12.345 }), error: ['amount', 'The amount may have at most 2 decimals.'],
  },
  {
    // Issue 11: the firm (its first login is created with it: tests/api/partners.test.ts).
    resource: 'ikk-partner', valid: (f) => ({
      name: 'Crud Partner Pvt Ltd', contact_name: 'Crud Contact', email: 'contact@crud-partner.example', phone: '+91 20 0000 0000', address: '3 Crud Lane',
      country_id: f.countryId, city_id: f.cityId, tax_id: 'CRUD-TAX-1', payment_terms_days: 30, account_manager_id: f.managerId, status: 'active',
    }),
    put: { tax_id: 'CRUD-TAX-2' }, patch: { payment_terms_days: 60 },
    invalid: () => ({ payment_terms_days: 400 }), error: ['payment_terms_days', 'The payment terms field must not be greater than 365.'],
  },
  {
    resource: 'partner-account', valid: (f) => ({ partner_id: f.partnerId, name: 'Crud Login', email: 'crud-login@crud-partner.example', phone: null, status: 'active' }),
    put: { name: 'Crud Login Renamed' }, patch: { phone: '+91 20 1111 1111' },
    invalid: () => ({ email: 'not-an-address' }), error: ['email', 'The email field must be a valid email address.'],
  },
  {
    resource: 'partner-engineer', valid: (f) => ({
      partner_id: f.partnerId, user_id: f.engineerId, rate_type: 'day', rate: 400, currency: 'EUR', valid_from: '2031-01-01', valid_to: '2031-12-31',
    }),
    put: { rate: 420 }, patch: { rate_type: 'hour' },
    invalid: () => ({ currency: 'EURO' }), error: ['currency', 'The currency must be a 3-letter code (EUR, USD, INR).'],
  },
  {
    // Issue 12: the recruiter (the admin) puts a candidate forward; the stage and recruiter are the server's.
    resource: 'candidate', valid: (f) => ({
      name: 'Crud Candidate', email: 'crud-candidate@example.com', phone: '+91 90000 12345', position_id: f.positionId, current_company: 'Crud Corp',
      total_experience: 5, relevant_experience: 3.5, skills: 'Java', skill_level: 3, grade_group: 'B2', currency: 'INR', current_cost: 100000,
      expected_cost: 120000, cost_rating: '5+', notice_period_days: 30, work_status: 'At (Location)', country_id: f.countryId, city_id: f.cityId,
      source: 'Referral', notes: null,
    }),
    put: { current_company: 'Crud Corp Two' }, patch: { grade_group: 'B3' },
    invalid: () => ({ cost_rating: '6' }), error: ['cost_rating', 'The selected cost rating is invalid.'],
  },
  {
    // Issue 13: a background check of an employee; its six components come with it (tests/api/bgv-checks.test.ts).
    resource: 'bgv-check', valid: (f) => ({ user_id: f.engineerId, vendor: 'Crud Verifications', initiated_on: '2031-04-01', completed_on: null, notes: 'Crud note' }),
    put: { vendor: 'Crud Verifications Two' }, patch: { completed_on: '2031-04-20' },
    invalid: () => ({ initiated_on: '2031-02-30' }), error: ['initiated_on', 'The initiated on field must be a real date in the format YYYY-MM-DD.'],
  },
  {
    resource: 'deal-tracking', valid: (f) => ({
      title: 'Crud deal', client_id: f.clientId, value: 1500.5, currency: 'EUR', stage: 'qualified', expected_close_date: '2031-05-31',
      owner_id: f.managerId, next_step: 'Crud call', next_step_date: '2031-05-01', notes: null,
    }),
    put: { value: 2000 }, patch: { stage: 'proposal' },
    invalid: () => ({ stage: 'maybe' }), error: ['stage', 'The selected stage is invalid.'],
  },
  {
    resource: 'request', valid: (f) => ({
      title: 'Crud request', assign_to: f.engineerId, euc_or_network: 'Network', priority: 'Medium', requesting_partner: 'Crud partner contact',
      support_model: 'Dispatch', request_type: 'Replacement', client_name: 'Crud Client', gps_contact: 'Crud GPS', delivery_contact: 'Crud Delivery',
      partner_id: f.partnerId, country_id: f.countryId, city_id: f.cityId, estimated_start_date: '2031-06-01', estimated_end_date: '2031-07-01',
      sow_start_date: '2031-06-01', sow_end_date: '2031-12-31', contract_renewal_date: '2031-11-30', labels: ['crud'], description: '<p>Crud <strong>work</strong></p>', comment: null,
    }),
    put: { priority: 'High' }, patch: { labels: ['crud', 'patched'] },
    invalid: () => ({ euc_or_network: 'Wifi' }), error: ['euc_or_network', 'Choose a support type: EUC, Network, SHE or Others.'],
  },
  {
    // Issue 13: an onboarding by hand (its checklist: tests/api/onboarding.test.ts), its tasks, the templates and contracts.
    resource: 'onboarding', valid: (f) => ({
      person_name: 'Crud Onboarding Person', email: 'crud-onboarding@example.com', user_id: f.engineerId, client_id: f.clientId, manager_id: f.managerId,
      start_date: '2031-07-01', notes: null,
    }),
    put: { start_date: '2031-07-02' }, patch: { notes: 'Crud note' },
    invalid: () => ({ start_date: '2031-02-30' }), error: ['start_date', 'The start date field must be a real date in the format YYYY-MM-DD.'],
  },
  {
    resource: 'onboarding-task', valid: (f) => ({ onboarding_id: f.onboardingId, title: 'Crud laptop', phase: 'onboarding', assignee_id: f.engineerId, due_date: '2031-07-03' }),
    put: { title: 'Crud laptop issued' }, patch: { phase: 'offboarding' },
    invalid: () => ({ assignee_id: 987654 }), error: ['assignee_id', 'The person you chose has been removed or cannot be chosen here. Choose another.'],
  },
  {
    resource: 'onboarding-template', valid: (f) => ({
      phase: 'onboarding', title: 'Crud create the email account', description: null, due_after_days: 1, assignee_id: f.engineerId, sort_order: 1, status: 'active',
    }),
    put: { due_after_days: 2 }, patch: { status: 'inactive' },
    invalid: () => ({ due_after_days: 366 }), error: ['due_after_days', 'The due after field must not be greater than 365.'],
  },
  {
    resource: 'contract', valid: (f) => ({
      po_number: 'CRUD-PO-1', client_id: f.clientId, person_ids: [f.engineerId], start_date: '2031-01-01', end_date: '2031-12-31', value: 1000.5, currency: 'EUR', notes: null,
    }),
    put: { value: 2000 }, patch: { notes: 'Crud note' },
    invalid: () => ({ end_date: '2030-12-31' }), error: ['end_date', 'The end date cannot be before the start date.'],
  },
  {
    // Issue 28: an interview of a candidate at the Interview stage; its invitation goes by mail.
    resource: 'interview', valid: (f) => ({
      candidate_id: f.interviewCandidateId, scheduled_on: '2031-03-04', start_time: '10:00', duration_minutes: 60, time_zone: 'Europe/London',
      interviewer_ids: [f.engineerId], location: 'Crud room 4', notes: null,
    }),
    put: { start_time: '11:30' }, patch: { duration_minutes: 45 },
    invalid: () => ({ start_time: '9am' }), error: ['start_time', 'The start time must be a time in the format HH:MM (24 hours).'],
  },
  {
    resource: 'offer-template', valid: () => ({ name: 'Crud offer', body: 'Dear {{candidate_name}}, welcome.' }),
    put: { name: 'Crud offer two' }, patch: { body: 'Dear {{candidate_name}}, welcome aboard.' },
    invalid: () => ({ body: '' }), error: ['body', 'The letter field is required.'],
  },
  {
    // Issue 10: a library document needs its file (the first version); an own document too.
    resource: 'document-repository', file: 'file',
    valid: () => ({ title: 'Crud security policy', category: 'compliance', action: 'acknowledge', description: '<p>Read it</p>', expiry_date: '2031-06-30', status: 'active' }),
    put: { category: 'HR' }, patch: { status: 'inactive' },
    invalid: () => ({ category: 'legal' }), error: ['category', 'The selected category is invalid.'],
  },
  {
    resource: 'document', file: 'file',
    messages: {
      created: '“Crud AWS certification” is added to your documents. You are reminded before it expires on 31 August 2031.',
      updated: '“Crud AWS certification” is updated.', deleted: 'The document is removed from your documents.',
    },
    valid: () => ({ title: 'Crud AWS certification', document_type: 'certification', expiry_date: '2031-08-31', notes: 'Crud note' }),
    put: { notes: 'Renewed' }, patch: { expiry_date: '2032-08-31' },
    invalid: () => ({ document_type: 'passport' }), error: ['document_type', 'The selected type is invalid.'],
  },
];

let t: TestApp;
let admin: string;
let fixtures: Fixtures;
const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown) => t.call(method, url, { token: admin, body });

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  const make = async (resource: string, body: Body) => {
    const res = await call('POST', `/api/${resource}`, body);
    if (res.status !== 201) throw new Error(`fixture ${resource}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data.id as number;
  };
  const countryId = await make('country', { name: 'Fixture Land', code: 'FL', status: 'active' });
  const permissions = (await call('GET', '/api/permission?search=can-view-country')).body.data as { id: number; name: string }[];
  fixtures = {
    countryId,
    otherCountryId: await make('country', { name: 'Other Fixture Land', code: 'OF', status: 'active' }),
    cityId: await make('city', { name: 'Fixture City', country_id: countryId, status: 'active' }),
    clientId: await make('client', { name: 'Fixture Client', status: 'active' }),
    employeeTypeId: await make('employee-type', { name: 'Fixture Type', status: 'active' }),
    managerId: await make('manager', { name: 'Fixture Manager', email: 'fixture-manager@example.com', status: 'active' }),
    categoryId: await make('question-category', { name: 'Fixture Category', status: 'active' }),
    otherCategoryId: await make('question-category', { name: 'Other Fixture Category', status: 'active' }),
    permissionId: permissions.find((p) => p.name === 'can-view-country')!.id,
    leaveTypeId: (await call('GET', '/api/leave-type/options?search=annual')).body.data[0].id,
    expenseCategoryId: await make('expense-category', { name: 'Fixture Expenses', status: 'active' }),
    partnerId: await make('ikk-partner', { name: 'Fixture Partner', email: 'fixture@partner.example', payment_terms_days: 30, status: 'active' }),
    engineerId: await make('user', { name: 'Fixture Engineer', email: 'fixture-engineer@example.com', status: 'active' }),
  };
  fixtures.positionId = await make('position', { title: 'Fixture Position', client_id: fixtures.clientId, location: 'Pune', count: 1, status: 'open' });
  fixtures.onboardingId = await make('onboarding', { person_name: 'Fixture Onboarding', start_date: '2031-07-01' });
  fixtures.interviewCandidateId = await make('candidate', { name: 'Fixture Candidate', email: 'fixture-candidate@example.com', phone: '+91 98000 00099', position_id: fixtures.positionId });
  expect((await call('POST', `/api/candidate/${fixtures.interviewCandidateId}/transitions/move-to-interview`, {})).status).toBe(200);
});
afterAll(async () => { await t?.close(); });

it('covers every definition the generic routes can create', () => {
  const creatable = resourceDefinitions.filter((d) => d.permissions.add).map((d) => d.name).sort();
  expect(cases.map((c) => c.resource).sort()).toEqual(creatable);
});

for (const c of cases) describe(c.resource, () => {
  const definition = resourceByName[c.resource];
  const label = asSubject(definition.label);

  it('is created, shown, found, updated and deleted through its routes', async () => {
    const payload = c.valid(fixtures);
    const form = c.file && multipart(Object.fromEntries(Object.entries(payload).filter(([, v]) => v != null).map(([k, v]) => [k, String(v)])),
      { field: c.file, name: 'crud.pdf', type: 'application/pdf', content: PDF });
    const created = form ? await t.call('POST', `/api/${c.resource}`, { token: admin, body: form.body, headers: form.headers }) : await call('POST', `/api/${c.resource}`, payload);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    if (c.messages?.created) expect(created.body.message).toBe(c.messages.created);
    else expect(created.body.message).toMatch(new RegExp(`^${label} created successfully\\.`));
    // A label's capitals are a heading's: "Leave application created", never "Leave Application created".
    expect(created.body.message).not.toMatch(/^[\w-]+ [A-Z][a-z]/);
    expect(created.body.data).toMatchObject(payload);
    expect(created.body.data).not.toHaveProperty('password');
    const id = created.body.data.id as number;
    expect(Number.isInteger(id)).toBe(true);

    const shown = await call('GET', `/api/${c.resource}/${id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.data).toMatchObject({ id, ...payload });
    // Every foreign key comes back with the referenced record under its relation.
    for (const [key, field] of Object.entries(definition.fields)) {
      if (field.input !== 'reference' || !field.reference || payload[key] == null) continue;
      expect(shown.body.data[field.reference.relation], key).toMatchObject({ id: payload[key], [field.reference.labelKey]: expect.any(String) });
    }

    // Found by its first searchable field, under its parent when it has one (questions of a category);
    // the value as stored, which may be computed rather than sent (an engineer's rate is found by the engineer's name).
    const term = encodeURIComponent(String(created.body.data[definition.search[0]]).toUpperCase());
    const parent = definition.parent ? `&${definition.parent.field}=${payload[definition.parent.field]}` : '';
    const found = await call('GET', `/api/${c.resource}?search=${term}${parent}`);
    expect(found.status).toBe(200);
    expect(found.body.data.map((row: { id: number }) => row.id)).toEqual([id]);
    if (definition.parent) {
      const elsewhere = await call('GET', `/api/${c.resource}?search=${term}&${definition.parent.field}=${fixtures.otherCategoryId}`);
      expect(elsewhere.body.data).toEqual([]);
    }

    if (definition.permissions.edit) {
      const put = await call('PUT', `/api/${c.resource}/${id}`, { ...payload, ...c.put });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      expect(put.body.message).toBe(c.messages?.updated ?? `${label} updated successfully.`);
      expect((await call('GET', `/api/${c.resource}/${id}`)).body.data).toMatchObject({ ...payload, ...c.put });

      const patch = await call('PATCH', `/api/${c.resource}/${id}`, c.patch);
      expect(patch.status, JSON.stringify(patch.body)).toBe(200);
      expect(patch.body.message).toBe(c.messages?.updated ?? `${label} updated successfully.`);
      // A PATCH changes what it sends and keeps the rest.
      expect((await call('GET', `/api/${c.resource}/${id}`)).body.data).toMatchObject({ ...payload, ...c.put, ...c.patch });
    }

    if (definition.permissions.delete) {
      const deleted = await call('DELETE', `/api/${c.resource}/${id}`);
      expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
      expect(deleted.body.message).toBe(c.messages?.deleted ?? `${label} deleted successfully.`);
      const gone = await call('GET', `/api/${c.resource}/${id}`);
      expect(gone.status).toBe(404);
      expect(gone.body.message).toBe(`${label} not found.`);
    }
  });

  it(`answers an invalid ${c.error[0]} with 422 on that field only`, async () => {
    const res = await call('POST', `/api/${c.resource}`, { ...c.valid(fixtures), ...c.invalid(fixtures) });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ [c.error[0]]: [c.error[1]] });
  });
});

// Issue 25 (decision 029): every route declares its answer in src/shared; the OpenAPI document
// describes it; the test apps check every answer against it, production sends it unchecked.
import Fastify from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registerErrorHandler } from '../../src/server/plugins/errors';
import { preparedAnswer, registerResponseSerialiser } from '../../src/server/plugins/responses';
import { expense } from '../../src/shared/resources/expense';
import { interview } from '../../src/shared/resources/interview';
import { resourceResponses } from '../../src/shared/schemas/resource';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

interface Operation { responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }> }

describe('the OpenAPI document', () => {
  it('gives every operation a response schema for its success status', async () => {
    const admin = await t.login(ADMIN.email, ADMIN.password);
    const document = await t.call('GET', '/api/docs/json', { token: admin });
    expect(document.status).toBe(200);
    const paths = document.body.paths as Record<string, Record<string, Operation>>;
    const missing: string[] = [];
    let counted = 0;
    for (const [path, operations] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        counted++;
        const success = Object.entries(operation.responses ?? {}).filter(([status]) => /^2\d\d$/.test(status));
        // A 204 has no body; any other success status describes its body (JSON, or a download's media type).
        const isDescribed = success.length > 0 && success.every(([status, response]) =>
          status === '204' || Object.values(response.content ?? {}).some((media) => media.schema !== undefined));
        if (!isDescribed) missing.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(counted).toBeGreaterThan(300);
    expect(missing, 'routes without a response schema').toEqual([]);
  });

  it('describes a list as its page of rows typed by the definition, and an export as CSV', async () => {
    const document = await t.call('GET', '/api/docs/json');
    const list = document.body.paths['/api/country'].get.responses['200'].content['application/json'].schema;
    expect(list.required).toEqual(['data', 'meta']);
    const row = list.properties.data.items;
    expect(row.required).toEqual(expect.arrayContaining(['id', 'abilities']));
    expect(row.properties.status.anyOf ?? row.properties.status.enum ?? row.properties.status).toBeDefined();
    expect(Object.keys(document.body.paths['/api/country/export'].get.responses['200'].content)).toEqual(['text/csv']);
    const expense = document.body.paths['/api/expense/{id}'].get.responses['200'].content['application/json'].schema;
    expect(expense.properties.data.required).toContain('available_transitions');
  });
});

describe('checking answers', () => {
  async function appWith(isChecked: boolean) {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    registerResponseSerialiser(app, isChecked);
    registerErrorHandler(app);
    const answer = z.object({ total: z.number() });
    app.get('/wrong', { schema: { response: { 200: answer } } }, () => ({ total: 'twelve', extra: true }) as never);
    app.get('/right', { schema: { response: { 200: answer } } }, () => ({ total: 12, extra: true }));
    app.get('/prepared', { schema: { response: { 200: answer } } }, () => prepared);
    app.get('/prepared-wrong', { schema: { response: { 200: answer } } }, () => preparedWrong as never);
    await app.ready();
    return app;
  }

  it('answers 500 naming the disagreement when the test app checks', async () => {
    const app = await appWith(true);
    const wrong = await app.inject({ method: 'GET', url: '/wrong' });
    expect(wrong.statusCode).toBe(500);
    expect(wrong.json().message).toMatch(/^The answer of GET \/wrong does not match its declared schema: total: /);
    // A key the schema does not name is sent as it is (never stripped), checked or not.
    expect((await app.inject({ method: 'GET', url: '/right' })).json()).toEqual({ total: 12, extra: true });
    await app.close();
  });

  // Issue 27: a shared answer (a permission set) is serialised once, when prepared, not per request.
  let reads = 0;
  const prepared = preparedAnswer({ get total() { reads++; return 12; }, list: ['a', 'b'] });
  const preparedWrong = preparedAnswer({ total: 'twelve' });

  it('sends a prepared answer as written when it was prepared, and checks it in the test app', async () => {
    const readsWhenPrepared = reads;
    for (const isChecked of [false, true]) {
      const app = await appWith(isChecked);
      for (let i = 0; i < 3; i++) expect((await app.inject({ method: 'GET', url: '/prepared' })).json()).toEqual({ total: 12, list: ['a', 'b'] });
      expect((await app.inject({ method: 'GET', url: '/prepared-wrong' })).statusCode).toBe(isChecked ? 500 : 200);
      await app.close();
    }
    expect(reads).toBe(readsWhenPrepared);
    // Frozen to the bottom: what was written can no longer drift from the object.
    expect(Object.isFrozen(prepared) && Object.isFrozen(prepared.list)).toBe(true);
  });

  it('sends the value unchecked in production', async () => {
    const app = await appWith(false);
    const wrong = await app.inject({ method: 'GET', url: '/wrong' });
    expect(wrong.statusCode).toBe(200);
    expect(wrong.json()).toEqual({ total: 'twelve', extra: true });
    await app.close();
  });
});

describe('a row\'s selects', () => {
  const claim = { id: 1, abilities: { update: true, delete: false }, available_transitions: [], status: 'pending', currency: 'EUR' };
  const issuesOf = (row: unknown) => (resourceResponses(expense).row.safeParse(row).error?.issues ?? []).map((issue) => issue.path.join('.'));

  it('holds a workflow status among its states and an enum select among the enum\'s values', () => {
    expect(issuesOf(claim)).toEqual([]);
    expect(issuesOf({ ...claim, status: 'reimbursed', currency: null })).toEqual([]);
    expect(issuesOf({ ...claim, status: 'Pending' })).toEqual(['status']);
    expect(issuesOf({ ...claim, currency: 'XYZ' })).toEqual(['currency']);
  });

  it('leaves a select its module sets to any value of its kind', () => {
    // An interview's stage is set by its module, never typed: the definition's input does not name it.
    const row = { id: 1, abilities: { update: true, delete: false }, available_transitions: [], status: 'scheduled', stage: 'Final round' };
    expect(resourceResponses(interview).row.safeParse(row).success).toBe(true);
    expect(resourceResponses(interview).row.safeParse({ ...row, status: 'held' }).success).toBe(false);
  });
});

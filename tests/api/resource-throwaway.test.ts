// Issue 25: a resource is its definition, its table and the migration. A throwaway definition, added
// to the registry and the generated manifest as `npm run generate:resources` would, and its table
// beside the others: the server registers its routes as plain CRUD (no module), documents them in
// OpenAPI, seeds its permissions and gives them to the admin role, and its records go round trip. Every
// list that applies to a definition is derived from it: its menu entry, the dashboard's counted
// resources, the grant walk, the kept counts (which also need a table and a migration, and say so).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { keptCountsOf, keptCountsSql, KEPT_COUNTS } from '../../src/server/modules/dashboard/kept-counts';
import { DASHBOARD_COUNTS } from '../../src/shared/dashboard';
import { resourceMenu } from '../../src/shared/generated/resources';
import { resourceDefinitions } from '../../src/shared/resources/registry';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';
import { grantAreas, grantPermissions } from '../helpers/grant-walk';

vi.mock('../../src/shared/resources/registry', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/shared/resources/registry')>();
  const { gadget } = await import('../helpers/throwaway-resource');
  const resourceDefinitions = [...original.resourceDefinitions, gadget];
  return { ...original, resourceDefinitions, resourceByName: { ...original.resourceByName, gadget } };
});
vi.mock('../../src/shared/generated/resources', async (importOriginal) => {
  const generated = await importOriginal<typeof import('../../src/shared/generated/resources')>();
  const { resourceManifest } = await import('../../src/shared/resources/manifest');
  const { gadget } = await import('../helpers/throwaway-resource');
  const added = resourceManifest([gadget], []);
  return {
    resourcePermissions: [...generated.resourcePermissions, ...added.permissions], resourceRoutes: [...generated.resourceRoutes, ...added.routes],
    resourceMenu: [...generated.resourceMenu, ...added.menu], resourceScreenRoutes: [...generated.resourceScreenRoutes, ...added.screenRoutes],
  };
});
// The table sits in a schema file, where `registerPlainResources` finds it by its name.
vi.mock('../../src/server/db/schema/master-data', async (importOriginal) => {
  const { gadgets } = await import('../helpers/throwaway-resource');
  return { ...await importOriginal<object>(), gadgets };
});

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  const { gadgetsSql } = await import('../helpers/throwaway-resource');
  await t.app.db.execute(gadgetsSql);
  admin = await t.login(ADMIN.email, ADMIN.password);
});
afterAll(async () => { await t?.close(); });

describe('a definition with no module', () => {
  it('is registered from the definition and its table: routes, OpenAPI paths and permissions', async () => {
    expect(t.app.resources.get('gadget')?.definition.name).toBe('gadget');
    const docs = await t.call('GET', '/api/docs/json', { token: admin });
    const paths = Object.keys((docs.body as { paths: Record<string, unknown> }).paths);
    for (const path of ['/api/gadget', '/api/gadget/{id}', '/api/gadget/export', '/api/gadget/options']) expect(paths).toContain(path);
    const held = await t.call('GET', '/api/get-laravel-permission-to-vue-js', { token: admin });
    expect(held.body.permissions).toEqual(expect.arrayContaining(['can-view-gadget', 'can-add-gadget', 'can-edit-gadget', 'can-delete-gadget']));
  });

  it('creates, lists, updates, exports and deletes its records', async () => {
    const created = await t.call('POST', '/api/gadget', { token: admin, body: { name: 'Sprocket' } });
    expect(created.status).toBe(201);
    // The definition's own words, from the saved row; what it does not word reads "Gadget updated successfully.".
    expect(created.body).toMatchObject({ message: '“Sprocket” is in the gadget drawer.', data: { name: 'Sprocket', abilities: { update: true, delete: true } } });
    const id = created.body.data.id;
    expect((await t.call('POST', '/api/gadget', { token: admin, body: { name: '' } })).status).toBe(422);
    const list = await t.call('GET', '/api/gadget?search=sprock', { token: admin });
    expect(list.body.data.map((row: { name: string }) => row.name)).toEqual(['Sprocket']);
    expect(list.body.meta.total).toBe(1);
    expect((await t.call('PATCH', `/api/gadget/${id}`, { token: admin, body: { name: 'Cog' } })).body).toMatchObject({ data: { name: 'Cog' }, message: 'Gadget updated successfully.' });
    expect((await t.call('GET', '/api/gadget/export', { token: admin })).body).toContain('Cog');
    expect((await t.call('DELETE', `/api/gadget/${id}`, { token: admin })).body).toEqual({ message: '“Cog” is out of the drawer.' });
    expect((await t.call('GET', `/api/gadget/${id}`, { token: admin })).status).toBe(404);
  });
});

describe('the lists a definition joins by itself', () => {
  it('has its menu entry, is counted by the dashboard and walked by the grant walk', () => {
    expect(resourceMenu.map((item) => item.entry)).toContainEqual({ label: 'Gadget', route: 'gadget.index', permission: 'can-view-gadget', icon: 'tag' });
    expect(DASHBOARD_COUNTS).toContain('gadget');
    expect(grantAreas()).toContain('gadget');
    expect(grantPermissions(t.app.routeRegistry)).toEqual(expect.arrayContaining(['can-add-gadget', 'can-edit-gadget', 'can-delete-gadget']));
  });

  it('keeps counts when it declares them and names their table, and stops the start when it names none', async () => {
    const { gadget, gadgets } = await import('../helpers/throwaway-resource');
    expect(KEPT_COUNTS.map((kept) => kept.resource)).not.toContain('gadget');
    const counted = { ...gadget, dashboard: { keptBy: ['name'] } };
    expect(() => keptCountsOf([...resourceDefinitions, counted])).toThrow('gadget declares kept counts, but modules/dashboard/kept-counts.ts names no table for them');
    const tables = [...KEPT_COUNTS.map((kept) => [kept.resource, kept.table] as const), ['gadget', gadgets] as const];
    const kept = keptCountsOf([...resourceDefinitions, counted], tables);
    expect(kept.at(-1)).toMatchObject({ resource: 'gadget', table: gadgets, columns: ['name'] });
    // The counts of the others stay as they were (their migration is history).
    expect(kept.slice(0, -1)).toEqual(KEPT_COUNTS);
    expect(keptCountsSql(kept.at(-1)!)).toContain('CREATE TABLE "gadgets_counts" ("name" varchar(100), "n" integer NOT NULL);');
  });
});

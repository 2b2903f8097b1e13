// Roles and permissions: create, rename, tick permissions; protected roles; a change applies to
// the holder's next request; permission list/create; the OpenAPI description.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
let admin: string;
let permissionId: (name: string) => number;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  const groups = (await t.call('GET', '/api/permission-groups', { token: admin })).body.data as { permissions: { id: number; name: string }[] }[];
  const byName = new Map(groups.flatMap((g) => g.permissions).map((p) => [p.name, p.id]));
  permissionId = (name) => byName.get(name)!;
});
afterAll(async () => { await t?.close(); });

describe('role', () => {
  it('creates a role with permissions, renames it and changes its permissions', async () => {
    const created = await t.call('POST', '/api/role', { token: admin, body: { name: 'sourcer', permission_ids: [permissionId('can-view-position'), permissionId('can-view-candidate')] } });
    expect(created.status).toBe(201);
    expect(created.body.data.permissions.map((p: { name: string }) => p.name)).toEqual(['can-view-candidate', 'can-view-position']);
    const id = created.body.data.id;
    const renamed = await t.call('PATCH', `/api/role/${id}`, { token: admin, body: { name: 'talent' } });
    expect(renamed.body.data).toMatchObject({ name: 'talent', permissions_count: 2 });
    const retick = await t.call('PUT', `/api/role/${id}`, { token: admin, body: { name: 'talent', permission_ids: [permissionId('can-view-country')] } });
    expect(retick.body.data.permission_ids).toEqual([permissionId('can-view-country')]);
    const unknown = await t.call('POST', '/api/role', { token: admin, body: { name: 'ghost', permission_ids: [999999] } });
    expect(unknown.body.errors).toEqual({ permission_ids: ['The selected permissions is invalid.'] });
    const taken = await t.call('POST', '/api/role', { token: admin, body: { name: 'Talent', permission_ids: [] } });
    expect(taken.body.errors).toEqual({ name: ['The name has already been taken.'] });
  });

  it('protects the seeded roles and refuses to delete a role someone holds', async () => {
    const roles = (await t.call('GET', '/api/role?per_page=100', { token: admin })).body.data as { id: number; name: string }[];
    const adminRole = roles.find((r) => r.name === 'admin')!;
    const deleted = await t.call('DELETE', `/api/role/${adminRole.id}`, { token: admin });
    expect(deleted.status).toBe(409);
    expect(deleted.body.message).toBe('The admin role cannot be deleted.');
    expect((await t.call('PATCH', `/api/role/${adminRole.id}`, { token: admin, body: { name: 'boss' } })).body.errors.name).toEqual(['The admin role cannot be renamed.']);
    expect((await t.call('PATCH', `/api/role/${adminRole.id}`, { token: admin, body: { permission_ids: [] } })).body.errors.permission_ids).toEqual(['The admin role always holds every permission.']);

    const held = (await t.call('POST', '/api/role', { token: admin, body: { name: 'held', permission_ids: [] } })).body.data;
    await t.createUser({ email: 'holder@example.com' }, ['held']);
    const refused = await t.call('DELETE', `/api/role/${held.id}`, { token: admin });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('This role cannot be deleted because 1 account holds it.');
    const spare = (await t.call('POST', '/api/role', { token: admin, body: { name: 'spare', permission_ids: [] } })).body.data;
    expect((await t.call('DELETE', `/api/role/${spare.id}`, { token: admin })).status).toBe(200);

    // Built-in permissions stay; one added by an admin may go.
    const builtIn = (await t.call('GET', '/api/permission?search=can-view-country', { token: admin })).body.data[0];
    const kept = await t.call('DELETE', `/api/permission/${builtIn.id}`, { token: admin });
    expect(kept.status).toBe(409);
    expect(kept.body.message).toBe('The can-view-country permission is built in and cannot be deleted.');
    const added = (await t.call('POST', '/api/permission', { token: admin, body: { name: 'can-view-reports' } })).body.data;
    expect((await t.call('DELETE', `/api/permission/${added.id}`, { token: admin })).status).toBe(200);
  });

  it('applies a permission change to the holder\'s next request', async () => {
    const role = (await t.call('POST', '/api/role', { token: admin, body: { name: 'atlas', permission_ids: [permissionId('can-view-dashboard')] } })).body.data;
    const holder = await t.createUser({ email: 'atlas@example.com' }, ['atlas']);
    const token = await holder.token();
    expect((await t.call('GET', '/api/country', { token })).status).toBe(403);
    expect((await t.call('GET', '/api/get-laravel-permission-to-vue-js', { token })).body).toEqual({ roles: ['atlas'], permissions: ['can-view-dashboard'] });

    await t.call('PATCH', `/api/role/${role.id}`, { token: admin, body: { permission_ids: [permissionId('can-view-dashboard'), permissionId('can-view-country')] } });
    expect((await t.call('GET', '/api/get-laravel-permission-to-vue-js', { token })).body.permissions).toEqual(['can-view-country', 'can-view-dashboard']);
    expect((await t.call('GET', '/api/country', { token })).status).toBe(200);

    await t.call('PATCH', `/api/role/${role.id}`, { token: admin, body: { permission_ids: [] } });
    expect((await t.call('GET', '/api/country', { token })).status).toBe(403);
  });

  it('applies role membership and changes made outside this process to the next request', async () => {
    // Permissions are cached per process under a stamp the database replaces on every change
    // (migration 0005): a write by another node, or straight SQL, must be seen at once too.
    const role = (await t.call('POST', '/api/role', { token: admin, body: { name: 'cartographer', permission_ids: [permissionId('can-view-country')] } })).body.data;
    const worker = await t.createUser({ email: 'cartographer@example.com' });
    const token = await worker.token();
    expect((await t.call('GET', '/api/country', { token })).status).toBe(403);
    await t.call('PATCH', `/api/user/${worker.id}`, { token: admin, body: { role_ids: [role.id] } });
    expect((await t.call('GET', '/api/country', { token })).status).toBe(200);
    await t.app.db.execute(sql`delete from role_has_permissions where role_id = ${role.id}`);
    expect((await t.call('GET', '/api/country', { token })).status).toBe(403);
    await t.app.db.execute(sql`insert into role_has_permissions (role_id, permission_id) values (${role.id}, ${permissionId('can-view-country')})`);
    expect((await t.call('GET', '/api/country', { token })).status).toBe(200);
    await t.app.db.execute(sql`update roles set name = 'mapmaker' where id = ${role.id}`);
    expect((await t.call('GET', '/api/get-laravel-permission-to-vue-js', { token })).body.roles).toEqual(['mapmaker', 'user']);
    await t.app.db.execute(sql`delete from model_has_roles where account_type = 'app' and account_id = ${worker.id} and role_id = ${role.id}`);
    expect((await t.call('GET', '/api/country', { token })).status).toBe(403);
  });

  it('offers only app roles to pick for a user', async () => {
    const options = (await t.call('GET', '/api/role/options', { token: admin })).body.data.map((o: { label: string }) => o.label);
    expect(options).toContain('manager');
    expect(options).not.toContain('partner');
  });

  it('groups permissions by area for the role form', async () => {
    const groups = (await t.call('GET', '/api/permission-groups', { token: admin })).body.data as { area: string; permissions: { name: string }[] }[];
    expect(groups.find((g) => g.area === 'country')!.permissions.map((p) => p.name))
      .toEqual(['can-add-country', 'can-delete-country', 'can-edit-country', 'can-view-country']);
  });
});

describe('permission', () => {
  it('lists, creates and refuses malformed or built-in changes', async () => {
    const list = await t.call('GET', '/api/permission?search=country', { token: admin });
    expect(list.body.data.map((p: { name: string; area: string }) => [p.name, p.area])).toContainEqual(['can-view-country', 'country']);
    const bad = await t.call('POST', '/api/permission', { token: admin, body: { name: 'View Reports' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.name).toBeDefined();
    const created = await t.call('POST', '/api/permission', { token: admin, body: { name: 'can-view-report' } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'can-view-report', area: 'report' });
    expect((await t.call('POST', '/api/permission', { token: admin, body: { name: 'can-view-report' } })).status).toBe(422);

    const builtIn = list.body.data.find((p: { name: string }) => p.name === 'can-view-country');
    expect((await t.call('DELETE', `/api/permission/${builtIn.id}`, { token: admin })).status).toBe(409);
    expect((await t.call('PATCH', `/api/permission/${builtIn.id}`, { token: admin, body: { name: 'can-see-country' } })).status).toBe(422);
    expect((await t.call('DELETE', `/api/permission/${created.body.data.id}`, { token: admin })).status).toBe(200);
  });
});

describe('OpenAPI', () => {
  it('describes the resource routes at /api/docs from the same schemas', async () => {
    const json = await t.call('GET', '/api/docs/json');
    expect(json.status).toBe(200);
    const create = json.body.paths['/api/country'].post;
    expect(create.description).toBe('Needs an app token and can-add-country.');
    expect(Object.keys(create.requestBody.content['application/json'].schema.properties)).toEqual(['name', 'code', 'status']);
    expect(json.body.paths['/api/city/{id}'].delete).toBeDefined();
    const page = await t.call('GET', '/api/docs');
    expect(page.headers['content-type']).toContain('text/html');
    expect(String(page.body)).toContain('/api/position/export');
  });
});

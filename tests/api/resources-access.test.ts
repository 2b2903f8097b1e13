// Roles and permissions: create, rename, tick permissions; protected roles; a change applies to
// the holder's next request; cloning; the read-only permission catalogue; the OpenAPI description.
import { count, sql } from 'drizzle-orm';
import { permissions } from '../../src/server/db/schema/accounts';
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
    expect(unknown.body.errors).toEqual({ permission_ids: ['One of the permissions you chose has been removed or cannot be chosen here. Choose again.'] });
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
  });

  it('clones a role under a new name with the same permissions and no holders (issue 28)', async () => {
    const roles = (await t.call('GET', '/api/role?per_page=100', { token: admin })).body.data as { id: number; name: string; permission_ids: number[] }[];
    const manager = roles.find((r) => r.name === 'manager')!;
    const cloned = await t.call('POST', `/api/role/${manager.id}/clone`, { token: admin, body: { name: 'team lead' } });
    expect(cloned.status).toBe(201);
    expect(cloned.body.message).toBe('Role cloned: team lead has the same permissions and nobody holds it yet.');
    const copy = (await t.call('GET', `/api/role/${cloned.body.data.id}`, { token: admin })).body.data;
    expect(copy).toMatchObject({ name: 'team lead', users_count: 0, permissions_count: manager.permission_ids.length });
    expect([...copy.permission_ids].sort()).toEqual([...manager.permission_ids].sort());
    // The copy is its own: changing it leaves the original as it was.
    await t.call('PATCH', `/api/role/${copy.id}`, { token: admin, body: { permission_ids: [] } });
    expect((await t.call('GET', `/api/role/${manager.id}`, { token: admin })).body.data.permission_ids).toHaveLength(manager.permission_ids.length);

    expect((await t.call('POST', `/api/role/${manager.id}/clone`, { token: admin, body: { name: 'Team Lead' } })).body.errors).toEqual({ name: ['The name has already been taken.'] });
    expect((await t.call('POST', `/api/role/${manager.id}/clone`, { token: admin, body: { name: '' } })).status).toBe(422);
    expect((await t.call('POST', '/api/role/999999/clone', { token: admin, body: { name: 'ghost copy' } })).status).toBe(404);
    const partnerRole = roles.find((r) => r.name === 'partner')!;
    expect((await t.call('POST', `/api/role/${partnerRole.id}/clone`, { token: admin, body: { name: 'partner copy' } })).status).toBe(409);
    // Issue 20: nobody clones permissions they do not hold.
    await t.call('POST', '/api/role', { token: admin, body: { name: 'role keeper', permission_ids: [permissionId('can-view-role'), permissionId('can-add-role')] } });
    const keeper = await (await t.createUser({ email: 'keeper@example.com' }, ['role keeper'])).token();
    const refused = await t.call('POST', `/api/role/${manager.id}/clone`, { token: keeper, body: { name: 'sneaky' } });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('You can only clone a role whose permissions you hold yourself.');
    const plain = await (await t.createUser({ email: 'plain-cloner@example.com' }, ['user'])).token();
    expect((await t.call('POST', `/api/role/${manager.id}/clone`, { token: plain, body: { name: 'nope' } })).status).toBe(403);
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

  it('groups permissions by screen for the role form, each with what it opens', async () => {
    const groups = (await t.call('GET', '/api/permission-groups', { token: admin })).body.data as { screen: string; permissions: { name: string; description: string }[] }[];
    const country = groups.find((g) => g.screen === 'Country')!;
    expect(country.permissions.map((p) => p.name)).toEqual(['can-view-country', 'can-add-country', 'can-edit-country', 'can-delete-country']);
    expect(country.permissions[0].description).toBe('Opens the screen: the list and each record\'s page.');
    const partner = groups.find((g) => g.screen === 'Partner')!;
    expect(partner.permissions.find((p) => p.name === 'can-approve-partner-bank-details')!.description).toMatch(/^Approves or rejects the new bank details/);
    // Every permission has a sentence.
    expect(groups.flatMap((g) => g.permissions).every((p) => p.description.length > 10)).toBe(true);
  });
});

describe('permission', () => {
  it('is a read-only catalogue: listed with its screen and sentence, never created, renamed or deleted', async () => {
    const list = await t.call('GET', '/api/permission?search=country', { token: admin });
    expect(list.body.data.find((p: { name: string }) => p.name === 'can-view-country')).toMatchObject({ screen: 'Country', description: expect.any(String) });
    const [{ total }] = await t.app.db.select({ total: count() }).from(permissions);
    const builtIn = list.body.data.find((p: { name: string }) => p.name === 'can-view-country');
    for (const attempt of [
      t.call('POST', '/api/permission', { token: admin, body: { name: 'can-view-report' } }),
      t.call('PATCH', `/api/permission/${builtIn.id}`, { token: admin, body: { name: 'can-see-country' } }),
      t.call('DELETE', `/api/permission/${builtIn.id}`, { token: admin }),
    ]) expect((await attempt).status).toBe(404);
    const [{ total: after }] = await t.app.db.select({ total: count() }).from(permissions);
    expect(after).toBe(total);
    expect((await t.call('GET', '/api/permission?search=can-see-country', { token: admin })).body.data).toEqual([]);
  });

  it('drops on start a name the code does not check (one typed in before issue 28)', async () => {
    await t.app.db.execute(sql`insert into permissions (name) values ('can-view-reports')`);
    const { seed } = await import('../../src/server/db/seed');
    await seed(t.app.db, ADMIN);
    expect((await t.call('GET', '/api/permission?search=can-view-reports', { token: admin })).body.data).toEqual([]);
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

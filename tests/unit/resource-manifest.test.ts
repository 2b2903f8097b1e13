// Issue 25: one definition registers a resource. Its permissions, screen routes and sidebar entry
// follow from it (shared/resources/manifest.ts), through the generated plain-data module that the
// login bundle may load; this fails while that module is not what the definitions give, and shows a
// throwaway definition reaching the permission list, the route table, the client's screens and the menu.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { manifestSource, resourceManifest } from '../../src/shared/resources/manifest';
import { resourceDefinitions } from '../../src/shared/resources/registry';
import { appMenu, appMenuEntries, menuGroups, type MenuEntry, placeMenu } from '../../src/shared/menu';
import { specRoutes } from '../../src/shared/routes';
import { gadget } from '../helpers/throwaway-resource';


const menuRoutes = (menu: readonly MenuEntry[]): string[] => menu.flatMap((entry) => [entry.route ?? '', ...menuRoutes(entry.children ?? [])]);

describe('the generated resource manifest', () => {
  it('is what the definitions give (run `npm run generate:resources` after changing one)', () => {
    const generated = readFileSync(new URL('../../src/shared/generated/resources.ts', import.meta.url), 'utf8');
    expect(generated).toBe(manifestSource(resourceManifest(resourceDefinitions, specRoutes)));
  });

  it('gives every resource with a screen of its own a sidebar entry', () => {
    const placed = menuRoutes(appMenu);
    for (const definition of resourceDefinitions.filter((d) => !d.parent)) {
      expect(placed, `${definition.name}: declare menu: { icon, group?, order? } in its definition`).toContain(definition.routes.index);
    }
  });

  it('draws the sidebar in the spec\'s order from the definitions\' and the screens\' places (spec §2)', () => {
    const labels = (menu: readonly MenuEntry[]): unknown[] => menu.map((entry) => (entry.children ? [entry.label, labels(entry.children)] : entry.label));
    expect(labels(appMenu)).toEqual([
      'Dashboard', 'Leave Application', 'Approvals While Away', 'Country', 'City', 'Client', 'Employee Type', 'Leave Type', 'Holiday',
      'Active User', 'Admin', 'Manager', 'User',
      ['Compliance Library', ['Document Repository', 'Assign Document', 'Assign History']],
      ['Expense', ['Expense Category', 'Expense', 'File an Expense', 'Reimbursement']],
      ['Partner', ['Partner', 'Pre Billing', 'Invoice']],
      'Position',
      ['Candidate', ['Candidate', 'Question Category', 'Interview', 'Offer Letter Template']],
      'My Documents', 'Time Sheet', 'BGV Check', 'Deal Tracking', 'Request',
      ['Onboarding', ['Onboarding', 'Checklist Template']],
      'Contract', 'Setting', 'Audit Log',
      ['Role & Permission', ['Role', 'Permission']],
    ]);
  });
});

describe('a throwaway definition', () => {
  afterEach(() => {
    vi.doUnmock('../../src/shared/generated/resources');
    vi.resetModules();
  });

  it('reaches the permission list, the route table, the client\'s screens and the menu with nothing else written', async () => {
    vi.resetModules();
    const manifest = resourceManifest([...resourceDefinitions, gadget], specRoutes);
    vi.doMock('../../src/shared/generated/resources', () => ({
      resourcePermissions: manifest.permissions, resourceRoutes: manifest.routes,
      resourceMenu: manifest.menu, resourceScreenRoutes: manifest.screenRoutes,
    }));
    const { allPermissions, defaultRolePermissions } = await import('../../src/shared/permissions');
    const { matchRoute, routePath } = await import('../../src/shared/routes');
    const { appMenu: menu } = await import('../../src/shared/menu');
    const { isBuilt } = await import('../../src/client/routes');

    for (const name of ['can-view-gadget', 'can-add-gadget', 'can-edit-gadget', 'can-delete-gadget']) {
      expect(allPermissions).toContain(name);
      expect(defaultRolePermissions.admin).toContain(name);
    }
    expect(routePath('gadget.index')).toBe('/gadget');
    expect(routePath('gadget.edit', { id: 4 })).toBe('/gadget/4/edit');
    expect(matchRoute('/gadget/create')?.route).toMatchObject({ name: 'gadget.create', permission: 'can-add-gadget', title: 'Create Gadget' });
    for (const name of Object.values(gadget.routes)) expect(isBuilt(name), name).toBe(true);
    const entry = menu.find((item) => item.route === 'gadget.index');
    expect(entry).toEqual({ label: 'Gadget', route: 'gadget.index', permission: 'can-view-gadget', icon: 'tag' });
    // Before Setting, the spec's last screens staying where the spec puts them.
    expect(menu.indexOf(entry!)).toBe(menu.findIndex((item) => item.route === 'setting.index') - 1);
  });

  it('joins the group it names', () => {
    const manifest = resourceManifest([{ ...gadget, menu: { icon: 'tag', group: 'Expense' } }], specRoutes);
    expect(manifest.menu).toEqual([{ group: 'Expense', entry: { label: 'Gadget', route: 'gadget.index', permission: 'can-view-gadget', icon: 'tag' } }]);
    const expense = placeMenu(menuGroups, [...appMenuEntries, ...manifest.menu]).find((item) => item.label === 'Expense');
    expect(expense?.children?.at(-1)?.route).toBe('gadget.index');
  });

  it('stands where its order puts it', () => {
    const manifest = resourceManifest([{ ...gadget, menu: { icon: 'tag', group: 'Expense', order: 15 } }, { ...gadget, menu: { icon: 'tag', order: 45 } }], specRoutes);
    const menu = placeMenu(menuGroups, [...appMenuEntries, ...manifest.menu]);
    expect(menu.find((item) => item.label === 'Expense')?.children?.map((child) => child.label)).toEqual(['Expense Category', 'Gadget', 'Expense', 'File an Expense', 'Reimbursement']);
    expect(menu.map((item) => item.label).slice(3, 6)).toEqual(['Country', 'Gadget', 'City']);
  });
});

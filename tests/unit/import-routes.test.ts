// The import screens' routes are written out in shared/routes.ts (the login bundle must not load the
// definitions), so this checks them against the definitions: every importer has its route, with the
// permission that adds the records, and no route imports into a definition without one.
import { describe, expect, it } from 'vitest';
import { resourceDefinitions } from '../../src/shared/resources/registry';
import { routes } from '../../src/shared/routes';

describe('import routes', () => {
  it('match the definitions that declare an importer, each guarded by their add permission', () => {
    const declared = resourceDefinitions.filter((definition) => definition.importer)
      .map((definition) => ({ name: `${definition.name}.import`, path: `/${definition.name}/import`, permission: definition.permissions.add }));
    const routed = routes.filter((route) => route.name.endsWith('.import'))
      .map((route) => ({ name: route.name, path: route.path, permission: route.permission }));
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
    expect(declared.length).toBeGreaterThan(0);
    expect(routed.sort(byName)).toEqual(declared.sort(byName));
  });
});

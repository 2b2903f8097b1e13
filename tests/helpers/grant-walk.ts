// The grant walk's reach (tests/api/grants.test.ts), derived: the definitions that declare `grantsAccess`
// (their write routes change roles, permissions, account types, status or another account's
// credentials), and the permissions of their write routes read from the route registry, so a new
// definition or route joins the walk by itself (issue 25; the throwaway definition proves it).
import type { RegisteredRoute } from '../../src/server/plugins/auth';
import type { ResourceDefinition } from '../../src/shared/resources/define';
import { resourceDefinitions } from '../../src/shared/resources/registry';

export const grantAreas = (definitions: readonly ResourceDefinition[] = resourceDefinitions) =>
  definitions.filter((definition) => definition.grantsAccess).map((definition) => definition.name);

export const grantPermissions = (routes: readonly RegisteredRoute[], areas: readonly string[] = grantAreas()) => [...new Set(routes
  .filter((route) => route.method !== 'GET' && areas.includes(route.url.split('/')[2]))
  .map((route) => route.permission)
  .filter((permission): permission is string => typeof permission === 'string'))].sort();

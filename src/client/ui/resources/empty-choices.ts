// What a picker says when there is nothing to choose from (issue 22), worked out from the resource its
// options come from: who adds them and where, with a link when the viewer may add them. Every
// reference picker of a generated form gets it, so no form words its own.
import { hasPermission } from '../../../shared/permissions';
import { resourceByName } from '../../../shared/resources/registry';
import { routePath, routesByName } from '../../../shared/routes';
import { isBuilt } from '../../routes';
import { useSnapshot } from 'valtio';
import { auth } from '../../stores/auth';
import type { EmptyChoices } from '../combobox';

/** "No expense categories yet. An admin adds them under Expense Categories." (plus a link for those who may). */
export function emptyChoicesFor(resource: string, held: readonly string[]): EmptyChoices | undefined {
  const definition = resourceByName[resource];
  if (!definition) return undefined;
  const plural = definition.pluralLabel;
  const none = `No ${plural.toLowerCase()} yet.`;
  const add = definition.permissions.add;
  if (!add) return { message: none };
  const route = [definition.routes.index, definition.routes.create].find((name) => !!name && !!routesByName[name] && isBuilt(name));
  if (route && hasPermission(held, add)) {
    return { message: `${none} You can add them under ${plural}.`, link: { label: `Go to ${plural}`, href: routePath(route) } };
  }
  return { message: `${none} An admin adds them under ${plural}.` };
}

/** emptyChoicesFor with the signed-in staff member's permissions, for pickers outside the generated forms. */
export function useEmptyChoices(resource: string): EmptyChoices | undefined {
  const held = useSnapshot(auth.app).permissions.permissions;
  return emptyChoicesFor(resource, held);
}

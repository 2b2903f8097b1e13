// Issue 22: the list's way to its import screen, beside "Add" (shown only to those who may add).
import { Link } from 'wouter';
import type { ResourceDefinition } from '../../../shared/resources/define';
import { routePath, routesByName } from '../../../shared/routes';
import { focusRing } from '../button';
import { cx } from '../cx';
import { Icon } from '../icons';
import { inSentence } from '../../lib/format';

export const importRouteOf = (definition: Pick<ResourceDefinition, 'name'>) => `${definition.name}.import`;

export function ImportLink({ definition, parentId }: { definition: ResourceDefinition; parentId?: string | null }) {
  const name = importRouteOf(definition);
  if (!routesByName[name]) return null;
  // From a category's question list the import comes back to it.
  const href = routePath(name) + (parentId ? `?from=${encodeURIComponent(parentId)}` : '');
  return (
    <Link href={href} aria-label={`Import ${inSentence(definition.pluralLabel)} from a file`} title="Import from a CSV or XLSX file"
      className={cx('inline-flex h-10 items-center justify-center gap-2 rounded-lg bg-white px-3 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50 sm:px-4 dark:bg-slate-800 dark:text-slate-100 dark:ring-slate-700 dark:hover:bg-slate-700', focusRing)}>
      <Icon name="upload" className="size-4" /><span className="hidden sm:inline">Import</span>
    </Link>
  );
}

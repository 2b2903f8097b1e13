// Whether the caller's update or delete of a record would get past its refusals (docs/resources.md
// "Abilities", decision 014): the write routes throw what these return, and every served row carries
// their answers as `abilities`, so the screens' Edit and Delete and the routes always agree.
import { forbidden } from '../plugins/auth';
import { HttpError } from '../plugins/errors';
import { hasPermission } from '../../shared/permissions';
import { type ResourceDefinition, workflowState } from '../../shared/resources/define';
import type { Area, RegisteredResource, ResourceContext, Row } from './types';
import { notEditableRefusal } from '../../shared/words';

/** The permissions of the area the caller came in by: the main application's, or the partner portal's. */
export const areaPermissions = (definition: ResourceDefinition, area: Area) => (area === 'app' ? definition.permissions : definition.owner?.permissions ?? { view: '' });

/** Whether the caller's area grants the definition's edit or delete permission at all. */
function mayInArea(definition: ResourceDefinition, ctx: ResourceContext, action: 'edit' | 'delete'): boolean {
  const permission = areaPermissions(definition, ctx.area)[action];
  return !!permission && hasPermission(ctx.account.permissions, permission);
}

/** A workflow record is edited only in its definition's editable states (all states when it names none). */
function isInEditableState(definition: ResourceDefinition, row: Row): boolean {
  const { workflow, editableStates } = definition;
  return !workflow || !editableStates || editableStates.includes(String(row[workflow.field]));
}

/**
 * Why the caller may not update this record, as the update route answers (null: it would be let
 * through to its input checks): the route and its permission, the state the record is in, the
 * resource's own rule.
 */
export function updateRefusalOf(resource: RegisteredResource, row: Row, ctx: ResourceContext): HttpError | null {
  const { definition } = resource;
  if (!mayInArea(definition, ctx, 'edit')) return forbidden();
  if (!isInEditableState(definition, row)) {
    const { workflow } = definition;
    return new HttpError(409, notEditableRefusal(definition.label, workflowState(workflow!, String(row[workflow!.field])).label));
  }
  return resource.updateRefusal?.(row, ctx) ?? null;
}

/**
 * Why the caller may not delete this record (null: the delete goes on to its in-use check, which
 * counts rows elsewhere and so is not part of `abilities.delete`): the route and its permission, the
 * definition's refusal (a built-in role), the resource's own rule.
 */
export function deleteRefusalOf(resource: RegisteredResource, row: Row, ctx: ResourceContext): HttpError | null {
  const { definition } = resource;
  if (!mayInArea(definition, ctx, 'delete')) return forbidden();
  const refusal = definition.deleteRefusal?.(row);
  if (refusal) return new HttpError(409, refusal);
  return resource.deleteRefusal?.(row, ctx) ?? null;
}

/**
 * The `abilities` of the rows of a page: the answers of the two refusals above, checked in the same
 * order, with the permissions looked up once for the page and no error built for a refused row (issue
 * 27: an error per row, its stack captured, was a tenth of the partner invoice list's Node time).
 */
export function rowAbilities(resource: RegisteredResource, ctx: ResourceContext): (row: Row) => { update: boolean; delete: boolean } {
  const { definition } = resource;
  const mayEdit = mayInArea(definition, ctx, 'edit');
  const mayDelete = mayInArea(definition, ctx, 'delete');
  return (row) => ({
    update: mayEdit && isInEditableState(definition, row) && !resource.updateRefusal?.(row, ctx),
    delete: mayDelete && !definition.deleteRefusal?.(row) && !resource.deleteRefusal?.(row, ctx),
  });
}

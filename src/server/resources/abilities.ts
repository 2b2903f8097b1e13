// Whether the caller's update or delete of a record would get past its refusals (docs/resources.md
// "Abilities", decision 014): the write routes throw what these return, and every served row carries
// their answers as `abilities`, so the screens' Edit and Delete and the routes always agree.
import { forbidden } from '../plugins/auth';
import { HttpError } from '../plugins/errors';
import { hasPermission } from '../../shared/permissions';
import { type ResourceDefinition, workflowState } from '../../shared/resources/define';
import type { Area, RegisteredResource, ResourceContext, Row } from './types';

/** The permissions of the area the caller came in by: the main application's, or the partner portal's. */
export const areaPermissions = (definition: ResourceDefinition, area: Area) => (area === 'app' ? definition.permissions : definition.owner?.permissions ?? { view: '' });

/**
 * Why the caller may not update this record, as the update route answers (null: it would be let
 * through to its input checks): the route and its permission, the state the record is in, the
 * resource's own rule.
 */
export function updateRefusalOf(resource: RegisteredResource, row: Row, ctx: ResourceContext): HttpError | null {
  const { definition } = resource;
  const permission = areaPermissions(definition, ctx.area).edit;
  if (!permission || !hasPermission(ctx.account.permissions, permission)) return forbidden();
  const { workflow } = definition;
  const status = workflow ? String(row[workflow.field]) : null;
  if (workflow && definition.editableStates && !definition.editableStates.includes(status!)) {
    return new HttpError(409, `This ${definition.label.toLowerCase()} is ${workflowState(workflow, status).label.toLowerCase()}, so it can no longer be edited.`);
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
  const permission = areaPermissions(definition, ctx.area).delete;
  if (!permission || !hasPermission(ctx.account.permissions, permission)) return forbidden();
  const refusal = definition.deleteRefusal?.(row);
  if (refusal) return new HttpError(409, refusal);
  return resource.deleteRefusal?.(row, ctx) ?? null;
}

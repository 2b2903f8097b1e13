// admin, manager and user (one table, scoped by user_type) and the active-user list.
import { eq, gt, or } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { users } from '../../db/schema/accounts';
import { BANK_COLUMNS } from '../reimbursement/bank-details';
import { registerResource, type ResourceContext } from '../../resources/register';
import { hasPermission } from '../../../shared/permissions';
import type { ResourceDefinition } from '../../../shared/resources/define';
import { ACTIVE_USER_MINUTES, activeUser, admin, manager, user, type UserType } from '../../../shared/resources/user';
import {
  applyUserUpdate, attachRoleIds, isUserOfType, pendingEmailOfUser, prepareNewUser, prepareUserUpdate, reportsOf, rolesOfUser, userDeleteRefusal, userUpdateRefusal, welcomeNewUser,
} from './service';

/**
 * Someone who may not view a people list still picks from it elsewhere (an engineer's time-sheet
 * Engineer filter reads /api/user/options): they see themselves and their own reports, nobody else.
 */
function visiblePeople(definition: ResourceDefinition, { account }: ResourceContext) {
  if (hasPermission(account.permissions, definition.permissions.view)) return undefined;
  return or(eq(users.id, account.id), eq(users.parent_id, account.id));
}

/** Secrets and internals never sent with a user row; bank details only through /api/bank-details (issue 21). */
const hidden = ['password', 'two_fa_enabled_at', ...BANK_COLUMNS];

export function registerUserRoutes(app: FastifyInstance) {
  for (const [definition, userType] of [[admin, 'admin'], [manager, 'manager'], [user, 'user']] as const) {
    registerResource(app, {
      definition,
      table: users,
      scope: () => isUserOfType(userType as UserType),
      optionsScope: (context) => visiblePeople(definition, context),
      hidden,
      unique: ['email'],
      beforeCreate: (values, input, context) => prepareNewUser(userType, values, input, context),
      afterCreate: (row, input, context) => welcomeNewUser(userType, row, input, context),
      updateRefusal: userUpdateRefusal,
      deleteRefusal: userDeleteRefusal,
      beforeUpdate: prepareUserUpdate,
      afterUpdate: (row, existing, input, context) => applyUserUpdate(userType, row, existing, input, context),
      inUse: (existing, context) => reportsOf(context, existing),
      computed: { roles: rolesOfUser, pending_email: pendingEmailOfUser },
      decorate: async (rows) => attachRoleIds(rows),
      messages: {
        created: `${definition.label} created successfully. An invitation to set a password has been emailed.`,
        updated: (row) => (row.pending_email
          ? `${definition.label} updated successfully. The email address changes to ${String(row.pending_email)} once the link we sent there is opened.`
          : `${definition.label} updated successfully.`),
      },
    });
  }

  // Users seen by the heartbeat recently, with their last activity time.
  registerResource(app, {
    definition: activeUser,
    table: users,
    scope: () => gt(users.last_activity_at, new Date(Date.now() - ACTIVE_USER_MINUTES * 60_000)),
    hidden,
  });
}

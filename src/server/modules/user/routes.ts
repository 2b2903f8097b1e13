// admin, manager and user (one table, scoped by user_type) and the active-user list.
import { eq, gt, or } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAccount } from '../../plugins/auth';
import { enqueue } from '../../jobs/queue';
import { sendSetPasswordLink } from '../auth/service';
import { accessStatusOfUser, INVITATION_JOB, invitablePeople, userImportHooks } from './invitations';
import { idQuery, MAX_ID, MAX_PER_PAGE } from '../../../shared/resources/define';
import { users } from '../../db/schema/accounts';
import { messageResponse } from '../../../shared/schemas/responses';
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
const hidden = ['password', 'two_fa_enabled_at', 'two_fa_secret', 'two_fa_last_step', ...BANK_COLUMNS];

export function registerUserRoutes(app: FastifyInstance) {
  for (const [definition, userType] of [[admin, 'admin'], [manager, 'manager'], [user, 'user']] as const) {
    registerResource(app, {
      definition,
      table: users,
      scope: () => isUserOfType(userType as UserType),
      optionsScope: (context) => visiblePeople(definition, context),
      hidden,
      unique: ['email', 'employee_id'],
      importHooks: userImportHooks(userType as UserType),
      beforeCreate: (values, input, context) => prepareNewUser(userType, values, input, context),
      afterCreate: (row, input, context) => welcomeNewUser(userType, row, input, context),
      updateRefusal: userUpdateRefusal,
      deleteRefusal: userDeleteRefusal,
      beforeUpdate: prepareUserUpdate,
      afterUpdate: (row, existing, input, context) => applyUserUpdate(userType, row, existing, input, context),
      inUse: (existing, context) => reportsOf(context, existing),
      computed: { roles: rolesOfUser, pending_email: pendingEmailOfUser, access_status: accessStatusOfUser },
      decorate: async (rows) => attachRoleIds(rows),
    });
  }

  registerInvitationRoutes(app);

  // Users seen by the heartbeat recently, with their last activity time.
  registerResource(app, {
    definition: activeUser,
    table: users,
    scope: () => gt(users.last_activity_at, new Date(Date.now() - ACTIVE_USER_MINUTES * 60_000)),
    hidden,
  });
}

const contextOf = (request: FastifyRequest): ResourceContext => {
  const account = requireAccount(request);
  return { app: request.server, request, account, area: 'app', db: request.server.db };
};

/**
 * Issue 22: "Resend invitation" on a person's page and for the people chosen on a list. A new link
 * replaces the old one (one pending link per account), valid for INVITATION_LINK_DAYS. Only people
 * who have not accepted yet are invited again; the list's edit permission decides who may.
 */
function registerInvitationRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  for (const definition of [admin, manager, user]) {
    const userType = definition.name as UserType;
    const tags = [definition.label];
    app.post(`/${userType}/:id/resend-invitation`, {
      config: { auth: 'app', permission: definition.permissions.edit },
      schema: { tags, summary: 'Send the invitation again: a new link; the old one stops working', params: z.object({ id: idQuery() }), response: { 200: messageResponse } },
    }, async (request) => {
      const [person] = await invitablePeople(contextOf(request), userType, [request.params.id]);
      await sendSetPasswordLink(request.server, 'app', person.email);
      return { message: `A new invitation has been sent to ${person.email}. The earlier link no longer works.` };
    });
    app.post(`/${userType}/resend-invitation`, {
      config: { auth: 'app', permission: definition.permissions.edit },
      schema: {
        tags, summary: 'Send the invitation again to several people (mailed by a background job)',
        body: z.object({
          ids: z.array(z.number().int().positive().max(MAX_ID), { error: 'The ids field is required.' })
            .min(1, 'Choose at least one person.').max(MAX_PER_PAGE, `Choose at most ${MAX_PER_PAGE} people.`),
        }),
        response: { 200: messageResponse },
      },
    }, async (request) => {
      const people = await invitablePeople(contextOf(request), userType, request.body.ids);
      await enqueue(request.server.db, INVITATION_JOB, { userIds: people.map((person) => person.id) });
      return { message: people.length === 1 ? `A new invitation is on its way to ${people[0].name}.` : `New invitations are on their way to ${people.length} people.` };
    });
  }
}

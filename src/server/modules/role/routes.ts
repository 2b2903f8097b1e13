// Roles (name + permissions ticked by screen, cloning) and the read-only permission catalogue (issue 28).
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { permissions, roles } from '../../db/schema/accounts';
import { registerResource } from '../../resources/register';
import { contextOf } from '../../resources/types';
import { resourceResponses } from '../../../shared/schemas/resource';
import { dataResponse } from '../../../shared/schemas/responses';
import { permissionGroupSchema } from '../../../shared/schemas/role';
import { permission } from '../../../shared/resources/permission';
import { cloneRoleSchema, role } from '../../../shared/resources/role';
import { idQuery } from '../../../shared/resources/define';
import {
  attachDescriptions, attachPermissions, cloneRole, permissionGroups, prepareRole, prepareRoleUpdate, roleHolders, saveRolePermissions,
} from './service';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { grantableRoles, heldRoleRefusal } from './grants';

export function registerRoleRoutes(app: FastifyInstance) {
  registerResource(app, {
    definition: role,
    table: roles,
    unique: ['name'],
    computed: {
      // Spelled out: drizzle leaves columns unqualified in a select list, which would bind both to the subquery.
      permissions_count: sql<number>`(select count(*)::int from "role_has_permissions" p where p."role_id" = "roles"."id")`,
      users_count: sql<number>`(select count(*)::int from "model_has_roles" m where m."role_id" = "roles"."id")`,
    },
    // Roles made here are for app users; the partner role comes from the seed and is never offered to a user.
    // Issue 20: and only those the caller may give.
    optionsScope: ({ db, account }) => and(eq(roles.account_type, 'app'), grantableRoles(db, account)),
    beforeCreate: (values, input, ctx) => prepareRole(ctx, values, input),
    afterCreate: (row, input, ctx) => saveRolePermissions(ctx, row, input),
    updateRefusal: (existing, ctx) => heldRoleRefusal(ctx, existing),
    beforeUpdate: (values, existing, input, ctx) => prepareRoleUpdate(ctx, values, existing, input),
    afterUpdate: (row, _existing, input, ctx) => saveRolePermissions(ctx, row, input),
    inUse: (existing, ctx) => roleHolders(ctx, existing),
    decorate: (rows, ctx) => attachPermissions(ctx, rows),
  });

  // Read only (the definition has no add, edit or delete permission): the catalogue the code checks.
  registerResource(app, {
    definition: permission,
    table: permissions,
    decorate: async (rows) => attachDescriptions(rows),
  });

  // Issue 28: a copy of a role to start a new one from, with the same permissions and no holders.
  app.withTypeProvider<ZodTypeProvider>().post('/role/:id/clone', {
    config: { auth: 'app', permission: 'can-add-role' },
    schema: {
      tags: ['Role'], summary: 'Clone a role under a new name',
      params: z.object({ id: idQuery() }),
      body: cloneRoleSchema,
      response: { 201: resourceResponses(role).saved },
    },
  }, async (request, reply) => {
    const data = await cloneRole(contextOf(request), request.params.id, request.body.name);
    reply.code(201);
    return { data, message: `Role cloned: ${request.body.name} has the same permissions and nobody holds it yet.` };
  });

  app.withTypeProvider<ZodTypeProvider>().get('/permission-groups', {
    config: { auth: 'app', permission: 'can-view-role|can-add-role|can-edit-role|can-view-permission' },
    schema: { tags: ['Role'], summary: 'Permissions grouped by screen, each with what it opens', response: { 200: dataResponse(z.array(permissionGroupSchema)) } },
  }, async (request) => ({ data: await permissionGroups(contextOf(request)) }));
}

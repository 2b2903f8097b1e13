// Roles (name + permissions ticked by area) and permissions (list, create).
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { permissions, roles } from '../../db/schema/accounts';
import { registerResource } from '../../resources/register';
import { permission } from '../../../shared/resources/permission';
import { groupPermissionsByArea, role } from '../../../shared/resources/role';
import {
  attachAreas, attachPermissions, checkRoleChange, refuseBuiltInPermissionRename, roleHolders, setRolePermissions,
} from './service';
import { checkRolePermissionGrant, grantableRoles, heldRoleRefusal } from './grants';

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
    beforeCreate: async (values, input, { db, account }) => {
      await checkRolePermissionGrant(db, account, null, input.permission_ids);
      return { ...values, account_type: 'app' };
    },
    afterCreate: (row, input, { db }) => setRolePermissions(db, row.id as number, input.permission_ids as number[]),
    updateRefusal: (existing, { account }) => heldRoleRefusal(account, existing),
    beforeUpdate: async (values, existing, input, { db, account }) => {
      await checkRolePermissionGrant(db, account, existing, input.permission_ids);
      await checkRoleChange(db, existing, values.name, input.permission_ids);
      return values;
    },
    afterUpdate: async (row, _existing, input, { db }) => {
      if (Array.isArray(input.permission_ids)) await setRolePermissions(db, row.id as number, input.permission_ids as number[]);
    },
    inUse: (existing, { db }) => roleHolders(db, existing),
    decorate: (rows, { db }) => attachPermissions(db, rows),
  });

  registerResource(app, {
    definition: permission,
    table: permissions,
    unique: ['name'],
    beforeUpdate: (values, existing) => refuseBuiltInPermissionRename(existing, values),
    decorate: async (rows) => attachAreas(rows),
  });

  // The role form's tick boxes, grouped by area.
  app.get('/permission-groups', {
    config: { auth: 'app', permission: 'can-view-role|can-add-role|can-edit-role|can-view-permission' },
    schema: { tags: ['Role'], summary: 'Permissions grouped by area' },
  }, async () => ({ data: groupPermissionsByArea(await app.db.select({ id: permissions.id, name: permissions.name }).from(permissions)) }));
}

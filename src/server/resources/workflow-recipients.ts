// Whom a transition or a reminder tells (RecipientRule of src/shared/resources/define.ts), for many
// records at once: the daily reminder job resolves a whole batch in three queries.
import { and, eq, inArray } from 'drizzle-orm';
import { modelHasRoles, permissions, roleHasPermissions, users } from '../db/schema/accounts';
import type { Db } from '../db/client';
import type { RecipientRule } from '../../shared/resources/define';
import type { Recipient } from '../modules/notification/notify';

/** Each record's owner (an app user id) -> the recipients of `rules`, without duplicates. */
export async function resolveRecipients(db: Db, rules: readonly RecipientRule[], ownerIds: readonly number[]): Promise<Map<number, Recipient[]>> {
  const owners = [...new Set(ownerIds)];
  const managerOf = new Map<number, number | null>();
  if (rules.includes('ownerManager') && owners.length) {
    for (let i = 0; i < owners.length; i += 10_000) {
      const rows = await db.select({ id: users.id, parent_id: users.parent_id }).from(users)
        .where(and(inArray(users.id, owners.slice(i, i + 10_000))));
      for (const row of rows) managerOf.set(row.id, row.parent_id);
    }
  }
  const holders = new Map<string, number[]>();
  for (const rule of rules) {
    if (!rule.startsWith('permission:')) continue;
    holders.set(rule, await holdersOf(db, rule.slice('permission:'.length)));
  }
  const result = new Map<number, Recipient[]>();
  for (const owner of owners) {
    const ids = new Set<number>();
    for (const rule of rules) {
      if (rule === 'owner') ids.add(owner);
      else if (rule === 'ownerManager') { const manager = managerOf.get(owner); if (manager) ids.add(manager); }
      else for (const id of holders.get(rule) ?? []) ids.add(id);
    }
    result.set(owner, [...ids].map((id) => ({ type: 'app' as const, id })));
  }
  return result;
}

/** Active app users holding a permission through any of their roles. */
export async function holdersOf(db: Db, permission: string): Promise<number[]> {
  const rows = await db.selectDistinct({ id: users.id }).from(users)
    .innerJoin(modelHasRoles, and(eq(modelHasRoles.account_type, 'app'), eq(modelHasRoles.account_id, users.id)))
    .innerJoin(roleHasPermissions, eq(roleHasPermissions.role_id, modelHasRoles.role_id))
    .innerJoin(permissions, eq(permissions.id, roleHasPermissions.permission_id))
    .where(and(eq(permissions.name, permission), eq(users.status, 'active')));
  return rows.map((row) => row.id);
}

// Whom a transition or a reminder tells (RecipientRule of src/shared/resources/define.ts), for many
// records at once: the daily reminder job resolves a whole batch in three queries. Beside the owner's
// manager, the manager's delegate in force (issue 28) is told too: `withDelegates` adds the rule.
import { and, eq, inArray, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { today } from '../../shared/dates';
import { modelHasRoles, partnerAccounts, partners, permissions, roleHasPermissions, users } from '../db/schema/accounts';
import type { Db } from '../db/client';
import type { RecipientRule } from '../../shared/resources/define';
import type { Recipient } from '../modules/notification/notify';
import { ownerManagerDelegatesSql } from '../modules/delegation/scope';

/**
 * The delegates in force today of the owner's manager (decisions 036 and 041): never declared by a
 * definition, it follows 'ownerManager' wherever a user-owned record tells its owner's manager, so
 * whoever decides for that manager hears what the manager hears (in words of their own, workflow.ts).
 */
export const DELEGATES_RULE = 'ownerManagerDelegates';
export type ResolvedRule = RecipientRule | typeof DELEGATES_RULE;

/** `rules`, followed by the delegates' rule when they tell the manager of a staff member (not a partner firm's account manager). */
export function withDelegates(rules: readonly RecipientRule[], ownerType: 'app' | 'partner' = 'app'): ResolvedRule[] {
  return ownerType === 'app' && rules.includes('ownerManager') ? [...rules, DELEGATES_RULE] : [...rules];
}

/**
 * Each record's owner -> the recipients of `rules`, without duplicates. The owner is an app user id,
 * or with `ownerType` 'partner' a partner firm's id: its owner is then every active login of the firm
 * and its manager the firm's account manager.
 */
export async function resolveRecipients(db: Db, rules: readonly ResolvedRule[], ownerIds: readonly number[], ownerType: 'app' | 'partner' = 'app'): Promise<Map<number, Recipient[]>> {
  const owners = [...new Set(ownerIds)];
  const managerOf = new Map<number, number | null>();
  const loginsOf = new Map<number, number[]>();
  const delegatesOf = new Map<number, number[]>();
  for (let i = 0; i < owners.length; i += 10_000) {
    const chunk = owners.slice(i, i + 10_000);
    if (rules.includes('ownerManager')) {
      const rows = ownerType === 'app'
        ? await db.select({ id: users.id, manager: users.parent_id }).from(users).where(inArray(users.id, chunk))
        : await db.select({ id: partners.id, manager: partners.account_manager_id }).from(partners).where(inArray(partners.id, chunk));
      for (const row of rows) managerOf.set(row.id, row.manager);
    }
    if (ownerType === 'partner' && rules.includes('owner')) {
      const rows = await db.select({ id: partnerAccounts.id, partner: partnerAccounts.partner_id }).from(partnerAccounts)
        .where(and(inArray(partnerAccounts.partner_id, chunk), eq(partnerAccounts.status, 'active')));
      for (const row of rows) loginsOf.set(row.partner, [...(loginsOf.get(row.partner) ?? []), row.id]);
    }
    if (ownerType === 'app' && rules.includes(DELEGATES_RULE)) {
      const found = await db.execute(ownerManagerDelegatesSql(sql.join(chunk.map((id) => sql`${id}::int`), sql`, `)));
      for (const row of (found as unknown as { rows: { owner: number; delegate_id: number }[] }).rows) {
        delegatesOf.set(Number(row.owner), [...(delegatesOf.get(Number(row.owner)) ?? []), Number(row.delegate_id)]);
      }
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
    const logins = ownerType === 'partner' && rules.includes('owner') ? loginsOf.get(owner) ?? [] : [];
    for (const rule of rules) {
      if (rule === 'owner') { if (ownerType === 'app') ids.add(owner); }
      else if (rule === 'ownerManager') { const manager = managerOf.get(owner); if (manager) ids.add(manager); }
      else if (rule === DELEGATES_RULE) { for (const id of delegatesOf.get(owner) ?? []) ids.add(id); }
      else for (const id of holders.get(rule) ?? []) ids.add(id);
    }
    result.set(owner, [...[...ids].map((id) => ({ type: 'app' as const, id })), ...logins.map((id) => ({ type: 'partner' as const, id }))]);
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

/**
 * The recipients of `rules` for one owner as SQL selecting `(rule, type, id)`, `rule` being the index
 * in `rules`: resolveRecipients inside a statement (a workflow decision's, notify.ts
 * `notificationStatement`), with the same answers. An id may come out null (no manager); the caller skips it.
 * Its text depends only on the rules (`shape`): the owner and today are placeholders (decision 050).
 */
export function recipientsQuery(rules: readonly ResolvedRule[], owner: number | null, ownerType: 'app' | 'partner' = 'app') {
  return {
    shape: `${ownerType}:${rules.join(',')}`,
    build: () => recipientsSql(rules, sql.placeholder('notice_owner'), ownerType),
    values: { notice_owner: owner, ...(rules.includes(DELEGATES_RULE) ? { notice_day: today() } : {}) },
  };
}

function recipientsSql(rules: readonly ResolvedRule[], owner: Placeholder, ownerType: 'app' | 'partner'): SQL {
  const parts = rules.map((rule, index) => {
    const i = sql`${index}::int`;
    if (rule === DELEGATES_RULE) {
      return ownerType === 'app' ? sql`select ${i}, 'app'::varchar, delegates.delegate_id from (${ownerManagerDelegatesSql(sql`${owner}::int`, sql.placeholder('notice_day'))}) delegates`
        : sql`select ${i}, 'app'::varchar, null::int where false`;
    }
    if (rule === 'owner') {
      return ownerType === 'app'
        ? sql`select ${i} as rule, 'app'::varchar as type, ${owner}::int as id`
        : sql`select ${i}, 'partner'::varchar, ${partnerAccounts.id} from ${partnerAccounts} where ${partnerAccounts.partner_id} = ${owner}::int and ${partnerAccounts.status} = 'active'`;
    }
    if (rule === 'ownerManager') {
      return ownerType === 'app'
        ? sql`select ${i}, 'app'::varchar, ${users.parent_id} from ${users} where ${users.id} = ${owner}::int`
        : sql`select ${i}, 'app'::varchar, ${partners.account_manager_id} from ${partners} where ${partners.id} = ${owner}::int`;
    }
    const permission = rule.slice('permission:'.length);
    return sql`select distinct ${i}, 'app'::varchar, ${users.id} from ${users}
      join ${modelHasRoles} on ${modelHasRoles.account_type} = 'app' and ${modelHasRoles.account_id} = ${users.id}
      join ${roleHasPermissions} on ${roleHasPermissions.role_id} = ${modelHasRoles.role_id}
      join ${permissions} on ${permissions.id} = ${roleHasPermissions.permission_id}
      where ${permissions.name} = ${permission} and ${users.status} = 'active'`;
  });
  return sql.join(parts.map((part) => sql`(${part})`), sql` union all `);
}

// Approvals while away (decisions 036 and 041): who decides for whom today. A delegation counts on the days of
// its range (the firm's calendar, both ends included) unless withdrawn; nothing has to end it, since
// every reader compares the range with today. It also counts only while its manager is active and still
// holds can-delegate-approvals and its delegate is active: taking the permission or deactivating either
// stops it at once, wherever it is read (the lists, the guards, the notifications).
import { and, eq, gte, inArray, isNull, lte, or, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { modelHasRoles, permissions, roleHasPermissions, users } from '../../db/schema/accounts';
import { delegations } from '../../db/schema/delegations';
import { today } from '../../../shared/dates';
import { DELEGATE_PERMISSION } from '../../../shared/permissions';

/** Whether the app account `accountId` (an SQL value) holds can-delegate-approvals through one of its roles. */
export const holdsDelegatePermissionSql = (accountId: SQL | typeof users.id): SQL<boolean> => sql<boolean>`exists (select 1 from ${modelHasRoles} hr
  join ${roleHasPermissions} hp on hp.role_id = hr.role_id join ${permissions} pp on pp.id = hp.permission_id
  where hr.account_type = 'app' and hr.account_id = ${accountId} and pp.name = ${DELEGATE_PERMISSION})`;

/**
 * A delegation's parties allow it to take effect (issue 28): its manager is active and holds the
 * permission, its delegate is active. `managerId` and `delegateId` are the delegation row's columns.
 */
export function partiesAllowSql(managerId: SQL | typeof delegations.manager_id, delegateId: SQL | typeof delegations.delegate_id): SQL<boolean> {
  return sql<boolean>`(exists (select 1 from ${users} pm where pm.id = ${managerId} and pm.status = 'active')
    and exists (select 1 from ${users} pd where pd.id = ${delegateId} and pd.status = 'active')
    and ${holdsDelegatePermissionSql(sql`${managerId}`)})`;
}

/** A delegation's condition of being in force on `day`: in its range, not withdrawn, its parties allowing it. */
export const inForceOn = (day: string) => and(
  isNull(delegations.withdrawn_at), lte(delegations.starts_on, day), gte(delegations.ends_on, day),
  partiesAllowSql(delegations.manager_id, delegations.delegate_id),
);

/** `inForceOn` for the delegations row aliased `d` in raw SQL (`day` may be a shaped statement's placeholder). */
const inForceSqlOfD = (day: string | Placeholder) => sql`d.withdrawn_at is null and d.starts_on <= ${day}::date and d.ends_on >= ${day}::date
    and ${partiesAllowSql(sql`d.manager_id`, sql`d.delegate_id`)}`;

/** The delegates acting for the manager `managerId` (an SQL value) on `day`, as a JSON array of ids (null: none). */
export function delegatesOfSql(managerId: SQL, day: string | Placeholder): SQL<number[] | null> {
  return sql<number[] | null>`(select json_agg(d.delegate_id) from ${delegations} d where d.manager_id = ${managerId} and ${inForceSqlOfD(day)})`;
}

/**
 * The delegates in force today of the manager of the user `ownerId` (an SQL value), as rows of
 * `(owner, delegate_id)`: the notifications' recipients beside that manager (workflow-recipients.ts).
 */
export function ownerManagerDelegatesSql(ownerIds: SQL, day: string | Placeholder = today()): SQL {
  return sql`select o.id as owner, d.delegate_id from ${users} o join ${delegations} d on d.manager_id = o.parent_id
    where o.id in (${ownerIds}) and ${inForceSqlOfD(day)}`;
}

/** The managers whose decisions `accountId` makes today for them (a subquery of their ids). */
export const actingForQuery = (db: Db, accountId: number, day = today()) =>
  db.select({ id: delegations.manager_id }).from(delegations).where(and(eq(delegations.delegate_id, accountId), inForceOn(day)));

/**
 * The people whose leave, claims and time sheets `accountId` decides: those who report to them, and
 * today those who report to a manager who delegated to them. A subquery of user ids, for list scopes.
 */
export const decidedByQuery = (db: Db, accountId: number) =>
  db.select({ id: users.id }).from(users).where(or(eq(users.parent_id, accountId), inArray(users.parent_id, actingForQuery(db, accountId))));

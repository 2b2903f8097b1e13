// Approvals while away (decision 036): who decides for whom today. A delegation counts on the days of
// its range (the firm's calendar, both ends included) unless withdrawn; nothing has to end it, since
// every reader compares the range with today.
import { and, eq, gte, inArray, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/accounts';
import { delegations } from '../../db/schema/delegations';
import { today } from '../../../shared/dates';

/** A delegation's condition of being in force on `day`. */
export const inForceOn = (day: string) => and(isNull(delegations.withdrawn_at), lte(delegations.starts_on, day), gte(delegations.ends_on, day));

/** The delegates acting for the manager `managerId` (an SQL value) on `day`, as a JSON array of ids (null: none). */
export function delegatesOfSql(managerId: SQL, day: string): SQL<number[] | null> {
  return sql<number[] | null>`(select json_agg(d.delegate_id) from ${delegations} d where d.manager_id = ${managerId}
    and d.withdrawn_at is null and d.starts_on <= ${day}::date and d.ends_on >= ${day}::date)`;
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

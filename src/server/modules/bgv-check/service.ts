// Background checks beyond CRUD: one subject (a candidate or an employee), the six components made
// with the check, the result derived from them, the recruiter told of a discrepancy, and the
// dashboard's figures.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { bgvCheckComponents, bgvChecks } from '../../db/schema/operations';
import { candidates } from '../../db/schema/recruitment';
import type { Account } from '../../plugins/auth';
import { validationError } from '../../plugins/errors';
import type { Transaction } from '../../lib/transaction';
import { removeAttachmentsOf } from '../../resources/attachments';
import { recordUrl } from '../../resources/workflow';
import { notify } from '../notification/notify';
import { today } from '../../../shared/dates';
import { BGV_COMPONENTS, BGV_STATUSES, bgvCheck, bgvCheckComponent, bgvResult, type BgvStatus } from '../../../shared/resources/bgv-check';
import type { Row } from '../../resources/types';

/** The subject's name: the candidate's or the employee's (the list's title, search and sort). */
export const subjectNameSql = sql<string>`coalesce(
  (select c."name" from "candidates" c where c."id" = "bgv_checks"."candidate_id"),
  (select u."name" from "users" u where u."id" = "bgv_checks"."user_id"))`;

/** Exactly one subject, and a completion never before the initiation; 422 otherwise. */
export function checkBgvValues(values: Row) {
  const hasCandidate = values.candidate_id !== null && values.candidate_id !== undefined;
  const hasEmployee = values.user_id !== null && values.user_id !== undefined;
  if (hasCandidate === hasEmployee) {
    throw validationError({
      candidate_id: hasCandidate ? 'A check is of a candidate or of an employee, not both.' : 'Choose the candidate or the employee the check is of.',
    });
  }
  if (typeof values.completed_on === 'string' && typeof values.initiated_on === 'string' && values.completed_on < values.initiated_on) {
    throw validationError({ completed_on: 'The check cannot be completed before the day it was initiated.' });
  }
}

/** Every component starts pending with the check. */
export async function createComponents(db: Db, checkId: number) {
  await db.insert(bgvCheckComponents).values(BGV_COMPONENTS.map((component) => ({ bgv_check_id: checkId, component, status: 'pending' })));
}

/** The components' evidence goes with the check (the rows themselves cascade). */
export async function removeComponentFiles(tx: Transaction, checkId: number) {
  const rows = await tx.db.select({ id: bgvCheckComponents.id }).from(bgvCheckComponents).where(eq(bgvCheckComponents.bgv_check_id, checkId));
  for (const row of rows) await removeAttachmentsOf(tx, bgvCheckComponent, row.id);
}

/**
 * Recomputes a check's result from its components (after one changed) and fills in its completion
 * date when every component is decided and none was given. Returns the new result.
 */
export async function refreshBgvResult(db: Db, checkId: number): Promise<BgvStatus> {
  const rows = await db.select({ status: bgvCheckComponents.status }).from(bgvCheckComponents).where(eq(bgvCheckComponents.bgv_check_id, checkId));
  const statuses = rows.map((row) => row.status);
  const result = bgvResult(statuses);
  const isDecided = statuses.length > 0 && statuses.every((s) => s === 'clear' || s === 'discrepancy');
  await db.update(bgvChecks).set({
    result, updated_at: new Date(),
    ...(isDecided ? { completed_on: sql`coalesce(${bgvChecks.completed_on}, ${today()}::date)` } : {}),
  }).where(eq(bgvChecks.id, checkId));
  return result;
}

/**
 * A component newly found a discrepancy: the candidate's recruiter is told (for an employee, whoever
 * started the check), never the person who recorded it.
 */
export async function notifyDiscrepancy(tx: Transaction, component: Row, actor: Account) {
  const [check] = await tx.db.select({
    id: bgvChecks.id, created_by: bgvChecks.created_by, candidate_id: bgvChecks.candidate_id,
    recruiter_id: candidates.recruiter_id, subject: subjectNameSql,
  }).from(bgvChecks).leftJoin(candidates, eq(candidates.id, bgvChecks.candidate_id))
    .where(eq(bgvChecks.id, component.bgv_check_id as number));
  if (!check) return;
  const recipient = check.candidate_id !== null ? check.recruiter_id : check.created_by;
  if (recipient === null || recipient === actor.id) return;
  await notify(tx, [recipient], {
    title: 'BGV check: discrepancy',
    message: `The ${String(component.component)} check of ${check.subject ?? 'the subject'} found a discrepancy${component.remarks ? `: ${String(component.remarks)}` : '.'}`,
    url: recordUrl(bgvCheck, check.id),
  }, { type: 'App\\Notifications\\BgvCheckDiscrepancy', kind: 'bgv-check' });
}

// ---- Dashboard figures ----

/** Checks by result (every result, in order): the dashboard links each to /bgv-check?result=…. */
export async function bgvResultCounts(db: Db): Promise<{ result: BgvStatus; count: number }[]> {
  const rows = await db.select({ result: bgvChecks.result, count: sql<number>`count(*)`.mapWith(Number) }).from(bgvChecks).groupBy(bgvChecks.result);
  const counts = new Map(rows.map((row) => [row.result, row.count]));
  return BGV_STATUSES.map((result) => ({ result, count: counts.get(result) ?? 0 }));
}

/** How many checks found a discrepancy (optionally of some candidates only). */
export async function bgvDiscrepancyCount(db: Db, candidateIds?: readonly number[]): Promise<number> {
  const [row] = await db.select({ count: sql<number>`count(*)`.mapWith(Number) }).from(bgvChecks)
    .where(and(eq(bgvChecks.result, 'discrepancy'), candidateIds ? inArray(bgvChecks.candidate_id, [...candidateIds]) : undefined));
  return row.count;
}

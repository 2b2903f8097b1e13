// Contracts (issue 13): the people placed under each, the date rule, the new PO that replaces a
// contract, the daily expiry and what the dashboard shows. Spec §4's statuses apply on their dates
// (issue 21), in the firm's time zone: a contract renewed by a new PO stays Active until its end
// date and then becomes 'Expired New PO Released'; the new PO starts the day after and reads as
// starting on that date until then.
import { and, asc, count, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { clients } from '../../db/schema/master-data';
import { users } from '../../db/schema/accounts';
import { contractPeople, contracts } from '../../db/schema/onboarding';
import { remindersSent, workflowHistory } from '../../db/schema/workflow';
import { inTransaction } from '../../lib/transaction';
import type { Account } from '../../plugins/auth';
import { HttpError, validationError } from '../../plugins/errors';
import type { WriteContext } from '../../resources/register';
import { recordUrl, writeHistory } from '../../resources/workflow';
import { notify, notifyEach } from '../notification/notify';
import {
  CONTRACT_ACTIVE, CONTRACT_EXPIRED, CONTRACT_RENEWING, CONTRACT_REPLACED, contract as contractDefinition, type NewPo,
  RENEWABLE_CONTRACT_STATUSES,
} from '../../../shared/resources/contract';
import { addDays, daysBetween, today } from '../../../shared/dates';
import type { Row } from '../../resources/types';

/** 422 on end_date when a PO would end before it starts. */
export function checkDates(values: { start_date?: unknown; end_date?: unknown }) {
  if (typeof values.start_date === 'string' && typeof values.end_date === 'string' && values.end_date < values.start_date) {
    throw validationError({ end_date: 'The end date cannot be before the start date.' });
  }
}

/** 422 on end_date when a contract renewed by a new PO would end on or after the new one starts. */
export function checkRenewedEnd(values: { end_date?: unknown }, existing: Row) {
  const renewedBy = existing.renewed_by as { po_number: string; start_date: string } | null;
  if (renewedBy && typeof values.end_date === 'string' && values.end_date >= renewedBy.start_date) {
    throw validationError({ end_date: `PO ${renewedBy.po_number} takes over on ${renewedBy.start_date}: this PO must end before then.` });
  }
}

/** 422 on po_number when another contract has it (case-insensitive, as the unique index is not). */
export async function checkPoNumber(db: Db, poNumber: string, exceptId?: number) {
  const [taken] = await db.select({ id: contracts.id }).from(contracts)
    .where(sql`lower(${contracts.po_number}) = ${poNumber.toLowerCase()}${exceptId ? sql` and ${contracts.id} <> ${exceptId}` : sql``}`).limit(1);
  if (taken) throw validationError({ po_number: 'The PO number has already been taken.' });
}

/** Replaces the people placed under a contract with `ids` (when the input names them). */
export async function savePeople(db: Db, contractId: number, ids: unknown) {
  if (!Array.isArray(ids)) return;
  await db.delete(contractPeople).where(eq(contractPeople.contract_id, contractId));
  const distinct = [...new Set(ids as number[])];
  if (distinct.length) await db.insert(contractPeople).values(distinct.map((user_id) => ({ contract_id: contractId, user_id })));
}

/** Each row's people as `people: [{id, name}]` and `person_ids`, one query per page. */
export async function attachPeople(db: Db, rows: Row[]) {
  const ids = rows.map((row) => row.id as number);
  const placed = await db.select({ contract_id: contractPeople.contract_id, id: users.id, name: users.name }).from(contractPeople)
    .innerJoin(users, eq(users.id, contractPeople.user_id)).where(inArray(contractPeople.contract_id, ids)).orderBy(asc(users.name));
  for (const row of rows) {
    const people = placed.filter((p) => p.contract_id === row.id).map(({ id, name }) => ({ id, name }));
    row.people = people;
    row.person_ids = people.map((p) => p.id);
  }
}

/**
 * The PO that renewed each contract, as `{id, po_number, start_date}` or null: selected with every row (the
 * list's "renewed by", whether a new PO may still be released, the expiry's choice of status).
 */
export const renewedBySql = sql`(select json_build_object('id', n.id, 'po_number', n.po_number, 'start_date', n.start_date) from ${contracts} n
  where n.previous_contract_id = "contracts"."id" order by n.id limit 1)`;

/** An Active PO whose start date is still to come (a new PO released before the old one ended). */
export const isStartingLater = (row: Row, on: string) =>
  row.status === CONTRACT_ACTIVE && typeof row.start_date === 'string' && row.start_date > on;

/**
 * What the status alone does not say, for the list and the detail page: a PO not started yet reads
 * as starting on its date; a running one already renewed names the PO that follows it.
 */
export function statusNote(row: Row, on: string): string | null {
  const renewedBy = row.renewed_by as { po_number?: string } | null | undefined;
  if (isStartingLater(row, on)) return `Starts on ${String(row.start_date)}`;
  if (renewedBy?.po_number && (row.status === CONTRACT_ACTIVE || row.status === CONTRACT_RENEWING)) return `Renewed by ${renewedBy.po_number}`;
  return null;
}

/**
 * Records a new PO for a contract, in the caller's transaction: a new Active contract (same client,
 * owner and people, linked to the old one) that starts after the old one ends. The old one keeps
 * running under its own PO until its end date, when the daily expiry moves it to 'Expired New PO
 * Released'; one that has ended already moves there now, and a renewal in progress is over.
 * 409 when the contract was renewed already (the row lock makes two at once wait for each other).
 */
export async function releaseNewPo(ctx: WriteContext, id: number, po: NewPo, on: string = today()): Promise<number> {
  const { db } = ctx;
  const [old] = await db.select().from(contracts).where(eq(contracts.id, id)).for('update');
  if (!old) throw new HttpError(404, 'Contract not found.');
  const [successor] = await db.select({ po_number: contracts.po_number }).from(contracts).where(eq(contracts.previous_contract_id, old.id)).limit(1);
  if (successor) throw new HttpError(409, `This contract was renewed by PO ${successor.po_number} already.`);
  if (!RENEWABLE_CONTRACT_STATUSES.includes(old.status as never)) {
    // The one state no renewal starts from; its label ("Expired New PO Released") is no adjective.
    throw new HttpError(409, 'A new PO has already been released for this contract, so it cannot be renewed again.');
  }
  checkDates(po);
  // One PO at a time: the new one takes over the day after the old one ends.
  if (po.start_date <= old.end_date) {
    throw validationError({ start_date: `The new PO must start after PO ${old.po_number} ends (${old.end_date}): on ${addDays(old.end_date, 1)} or later.` });
  }
  await checkPoNumber(db, po.po_number);
  const [created] = await db.insert(contracts).values({
    po_number: po.po_number, client_id: old.client_id, owner_id: old.owner_id, start_date: po.start_date, end_date: po.end_date,
    value: po.value, currency: po.currency, status: CONTRACT_ACTIVE, previous_contract_id: old.id, notes: po.notes ?? null,
  }).returning({ id: contracts.id });
  const people = await db.select({ user_id: contractPeople.user_id }).from(contractPeople).where(eq(contractPeople.contract_id, old.id));
  await savePeople(db, created.id, people.map((p) => p.user_id));
  // The owner has recorded the new PO: the reminders asking for one are not sent for the old PO.
  const reminders = (contractDefinition.reminders ?? []).map((reminder) => ({ resource: contractDefinition.name, reminder: reminder.name, record_id: old.id }));
  if (reminders.length) await db.insert(remindersSent).values(reminders).onConflictDoNothing();
  const hasEnded = old.end_date <= on; // spec §5: on or before today is expired
  const status = hasEnded ? CONTRACT_REPLACED : CONTRACT_ACTIVE;
  if (status !== old.status) await db.update(contracts).set({ status, updated_at: new Date() }).where(eq(contracts.id, old.id));
  const comment = hasEnded ? `New PO ${po.po_number} released.` : `New PO ${po.po_number} released; this PO runs until ${old.end_date}.`;
  await writeHistory(db, { resource: contractDefinition.name, recordId: created.id, transition: 'create', from: null, to: CONTRACT_ACTIVE, account: ctx.account, comment: `Replaces PO ${old.po_number} from ${po.start_date}.` });
  await writeHistory(db, { resource: contractDefinition.name, recordId: old.id, transition: 'new-po', from: old.status, to: status, account: ctx.account, comment });
  if (old.owner_id !== ctx.account.id) {
    await notify(ctx.tx, [old.owner_id], {
      title: 'Contract: new PO released', message: `PO ${po.po_number} follows PO ${old.po_number}, from ${po.start_date} to ${po.end_date}.`, url: recordUrl(contractDefinition, created.id),
    }, { type: 'App\\Notifications\\ContractNewPo', kind: 'contract' });
  }
  return created.id;
}

/** Whether `account` may record a new PO for the row (the screen's button): once per contract. */
export const canReleaseNewPo = (row: Row, account: Account) =>
  !row.renewed_by && RENEWABLE_CONTRACT_STATUSES.includes(row.status as never) && account.permissions.includes(contractDefinition.permissions.edit!);

// ---- The daily expiry ----

const HISTORY_CHUNK = 2_000;

/**
 * Moves every Active or Renewal-in-progress contract whose end date is on or before `on` (the firm's
 * today) on: to 'Expired New PO Released' when a new PO follows it, else to Expired, telling its
 * owner to record one. Writes each one's history. The update is its own compare-and-set, and SKIP
 * LOCKED leaves rows another node is expiring to it: each contract moves once.
 */
export async function expireContracts(app: FastifyInstance, on = today()): Promise<number> {
  return inTransaction(app, async (tx) => {
    const result = await tx.db.execute(sql`
      with due as (
        select id, status from ${contracts}
        where ${contracts.end_date} <= ${on}::date and ${contracts.status} in (${CONTRACT_ACTIVE}, ${CONTRACT_RENEWING})
        order by id
        for update skip locked
      ), next as (
        select distinct on (n.previous_contract_id) n.previous_contract_id as id, n.po_number
        from ${contracts} n join due on due.id = n.previous_contract_id
        order by n.previous_contract_id, n.id
      )
      update ${contracts} c set status = case when next.id is null then ${CONTRACT_EXPIRED}::text else ${CONTRACT_REPLACED}::text end, updated_at = now()
      from due left join next on next.id = due.id where c.id = due.id
      returning c.id, due.status as from_status, c.status as to_status, next.po_number as next_po_number, c.po_number, c.owner_id,
        to_char(c.end_date, 'YYYY-MM-DD') as end_date`);
    const moved = (result as unknown as { rows: { id: number; from_status: string; to_status: string; next_po_number: string | null; po_number: string; owner_id: number; end_date: string }[] }).rows;
    const expired = moved.filter((row) => row.to_status === CONTRACT_EXPIRED);
    // Multi-row inserts for the day's expiries (the job's, so no actor), in chunks that stay under
    // PostgreSQL's 65,535 parameters per statement.
    for (let i = 0; i < moved.length; i += HISTORY_CHUNK) {
      await tx.db.insert(workflowHistory).values(moved.slice(i, i + HISTORY_CHUNK).map((row) => ({
        resource: contractDefinition.name, record_id: row.id, transition: 'expire', from_status: row.from_status, to_status: row.to_status,
        actor_type: null, actor_id: null, actor_name: null,
        comment: row.next_po_number ? `Ended on ${row.end_date}; PO ${row.next_po_number} takes over.` : `Ended on ${row.end_date}.`,
      })));
    }
    await notifyEach(tx, expired.map((row) => ({
      recipients: [row.owner_id],
      content: { title: 'Contract expired', message: `The contract under PO ${row.po_number} ended on ${row.end_date}. Record the new PO when it arrives.`, url: recordUrl(contractDefinition, row.id) },
    })), { type: 'App\\Notifications\\ContractExpired', kind: 'contract' });
    if (moved.length) app.log.info({ contracts: moved.length, renewed: moved.length - expired.length }, 'contracts ended');
    return moved.length;
  });
}

// ---- The dashboard ----

export interface ExpiringContracts {
  total: number;
  items: { id: number; po_number: string; client: { id: number; name: string }; end_date: string; days_left: number; status: string }[];
}

/**
 * Contracts that end within `withinDays` days of `on`, soonest first: the rows of the contract list
 * filtered by that end-date range, whatever their status (issue 21: a figure and its list agree).
 * Statuses move only on their dates, so within the range all are running but those ending today.
 */
export async function expiringContracts(db: Db, { on = today(), withinDays = 30, limit = 5 }: { on?: string; withinDays?: number; limit?: number } = {}): Promise<ExpiringContracts> {
  const where = and(gte(contracts.end_date, on), lte(contracts.end_date, addDays(on, withinDays)));
  const [[{ total }], rows] = await Promise.all([
    db.select({ total: count() }).from(contracts).where(where),
    db.select({
      id: contracts.id, po_number: contracts.po_number, end_date: contracts.end_date, status: contracts.status,
      client_id: clients.id, client_name: clients.name,
    }).from(contracts).innerJoin(clients, eq(clients.id, contracts.client_id))
      .where(where).orderBy(asc(contracts.end_date), asc(contracts.id)).limit(limit),
  ]);
  return {
    total,
    items: rows.map((row) => ({
      id: row.id, po_number: row.po_number, client: { id: row.client_id, name: row.client_name }, end_date: row.end_date,
      days_left: daysBetween(on, row.end_date), status: row.status,
    })),
  };
}

// Contracts (issue 13): the people placed under each, the date rule, the new PO that replaces a
// contract, the daily expiry and what the dashboard shows.
import { and, asc, count, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { clients } from '../../db/schema/master-data';
import { users } from '../../db/schema/accounts';
import { contractPeople, contracts } from '../../db/schema/onboarding';
import { workflowHistory } from '../../db/schema/workflow';
import { inTransaction } from '../../lib/transaction';
import type { Account } from '../../plugins/auth';
import { HttpError, validationError } from '../../plugins/errors';
import type { ResourceContext } from '../../resources/register';
import { recordUrl, writeHistory } from '../../resources/workflow';
import { notify, notifyEach } from '../notification/notify';
import {
  CONTRACT_ACTIVE, CONTRACT_EXPIRED, CONTRACT_RENEWING, CONTRACT_REPLACED, contract as contractDefinition, type NewPo,
  RENEWABLE_CONTRACT_STATUSES,
} from '../../../shared/resources/contract';
import { addDays, daysBetween, today } from '../../../shared/dates';

type Row = Record<string, unknown>;

/** 422 on end_date when a PO would end before it starts. */
export function checkDates(values: { start_date?: unknown; end_date?: unknown }) {
  if (typeof values.start_date === 'string' && typeof values.end_date === 'string' && values.end_date < values.start_date) {
    throw validationError({ end_date: 'The end date must be a date after or equal to the start date.' });
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
 * Records a new PO for a contract: a new Active contract (same client, owner and people, linked to
 * the old one) and the old one moved to 'Expired New PO Released', in the caller's transaction.
 * 409 when the contract was replaced already (compare-and-set on its status).
 */
export async function releaseNewPo(ctx: ResourceContext, id: number, po: NewPo): Promise<number> {
  const { db } = ctx;
  const [old] = await db.select().from(contracts).where(eq(contracts.id, id)).for('update');
  if (!old) throw new HttpError(404, 'Contract not found.');
  if (!RENEWABLE_CONTRACT_STATUSES.includes(old.status as never)) {
    throw new HttpError(409, `This contract is ${old.status.toLowerCase()} already, so it cannot be renewed again.`);
  }
  checkDates(po);
  await checkPoNumber(db, po.po_number);
  const [created] = await db.insert(contracts).values({
    po_number: po.po_number, client_id: old.client_id, owner_id: old.owner_id, start_date: po.start_date, end_date: po.end_date,
    value: po.value, currency: po.currency, status: CONTRACT_ACTIVE, previous_contract_id: old.id, notes: po.notes ?? null,
  }).returning({ id: contracts.id });
  const people = await db.select({ user_id: contractPeople.user_id }).from(contractPeople).where(eq(contractPeople.contract_id, old.id));
  await savePeople(db, created.id, people.map((p) => p.user_id));
  const replaced = await db.update(contracts).set({ status: CONTRACT_REPLACED, updated_at: new Date() })
    .where(and(eq(contracts.id, old.id), eq(contracts.status, old.status))).returning({ id: contracts.id });
  if (!replaced.length) throw new HttpError(409, 'This contract was changed by someone else just now; reload it to see its state.');
  const comment = `New PO ${po.po_number} released.`;
  await writeHistory(db, { resource: contractDefinition.name, recordId: created.id, transition: 'create', from: null, to: CONTRACT_ACTIVE, account: ctx.account, comment: `Replaces PO ${old.po_number}.` });
  await writeHistory(db, { resource: contractDefinition.name, recordId: old.id, transition: 'new-po', from: old.status, to: CONTRACT_REPLACED, account: ctx.account, comment });
  if (old.owner_id !== ctx.account.id) {
    await notify(ctx.tx!, [old.owner_id], {
      title: 'Contract: new PO released', message: `PO ${po.po_number} replaces PO ${old.po_number}, until ${po.end_date}.`, url: recordUrl(contractDefinition, created.id),
    }, { type: 'App\\Notifications\\ContractNewPo' });
  }
  return created.id;
}

/** Whether `account` may record a new PO for the row (the screen's button). */
export const canReleaseNewPo = (row: Row, account: Account) =>
  RENEWABLE_CONTRACT_STATUSES.includes(row.status as never) && account.permissions.includes(contractDefinition.permissions.edit!);

// ---- The daily expiry ----

const HISTORY_CHUNK = 2_000;

/**
 * Moves every Active or Renewal-in-progress contract whose end date is on or before `on` to
 * Expired, writes its history and tells its owner. The update is its own compare-and-set, and
 * SKIP LOCKED leaves rows another node is expiring to it: each contract expires once.
 */
export async function expireContracts(app: FastifyInstance, on = today()): Promise<number> {
  return inTransaction(app, async (tx) => {
    const result = await tx.db.execute(sql`
      with due as (
        select id, status from ${contracts}
        where ${contracts.end_date} <= ${on}::date and ${contracts.status} in (${CONTRACT_ACTIVE}, ${CONTRACT_RENEWING})
        order by id
        for update skip locked
      )
      update ${contracts} c set status = ${CONTRACT_EXPIRED}, updated_at = now()
      from due where c.id = due.id
      returning c.id, due.status as from_status, c.po_number, c.owner_id, to_char(c.end_date, 'YYYY-MM-DD') as end_date`);
    const expired = (result as unknown as { rows: { id: number; from_status: string; po_number: string; owner_id: number; end_date: string }[] }).rows;
    // Multi-row inserts for the day's expiries (the job's, so no actor), in chunks that stay under
    // PostgreSQL's 65,535 parameters per statement.
    for (let i = 0; i < expired.length; i += HISTORY_CHUNK) {
      await tx.db.insert(workflowHistory).values(expired.slice(i, i + HISTORY_CHUNK).map((row) => ({
        resource: contractDefinition.name, record_id: row.id, transition: 'expire', from_status: row.from_status, to_status: CONTRACT_EXPIRED,
        actor_type: null, actor_id: null, actor_name: null, comment: `Ended on ${row.end_date}.`,
      })));
    }
    await notifyEach(tx, expired.map((row) => ({
      recipients: [row.owner_id],
      content: { title: 'Contract expired', message: `The contract under PO ${row.po_number} ended on ${row.end_date}. Record the new PO when it arrives.`, url: recordUrl(contractDefinition, row.id) },
    })), { type: 'App\\Notifications\\ContractExpired' });
    if (expired.length) app.log.info({ contracts: expired.length }, 'contracts expired');
    return expired.length;
  });
}

// ---- The dashboard ----

export interface ExpiringContracts {
  total: number;
  items: { id: number; po_number: string; client: { id: number; name: string }; end_date: string; days_left: number; status: string }[];
}

/**
 * Contracts still running (Active or Renewal in progress) that end within `withinDays` days of `on`,
 * soonest first, for the dashboard. Served by contracts_status_end.
 */
export async function expiringContracts(db: Db, { on = today(), withinDays = 30, limit = 5 }: { on?: string; withinDays?: number; limit?: number } = {}): Promise<ExpiringContracts> {
  const where = and(
    inArray(contracts.status, [CONTRACT_ACTIVE, CONTRACT_RENEWING]),
    gte(contracts.end_date, on), lte(contracts.end_date, addDays(on, withinDays)),
  );
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

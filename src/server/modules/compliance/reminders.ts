// The compliance library's daily job (issue 10), beside the declarative reminders because its rules do
// not fit them: expiry reminders 30 and 7 days before and on the day (to the holder and the admins),
// an overdue assignment reminded once a day up to a limit, and assignments of an expired document
// marked expired. "Each reminder once, whatever the number of nodes": every reminder is first claimed
// in `reminders_sent` by one set-based insert that returns only the rows it inserted (as
// src/server/jobs/reminders.ts does), in the transaction that stores the notifications.
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { users } from '../../db/schema/accounts';
import { documentAssignments, libraryDocuments, ownDocuments } from '../../db/schema/compliance';
import { remindersSent, workflowHistory } from '../../db/schema/workflow';
import { inTransaction, type Transaction } from '../../lib/transaction';
import { notifyEach, type NotificationItem } from '../notification/notify';
import { ownDocument } from '../../../shared/resources/document';
import { documentAssignment, OVERDUE_REMINDER_LIMIT } from '../../../shared/resources/document-assignment';
import { documentRepository } from '../../../shared/resources/document-repository';
import { routePath } from '../../../shared/routes';
import { today } from '../../../shared/dates';
import { refreshDocAssigned } from './service';

export const COMPLIANCE_DAILY_JOB = 'compliance-daily';

export interface ComplianceRun { expired: number; ownExpiry: number; libraryExpiry: number; overdue: number }

/** Runs every rule of the day in its own transaction; `on` is the firm's today (tests pass another day). */
export async function runComplianceDaily(app: FastifyInstance, on: string = today()): Promise<ComplianceRun> {
  const expired = await inTransaction(app, (tx) => expireAssignments(tx, on));
  const ownExpiry = await inTransaction(app, (tx) => remindExpiry(tx, 'own', on));
  const libraryExpiry = await inTransaction(app, (tx) => remindExpiry(tx, 'library', on));
  const overdue = await inTransaction(app, (tx) => remindOverdue(tx, on));
  app.log.info({ expired, ownExpiry, libraryExpiry, overdue }, 'compliance reminders sent');
  return { expired, ownExpiry, libraryExpiry, overdue };
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

async function activeAdmins(tx: Transaction): Promise<number[]> {
  const rows = await tx.db.select({ id: users.id }).from(users).where(and(eq(users.user_type, 'admin'), eq(users.status, 'active')));
  return rows.map((row) => row.id);
}

/** Assignments of a document whose expiry date has come: the acknowledgement no longer covers a valid document. */
async function expireAssignments(tx: Transaction, on: string): Promise<number> {
  const result = await tx.db.execute(sql`
    with target as (
      select a.id, a.status from ${documentAssignments} a join ${libraryDocuments} d on d.id = a.document_id
      where d.expiry_date <= ${on}::date and a.status in ('pending', 'submitted', 'approved', 'rejected')
      order by a.id
      for update of a
    ), updated as (
      update ${documentAssignments} a set status = 'expired', updated_at = now()
      from target where a.id = target.id and a.status = target.status
      returning a.id, a.user_id, target.status as from_status
    ), history as (
      insert into ${workflowHistory} (resource, record_id, transition, from_status, to_status, comment)
      select ${documentAssignment.name}, id, 'expire', from_status, 'expired', 'The document expired.' from updated
    )
    select id, user_id from updated`);
  const rows = rowsOf<{ id: number; user_id: number }>(result);
  await refreshDocAssigned(tx.db, rows.map((row) => row.user_id));
  return rows.length;
}

/**
 * 30 days before (expiry within 8–30 days), 7 days before (1–7 days) and on the day: one reminder
 * each, keyed by the expiry date too, so a renewed document (a new date) is reminded again.
 */
async function remindExpiry(tx: Transaction, kind: 'own' | 'library', on: string): Promise<number> {
  const table = kind === 'own' ? ownDocuments : libraryDocuments;
  const resource = kind === 'own' ? ownDocument.name : documentRepository.name;
  const owner = kind === 'own' ? sql`d.user_id` : sql`null::int`;
  const active = kind === 'own' ? sql`true` : sql`d.status = 'active'`;
  const result = await tx.db.execute(sql`
    with due as (
      select d.id, ${owner} as user_id, d.title, to_char(d.expiry_date, 'YYYY-MM-DD') as expiry_date,
        case when d.expiry_date = ${on}::date then 0 when d.expiry_date <= ${on}::date + 7 then 7 else 30 end as days
      from ${table} d
      where d.expiry_date >= ${on}::date and d.expiry_date <= ${on}::date + 30 and ${active}
    ), sent as (
      insert into ${remindersSent} (resource, reminder, record_id)
      select ${resource}::text, 'expiry-' || days || ':' || expiry_date, id from due
      -- In id order, so two nodes inserting at once take the rows' locks in the same order (no deadlock).
      order by id
      on conflict do nothing
      returning record_id, reminder
    )
    select due.* from due join sent on sent.record_id = due.id and sent.reminder = 'expiry-' || due.days || ':' || due.expiry_date`);
  const rows = rowsOf<{ id: number; user_id: number | null; title: string; expiry_date: string; days: number }>(result);
  if (!rows.length) return 0;
  const admins = await activeAdmins(tx);
  const when = (days: number) => (days === 0 ? 'today' : `in ${days} days`);
  const items: NotificationItem[] = rows.map((row) => ({
    recipients: [...(row.user_id ? [row.user_id] : []), ...admins],
    content: {
      title: row.days === 0 ? 'Document expires today' : 'Document expiring soon',
      message: `“${row.title}” expires ${when(row.days)} (${row.expiry_date}).`,
      url: kind === 'own' ? routePath('upload-assigned-document.index') : routePath('document-repository.show', { id: row.id }),
    },
  }));
  await notifyEach(tx, items, { type: `App\\Notifications\\${kind === 'own' ? 'Own' : 'Library'}DocumentExpiryReminder`, kind: 'document-assign-history' });
  return rows.length;
}

/** An overdue assignment reminds its person once a day, OVERDUE_REMINDER_LIMIT times at most. */
async function remindOverdue(tx: Transaction, on: string): Promise<number> {
  const result = await tx.db.execute(sql`
    with due as (
      select a.id, a.user_id, to_char(a.due_date, 'YYYY-MM-DD') as due_date, d.title
      from ${documentAssignments} a join ${libraryDocuments} d on d.id = a.document_id
      where a.status in ('pending', 'rejected') and a.due_date < ${on}::date
        and (select count(*) from ${remindersSent} r
             where r.resource = ${documentAssignment.name} and r.record_id = a.id and r.reminder like 'overdue:%') < ${OVERDUE_REMINDER_LIMIT}
    ), sent as (
      insert into ${remindersSent} (resource, reminder, record_id)
      select ${documentAssignment.name}::text, ${`overdue:${on}`}::text, id from due
      order by id
      on conflict do nothing
      returning record_id
    )
    select due.* from due join sent on sent.record_id = due.id`);
  const rows = rowsOf<{ id: number; user_id: number; due_date: string; title: string }>(result);
  if (!rows.length) return 0;
  await notifyEach(tx, rows.map((row) => ({
    recipients: [row.user_id],
    content: { title: 'Document overdue', message: `“${row.title}” was due ${row.due_date}. Please complete it.`, url: routePath('upload-assigned-document.index') },
  })), { type: 'App\\Notifications\\DocumentOverdueReminder', kind: 'document-assign-history' });
  return rows.length;
}

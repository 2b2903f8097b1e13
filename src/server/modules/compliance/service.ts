// The compliance library's logic beyond CRUD (issue 10): assigning documents to people and groups in
// one set-based statement, a new version reopening the assignments, returning a signed copy, the
// `doc_assigned` flag behind the header icon, a person's compliance and the files a person may open.
import { and, asc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { employeeTypes, clients } from '../../db/schema/master-data';
import { users } from '../../db/schema/accounts';
import { documentAssignments, libraryDocuments, ownDocuments } from '../../db/schema/compliance';
import { attachments, workflowHistory } from '../../db/schema/workflow';
import { timeSheets } from '../../db/schema/time-sheets';
import type { Account } from '../../plugins/auth';
import { HttpError, validationError } from '../../plugins/errors';
import { recordChanges } from '../../resources/audit';
import { actionMail } from '../../plugins/mail';
import { enqueue } from '../../jobs/queue';
import { notifyEach } from '../notification/notify';
import { hasPermission } from '../../../shared/permissions';
import {
  ASSIGN_HISTORY_PERMISSION, type AssignDocumentInput, type AssignDocumentResult, documentAssignment, WAITING_STATUSES,
} from '../../../shared/resources/document-assignment';
import { documentRepository } from '../../../shared/resources/document-repository';
import { routePath } from '../../../shared/routes';
import { complianceStatus } from '../../../shared/rules';
import type { PersonComplianceView } from '../../../shared/schemas/compliance';
import { today } from '../../../shared/dates';
import { actorName, inWrite, type ResourceContext, type Row, type WriteContext } from '../../resources/types';
import { oneOfChosenRefused } from '../../../shared/words';

export const ASSIGNED_NOTIFICATION = 'App\\Notifications\\DocumentAssigned';
export const NEW_VERSION_NOTIFICATION = 'App\\Notifications\\DocumentNewVersion';
export const RETURNED_NOTIFICATION = 'App\\Notifications\\DocumentReturned';
/** The job that mails the people a document was assigned to (after the commit, off the request). */
export const ASSIGNMENT_MAIL_JOB = 'compliance-assignment-mail';

/** A PostgreSQL int[] literal: one parameter however many ids (5,000 people), and '{}' when none. */
export const intArray = (ids: readonly number[]) => sql`${`{${ids.map((id) => Math.trunc(id)).join(',')}}`}::int[]`;

const myDocumentsUrl = () => routePath('upload-assigned-document.index');

/** Who sees every assignment: the history's staff. Anybody else sees what was assigned to them or by them. */
export const seesAllAssignments = (account: Account) => hasPermission(account.permissions, ASSIGN_HISTORY_PERMISSION);

export function assignmentScope(account: Account): SQL | undefined {
  if (seesAllAssignments(account)) return undefined;
  return or(eq(documentAssignments.user_id, account.id), eq(documentAssignments.assigned_by, account.id));
}

/** Who sees everyone's own documents: the repository's staff (a person's compliance); the holder sees theirs. */
export const seesAllOwnDocuments = (account: Account) => hasPermission(account.permissions, documentRepository.permissions.view);

const document = sql.identifier('document_assignments');
const docColumn = (name: string) => sql`(select ld.${sql.identifier(name)} from ${libraryDocuments} ld where ld.id = ${document}."document_id")`;

/** The assigned document's title, action and expiry, read with each assignment row. */
export const assignmentComputed: Record<string, SQL> = {
  document_title: docColumn('title'),
  action: docColumn('action'),
  expiry_date: sql`to_char(${docColumn('expiry_date')}, 'YYYY-MM-DD')`,
};

/**
 * Sets each person's `doc_assigned` (the header icon of spec §2) to whether anything still waits for
 * them (pending, or rejected back to them); one statement for any number of people.
 */
export async function refreshDocAssigned(db: Db, userIds: readonly number[]) {
  if (!userIds.length) return;
  const waiting = sql.join(WAITING_STATUSES.map((s) => sql`${s}`), sql`, `);
  await db.execute(sql`update ${users} set doc_assigned = exists (
      select 1 from ${documentAssignments} a where a.user_id = ${users.id} and a.status in (${waiting}))
    where ${users.id} = any(${intArray([...new Set(userIds)])})`);
}

/** Whether anything still waits for this person (answered after their step, so the client can drop the icon). */
export async function docAssignedOf(db: Db, userId: number): Promise<boolean> {
  const [row] = await db.select({ flag: users.doc_assigned }).from(users).where(eq(users.id, userId));
  return row?.flag ?? false;
}

// ---- Assigning ----

async function checkIdsExist(db: Db, table: typeof employeeTypes | typeof clients, ids: readonly number[] | undefined, field: string, pluralNoun: string, errors: Record<string, string>) {
  if (!ids?.length) return;
  const unique = [...new Set(ids)];
  const found = await db.select({ id: table.id }).from(table).where(inArray(table.id, unique));
  if (found.length !== unique.length) errors[field] = oneOfChosenRefused(pluralNoun);
}

/**
 * Assigns each document to each person picked, one by one or as a group (an employee type, a
 * manager's team, a client's placements: engineers with time sheets for the client). One statement
 * inserts every assignment and its history, another sets the flags, the notifications are stored
 * in bulk and broadcast after the commit, and the mail goes through a job: 5,000 people answer in
 * well under two seconds (docs/benchmarks.md "Assigning a document"). A person who already has an
 * open assignment of a document is skipped for it.
 */
export function assignDocuments(ctx: ResourceContext, input: AssignDocumentInput): Promise<AssignDocumentResult> {
  return inWrite(ctx, (write) => assignInTransaction(write, input));
}

async function assignInTransaction({ db, tx, account }: WriteContext, input: AssignDocumentInput): Promise<AssignDocumentResult> {
  const errors: Record<string, string> = {};
  if (input.due_date < today()) errors.due_date = 'The due date must be today or later.';
  const documentIds = [...new Set(input.document_ids)];
  const documents = await db.select({ id: libraryDocuments.id, title: libraryDocuments.title, status: libraryDocuments.status })
    .from(libraryDocuments).where(inArray(libraryDocuments.id, documentIds));
  if (documents.length !== documentIds.length || documents.some((d) => d.status !== 'active')) {
    errors.document_ids = oneOfChosenRefused('documents');
  }
  const userIds = [...new Set(input.user_ids ?? [])];
  if (userIds.length) {
    // One array parameter, however many people were picked.
    const [{ found }] = await db.select({ found: sql<number>`count(*)::int` }).from(users).where(and(sql`${users.id} = any(${intArray(userIds)})`, eq(users.status, 'active')));
    if (found !== userIds.length) errors.user_ids = oneOfChosenRefused('people');
  }
  await checkIdsExist(db, employeeTypes, input.employee_type_ids, 'employee_type_ids', 'employee types', errors);
  await checkIdsExist(db, clients, input.client_ids, 'client_ids', 'clients', errors);
  const managerIds = [...new Set(input.manager_ids ?? [])];
  if (managerIds.length) {
    const found = await db.select({ id: users.id }).from(users).where(inArray(users.id, managerIds));
    if (found.length !== managerIds.length) errors.manager_ids = oneOfChosenRefused('managers');
  }
  const hasGroup = [input.employee_type_ids, input.manager_ids, input.client_ids].some((list) => list?.length);
  if (!userIds.length && !hasGroup) errors.user_ids = 'Choose at least one person or group.';
  if (Object.keys(errors).length) throw validationError(errors);

  const result = await db.execute(sql`
    with people as (
      select u.id from ${users} u
      where u.status = 'active' and (
        u.id = any(${intArray(userIds)})
        or u.employee_type_id = any(${intArray(input.employee_type_ids ?? [])})
        or u.parent_id = any(${intArray(managerIds)})
        or exists (select 1 from ${timeSheets} ts where ts.user_id = u.id and ts.client_id = any(${intArray(input.client_ids ?? [])}) and ts.status <> 'rejected'))
    ), matched as (
      select count(*)::int as total from people
    ), inserted as (
      insert into ${documentAssignments} (document_id, user_id, assigned_by, due_date, message, status, version)
      select d.id, p.id, ${account.id}, ${input.due_date}::date, ${input.message ?? null}, 'pending', d.version
      from people p cross join ${libraryDocuments} d
      where d.id = any(${intArray(documentIds)})
        and not exists (select 1 from ${documentAssignments} a where a.document_id = d.id and a.user_id = p.id and a.status in ('pending', 'submitted', 'rejected'))
      order by d.id, p.id
      returning id, user_id, document_id
    ), history as (
      insert into ${workflowHistory} (resource, record_id, transition, from_status, to_status, actor_type, actor_id, actor_name, comment)
      select ${documentAssignment.name}, id, 'create', null, 'pending', 'app', ${account.id}, ${actorName(account)}, ${input.message ?? null} from inserted
    ), flagged as (
      update ${users} set doc_assigned = true where id in (select user_id from inserted) and doc_assigned = false
    )
    select inserted.id, inserted.user_id, inserted.document_id, (select total from matched) as people from inserted
    union all
    -- One row even when nothing was inserted, so the answer still knows how many people matched.
    select null, null, null, (select total from matched)`);
  const rows = (result as unknown as { rows: { id: number | null; user_id: number | null; document_id: number | null; people: number }[] }).rows;
  const people = rows[0]?.people ?? 0;
  if (people === 0) throw validationError({ user_ids: 'No active person matches the people and groups chosen.' });
  const inserted = rows.filter((row) => row.id !== null) as { id: number; user_id: number; document_id: number }[];

  const titles = new Map(documents.map((d) => [d.id, d.title]));
  // The audit trail: one entry per assignment, written in this transaction (issue 20).
  const names = new Map((await db.select({ id: users.id, name: users.name }).from(users)
    .where(sql`${users.id} = any(${intArray([...new Set(inserted.map((row) => row.user_id))])})`)).map((u) => [u.id, u.name]));
  await recordChanges(db, inserted.map((row) => ({
    account, action: 'create' as const, resource: documentAssignment.name, recordId: row.id, title: titles.get(row.document_id) ?? null,
    changes: [
      { field: 'document_id', old: null, new: row.document_id, old_text: null, new_text: titles.get(row.document_id) ?? null },
      { field: 'user_id', old: null, new: row.user_id, old_text: null, new_text: names.get(row.user_id) ?? null },
      { field: 'due_date', old: null, new: input.due_date, old_text: null, new_text: input.due_date },
    ],
  })));
  const recipientsOf = new Map<number, number[]>();
  for (const row of inserted) recipientsOf.set(row.document_id, [...(recipientsOf.get(row.document_id) ?? []), row.user_id]);
  await notifyEach(tx, [...recipientsOf].map(([documentId, recipients]) => ({
    recipients,
    content: {
      title: 'Document assigned to you',
      message: `${actorName(account)} assigned you “${titles.get(documentId)}”, due ${input.due_date}.${input.message ? ` ${input.message}` : ''}`,
      url: myDocumentsUrl(),
    },
  })), { type: ASSIGNED_NOTIFICATION, kind: 'document-assign-history' });
  if (inserted.length) await enqueue(db, ASSIGNMENT_MAIL_JOB, { ids: inserted.map((row) => row.id), reason: 'assigned' });
  const assigned = inserted.length;
  return { assigned, people, skipped: people * documentIds.length - assigned };
}

/** The mail job: one mail per assignment to its (active) person, naming the document and the due date. */
export async function mailAssignments(app: FastifyInstance, payload: unknown) {
  const { ids, reason } = (payload ?? {}) as { ids?: number[]; reason?: string };
  if (!Array.isArray(ids) || !ids.length) return;
  const rows = await app.db.select({
    email: users.email, title: libraryDocuments.title, due: documentAssignments.due_date, message: documentAssignments.message,
  }).from(documentAssignments)
    .innerJoin(users, eq(users.id, documentAssignments.user_id))
    .innerJoin(libraryDocuments, eq(libraryDocuments.id, documentAssignments.document_id))
    .where(and(sql`${documentAssignments.id} = any(${intArray(ids)})`, eq(users.status, 'active')));
  const url = `${app.config.appUrl.replace(/\/$/, '')}${myDocumentsUrl()}`;
  for (const row of rows) {
    const subject = reason === 'new-version' ? `New version: ${row.title}` : `Document assigned: ${row.title}`;
    const intro = reason === 'new-version'
      ? `A new version of “${row.title}” was published. Please read it again by ${row.due}.`
      : `“${row.title}” was assigned to you, due ${row.due}.${row.message ? `\n\n${row.message}` : ''}`;
    await app.mailer.send(actionMail(app.config.appName, row.email, subject, intro, 'Open my documents', url, ''));
  }
}

// ---- Versions ----

interface FileSummary { id: number; name: string; size: number; mime: string }

/**
 * A library document's file field holds its versions, oldest first. An update may add one file (a
 * new version) and never drops one: every version stays downloadable.
 */
export function checkVersionFiles(existing: Row | null, input: Row): { isNewVersion: boolean } {
  const files = (input.file as FileSummary[] | undefined) ?? (existing?.file as FileSummary[] | undefined) ?? [];
  const added = files.filter((f) => f.id < 0).length;
  if (!existing) {
    if (files.length !== 1) throw validationError({ file: 'Attach the document as one file.' });
    return { isNewVersion: false };
  }
  const kept = new Set(files.filter((f) => f.id > 0).map((f) => f.id));
  if (((existing.file as FileSummary[] | undefined) ?? []).some((f) => !kept.has(f.id))) {
    throw validationError({ file: 'Earlier versions are kept: a version cannot be removed.' });
  }
  if (added > 1) throw validationError({ file: 'Add one file at a time: each is a new version.' });
  return { isNewVersion: added === 1 };
}

/**
 * A new version asks everyone assigned the document again: each assignment not already pending
 * goes back to pending for the new version (with a history entry), pending ones move to it, the
 * people's icon comes back and they are told, live and by mail.
 */
export async function reopenForNewVersion({ db, tx, account }: WriteContext, row: Row) {
  const documentId = row.id as number;
  const version = row.version as number;
  const result = await db.execute(sql`
    with target as (
      select id, status, user_id from ${documentAssignments}
      where document_id = ${documentId} and status in ('pending', 'submitted', 'approved', 'rejected', 'expired')
      for update
    ), updated as (
      update ${documentAssignments} a set status = 'pending', version = ${version}, acknowledged_at = null, submitted_at = null,
        decided_by = null, decided_at = null, updated_at = now()
      from target where a.id = target.id
      returning a.id, a.user_id, target.status as from_status
    ), history as (
      insert into ${workflowHistory} (resource, record_id, transition, from_status, to_status, actor_type, actor_id, actor_name, comment)
      select ${documentAssignment.name}, id, 'new-version', from_status, 'pending', 'app', ${account.id}, ${actorName(account)}, ${`Version ${version} published.`}
      from updated where from_status <> 'pending'
    )
    select id, user_id, from_status from updated`);
  const reopened = (result as unknown as { rows: { id: number; user_id: number; from_status: string }[] }).rows;
  if (!reopened.length) return;
  await refreshDocAssigned(db, reopened.map((r) => r.user_id));
  await notifyEach(tx, [{
    recipients: reopened.map((r) => r.user_id),
    content: { title: 'New document version', message: `Version ${version} of “${String(row.title)}” was published: please read it again.`, url: myDocumentsUrl() },
  }], { type: NEW_VERSION_NOTIFICATION, kind: 'document-assign-history' });
  await enqueue(db, ASSIGNMENT_MAIL_JOB, { ids: reopened.map((r) => r.id), reason: 'new-version' });
}

// ---- The person's steps ----

/** An assignment the caller may see (scope), with its document's action; 404 when it is not theirs to see. */
async function visibleAssignment(db: Db, account: Account, id: number) {
  const [row] = await db.select({
    id: documentAssignments.id, user_id: documentAssignments.user_id, assigned_by: documentAssignments.assigned_by,
    status: documentAssignments.status, document_id: documentAssignments.document_id, version: documentAssignments.version,
    action: libraryDocuments.action, title: libraryDocuments.title,
  }).from(documentAssignments).innerJoin(libraryDocuments, eq(libraryDocuments.id, documentAssignments.document_id))
    .where(and(eq(documentAssignments.id, id), assignmentScope(account))).limit(1);
  if (!row) throw new HttpError(404, 'Document assignment not found.');
  return row;
}

/** The file a person opens for an assignment: the version it asks about (or an earlier one by number). */
export async function assignedDocumentFile({ db, account }: ResourceContext, assignmentId: number, version?: number) {
  const assignment = await visibleAssignment(db, account, assignmentId);
  const versions = await db.select({ id: attachments.id }).from(attachments)
    .where(and(eq(attachments.resource, documentRepository.name), eq(attachments.record_id, assignment.document_id), eq(attachments.field, 'file')))
    .orderBy(asc(attachments.id));
  const file = versions[(version ?? assignment.version) - 1] ?? versions.at(-1);
  if (!file) throw new HttpError(404, 'File not found.');
  return { documentId: assignment.document_id, attachmentId: file.id };
}

// ---- A person's compliance ----


/** Whoever may look at another person's compliance: the library's and the history's staff. */
export const COMPLIANCE_PERMISSION = `${documentRepository.permissions.view}|${ASSIGN_HISTORY_PERMISSION}`;

/** spec §5 over the person's own documents and their assignments' documents. */
export async function personCompliance({ db, account }: ResourceContext, userId: number): Promise<PersonComplianceView> {
  // Anyone may see their own; someone else's needs the library's or the history's permission (else
  // it is not there for them, as a record outside a scope).
  if (userId !== account.id && !hasPermission(account.permissions, COMPLIANCE_PERMISSION)) throw new HttpError(404, 'Person not found.');
  const [person] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!person) throw new HttpError(404, 'Person not found.');
  const documents = await db.select({
    id: ownDocuments.id, title: ownDocuments.title, document_type: ownDocuments.document_type, expiry_date: ownDocuments.expiry_date,
  }).from(ownDocuments).where(eq(ownDocuments.user_id, userId)).orderBy(asc(ownDocuments.expiry_date), asc(ownDocuments.id));
  const assignments = await db.select({
    id: documentAssignments.id, document_title: libraryDocuments.title, status: documentAssignments.status,
    due_date: documentAssignments.due_date, expiry_date: libraryDocuments.expiry_date,
  }).from(documentAssignments).innerJoin(libraryDocuments, eq(libraryDocuments.id, documentAssignments.document_id))
    .where(eq(documentAssignments.user_id, userId)).orderBy(asc(documentAssignments.due_date), asc(documentAssignments.id));
  const on = today();
  return { status: complianceStatus([...documents, ...assignments], on), today: on, documents, assignments };
}

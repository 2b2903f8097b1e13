// Time sheets beyond CRUD: recording an upload (and telling the manager) and who may see which.
// The review is the definition's workflow (src/shared/resources/time-sheet.ts).
import { decidedByQuery } from '../delegation/scope';
import { and, eq, gte, inArray, lte, notInArray, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { users } from '../../db/schema/accounts';
import { notifications } from '../../db/schema/notifications';
import { timeSheets } from '../../db/schema/time-sheets';
import type { Account } from '../../plugins/auth';
import { validationError } from '../../plugins/errors';
import type { Db } from '../../db/client';
import { inTransaction } from '../../lib/transaction';
import { recordResourceChange } from '../../resources/audit';
import { bracketedKey } from '../../resources/multipart';
import { writeHistory } from '../../resources/workflow';
import { notifyAbout } from '../../resources/workflow-notify';
import { sniffFileType } from '../../plugins/storage';
import { TIME_SHEET_UPLOAD_NOTIFICATION } from '../../realtime/events';
import { isAdmin } from '../../../shared/permissions';
import {
  periodEnd, TIME_SHEET_EXTENSIONS, TIME_SHEET_MAX_BYTES, type TimeSheetUpload, timeSheetUploadSchema,
  timeSheet,
} from '../../../shared/resources/time-sheet';
import { issuesByField } from '../../../shared/validation';
import type { ResourceContext } from '../../resources/types';
import { chosenOneRefused } from '../../../shared/words';

/**
 * Who sees which sheets: admins all; everyone else their own, and managers also their reports'
 * (users whose parent_id is them). Used as the list scope and for every single-record route.
 */
export function timeSheetScope(app: FastifyInstance, account: Account): SQL | undefined {
  if (isAdmin(account)) return undefined;
  const { user_type } = account.user as typeof users.$inferSelect;
  const own = eq(timeSheets.user_id, account.id);
  if (user_type !== 'manager') return own;
  // Decision 036: and today, the reports of a manager who delegated their decisions to the caller.
  return or(own, inArray(timeSheets.user_id, decidedByQuery(app.db, account.id)));
}

/** Where a notification about a sheet leads, before its id: the list, opening that sheet (for review when it waits for one). */
const TIME_SHEET_URL_PREFIX = '/time-sheet?highlight=';

const allowedTypes: Record<string, ReadonlyArray<ReturnType<typeof sniffFileType>>> = {
  pdf: ['pdf'], png: ['png'], jpg: ['jpeg'], jpeg: ['jpeg'], webp: ['webp'], xlsx: ['zip'], ods: ['zip'], xls: ['ole'], csv: ['text'],
};

/** The type a sheet is downloaded as, by its (sniffed and matching) extension. */
const servedTypes: Record<string, string> = {
  pdf: 'application/pdf', png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', webp: 'image/webp',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', ods: 'application/vnd.oasis.opendocument.spreadsheet',
  xls: 'application/vnd.ms-excel', csv: 'text/csv; charset=utf-8',
};

/** Today in the time zone that reaches it first (UTC+14): a sheet for the period just begun anywhere is not "in the future". */
const latestToday = () => new Date(Date.now() + 14 * 3600_000).toISOString().slice(0, 10);

/** A validated upload whose file is already in storage; `digest` stands for its content (idempotency). */
export interface TimeSheetUploadRead { input: TimeSheetUpload; file: { key: string; size: number; name: string; mime: string }; digest: string }

/** Reads the multipart request: the file is streamed to storage, the fields validated after (a refused upload leaves no file). */
export async function readTimeSheetUpload(app: FastifyInstance, parts: AsyncIterableIterator<MultipartFile | { type: 'field'; fieldname: string; value: unknown }>): Promise<TimeSheetUploadRead> {
  // Keyed by names the sender chose: no prototype to reach through them (issue 20).
  const fields: Record<string, unknown> = Object.create(null);
  let stored: { key: string; size: number; name: string; mime: string; sha256: string } | null = null;
  try {
    for await (const part of parts) {
      // Bracketed keys (spec §7) as the generic forms send them: time-sheet[hours] -> hours, time-sheet[file][] -> file.
      const [name] = bracketedKey(timeSheet, part.fieldname);
      if (part.type === 'file') {
        if (name !== 'file' || stored) { part.file.resume(); continue; }
        const extension = part.filename.split('.').pop()?.toLowerCase() ?? '';
        if (!(TIME_SHEET_EXTENSIONS as readonly string[]).includes(extension)) {
          part.file.resume();
          throw validationError({ file: 'The file must be a PDF, an image or a spreadsheet.' });
        }
        const file = await app.storage.put('time-sheets', part.file);
        stored = { key: file.key, size: file.size, name: part.filename.slice(-255), mime: 'application/octet-stream', sha256: file.sha256 };
        if (part.file.truncated) throw validationError({ file: `The file may not be greater than ${TIME_SHEET_MAX_BYTES / 1024 / 1024} MB.` });
        const kind = sniffFileType(file.head);
        if (!allowedTypes[extension].includes(kind)) {
          // Named like one type, something else inside: say which file and what it should have been.
          throw validationError({ file: `${stored.name} is not a real ${extension.toUpperCase()} file. Choose the original file and try again.` });
        }
        // Served as what it is, never as what the uploader's browser claimed (any text, any length).
        stored.mime = servedTypes[extension] ?? 'application/octet-stream';
      } else {
        fields[name] = part.value;
      }
    }
    const parsed = timeSheetUploadSchema.safeParse(fields);
    const errors: Record<string, string[]> = parsed.success ? {} : issuesByField(parsed.error.issues);
    if (parsed.success && parsed.data.period_start > latestToday()) errors.period_start = ['The period may not start in the future.'];
    if (!stored) errors.file = ['The file field is required.'];
    if (Object.keys(errors).length) throw validationError(errors);
    const { sha256, ...file } = stored!;
    const digest = JSON.stringify([Object.entries(fields).sort(([a], [b]) => a.localeCompare(b)), file.name, sha256]);
    return { input: parsed.data!, file, digest };
  } catch (error) {
    if (stored) await app.storage.remove(stored.key);
    throw error;
  }
}

/** Stores the sheet and tells the uploader's manager (TimeSheetUploadEvent), in the same transaction. */
export async function saveTimeSheet(ctx: ResourceContext, { input, file }: TimeSheetUploadRead) {
  const { app, account } = ctx;
  const end = periodEnd(input.period_type, input.period_start);
  const row = await inTransaction(app, async (tx) => {
    await refuseOverlappingSheet(tx.db, account.id, input.client_id, input.period_start, end);
    const [created] = await tx.db.insert(timeSheets).values({
    user_id: account.id,
    client_id: input.client_id,
    period_type: input.period_type,
    period_start: input.period_start,
    period_end: end,
    hours: input.hours,
    note: input.note ?? null,
    file_key: file.key,
    file_name: file.name,
    file_size: file.size,
    file_mime: file.mime || 'application/octet-stream',
    }).returning();
    await writeHistory(tx.db, { resource: 'time-sheet', recordId: created.id, transition: 'create', from: null, to: created.status, account });
    await recordResourceChange(tx.db, account, timeSheet, { action: 'create', id: created.id, before: null, after: created });
    // The manager is told in the definition's words (TimeSheetUploadEvent live, as they chose for time sheets).
    const uploader = account.user as typeof users.$inferSelect;
    await notifyAbout(tx, timeSheet, { ...created, user: { id: uploader.id, name: uploader.name } }, timeSheet.workflow!.events.create.notify, account, null, 'created');
    return created;
  }).catch(async (error: { code?: string; cause?: { code?: string } }) => {
    // Nothing was saved, so the file goes too.
    await app.storage.remove(file.key);
    // 23503 (foreign key): the client does not exist. Drizzle wraps the driver's error in `cause`.
    if ((error.cause?.code ?? error.code) === '23503') throw validationError({ client_id: chosenOneRefused('client') });
    throw error;
  });
  return row;
}

/**
 * One sheet per engineer, client and period: a sheet whose period overlaps one already uploaded for
 * the same client is refused (422), unless that one was rejected or withdrawn (decision 058); the
 * corrected sheet is then a new record beside the old one, which stays as the history. Uploads of one engineer
 * are serialised by a lock held to the end of the transaction, so two at once cannot both pass.
 */
async function refuseOverlappingSheet(db: Db, userId: number, clientId: number, start: string, end: string) {
  await db.execute(sql`select pg_advisory_xact_lock(${TIME_SHEET_UPLOAD_LOCK}, ${userId})`);
  const [existing] = await db.select({ period_start: timeSheets.period_start, period_end: timeSheets.period_end, status: timeSheets.status })
    .from(timeSheets)
    .where(and(
      eq(timeSheets.user_id, userId), eq(timeSheets.client_id, clientId), notInArray(timeSheets.status, ['rejected', 'withdrawn']),
      lte(timeSheets.period_start, end), gte(timeSheets.period_end, start),
    ))
    .limit(1);
  if (existing) {
    // Said as the engineer would act on it: a pending sheet they can withdraw themselves; an approved one is settled.
    throw validationError({
      period_start: existing.status === 'pending'
        ? `You already uploaded a time sheet for this client from ${existing.period_start} to ${existing.period_end}, and it waits for review. `
          + 'To replace it, withdraw it first.'
        : `Your time sheet for this client from ${existing.period_start} to ${existing.period_end} is already approved.`,
    });
  }
}

/** The first key of the advisory lock that serialises one engineer's uploads (the second is their id). */
const TIME_SHEET_UPLOAD_LOCK = 5001;

/**
 * The "uploaded" notice asked for this review: once decided, it no longer counts as unread for anyone.
 * Written by the decision's own statement (`transitionWrites`, decision 050), where `changed` holds the
 * sheet's id; the approval's notification goes to the engineer, never to whoever holds this notice.
 */
export const markUploadNoticeRead = sql`update ${notifications} set read_at = now()
  where ${notifications.type} = ${TIME_SHEET_UPLOAD_NOTIFICATION} and ${notifications.read_at} is null
    and ${notifications.data}->>'url' = ${TIME_SHEET_URL_PREFIX} || (select id from changed)::text`;

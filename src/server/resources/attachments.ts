// File fields (ARCHITECTURE "Files"): multipart create / update with bracketed keys (spec §7),
// files checked by extension, first bytes and size, kept in the storage interface and listed in
// the `attachments` table; served only through the resource's own scope.
import type { MultipartFile } from '@fastify/multipart';
import { and, eq, notInArray, type SQL, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import { attachments } from '../db/schema/workflow';
import type { Account } from '../plugins/auth';
import { HttpError, validationError } from '../plugins/errors';
import { claimIdempotency, replay, type StoredAnswer } from '../plugins/idempotency';
import { sniffFileType } from '../plugins/storage';
import { contentDisposition } from '../lib/content-disposition';
import type { Transaction } from '../lib/transaction';
import {
  type AttachmentSummary, type FileFieldDefinition, formToPayload, MAX_ID, type ResourceDefinition,
} from '../../shared/resources/define';
import type { Row } from './types';

/** A file stored by this request and not yet listed (removed again if the write fails). */
export interface NewFile { storageKey: string; name: string; size: number; mime: string; sha256?: string }

/** What a multipart body carries besides its values. */
export interface FileInput {
  /** Per file field: the new files. */
  added: Record<string, NewFile[]>;
  /** Per file field: the attachment ids to keep, when the request said (else all are kept). */
  kept: Record<string, number[] | undefined>;
}

export const fileFieldsOf = (definition: ResourceDefinition) =>
  Object.entries(definition.fields).filter(([, field]) => field.input === 'file' && field.file) as [string, { label: string; file: FileFieldDefinition }][];

/** What the first bytes must say for each accepted extension. */
const sniffedAs: Record<string, readonly string[]> = {
  pdf: ['pdf'], png: ['png'], jpg: ['jpeg'], jpeg: ['jpeg'], webp: ['webp'],
  xlsx: ['zip'], docx: ['zip'], ods: ['zip'], odt: ['zip'], xls: ['ole'], doc: ['ole'], csv: ['text'], txt: ['text'],
};
/** The type a file is served as: what it is, never what the uploader claimed. */
const mimeOf: Record<string, string> = {
  pdf: 'application/pdf', png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp', text: 'text/plain; charset=utf-8',
};

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/**
 * `expense[receipts][]` -> ['receipts', true]; `expense[amount]` -> ['amount', false]; `role_ids[]`,
 * `role_ids[0]` -> ['role_ids', true]; a plain `amount` as it is.
 */
export function bracketedKey(definition: ResourceDefinition, raw: string): [string, boolean] {
  let name = raw;
  const wrapped = new RegExp(`^${definition.name.replace(/[-]/g, '[-_]?')}\\[([^\\]]+)\\](.*)$`, 'i').exec(name);
  if (wrapped) name = `${wrapped[1]}${wrapped[2]}`;
  const list = /^([^[\]]+)\[\d*\]$/.exec(name);
  return list ? [list[1], true] : [name, false];
}

/**
 * Reads a multipart body: files streamed to storage and checked, values collected and typed the way
 * the form's strings are (`formToPayload`). A refusal removes what was stored.
 */
export async function readMultipart(request: FastifyRequest, definition: ResourceDefinition): Promise<{ values: Row; files: FileInput }> {
  const storage = request.server.storage;
  const fileFields = new Map(fileFieldsOf(definition));
  // Keyed by names the sender chose: objects without a prototype, so `toString[]` is just an unknown
  // field rather than Object.prototype.toString (that answered 500; issue 20).
  const values: Record<string, unknown> = Object.create(null);
  const files: FileInput = { added: Object.create(null), kept: Object.create(null) };
  const stored: NewFile[] = [];
  try {
    for await (const part of request.parts() as AsyncIterable<MultipartFile | { type: 'field'; fieldname: string; value: unknown }>) {
      const [key, isList] = bracketedKey(definition, part.fieldname);
      const fileField = fileFields.get(key);
      if (part.type === 'file') {
        if (!fileField) { part.file.resume(); continue; }
        const rules = fileField.file;
        const label = fileField.label.toLowerCase();
        const extension = part.filename.includes('.') ? part.filename.split('.').pop()!.toLowerCase() : '';
        if (!rules.extensions.includes(extension)) {
          part.file.resume();
          throw validationError({ [key]: `${part.filename.slice(0, 100)}: the ${label} must be a file of type ${rules.extensions.join(', ')}.` });
        }
        const file = await storage.put('attachments', part.file);
        const entry: NewFile = { storageKey: file.key, name: part.filename.slice(-255), size: file.size, mime: 'application/octet-stream', sha256: file.sha256 };
        stored.push(entry);
        if (part.file.truncated || file.size > rules.maxBytes) {
          throw validationError({ [key]: `${entry.name} is larger than ${megabytes(rules.maxBytes)}.` });
        }
        const kind = sniffFileType(file.head);
        if (!(sniffedAs[extension] ?? [extension]).includes(kind)) {
          throw validationError({ [key]: `${entry.name} is not a real ${extension.toUpperCase()} file. Choose the original file and try again.` });
        }
        entry.mime = mimeOf[kind] ?? 'application/octet-stream';
        (files.added[key] ??= []).push(entry);
        const count = files.added[key].length;
        if (!rules.isMultiple && count > 1) throw validationError({ [key]: `Attach one file as the ${label}.` });
        if (rules.maxFiles && count > rules.maxFiles) throw validationError({ [key]: `Attach at most ${rules.maxFiles} files as the ${label}.` });
        continue;
      }
      const value = part.value;
      if (fileField) {
        // A field part named like a file field lists an attachment to keep; an empty one keeps none.
        const kept = (files.kept[key] ??= []);
        if (value !== '' && value !== undefined) {
          const id = Number(value);
          if (!Number.isInteger(id) || id <= 0 || id > MAX_ID) throw validationError({ [key]: `The ${fileField.label.toLowerCase()} to keep is invalid.` });
          kept.push(id);
        }
        continue;
      }
      const existing = values[key];
      // `tags` then `tags[]` in one form: the list takes the earlier value too, rather than failing to push onto a string.
      if (isList) {
        if (Array.isArray(existing)) existing.push(value);
        else values[key] = key in values ? [existing, value] : [value];
      } else values[key] = value;
    }
  } catch (error) {
    await Promise.all(stored.map((file) => storage.remove(file.storageKey)));
    throw error;
  }
  // Multipart cannot say "an empty list": a list field the form left out is empty.
  for (const [key, field] of Object.entries(definition.fields)) {
    if ((field.input === 'multiselect' || field.input === 'list') && key in definition.schema.shape && !(key in values)) values[key] = [];
  }
  // Form strings typed as the JSON body would carry them; keys the form did not send stay absent.
  const typed = formToPayload(definition, values);
  for (const key of Object.keys(values)) if (!(key in typed)) typed[key] = values[key];
  return { values: typed, files };
}

/**
 * Issue 26: what a multipart body said (its values, the ids it keeps, each new file's name and content
 * hash), for `claimIdempotency`. A retried outbox item carries a new boundary on every attempt, so the
 * raw bytes cannot tell a retry from a different upload; this digest can.
 */
export function multipartDigest(values: Row, files: FileInput): string {
  const sorted = <T>(entries: [string, T][]) => entries.sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify([
    sorted(Object.entries(values)),
    sorted(Object.entries(files.kept)),
    sorted(Object.entries(files.added).map(([key, list]) => [key, list.map((file) => [file.name, file.sha256 ?? file.size])])),
  ]);
}

/**
 * Claims the request's Idempotency-Key with its multipart digest. True: a repeat, whose first answer
 * was sent (and this request's copies of the files removed); false: go on and write.
 */
export async function replayedMultipart(request: FastifyRequest, reply: FastifyReply, values: Row, files: FileInput): Promise<boolean> {
  let answered: StoredAnswer | null;
  try {
    answered = await claimIdempotency(request, multipartDigest(values, files));
  } catch (error) {
    await discardNewFiles(request, files);
    throw error;
  }
  if (!answered) return false;
  await discardNewFiles(request, files);
  void replay(reply, answered);
  return true;
}

/** Removes the files a request stored (its write was refused or rolled back). */
export async function discardNewFiles(request: FastifyRequest, files: FileInput | null) {
  if (!files) return;
  await Promise.all(Object.values(files.added).flat().map((file) => request.server.storage.remove(file.storageKey)));
}

/**
 * The list each file field will hold after this write (kept and new), for hooks that count them.
 * Existing attachments come from the row; without a keep list all stay.
 */
export function finalFileLists(definition: ResourceDefinition, files: FileInput | null, existing: Row | null): Record<string, AttachmentSummary[]> {
  const lists: Record<string, AttachmentSummary[]> = {};
  for (const [key] of fileFieldsOf(definition)) {
    const current = (existing?.[key] as AttachmentSummary[] | undefined) ?? [];
    const keep = files?.kept[key];
    const kept = keep ? current.filter((a) => keep.includes(a.id)) : current;
    const added = (files?.added[key] ?? []).map((f, index) => ({ id: -(index + 1), name: f.name, size: f.size, mime: f.mime }));
    lists[key] = [...kept, ...added];
  }
  return lists;
}

/** Lists the new files and drops the ones not kept (their bytes go after the commit). `account` null: sent through a public form. */
export async function saveAttachments(tx: Transaction, definition: ResourceDefinition, recordId: number, files: FileInput | null, account: Account | null) {
  if (!files) return;
  for (const [key] of fileFieldsOf(definition)) {
    const keep = files.kept[key];
    if (keep) {
      const dropped = await tx.db.delete(attachments).where(and(
        eq(attachments.resource, definition.name), eq(attachments.record_id, recordId), eq(attachments.field, key),
        keep.length ? notInArray(attachments.id, keep) : undefined,
      )).returning({ storageKey: attachments.storage_key });
      tx.onCommit(() => Promise.all(dropped.map((file) => tx.app.storage.remove(file.storageKey))));
    }
    const added = files.added[key] ?? [];
    if (added.length) {
      await tx.db.insert(attachments).values(added.map((file) => ({
        resource: definition.name, record_id: recordId, field: key, storage_key: file.storageKey,
        name: file.name, size: file.size, mime: file.mime, uploaded_by_type: account?.type ?? null, uploaded_by: account?.id ?? null,
      })));
    }
  }
}

/**
 * Each file field as `[{ id, name, size, mime }]` (oldest first), selected with the row as a
 * subquery on `attachments` (index attachments_record): a page of rows is still one round trip.
 * `table` is the resource's table name, which the outer row's id is qualified with.
 */
export function fileListSelection(definition: ResourceDefinition, table: string): Record<string, SQL> {
  return Object.fromEntries(fileFieldsOf(definition).map(([key]) => [key, sql`coalesce((
    select json_agg(json_build_object('id', f.id, 'name', f.name, 'size', f.size, 'mime', f.mime) order by f.id)
    from ${attachments} f
    where f.resource = ${definition.name} and f.record_id = ${sql.identifier(table)}."id" and f.field = ${key}), '[]'::json)`]));
}

/** Removes every file of a deleted record after the commit. */
export async function removeAttachmentsOf(tx: Transaction, definition: ResourceDefinition, recordId: number) {
  const dropped = await tx.db.delete(attachments).where(and(eq(attachments.resource, definition.name), eq(attachments.record_id, recordId)))
    .returning({ storageKey: attachments.storage_key });
  tx.onCommit(() => Promise.all(dropped.map((file) => tx.app.storage.remove(file.storageKey))));
}

/** Streams one attachment of a record the caller may see (the caller already checked the record). */
export async function sendAttachment(reply: FastifyReply, db: Db, definition: ResourceDefinition, recordId: number, attachmentId: number, disposition: 'attachment' | 'inline') {
  const [file] = await db.select().from(attachments)
    .where(and(eq(attachments.id, attachmentId), eq(attachments.resource, definition.name), eq(attachments.record_id, recordId))).limit(1);
  if (!file) throw new HttpError(404, 'File not found.');
  // Only what a browser shows safely is shown inline: images and PDFs.
  const isPreviewable = /^(image\/(png|jpeg|webp)|application\/pdf)$/.test(file.mime);
  return reply
    .type(file.mime)
    .header('Content-Disposition', contentDisposition(disposition === 'inline' && isPreviewable ? 'inline' : 'attachment', file.name))
    .header('X-Content-Type-Options', 'nosniff')
    .header('Cache-Control', 'private, no-store')
    .send(reply.server.storage.read(file.storage_key));
}

// File fields (ARCHITECTURE "Files"): multipart create / update with bracketed keys (spec §7),
// files checked by extension, first bytes and size, kept in the storage interface and listed in
// the `attachments` table; served only through the resource's own scope.
import { and, eq, notInArray, type SQL, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import { attachments } from '../db/schema/workflow';
import type { Account } from '../plugins/auth';
import { HttpError } from '../plugins/errors';
import { contentDisposition } from '../lib/content-disposition';
import type { Transaction } from '../lib/transaction';
import {
  type AttachmentSummary, type FileFieldDefinition, type ResourceDefinition,
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

// Reading a multipart create / update (ARCHITECTURE "Files"): values under bracketed keys (spec §7),
// files checked by extension, first bytes and size and put in the storage interface as they arrive,
// and the idempotency claim made after the parts are read (a digest of the values and file hashes).
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { validationError } from '../plugins/errors';
import { claimIdempotency, replay, type StoredAnswer } from '../plugins/idempotency';
import { sniffFileType } from '../plugins/storage';
import { formToPayload, MAX_ID, type ResourceDefinition } from '../../shared/resources/define';
import { discardNewFiles, fileFieldsOf, type FileInput, type NewFile } from './attachments';
import type { Row } from './types';
import { wrongFileType } from '../../shared/words';

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
        const extension = part.filename.includes('.') ? part.filename.split('.').pop()!.toLowerCase() : '';
        if (!rules.extensions.includes(extension)) {
          part.file.resume();
          throw validationError({ [key]: wrongFileType(part.filename.slice(0, 100), rules.extensions) });
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
        // Said under the field, without its label: "File (versions)" or "Receipts" read "Attach one file as the file (versions)."
        if (!rules.isMultiple && count > 1) throw validationError({ [key]: 'Attach only one file here.' });
        if (rules.maxFiles && count > rules.maxFiles) throw validationError({ [key]: `Attach at most ${rules.maxFiles} files here.` });
        continue;
      }
      const value = part.value;
      if (fileField) {
        // A field part named like a file field lists an attachment to keep; an empty one keeps none.
        const kept = (files.kept[key] ??= []);
        if (value !== '' && value !== undefined) {
          const id = Number(value);
          if (!Number.isInteger(id) || id <= 0 || id > MAX_ID) throw validationError({ [key]: 'A file to keep is not one of the files attached here.' });
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

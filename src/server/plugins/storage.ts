// Files live outside the web root behind this interface (local disk by default) and are served
// only through authorised routes (ARCHITECTURE "Files").
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** `sha256` (hex) of the content, so a caller can tell two uploads of the same file apart from different ones. */
export interface StoredFile { key: string; size: number; head: Buffer; sha256: string }

export interface Storage {
  /** Streams a file in; `head` holds its first bytes so callers can check what it really is. */
  put(folder: string, stream: Readable): Promise<StoredFile>;
  read(key: string): Readable;
  size(key: string): Promise<number>;
  remove(key: string): Promise<void>;
}

const HEAD_BYTES = 16;

export function localStorage(root: string): Storage {
  const pathOf = (key: string) => {
    // Keys are generated here ('folder/uuid'); refuse anything else so a key can never escape the root.
    if (!/^[a-z0-9-]+\/[0-9a-f-]{36}$/.test(key)) throw new Error(`Invalid storage key ${key}`);
    return join(root, key);
  };
  return {
    async put(folder, stream) {
      const key = `${folder}/${randomUUID()}`;
      await mkdir(join(root, folder), { recursive: true });
      let size = 0;
      const chunks: Buffer[] = [];
      const digest = createHash('sha256');
      stream.on('data', (chunk: Buffer) => {
        if (size < HEAD_BYTES) chunks.push(chunk);
        size += chunk.length;
        digest.update(chunk);
      });
      try {
        await pipeline(stream, createWriteStream(pathOf(key)));
      } catch (error) {
        // The upload broke off (a truncated multipart body): what arrived of it goes.
        await rm(pathOf(key), { force: true });
        throw error;
      }
      return { key, size, head: Buffer.concat(chunks).subarray(0, HEAD_BYTES), sha256: digest.digest('hex') };
    },
    read: (key) => createReadStream(pathOf(key)),
    size: async (key) => (await stat(pathOf(key))).size,
    remove: (key) => rm(pathOf(key), { force: true }),
  };
}

/** What the first bytes say the file is, for the formats we accept. */
export function sniffFileType(head: Buffer): 'pdf' | 'png' | 'jpeg' | 'webp' | 'zip' | 'ole' | 'text' | 'unknown' {
  const starts = (...bytes: number[]) => bytes.every((b, i) => head[i] === b);
  if (starts(0x25, 0x50, 0x44, 0x46)) return 'pdf'; // %PDF
  if (starts(0x89, 0x50, 0x4e, 0x47)) return 'png';
  if (starts(0xff, 0xd8, 0xff)) return 'jpeg';
  if (starts(0x52, 0x49, 0x46, 0x46) && head.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  if (starts(0x50, 0x4b, 0x03, 0x04)) return 'zip'; // xlsx, ods
  if (starts(0xd0, 0xcf, 0x11, 0xe0)) return 'ole'; // xls
  if (head.length > 0 && [...head].every((b) => b === 0x09 || b === 0x0a || b === 0x0d || (b >= 0x20 && b !== 0x7f))) return 'text';
  return 'unknown';
}

// Files live outside the web root behind this interface (local disk by default) and are served
// only through authorised routes (ARCHITECTURE "Files").
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';

/** `sha256` (hex) of the content, so a caller can tell two uploads of the same file apart from different ones. */
export interface StoredFile { key: string; size: number; head: Buffer; sha256: string }

export interface Storage {
  /** Streams a file in; `head` holds its first bytes so callers can check what it really is. */
  put(folder: string, stream: Readable): Promise<StoredFile>;
  read(key: string): Readable;
  size(key: string): Promise<number>;
  remove(key: string): Promise<void>;
  /** Every stored key (backups). */
  keys(): AsyncIterable<string>;
  /** Stores a file under a key this storage gave out before (restoring a backup). */
  write(key: string, stream: Readable): Promise<void>;
  /** Throws when the store cannot be reached (readiness). */
  check(): Promise<void>;
  /** Where files go, for a log line: never a secret. */
  readonly description: string;
}

const KEY = /^[a-z0-9-]+\/[0-9a-f-]{36}$/;

const HEAD_BYTES = 16;

export function localStorage(root: string): Storage {
  const pathOf = (key: string) => {
    // Keys are generated here ('folder/uuid'); refuse anything else so a key can never escape the root.
    if (!KEY.test(key)) throw new Error(`Invalid storage key ${key}`);
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
    async *keys() {
      const folders = await readdir(root, { withFileTypes: true }).catch(() => []);
      for (const folder of folders) {
        if (!folder.isDirectory()) continue;
        for (const name of await readdir(join(root, folder.name))) {
          const key = `${folder.name}/${name}`;
          if (KEY.test(key)) yield key;
        }
      }
    },
    async write(key, stream) {
      await mkdir(join(root, key.split('/')[0]), { recursive: true });
      await pipeline(stream, createWriteStream(pathOf(key)));
    },
    async check() { await mkdir(root, { recursive: true }); },
    description: 'local disk',
  };
}

/**
 * An S3-compatible object store (AWS S3, MinIO, Cloudflare R2, ...) from STORAGE_URL:
 * `s3://ACCESS_KEY:SECRET@host[:port]/bucket[?region=eu-west-1]` over HTTPS, `s3+http://` for a store
 * on a private network without TLS. Without a key in the URL the SDK's own chain applies
 * (AWS_ACCESS_KEY_ID, an instance role). Path-style addressing, which every one of them serves.
 * Docs/decisions/022.
 */
export async function s3Storage(storageUrl: string): Promise<Storage> {
  const { S3Client, PutObjectCommand, GetObjectCommand, HeadObjectCommand, DeleteObjectCommand, ListObjectsV2Command, HeadBucketCommand } = await import('@aws-sdk/client-s3');
  const url = new URL(storageUrl);
  const bucket = decodeURIComponent(url.pathname.replace(/^\/+|\/+$/g, ''));
  const prefix = url.searchParams.get('prefix')?.replace(/\/?$/, '/') ?? '';
  const client: S3Client = new S3Client({
    endpoint: `${url.protocol === 's3+http:' ? 'http' : 'https'}://${url.host}`,
    region: url.searchParams.get('region') ?? 'auto',
    forcePathStyle: true,
    // Checksums only where S3 requires them: the SDK's default streams bodies as `aws-chunked` with a
    // trailing checksum, which stores short of AWS's own (s3rver, older MinIO) keep as the file's bytes.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(url.username ? { credentials: { accessKeyId: decodeURIComponent(url.username), secretAccessKey: decodeURIComponent(url.password) } } : {}),
  });
  const objectOf = (key: string) => {
    if (!KEY.test(key)) throw new Error(`Invalid storage key ${key}`);
    return { Bucket: bucket, Key: prefix + key };
  };
  // The SDK needs a length for a streamed body: the upload goes to a temporary file first (which also
  // measures and hashes it), then to the store in one request.
  const upload = async (key: string, stream: Readable, onChunk?: (chunk: Buffer) => void) => {
    const folder = await mkdtemp(join(tmpdir(), 'upload-'));
    const file = join(folder, 'file');
    try {
      let size = 0;
      stream.on('data', (chunk: Buffer) => { size += chunk.length; onChunk?.(chunk); });
      await pipeline(stream, createWriteStream(file));
      await client.send(new PutObjectCommand({ ...objectOf(key), Body: createReadStream(file), ContentLength: size }));
      return size;
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  };
  return {
    async put(folder, stream) {
      const key = `${folder}/${randomUUID()}`;
      const chunks: Buffer[] = [];
      let seen = 0;
      const digest = createHash('sha256');
      const size = await upload(key, stream, (chunk) => {
        if (seen < HEAD_BYTES) chunks.push(chunk);
        seen += chunk.length;
        digest.update(chunk);
      });
      return { key, size, head: Buffer.concat(chunks).subarray(0, HEAD_BYTES), sha256: digest.digest('hex') };
    },
    read(key) {
      // Callers take a stream at once (reply.send); the object's body is piped into it when it arrives.
      const out = new PassThrough();
      client.send(new GetObjectCommand(objectOf(key)))
        .then((object) => { (object.Body as Readable).on('error', (error) => out.destroy(error)).pipe(out); })
        .catch((error: unknown) => out.destroy(error as Error));
      return out;
    },
    async size(key) {
      return (await client.send(new HeadObjectCommand(objectOf(key)))).ContentLength ?? 0;
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand(objectOf(key)));
    },
    async *keys() {
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix || undefined, ContinuationToken: token }));
        for (const object of page.Contents ?? []) {
          const key = object.Key?.slice(prefix.length);
          if (key && KEY.test(key)) yield key;
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
    async write(key, stream) { await upload(key, stream); },
    async check() { await client.send(new HeadBucketCommand({ Bucket: bucket })); },
    description: `object store ${url.host}/${bucket}`,
  };
}

/** STORAGE_URL's store, else local disk under DATA_DIR/files. */
export function openStorage(options: { storageUrl?: string; dataDir: string }): Promise<Storage> | Storage {
  if (options.storageUrl?.startsWith('s3')) return s3Storage(options.storageUrl);
  return localStorage(options.storageUrl?.startsWith('file:') ? new URL(options.storageUrl).pathname : join(options.dataDir, 'files'));
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

// A real S3-protocol server for the tests (s3rver, docs/decisions/022): started on a free port with a
// fresh bucket; `storageUrl` is what STORAGE_URL would say.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

export async function startS3Server(bucket = 'files'): Promise<{ storageUrl: string; keys(): Promise<string[]>; close(): Promise<void> }> {
  const directory = mkdtempSync(join(tmpdir(), 's3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = await server.run();
  const client = new S3Client({ endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  return {
    storageUrl: `s3+http://S3RVER:S3RVER@127.0.0.1:${port}/${bucket}?region=us-east-1`,
    async keys() {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (page.Contents ?? []).map((object) => object.Key!).sort();
    },
    async close() {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Config } from '../config.ts';

/** s3rver's one built-in account; any other key is refused with 403 like a real service. */
export const localS3Credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * A real S3-compatible HTTP server (s3rver) in this process on a free loopback port, over a
 * temporary folder: for tests only. `config(bucket)` gives the settings S3_* would produce.
 */
export async function startLocalS3(buckets: string[] = ['twofold-test']) {
  const directory = mkdtempSync(path.join(tmpdir(), 'twofold-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    config: (bucket = buckets[0] ?? 'twofold-test', overrides: Partial<S3Config> = {}): S3Config => ({
      bucket,
      region: 'us-east-1',
      endpoint,
      credentials: localS3Credentials,
      forcePathStyle: true,
      prefix: '',
      ...overrides,
    }),
    stop: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

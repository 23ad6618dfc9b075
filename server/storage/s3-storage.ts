import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { S3Config } from '../config.ts';
import { type FileStorage, newStoredName, storedNamePattern, typeOfName } from './storage.ts';

/** The bucket cannot be used; the message names the setting to look at and never a secret. */
export class StorageUnavailableError extends Error {
  override name = 'StorageUnavailableError';
}

export type S3Storage = FileStorage & {
  /** Resolves when the bucket answers with these settings; rejects with StorageUnavailableError. */
  check: () => Promise<void>;
  /** Closes the client's connections (tests, shutdown). */
  close: () => void;
};

/**
 * Files in an S3-compatible bucket, so every server process behind a load balancer sees the same
 * uploads. Object keys are the stored names (random, never user input) under the configured prefix.
 */
export function s3Storage(config: S3Config): S3Storage {
  const client = new S3Client({
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    ...(config.endpoint
      ? {
          endpoint: config.endpoint,
          // The SDK's default CRC checksums on every request are refused by several
          // S3-compatible services; send them only where the API requires them.
          requestChecksumCalculation: 'WHEN_REQUIRED' as const,
          responseChecksumValidation: 'WHEN_REQUIRED' as const,
        }
      : {}),
    ...(config.credentials ? { credentials: config.credentials } : {}),
    // A bucket that stops answering fails the request instead of holding it open forever.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
  });
  const key = (name: string) => `${config.prefix}${name}`;
  const where = `bucket ${config.bucket}${config.endpoint ? ` at ${config.endpoint}` : ''}`;

  return {
    put: async (bytes, contentType) => {
      const name = newStoredName(contentType);
      await client.send(
        new PutObjectCommand({
          Bucket: config.bucket,
          Key: key(name),
          Body: bytes,
          ContentType: contentType,
          ContentLength: bytes.byteLength,
        }),
      );
      return name;
    },
    get: async (name) => {
      const contentType = typeOfName(name);
      if (!contentType) return undefined;
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: config.bucket, Key: key(name) }));
        if (!object.Body) return undefined;
        const bytes = await object.Body.transformToByteArray();
        return { bytes: new Uint8Array(bytes), contentType };
      } catch (error) {
        if (error instanceof NoSuchKey) return undefined;
        if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return undefined;
        throw error;
      }
    },
    remove: async (name) => {
      if (!storedNamePattern.test(name)) return;
      // Deleting a key that is not there succeeds in S3: removing twice is not an error.
      await client.send(new DeleteObjectCommand({ Bucket: config.bucket, Key: key(name) }));
    },
    check: async () => {
      try {
        await client.send(new HeadBucketCommand({ Bucket: config.bucket }));
      } catch (error) {
        throw new StorageUnavailableError(`File storage: cannot use ${where}: ${explain(error)}`);
      }
    },
    close: () => client.destroy(),
  };
}

/** What went wrong, in words that point at the setting; the SDK's own errors carry no secrets. */
function explain(error: unknown): string {
  if (error instanceof S3ServiceException) {
    const status = error.$metadata.httpStatusCode;
    if (status === 404) return 'the bucket does not exist (check S3_BUCKET and S3_ENDPOINT)';
    if (status === 403 || status === 401) {
      return 'access denied (check S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY and the bucket policy)';
    }
    if (status === 301 || status === 400)
      return `the service refused the request (${status}; check S3_REGION)`;
    return `${error.name} (HTTP ${status ?? 'unknown'})`;
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code) return `${code} (check S3_ENDPOINT)`;
  return error instanceof Error ? error.name : 'unknown error';
}

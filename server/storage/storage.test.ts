import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import { demoOrganizationIds, signIn } from '../test-helpers.ts';
import { createTestContext, type TestContext } from '../testing.ts';
import { configuredStorage } from './configured-storage.ts';
import { startLocalS3 } from './local-s3.ts';
import { type S3Storage, StorageUnavailableError, s3Storage } from './s3-storage.ts';
import { describeFileStorage } from './storage.suite.ts';
import { folderStorage, memoryStorage } from './storage.ts';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
let s3: Awaited<ReturnType<typeof startLocalS3>>;
const folder = mkdtempSync(path.join(tmpdir(), 'twofold-files-'));
const opened: S3Storage[] = [];
const openS3 = (prefix = '') => {
  const storage = s3Storage(s3.config('twofold-test', { prefix }));
  opened.push(storage);
  return storage;
};

beforeAll(async () => {
  s3 = await startLocalS3(['twofold-test', 'twofold-other']);
});
afterAll(async () => {
  for (const storage of opened) storage.close();
  await s3.stop();
  rmSync(folder, { recursive: true, force: true });
});

// One contract, every backend.
describeFileStorage('folder', () => folderStorage(folder));
const memory = memoryStorage();
describeFileStorage('memory', () => memory);
describeFileStorage('S3 (s3rver)', () => openS3());
describeFileStorage('S3 (s3rver) under a key prefix', () => openS3('tenants/one/'));

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7]);

describe('S3 storage settings', () => {
  it('keeps files under the prefix, apart from another prefix in the same bucket', async () => {
    const one = openS3('tenants/one/');
    const two = openS3('tenants/two/');
    const stored = await one.put(png, 'image/png');
    expect((await one.get(stored))?.bytes).toEqual(png);
    expect(await two.get(stored)).toBeUndefined();
  });

  it('check() passes for a bucket it can use', async () => {
    await expect(openS3().check()).resolves.toBeUndefined();
  });

  it('check() names S3_BUCKET when the bucket does not exist', async () => {
    const storage = s3Storage(s3.config('no-such-bucket'));
    opened.push(storage);
    const failure = storage.check();
    await expect(failure).rejects.toBeInstanceOf(StorageUnavailableError);
    await expect(failure).rejects.toThrow(/no-such-bucket.*S3_BUCKET/);
  });

  it('check() names the keys on wrong credentials and never shows the secret', async () => {
    const secret = 'wrong-secret-value-0123456789';
    const storage = s3Storage(
      s3.config('twofold-test', { credentials: { accessKeyId: 'NOT-S3RVER', secretAccessKey: secret } }),
    );
    opened.push(storage);
    const error = await storage.check().then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(StorageUnavailableError);
    expect(error?.message).toMatch(/S3_ACCESS_KEY_ID/);
    expect(error?.message).not.toContain(secret);
  });

  it('check() names S3_ENDPOINT when nothing answers there', async () => {
    const port = await closedPort();
    const storage = s3Storage(s3.config('twofold-test', { endpoint: `http://127.0.0.1:${port}` }));
    opened.push(storage);
    await expect(storage.check()).rejects.toThrow(/S3_ENDPOINT/);
  });

  it('configuredStorage uses the bucket when S3 is configured and DATA_DIR/files otherwise', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'twofold-data-'));
    try {
      const onDisk = configuredStorage({ dataDir, s3: undefined });
      const name = await onDisk.put(png, 'image/png');
      expect(readdirSync(path.join(dataDir, 'files'))).toEqual([name]);
      const inBucket = configuredStorage({ dataDir, s3: s3.config() });
      const inS3 = await inBucket.put(png, 'image/png');
      expect(readdirSync(path.join(dataDir, 'files'))).toEqual([name]);
      expect((await openS3().get(inS3))?.bytes).toEqual(png);
      expect(inBucket.description).toContain('twofold-test');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the server with an unusable bucket', () => {
  it('stops at start naming the settings to check, before touching the database, and never prints the secret', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'twofold-data-'));
    const secret = 'a-secret-that-must-never-be-printed-42';
    try {
      const { DATABASE_URL: _postgres, ...env } = process.env;
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(repo, 'server', 'main.ts')], {
        cwd: repo,
        env: {
          ...env,
          DATA_DIR: dataDir,
          PORT: String(await closedPort()),
          HOST: '127.0.0.1',
          S3_BUCKET: 'twofold-test',
          S3_ENDPOINT: s3.endpoint,
          S3_FORCE_PATH_STYLE: 'true',
          S3_ACCESS_KEY_ID: 'NOT-S3RVER',
          S3_SECRET_ACCESS_KEY: secret,
        },
      });
      let output = '';
      child.stdout.on('data', (chunk) => {
        output += chunk;
      });
      child.stderr.on('data', (chunk) => {
        output += chunk;
      });
      const code = await new Promise((resolve) => child.once('exit', resolve));
      expect(code).toBe(1);
      expect(output).toMatch(
        /File storage: cannot use bucket twofold-test at http:\/\/127\.0\.0\.1:\d+: access denied \(check S3_ACCESS_KEY_ID/,
      );
      expect(output).not.toContain(secret);
      expect(existsSync(path.join(dataDir, 'pglite'))).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('two server processes on one bucket', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it('a logo uploaded through one is served by the other, and replacing it removes it for both', async () => {
    const config = { ...t.config, s3: s3.config('twofold-other') };
    const first = createApp({ config, db: t.db, logger: t.logger }).app;
    const second = createApp({ config, db: t.db, logger: t.logger }).app;
    const { hopeHarbor } = await demoOrganizationIds(t.db);
    const token = await signIn(first, 'admin@twofold.test');
    const upload = async (bytes: Uint8Array) => {
      const form = new FormData();
      form.set('file', new File([new Uint8Array(bytes)], 'logo.png', { type: 'image/png' }));
      form.set('name', 'logo');
      form.set('type', 'logo');
      const res = await first.request(`/api/organization/${hopeHarbor}/upload`, {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { file_logo: string }).file_logo;
    };

    const logo = await upload(png);
    const served = await second.request(logo);
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(png);

    const replaced = await upload(new Uint8Array([...png, 8]));
    expect((await second.request(logo)).status).toBe(404);
    const bucket = s3Storage(s3.config('twofold-other'));
    opened.push(bucket);
    expect(await bucket.get(logo.slice('/files/'.length))).toBeUndefined();
    expect((await bucket.get(replaced.slice('/files/'.length)))?.bytes).toEqual(new Uint8Array([...png, 8]));
    expect((await second.request(replaced)).status).toBe(200);
  });
});

/** A loopback port with nothing listening on it. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

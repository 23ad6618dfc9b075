import { type ChildProcess, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { asc } from 'drizzle-orm';
import { create } from 'tar';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { DataDirInUseError, lockDataDir, lockFileName } from '../db/data-dir-lock.ts';
import { documents, organizations } from '../db/schema.ts';
import { memoryLogger } from '../http/logger.ts';
import { demoOrganizationIds, signIn } from '../test-helpers.ts';
import { pgliteTemplate, testDb } from '../testing.ts';
import { BackupError, backupDataDir, restoreDataDir } from './backup.ts';

const root = mkdtempSync(path.join(tmpdir(), 'twofold-backup-'));
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 250]);
const pdf = new TextEncoder().encode('%PDF-1.7\n% restored intact\n');

/**
 * An app over a PGlite data directory, as `npm start` would have it. A new directory starts from
 * the migrated, seeded demo database (the tests' template; initdb takes seconds).
 */
async function openDataDir(dataDir: string) {
  const fresh = !existsSync(path.join(dataDir, 'pglite'));
  const database = await openDatabase({
    pgliteDir: path.join(dataDir, 'pglite'),
    pgliteArchive: fresh ? await pgliteTemplate() : undefined,
  });
  await database.migrate();
  const config = loadConfig({ DATA_DIR: dataDir, LOG_REQUESTS: 'false', SEED_DEMO: 'false' });
  const { app } = createApp({ config, db: database.db, logger: memoryLogger() });
  return { database, app, config };
}

async function upload(
  app: ReturnType<typeof createApp>['app'],
  orgId: number,
  token: string,
  bytes: Uint8Array,
  kind: 'logo' | 'document',
) {
  const form = new FormData();
  form.set('file', new File([new Uint8Array(bytes)], kind === 'logo' ? 'logo.png' : 'w9.pdf'));
  form.set('name', kind === 'logo' ? 'logo' : 'W-9');
  if (kind === 'logo') form.set('type', 'logo');
  const res = await app.request(`/api/organization/${orgId}/upload`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { file_logo: string | null; documents: Array<{ id: number; file: string }> };
}

// The commands are for the embedded database only (with DATABASE_URL they refuse, tested below):
// the PostgreSQL run of the server suites covers pg_dump instead (pg-dump.test.ts).
describe.skipIf(testDb === 'postgres')('npm run backup / restore (library)', () => {
  it('round-trips the database, the uploaded files and the JWT secret into a new DATA_DIR', async () => {
    const source = path.join(root, 'source');
    const first = await openDataDir(source);
    const { hopeHarbor } = await demoOrganizationIds(first.database.db);
    const token = await signIn(first.app, 'admin@twofold.test');
    const withLogo = await upload(first.app, hopeHarbor, token, png, 'logo');
    const withDocument = await upload(first.app, hopeHarbor, token, pdf, 'document');
    const documentFile = withDocument.documents.at(-1)?.file ?? '';
    const orgsBefore = await first.database.db.select().from(organizations).orderBy(asc(organizations.id));
    const documentsBefore = await first.database.db.select().from(documents).orderBy(asc(documents.id));
    await first.database.close();

    const archive = path.join(root, 'backup.tar.gz');
    const made = await backupDataDir({ dataDir: source, output: archive });
    expect(made).toMatchObject({ file: archive, files: 2, jwtSecret: true });
    expect(statSync(archive).mode & 0o777).toBe(0o600);
    // Nothing of the backup's own is left behind in the data directory.
    expect(readdirSync(source).sort()).toEqual(['files', 'jwt-secret', 'pglite']);

    // The original is gone: everything must come from the archive.
    const secretBefore = readFileSync(path.join(source, 'jwt-secret'), 'utf8');
    rmSync(source, { recursive: true });
    const target = path.join(root, 'restored');
    const restored = await restoreDataDir({ archive, dataDir: target });
    expect(restored).toMatchObject({ dataDir: target, files: 2, jwtSecret: true, movedAside: undefined });
    expect(readFileSync(path.join(target, 'jwt-secret'), 'utf8')).toBe(secretBefore);
    expect(statSync(path.join(target, 'jwt-secret')).mode & 0o777).toBe(0o600);

    const second = await openDataDir(target);
    try {
      expect(await second.database.db.select().from(organizations).orderBy(asc(organizations.id))).toEqual(
        orgsBefore,
      );
      expect(await second.database.db.select().from(documents).orderBy(asc(documents.id))).toEqual(
        documentsBefore,
      );
      // A session signed before the backup still works: the same secret came back.
      const org = await second.app.request(`/api/organization/${hopeHarbor}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(org.status).toBe(200);
      const logo = await second.app.request(withLogo.file_logo ?? '');
      expect(new Uint8Array(await logo.arrayBuffer())).toEqual(png);
      const document = await second.app.request(documentFile, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(document.status).toBe(200);
      expect(new Uint8Array(await document.arrayBuffer())).toEqual(pdf);
    } finally {
      await second.database.close();
    }
  }, 120_000);

  it('refuses to restore over existing data without force; with force moves the old data aside', async () => {
    const source = path.join(root, 'small');
    const opened = await openDataDir(source);
    await opened.database.close();
    const archive = path.join(root, 'small.tar.gz');
    await backupDataDir({ dataDir: source, output: archive });
    await expect(backupDataDir({ dataDir: source, output: archive })).rejects.toThrow(/exists already/);

    const target = path.join(root, 'occupied');
    mkdirSync(target);
    writeFileSync(path.join(target, 'precious.txt'), 'keep me');
    await expect(restoreDataDir({ archive, dataDir: target })).rejects.toThrow(
      /already holds data \(precious\.txt\).*--force/,
    );
    expect(readdirSync(target)).toEqual(['precious.txt']);
    expect(readdirSync(root).filter((name) => name.startsWith('occupied.'))).toEqual([]);

    const forced = await restoreDataDir({ archive, dataDir: target, force: true });
    expect(readdirSync(target).sort()).toEqual(['files', 'jwt-secret', 'pglite']);
    expect(readFileSync(path.join(forced.movedAside ?? '', 'precious.txt'), 'utf8')).toBe('keep me');

    // An empty directory (a fresh volume) is filled in place.
    const empty = path.join(root, 'empty');
    mkdirSync(empty);
    await restoreDataDir({ archive, dataDir: empty });
    expect(readdirSync(empty).sort()).toEqual(['files', 'jwt-secret', 'pglite']);
  }, 120_000);

  it('refuses while another live process holds the data directory, and takes over a dead one’s lock', async () => {
    const dataDir = path.join(root, 'held');
    const opened = await openDataDir(dataDir);
    await opened.database.close();
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    children.push(holder);
    const lock = path.join(dataDir, lockFileName);
    writeFileSync(
      lock,
      JSON.stringify({ pid: holder.pid, purpose: 'the server', since: '2026-01-01T00:00:00Z' }),
    );
    const output = path.join(root, 'held.tar.gz');
    await expect(backupDataDir({ dataDir, output })).rejects.toThrow(DataDirInUseError);
    await expect(backupDataDir({ dataDir, output })).rejects.toThrow(/in use by the server \(process \d+/);
    await expect(
      restoreDataDir({ archive: path.join(root, 'small.tar.gz'), dataDir, force: true }),
    ).rejects.toThrow(DataDirInUseError);
    expect(existsSync(output)).toBe(false);

    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.once('exit', resolve));
    // Killed without cleaning up: its lock is stale and the backup goes ahead.
    expect(existsSync(lock)).toBe(true);
    await backupDataDir({ dataDir, output });
    expect(existsSync(output)).toBe(true);
    expect(existsSync(lock)).toBe(false);

    const release = lockDataDir(dataDir, 'the server');
    release();
    release();
    expect(existsSync(lock)).toBe(false);
  });

  it('refuses archives that are not Twofold backups, and never writes outside DATA_DIR from one', async () => {
    const target = path.join(root, 'never');
    const junk = path.join(root, 'junk.tar.gz');
    writeFileSync(junk, 'not a tar file at all');
    await expect(restoreDataDir({ archive: junk, dataDir: target })).rejects.toThrow(BackupError);

    const staged = path.join(root, 'evil');
    mkdirSync(path.join(staged, 'files'), { recursive: true });
    writeFileSync(
      path.join(staged, 'manifest.json'),
      JSON.stringify({ format: 'something-else', version: 1 }),
    );
    writeFileSync(path.join(staged, 'files', 'escape.sh'), 'echo hi');
    const evil = path.join(root, 'evil.tar.gz');
    await create({ gzip: true, file: evil, cwd: staged }, ['manifest.json', 'files']);
    await expect(restoreDataDir({ archive: evil, dataDir: target })).rejects.toThrow(/not a Twofold backup/);
    await expect(
      restoreDataDir({ archive: path.join(root, 'missing.tar.gz'), dataDir: target }),
    ).rejects.toThrow(/does not exist/);
    expect(existsSync(target)).toBe(false);
    expect(readdirSync(root).filter((name) => name.startsWith('never.'))).toEqual([]);
  });
});

/**
 * The environment of a command run on the embedded database: the PostgreSQL suite exports
 * DATABASE_URL, which would point the server (and the backup's refusal) at PostgreSQL.
 */
function embeddedEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const { DATABASE_URL: _postgres, ...env } = process.env;
  return { ...env, ...extra };
}

/** Runs `npm run <script>` as an operator would, returning its exit code and output. */
function npmRun(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn('npm', ['run', '--silent', ...args], {
      cwd: repo,
      env: embeddedEnv(env),
    });
    children.push(child);
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('exit', (code) => resolve({ code, output }));
  });
}

/** Starts the real server (server/main.ts) on the data directory and waits until it answers. */
async function startServer(dataDir: string, port: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repo, 'server', 'main.ts')], {
    cwd: repo,
    env: embeddedEnv({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_REQUESTS: 'false' }),
  });
  children.push(child);
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  await new Promise<void>((resolve, reject) => {
    const check = setInterval(() => {
      if (output.includes('Twofold is running')) {
        clearInterval(check);
        resolve();
      } else if (child.exitCode !== null) {
        clearInterval(check);
        reject(new Error(`the server exited: ${output}`));
      }
    }, 100);
  });
  return {
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    stop: async () => {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

describe.skipIf(testDb === 'postgres')('npm run backup / restore (commands, with a real server)', () => {
  it('refuses while the server runs, backs up once it stopped, and a server on the restored copy has it all', async () => {
    const source = path.join(root, 'live');
    const archive = path.join(root, 'live.tar.gz');
    const port = await freePort();
    const server = await startServer(source, port);
    let token = '';
    let logo = '';
    let hopeHarbor = 0;
    try {
      // A second server on the same embedded database is refused too.
      const twin = await npmRun(['server'], {
        DATA_DIR: source,
        PORT: String(await freePort()),
        HOST: '127.0.0.1',
      });
      expect(twin.code).toBe(1);
      expect(twin.output).toMatch(/is in use by the server \(process \d+/);

      const login = await fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@twofold.test', password: 'twofold-demo' }),
      });
      const signedIn = (await login.json()) as {
        access_token: string;
        me: { orgs: Array<{ id: number; name: string }> };
      };
      token = signedIn.access_token;
      hopeHarbor = signedIn.me.orgs.find((org) => org.name === 'Hope Harbor Foundation')?.id ?? 0;
      expect(hopeHarbor).toBeGreaterThan(0);
      const form = new FormData();
      form.set('file', new File([png], 'logo.png'));
      form.set('name', 'logo');
      form.set('type', 'logo');
      const uploaded = await fetch(`${server.url}/api/organization/${hopeHarbor}/upload`, {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(uploaded.status).toBe(200);
      logo = ((await uploaded.json()) as { file_logo: string }).file_logo;

      const refused = await npmRun(['backup', '--', '--out', archive], { DATA_DIR: source });
      expect(refused.code).toBe(1);
      expect(refused.output).toMatch(/in use by the server \(process \d+.*stop it first/);
      expect(existsSync(archive)).toBe(false);
    } finally {
      await server.stop();
    }

    const made = await npmRun(['backup', '--', '--out', archive], { DATA_DIR: source });
    expect(made.output).toMatch(/Backed up .* \(\d+ bytes: the database, 1 uploaded files, the JWT secret\)/);
    expect(made.code).toBe(0);

    const target = path.join(root, 'live-restored');
    const restored = await npmRun(['restore', '--', archive], { DATA_DIR: target });
    expect(restored.code).toBe(0);
    const again = await npmRun(['restore', '--', archive], { DATA_DIR: target });
    expect(again.code).toBe(1);
    expect(again.output).toMatch(/already holds data.*--force/);
    const forced = await npmRun(['restore', '--', archive, '--force'], { DATA_DIR: target });
    expect(forced.code).toBe(0);
    expect(forced.output).toMatch(/moved to .*live-restored\.before-restore-/);

    const postgres = await npmRun(['backup'], {
      DATA_DIR: source,
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/x',
    });
    expect(postgres.code).toBe(1);
    expect(postgres.output).toMatch(/DATABASE_URL is set.*pg_dump/);

    const copy = await startServer(target, await freePort());
    try {
      const served = await fetch(`${copy.url}${logo}`);
      expect(served.status).toBe(200);
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(png);
      // The restored JWT secret accepts the session signed before the backup.
      const org = await fetch(`${copy.url}/api/organization/${hopeHarbor}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(org.status).toBe(200);
    } finally {
      await copy.stop();
    }
  }, 180_000);
});

/** A loopback port nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

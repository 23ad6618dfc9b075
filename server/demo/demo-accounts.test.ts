/**
 * Issue #29: data first served on loopback (demo users seeded, published password) and then
 * exposed with HOST=0.0.0.0 must not open the super user to anyone who reaches the port. Real
 * `server/main.ts` processes, on PGlite (DATA_DIR) or PostgreSQL (DATABASE_URL) by TEST_DB.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { type Database, openDatabase } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { seedDemo } from '../db/seed.ts';
import { memoryLogger } from '../http/logger.ts';
import { hashPassword } from '../modules/auth/passwords.ts';
import { call } from '../test-helpers.ts';
import { createTestDatabase, type TestDatabase, testDb } from '../testing.ts';
import { demoPasswordAccounts, disarmCommand } from './demo-accounts.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = mkdtempSync(path.join(tmpdir(), 'twofold-demo-disarm-'));
let testDatabase: TestDatabase | undefined;
let databaseUrl: string | undefined;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

const baseEnv = () => ({
  ...process.env,
  DATA_DIR: dataDir,
  DATABASE_URL: databaseUrl ?? '',
  JWT_SECRET: 'demo-disarm-test-secret-long-enough-for-hs256',
  LOG_REQUESTS: 'false',
  SMTP_URL: '',
  SEED_DEMO: '',
  NODE_ENV: 'production',
});

/** Starts main.ts; resolves when it listens (then stops it) or exits on its own. */
async function start(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const port = await freePort();
  const output: string[] = [];
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'server', 'main.ts')],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...baseEnv(), PORT: String(port), PUBLIC_URL: `http://localhost:${port}`, ...env },
    },
  );
  child.stdout?.on('data', (d: Buffer) => output.push(d.toString('utf8')));
  child.stderr?.on('data', (d: Buffer) => output.push(d.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const running = (async () => {
    while (child.exitCode === null) {
      if (output.join('').includes('Twofold is running')) return true;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return false;
  })();
  if (await running) {
    child.kill('SIGTERM');
    await exited;
    return { code: null, output: output.join('') };
  }
  return { code: await exited, output: output.join('') };
}

async function openData(): Promise<Database> {
  return testDatabase ? testDatabase.open() : openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
}

/** A sign-in against the data, as an exposed server would answer it. */
async function login(email: string, password = 'twofold-demo') {
  const database = await openData();
  try {
    const config = { ...loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(40) }), logRequests: false };
    const { app } = createApp({ config, db: database.db, logger: memoryLogger() });
    return (await call(app, 'POST', '/api/auth/login', { body: { email, password } })).status;
  } finally {
    await database.close();
  }
}

beforeAll(async () => {
  if (testDb === 'postgres') {
    testDatabase = await createTestDatabase();
    databaseUrl = testDatabase.url;
  }
  // What a first `npm start` on loopback leaves: migrated, demo users seeded.
  const database = await openData();
  try {
    await database.migrate();
    await seedDemo(database.db);
    // A demo user renamed to a real-looking address still has the demo password: caught by hash.
    await database.db
      .update(users)
      .set({ email: 'renamed@hopeharbor.example.org' })
      .where(eq(users.email, 'reader@twofold.test'));
    // A real user with their own password is left alone.
    await database.db
      .insert(users)
      .values({ email: 'real@hopeharbor.example.org', password_hash: await hashPassword('a real secret') });
  } finally {
    await database.close();
  }
}, 60_000);

afterAll(async () => {
  await testDatabase?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('an exposed start on data that still has demo-password accounts', () => {
  it('finds them by their password hash, not their email', async () => {
    const database = await openData();
    try {
      const emails = (await demoPasswordAccounts(database.db)).map((a) => a.email).sort();
      expect(emails).toEqual([
        'admin@twofold.test',
        'renamed@hopeharbor.example.org',
        'super@twofold.test',
        'writer@twofold.test',
      ]);
    } finally {
      await database.close();
    }
  }, 30_000);

  it('refuses to start, naming the accounts and the command that disarms them', async () => {
    const refused = await start({ HOST: '0.0.0.0' });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('super@twofold.test');
    expect(refused.output).toContain('renamed@hopeharbor.example.org');
    expect(refused.output).not.toContain('real@hopeharbor.example.org');
    expect(refused.output).toContain(disarmCommand);
    expect(refused.output).not.toContain('Twofold is running');
  }, 60_000);

  it('starts on loopback as before, and exposed when SEED_DEMO=true asks for the demo', async () => {
    expect((await start({ HOST: '127.0.0.1' })).output).toContain('Twofold is running');
    const demo = await start({ HOST: '0.0.0.0', SEED_DEMO: 'true' });
    expect(demo.output).toContain('Twofold is running');
    expect(demo.output).toContain('SEED_DEMO=true on 0.0.0.0');
  }, 120_000);

  it('starts exposed after npm run demo:disarm, and the demo passwords no longer sign in', async () => {
    expect(await login('super@twofold.test')).toBe(200);
    const disarm = spawnSync('npm', ['run', '--silent', 'demo:disarm'], {
      cwd: root,
      env: baseEnv(),
      encoding: 'utf8',
    });
    expect(disarm.status, disarm.stderr).toBe(0);
    expect(disarm.stdout).toContain('super@twofold.test');

    const exposed = await start({ HOST: '0.0.0.0' });
    expect(exposed.output).toContain('Twofold is running');
    for (const email of ['super@twofold.test', 'admin@twofold.test', 'renamed@hopeharbor.example.org'])
      expect(await login(email)).toBe(401);
    expect(await login('real@hopeharbor.example.org', 'a real secret')).toBe(200);
    const database = await openData();
    try {
      const [former] = await database.db.select().from(users).where(eq(users.email, 'super@twofold.test'));
      expect(former).toMatchObject({ password_hash: null, global_permission: false });
    } finally {
      await database.close();
    }
  }, 120_000);
});

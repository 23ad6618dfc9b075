import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createApp } from './app.ts';
import type { Clock } from './clock.ts';
import { type Config, loadConfig } from './config.ts';
import { type Database, migrationsFolder, openDatabase } from './db/client.ts';
import { seedDemo } from './db/seed.ts';
import { memoryLogger } from './http/logger.ts';
import type { AnyRoute } from './http/route.ts';
import { afterCommitSettled } from './jobs/after-commit.ts';

/** Test database kind: TEST_DB=pglite (default) or TEST_DB=postgres (on DATABASE_URL). */
export const testDb = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';
const postgresUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh, empty database for one test file, and a way to open it again (a "restart"). */
export type TestDatabase = {
  kind: 'pglite' | 'postgres';
  /** PostgreSQL only: the database's URL, for server processes a test starts. */
  url?: string;
  /** Persistent PGlite only: its data directory, for a child process a test starts. */
  dir?: string;
  open: () => Promise<Database>;
  drop: () => Promise<void>;
};

/**
 * A throwaway PostgreSQL database with a random name, or PGlite: in memory, or in a temporary
 * directory when the test needs to close and reopen it (`persistent`). PostgreSQL databases and
 * `empty` or `persistent` PGlite ones start empty; other PGlite ones start migrated and seeded.
 */
export async function createTestDatabase(
  options: { persistent?: boolean; empty?: boolean } = {},
): Promise<TestDatabase> {
  if (testDb === 'postgres') {
    const name = `twofold_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(postgresUrl);
    url.pathname = `/${name}`;
    return {
      kind: 'postgres',
      url: url.toString(),
      open: () => openDatabase({ databaseUrl: url.toString() }),
      drop: async () => {
        const client = new pg.Client({ connectionString: postgresUrl });
        await client.connect();
        await client.query(`drop database if exists ${name} with (force)`);
        await client.end();
      },
    };
  }
  if (options.empty && !options.persistent) {
    return { kind: 'pglite', open: () => openDatabase({}), drop: async () => {} };
  }
  if (!options.persistent) {
    const archive = await pgliteTemplate();
    return { kind: 'pglite', open: () => openDatabase({ pgliteArchive: archive }), drop: async () => {} };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'twofold-pglite-'));
  return {
    kind: 'pglite',
    dir,
    open: () => openDatabase({ pgliteDir: dir }),
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

let template: Promise<Blob> | undefined;

/**
 * PGlite's initdb takes seconds; a migrated, seeded database archive starts in under one. The
 * archive is cached in the temp directory under a hash of everything that shapes it (migrations,
 * seed, PGlite version), so a schema change makes a new one.
 */
export function pgliteTemplate(): Promise<Blob> {
  template ??= (async () => {
    const hash = createHash('sha256');
    for (const file of readdirSync(migrationsFolder, { recursive: true }).map(String).sort()) {
      const full = path.join(migrationsFolder, file);
      if (statSync(full).isFile()) hash.update(file).update(readFileSync(full));
    }
    const here = path.dirname(fileURLToPath(import.meta.url));
    hash.update(readFileSync(path.join(here, 'db', 'seed.ts')));
    hash.update(readFileSync(path.join(here, 'db', 'seed-companies.ts')));
    hash.update(
      readFileSync(path.join(here, '..', 'node_modules', '@electric-sql', 'pglite', 'package.json')),
    );
    const file = path.join(tmpdir(), `twofold-pglite-template-${hash.digest('hex').slice(0, 16)}.tar`);
    if (existsSync(file)) return new Blob([readFileSync(file)]);
    const database = await openDatabase({});
    await database.migrate();
    await seedDemo(database.db);
    const archive = await (database.dumpDataDir?.() ?? Promise.reject(new Error('PGlite cannot dump')));
    await database.close();
    // Written aside and renamed, so a parallel test file never reads half an archive.
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(partial, Buffer.from(await archive.arrayBuffer()));
    renameSync(partial, file);
    return archive;
  })();
  return template;
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  const base = loadConfig({
    JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing',
    DATA_DIR: path.join(tmpdir(), 'twofold-test-data'),
    PUBLIC_URL: 'http://portal.test',
    LOG_REQUESTS: 'true',
    // High enough that only the rate-limit tests (which lower them) ever meet a limit.
    RATE_LIMIT_PER_IP: '10000',
    RATE_LIMIT_PER_EMAIL: '10000',
    LOGIN_CAPTCHA_AFTER: '10000',
  });
  return { ...base, ...overrides, rateLimit: { ...base.rateLimit, ...overrides.rateLimit } };
}

export type TestContext = Awaited<ReturnType<typeof createTestContext>>;

/**
 * A migrated, demo-seeded database and the app on it, for one test file. `close()` releases and
 * deletes the database.
 */
export async function createTestContext(
  options: { config?: Partial<Config>; routes?: readonly AnyRoute[]; distDir?: string; clock?: Clock } = {},
) {
  const testDatabase = await createTestDatabase();
  const database = await testDatabase.open();
  await database.migrate();
  await seedDemo(database.db);
  const config = testConfig(options.config);
  const logger = memoryLogger();
  const { app, routes, storage } = createApp({
    config,
    db: database.db,
    logger,
    ...(options.routes ? { routes: options.routes } : {}),
    ...(options.distDir ? { distDir: options.distDir } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  return {
    app,
    routes,
    storage,
    db: database.db,
    config,
    logger,
    database,
    /** PostgreSQL only: the database's URL (a server process or thread a test starts opens it). */
    url: testDatabase.url,
    close: async () => {
      // An import's emails may still be rendering in the background.
      await afterCommitSettled(database.db);
      await database.close();
      await testDatabase.drop();
    },
  };
}

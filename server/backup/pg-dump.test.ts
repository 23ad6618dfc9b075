import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import { openDatabase } from '../db/client.ts';
import { queryRows } from '../db/rows.ts';
import { seedDemo } from '../db/seed.ts';
import { seedDemoMatches } from '../db/seed-matches.ts';
import { memoryLogger } from '../http/logger.ts';
import { memoryStorage } from '../storage/storage.ts';
import { call, signIn } from '../test-helpers.ts';
import { testConfig, testDb } from '../testing.ts';

const run = promisify(execFile);
const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const created: string[] = [];
const folder = mkdtempSync(path.join(tmpdir(), 'twofold-pgdump-'));

async function admin(statement: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function newDatabase(): Promise<string> {
  const name = `twofold_dump_${randomBytes(6).toString('hex')}`;
  await admin(`create database ${name}`);
  created.push(name);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

afterAll(async () => {
  for (const name of created) await admin(`drop database if exists ${name} with (force)`);
  rmSync(folder, { recursive: true, force: true });
});

const tables = [
  'users',
  'organizations',
  'permissions',
  'donations',
  'outbox',
  'bills',
  'companies',
  'donors',
];

async function snapshot(db: Awaited<ReturnType<typeof openDatabase>>['db']) {
  const rows: Record<string, unknown> = {};
  for (const table of tables) {
    rows[table] = await queryRows(db, sql.raw(`select * from ${table} order by id`));
  }
  rows.sequences = await queryRows(
    db,
    sql`select sequencename, last_value from pg_sequences order by sequencename`,
  );
  rows.migrations = await queryRows(db, sql`select hash from drizzle.__drizzle_migrations order by id`);
  return rows;
}

// The README's PostgreSQL backup, as written there: pg_dump --format=custom, then pg_restore
// --no-owner into a new, empty database.
describe.runIf(testDb === 'postgres')('PostgreSQL backup with pg_dump / pg_restore (README)', () => {
  it('restores every row, the sequences and the migration history, and the restored database serves', async () => {
    const sourceUrl = await newDatabase();
    const source = await openDatabase({ databaseUrl: sourceUrl });
    await source.migrate();
    await seedDemo(source.db);
    await seedDemoMatches(source.db);
    const before = await snapshot(source.db);
    await source.close();
    expect((before.donations as unknown[]).length).toBeGreaterThan(0);

    const dump = path.join(folder, 'twofold.dump');
    await run('pg_dump', ['--format=custom', `--file=${dump}`, sourceUrl]);
    const targetUrl = await newDatabase();
    await run('pg_restore', ['--no-owner', `--dbname=${targetUrl}`, dump]);

    const target = await openDatabase({ databaseUrl: targetUrl });
    try {
      // Nothing left to apply: the restored history matches this version's migrations.
      await target.migrate();
      expect(await snapshot(target.db)).toEqual(before);
      const { app } = createApp({
        config: testConfig(),
        db: target.db,
        storage: memoryStorage(),
        logger: memoryLogger(),
      });
      const token = await signIn(app, 'admin@twofold.test');
      const orgs = await call(app, 'GET', '/api/search/organization?term=Hope', { token });
      expect(orgs.status).toBe(200);
      expect(orgs.json.organizations.map((org: { name: string }) => org.name)).toContain(
        'Hope Harbor Foundation',
      );
    } finally {
      await target.close();
    }
  }, 120_000);
});

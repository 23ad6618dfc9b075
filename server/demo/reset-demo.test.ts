import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.ts';
import { DataDirInUseError, lockFileName } from '../db/data-dir-lock.ts';
import { auditEvents, donations, organizations } from '../db/schema.ts';
import { recordAudit } from '../modules/audit/audit.ts';
import { testDb } from '../testing.ts';
import { ResetDemoError, resetDemo } from './reset-demo.ts';

const dataDir = mkdtempSync(path.join(tmpdir(), 'twofold-reset-demo-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function counts() {
  const database = await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
  try {
    const [orgs] = await database.db.select({ n: count() }).from(organizations);
    const [matches] = await database.db.select({ n: count() }).from(donations);
    const [entries] = await database.db.select({ n: count() }).from(auditEvents);
    return { organizations: orgs?.n ?? 0, matches: matches?.n ?? 0, audit: entries?.n ?? 0, db: database };
  } catch (error) {
    await database.close();
    throw error;
  }
}

describe('npm run reset-demo', () => {
  it.skipIf(testDb === 'postgres')(
    'puts the embedded database and uploads back to the seeded demo, keeping the JWT secret',
    async () => {
      writeFileSync(path.join(dataDir, 'jwt-secret'), 'a-secret-that-stays-the-same-after-reset');
      await resetDemo({ dataDir, databaseUrl: undefined });
      const fresh = await counts();
      expect(fresh.organizations).toBeGreaterThan(0);
      expect(fresh.matches).toBeGreaterThan(0);
      // A day of use: a new organization, and an uploaded file.
      await fresh.db.db.insert(organizations).values({ name: 'Added After The Demo' });
      // And an audit entry, which nothing may delete: the reset starts a new database instead.
      expect(fresh.audit).toBeGreaterThan(0);
      await recordAudit(fresh.db.db, {
        kind: 'webhook.created',
        organizationId: null,
        actor: { kind: 'system' },
        summary: 'made after the demo',
      });
      await fresh.db.close();
      mkdirSync(path.join(dataDir, 'files'), { recursive: true });
      writeFileSync(path.join(dataDir, 'files', 'logo.png'), 'png');

      await resetDemo({ dataDir, databaseUrl: undefined });
      const again = await counts();
      await again.db.close();
      expect(again).toMatchObject({
        organizations: fresh.organizations,
        matches: fresh.matches,
        audit: fresh.audit,
      });
      expect(existsSync(path.join(dataDir, 'files', 'logo.png'))).toBe(false);
      expect(readFileSync(path.join(dataDir, 'jwt-secret'), 'utf8')).toBe(
        'a-secret-that-stays-the-same-after-reset',
      );
      expect(existsSync(path.join(dataDir, lockFileName))).toBe(false);
    },
    120_000,
  );

  it('refuses while a server holds the data directory, changing nothing', async () => {
    const busy = mkdtempSync(path.join(tmpdir(), 'twofold-reset-busy-'));
    try {
      mkdirSync(path.join(busy, 'files'), { recursive: true });
      writeFileSync(path.join(busy, 'files', 'kept.pdf'), 'pdf');
      // The test runner's parent process stands in for a running server.
      writeFileSync(
        path.join(busy, lockFileName),
        JSON.stringify({ pid: process.ppid, purpose: 'the server', since: new Date().toISOString() }),
      );
      await expect(resetDemo({ dataDir: busy, databaseUrl: undefined })).rejects.toBeInstanceOf(
        DataDirInUseError,
      );
      expect(existsSync(path.join(busy, 'files', 'kept.pdf'))).toBe(true);
    } finally {
      rmSync(busy, { recursive: true, force: true });
    }
  });

  it('refuses a PostgreSQL deployment, saying what to do instead', async () => {
    await expect(
      resetDemo({ dataDir, databaseUrl: 'postgres://postgres@127.0.0.1:5432/test' }),
    ).rejects.toThrow(ResetDemoError);
  });
});

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { type ExtractTablesWithRelations, sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { currentRequestId } from '../observability/context.ts';
import { registerPoolStats } from './pool-stats.ts';
import * as schema from './schema.ts';
import { Turns, takingTurns } from './turns.ts';

export type Schema = typeof schema;

/**
 * The one database type every service uses, whichever driver is underneath (PGlite or
 * node-postgres): both are drizzle's PostgreSQL database.
 */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** A database or a transaction: what a service function that only queries accepts. */
export type Queryable = Db | Tx;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Applies the generated migrations (idempotent). */
  migrate: () => Promise<void>;
  /**
   * Runs `fn` while holding a database-wide lock (a PostgreSQL session advisory lock), so
   * processes starting together migrate and seed one after the other. PGlite has one process.
   */
  exclusive: <T>(fn: () => Promise<T>) => Promise<T>;
  /** PGlite only: an archive of the whole database, to start copies from (tests). */
  dumpDataDir?: () => Promise<Blob>;
  close: () => Promise<void>;
};

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** The advisory lock key that serializes migrating and seeding across starting processes. */
const startupLock = 7_305_126_000;

export type DatabaseOptions = {
  /** A postgres:// URL; without one, PGlite is used. */
  databaseUrl?: string | undefined;
  /** PGlite's data directory; without one, PGlite keeps everything in memory (tests). */
  pgliteDir?: string | undefined;
  /** A PGlite data directory archive (from `dumpDataDir`) to start from instead of initdb. */
  pgliteArchive?: Blob | undefined;
};

/** Opens PostgreSQL (when a URL is given) or the embedded PGlite database. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle client losing its connection must not crash the process; the pool replaces it.
    pool.on('error', () => {});
    const db = drizzleNodePg(pool, { schema });
    stampRequestIds(db as unknown as Db);
    registerPoolStats(db as unknown as Db, () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: pool.options.max ?? 10,
    }));
    return {
      db: db as unknown as Db,
      kind: 'postgres',
      migrate: () => migrateNodePg(db, { migrationsFolder }),
      exclusive: async (fn) => {
        const client = await pool.connect();
        try {
          await client.query('select pg_advisory_lock($1::bigint)', [startupLock]);
          try {
            return await fn();
          } finally {
            await client.query('select pg_advisory_unlock($1::bigint)', [startupLock]);
          }
        } finally {
          client.release();
        }
      },
      close: () => pool.end(),
    };
  }
  if (options.pgliteDir) mkdirSync(options.pgliteDir, { recursive: true });
  const client = new PGlite({
    ...(options.pgliteDir ? { dataDir: options.pgliteDir } : {}),
    ...(options.pgliteArchive ? { loadDataDir: options.pgliteArchive } : {}),
    // The trigram indexes of the list's 'contains' filters (a migration creates the extension).
    extensions: { pg_trgm },
  });
  await client.waitReady;
  // PGlite works in this thread: its statements take turns with each other and with the event
  // loop (see turns.ts), and so do the archive and closing, after the work already queued.
  const turns = new Turns();
  const db = drizzlePglite({ client: takingTurns(client, turns) as PGlite, schema });
  stampRequestIds(db as unknown as Db);
  registerPoolStats(db as unknown as Db, () => ({
    total: 1,
    idle: turns.busy ? 0 : 1,
    waiting: turns.waiting,
    max: 1,
  }));
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    migrate: () => migratePglite(db, { migrationsFolder }),
    exclusive: (fn) => fn(),
    dumpDataDir: () => turns.take(async () => (await client.dumpDataDir('none')) as Blob),
    close: () => turns.take(() => client.close()),
  };
}

/**
 * A transaction begun while a request is handled (or a job it caused is worked) first sets
 * `twofold.request_id` for itself (set_config's local form: gone at commit), so every job row it
 * queues (outbox, webhook deliveries, queued donor emails, employer screenings) records the
 * request by its column default, whichever module inserts it and however (one row or unnest).
 */
function stampRequestIds(db: Db): void {
  const begin = db.transaction.bind(db);
  db.transaction = ((work: (tx: Tx) => Promise<unknown>, config?: Parameters<Db['transaction']>[1]) =>
    begin(async (tx) => {
      const requestId = currentRequestId();
      if (requestId !== undefined)
        await tx.execute(sql`select set_config(${schema.requestIdSetting}, ${requestId}, true)`);
      return work(tx);
    }, config)) as Db['transaction'];
}

/** The database the server's config names: PostgreSQL when DATABASE_URL is set, else PGlite on disk. */
export function openConfiguredDatabase(config: { databaseUrl: string | undefined; dataDir: string }) {
  return openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pglite') });
}

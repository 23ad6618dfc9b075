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
import { pgliteWakeups, postgresWakeups, type Wakeups } from '../jobs/wakeups.ts';
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
  /**
   * Wake-ups of the job workers when work is committed (LISTEN/NOTIFY): a dedicated, reconnecting
   * connection on PostgreSQL, PGlite's own notifications in process.
   */
  wakeups: Wakeups;
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

/**
 * The server's PostgreSQL session settings, unless DATABASE_URL sets `options` itself: no
 * parallel workers for a query. Twofold's queries are an organization's pages and totals, each a
 * few milliseconds of work; a parallel plan costs more to start its workers than it saves (the
 * statistics of a large organization at 10,000,000 matches: 32 ms parallel, 16 ms not), and on a
 * shared service it lets one organization's query take the cores another's request waits for
 * (issue #26). `npm run bench:scale` runs with the same settings.
 */
export function poolSettings(databaseUrl: string): { options?: string } {
  return /[?&]options=/.test(databaseUrl) ? {} : { options: '-c max_parallel_workers_per_gather=0' };
}

/** Opens PostgreSQL (when a URL is given) or the embedded PGlite database. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      ...poolSettings(options.databaseUrl),
    });
    // An idle client losing its connection must not crash the process; the pool replaces it.
    pool.on('error', () => {});
    const db = drizzleNodePg(pool, { schema });
    // Each attempt of a retried transaction is stamped with the request id again.
    stampRequestIds(db as unknown as Db);
    retryConflicts(db as unknown as Db);
    registerPoolStats(db as unknown as Db, () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: pool.options.max ?? 10,
    }));
    const wakeups = postgresWakeups({ connectionString: options.databaseUrl });
    return {
      db: db as unknown as Db,
      kind: 'postgres',
      wakeups,
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
      close: async () => {
        await wakeups.close();
        await pool.end();
      },
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
    wakeups: pgliteWakeups(client),
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

/** SQLSTATEs PostgreSQL asks applications to retry: deadlock_detected, serialization_failure. */
const retryableStates = new Set(['40P01', '40001']);
const maxAttempts = 5;

/** The SQLSTATE of a database error, through drizzle's wrapping (`cause`). */
export function sqlState(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Two transactions that take the same rows in different orders (an import's statements and a
 * bulk verify both move an organization's status totals, donation_status_totals) can deadlock;
 * PostgreSQL then aborts one of them and asks the application to run it again. Every outermost
 * transaction on PostgreSQL is retried a few times on a deadlock or serialization failure, after
 * a short random wait, so the caller sees the success instead of a 500. A transaction's callback
 * must therefore be safe to run again: database work only, side effects after the commit (the
 * outbox, `afterCommit`) — as every callback here already is. PGlite is one connection and never
 * deadlocks. Found by `npm run test:cluster` (a bulk verify during an import answered 500).
 */
function retryConflicts(db: Db): void {
  const transaction = db.transaction.bind(db);
  db.transaction = (async (...args: Parameters<Db['transaction']>) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await transaction(...args);
      } catch (error) {
        const state = sqlState(error);
        if (attempt >= maxAttempts || state === undefined || !retryableStates.has(state)) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
      }
    }
  }) as Db['transaction'];
}

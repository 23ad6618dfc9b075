/** What the benchmarks share: where their PostgreSQL is, the app on it, and how to print figures. */
import { tmpdir } from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { createApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { type Db, migrationsFolder, poolSettings } from '../server/db/client.ts';
import * as schema from '../server/db/schema.ts';
import { memoryLogger } from '../server/http/logger.ts';

/** The server (without a database name): BENCH_DATABASE_URL, or the local PostgreSQL. */
export function serverUrl(): string {
  return (process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432').replace(/\/+$/, '');
}

export function benchDatabaseUrl(database: string): string {
  return `${serverUrl()}/${database}`;
}

/** The p-th percentile (0–100) of a list of milliseconds, nearest rank. */
export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

export const ms = (n: number) => `${n.toFixed(1)} ms`;
export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** A statement the app sent, to replay the same SQL directly beside it. */
export type CapturedStatement = { query: string; params: unknown[] };

/**
 * The app in-process on a bench database (migrated to the newest schema), with a pool for direct
 * SQL and a switch that records every statement the app sends while it is on.
 */
export async function openBenchApp(database: string, options: { renderThread?: boolean } = {}) {
  const pool = new pg.Pool({
    connectionString: benchDatabaseUrl(database),
    max: 10,
    ...poolSettings(benchDatabaseUrl(database)),
  });
  const capture: { on: boolean; statements: CapturedStatement[] } = { on: false, statements: [] };
  const db = drizzle(pool, {
    schema,
    logger: {
      logQuery(query, params) {
        if (capture.on) capture.statements.push({ query, params });
      },
    },
  }) as unknown as Db;
  // A database generated before the newest migrations gets them (idempotent).
  await migrate(db as unknown as Parameters<typeof migrate>[0], { migrationsFolder });
  // With its DATABASE_URL, as a server on PostgreSQL runs: an import's emails render in the
  // render thread (server/modules/templates/render-thread.ts), unless `renderThread: false`.
  const url = options.renderThread === false ? undefined : benchDatabaseUrl(database);
  const { app } = createApp({ config: benchConfig(url), db, logger: memoryLogger() });
  return { pool, db, app, capture };
}

/** The app's configuration in the benchmarks (no rate limits in the way). */
export function benchConfig(databaseUrl?: string) {
  return loadConfig({
    DATABASE_URL: databaseUrl,
    JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256-signing',
    DATA_DIR: path.join(tmpdir(), 'twofold-bench-data'),
    PUBLIC_URL: 'http://portal.bench',
    RATE_LIMIT_PER_IP: '1000000',
    RATE_LIMIT_PER_EMAIL: '1000000',
  });
}

import type { Db } from './client.ts';

/** A database's connections as the metrics show them. */
export type PoolStats = {
  /** Connections open. */
  total: number;
  /** Connections open and not in use. */
  idle: number;
  /** Queries waiting for a connection (PGlite: statements waiting for their turn). */
  waiting: number;
  /** The most connections it opens. */
  max: number;
};

const sources = new WeakMap<object, () => PoolStats>();

/** Called by openDatabase: how to read this database's pool. */
export function registerPoolStats(db: Db, read: () => PoolStats): void {
  sources.set(db, read);
}

/** The pool of a database opened by openDatabase (undefined for one made elsewhere). */
export function poolStats(db: Db): (() => PoolStats) | undefined {
  return sources.get(db);
}

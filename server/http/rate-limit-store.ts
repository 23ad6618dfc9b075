import { createHash } from 'node:crypto';
import { eq, lt, sql } from 'drizzle-orm';
import type { ClientRateLimitInfo, Store } from 'hono-rate-limiter';
import type { Db } from '../db/client.ts';
import { rateLimitHits } from '../db/schema.ts';
import type { AppEnv } from './route.ts';

/**
 * hono-rate-limiter's store in the database (the UNLOGGED `rate_limit_hits` table), so a limit
 * holds across every server process on one PostgreSQL (and works the same on PGlite). A fixed
 * window per key: the first hit opens it, hits count until `reset_at`, the next hit after that
 * starts a new one. Each count is one atomic upsert on the database's clock, so concurrent hits
 * from several processes are all counted and no process's clock matters. Keys are stored as
 * their SHA-256: they hold emails and addresses (kept out of the table) of any length (an index
 * entry has a size limit).
 */
export class DatabaseStore implements Store<AppEnv> {
  readonly localKeys = false;
  private windowMs = 60_000;
  private lastSweep = 0;

  constructor(
    private readonly db: Db,
    readonly prefix = '',
  ) {}

  init(options: { windowMs: number }): void {
    this.windowMs = options.windowMs;
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const [row] = await this.db
      .select({ hits: rateLimitHits.hits, reset_at: rateLimitHits.reset_at })
      .from(rateLimitHits)
      .where(sql`${rateLimitHits.key} = ${this.rowKey(key)} and ${rateLimitHits.reset_at} > now()`);
    return row ? { totalHits: row.hits, resetTime: row.reset_at } : undefined;
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    await this.sweep();
    const window = sql`now() + make_interval(secs => ${this.windowMs / 1000})`;
    const expired = sql`${rateLimitHits.reset_at} <= now()`;
    const [row] = await this.db
      .insert(rateLimitHits)
      .values({ key: this.rowKey(key), hits: 1, reset_at: window })
      .onConflictDoUpdate({
        target: rateLimitHits.key,
        set: {
          hits: sql`case when ${expired} then 1 else ${rateLimitHits.hits} + 1 end`,
          reset_at: sql`case when ${expired} then excluded.reset_at else ${rateLimitHits.reset_at} end`,
        },
      })
      .returning({ hits: rateLimitHits.hits, reset_at: rateLimitHits.reset_at });
    if (!row) throw new Error('rate limit upsert returned no row');
    return { totalHits: row.hits, resetTime: row.reset_at };
  }

  async decrement(key: string): Promise<void> {
    await this.db
      .update(rateLimitHits)
      .set({ hits: sql`greatest(${rateLimitHits.hits} - 1, 0)` })
      .where(sql`${rateLimitHits.key} = ${this.rowKey(key)} and ${rateLimitHits.reset_at} > now()`);
  }

  async resetKey(key: string): Promise<void> {
    await this.db.delete(rateLimitHits).where(eq(rateLimitHits.key, this.rowKey(key)));
  }

  private rowKey(key: string): string {
    return createHash('sha256')
      .update(this.prefix + key)
      .digest('base64url');
  }

  /** Drops windows that are over, at most once per window length (per process). */
  private async sweep(): Promise<void> {
    const now = Date.now();
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    await this.db.delete(rateLimitHits).where(lt(rateLimitHits.reset_at, sql`now() - interval '1 minute'`));
  }
}

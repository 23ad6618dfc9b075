import { lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { idempotencyKeys, oneTimeTokens } from '../db/schema.ts';
import type { Logger } from '../http/logger.ts';
import { idempotencyLifetimeMs } from '../modules/public-api/public-api.service.ts';
import { type PollingLoop, pollingLoop } from './polling-loop.ts';

/**
 * How long a spent one-time token is kept after it expired or was used: long enough that a donor
 * or staff member opening an old link is told it expired or was used (not "unknown"), short
 * enough that the table does not grow for ever.
 */
export const spentTokenRetentionMs = 30 * 24 * 60 * 60 * 1000;

/** Rows removed by one housekeeping round, by table. */
export type HousekeepingResult = { idempotencyKeys: number; oneTimeTokens: number };

/**
 * Deletes what no request can use any more: public API idempotency answers past their 24 hours
 * (a retry after that creates a new match anyway) and one-time tokens spent or expired more than
 * 30 days ago. Rate-limit windows and used captchas sweep themselves as they are written.
 */
export async function houseKeep(db: Db, now: Date): Promise<HousekeepingResult> {
  const keys = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.created_at, new Date(now.getTime() - idempotencyLifetimeMs)))
    .returning({ id: idempotencyKeys.id });
  const spentBefore = new Date(now.getTime() - spentTokenRetentionMs);
  const tokens = await db
    .delete(oneTimeTokens)
    .where(
      or(
        lt(oneTimeTokens.expires_at, spentBefore),
        sql`${oneTimeTokens.used_at} is not null and ${oneTimeTokens.used_at} < ${spentBefore}`,
      ),
    )
    .returning({ id: oneTimeTokens.id });
  return { idempotencyKeys: keys.length, oneTimeTokens: tokens.length };
}

/** The hourly housekeeping loop of one process (several processes deleting the same rows is harmless). */
export function createHousekeeping(options: { db: Db; logger: Logger; pollMs?: number }): PollingLoop {
  return pollingLoop({
    name: 'housekeeping',
    pollMs: options.pollMs ?? 60 * 60 * 1000,
    logger: options.logger,
    round: async () => {
      const removed = await houseKeep(options.db, new Date());
      const total = removed.idempotencyKeys + removed.oneTimeTokens;
      if (total > 0) options.logger.info(`housekeeping removed ${total} spent rows`);
      return total;
    },
  });
}

import { lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { idempotencyKeys, oauthCodes, oauthTokens, oneTimeTokens } from '../db/schema.ts';
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
export type HousekeepingResult = { idempotencyKeys: number; oneTimeTokens: number; oauth: number };

/**
 * Deletes what no request can use any more: public API idempotency answers past their 24 hours
 * (a retry after that creates a new match anyway) and one-time tokens spent or expired more than
 * 30 days ago (partner apps' OAuth codes and tokens too). Rate-limit windows and used captchas sweep themselves as they are written.
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
  // Partner apps' codes and tokens (issue #25), 30 days past their expiry: until then a reused
  // code or refresh token is still recognised (and revokes its grant) rather than unknown.
  const codes = await db
    .delete(oauthCodes)
    .where(lt(oauthCodes.expires_at, spentBefore))
    .returning({ id: oauthCodes.id });
  const oauthSpent = await db
    .delete(oauthTokens)
    .where(lt(oauthTokens.expires_at, spentBefore))
    .returning({ id: oauthTokens.id });
  return {
    idempotencyKeys: keys.length,
    oneTimeTokens: tokens.length,
    oauth: codes.length + oauthSpent.length,
  };
}

/** The hourly housekeeping loop of one process (several processes deleting the same rows is harmless). */
export function createHousekeeping(options: { db: Db; logger: Logger; pollMs?: number }): PollingLoop {
  return pollingLoop({
    name: 'housekeeping',
    pollMs: options.pollMs ?? 60 * 60 * 1000,
    logger: options.logger,
    round: async () => {
      const removed = await houseKeep(options.db, new Date());
      const total = removed.idempotencyKeys + removed.oneTimeTokens + removed.oauth;
      if (total > 0) options.logger.info(`housekeeping removed ${total} spent rows`);
      return total;
    },
  });
}

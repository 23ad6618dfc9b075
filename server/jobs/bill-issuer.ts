import type { Db } from '../db/client.ts';
import type { Logger } from '../http/logger.ts';
import { issueBills } from '../modules/billing/bills.ts';

export type BillIssuer = { stop: () => void };

/**
 * Issues the month's bills once it is over (server/modules/billing/bills.ts): at start, then
 * every `intervalMs` (an hour). issueBills is idempotent and safe from several processes.
 */
export function startBillIssuer(options: { db: Db; logger: Logger; intervalMs?: number }): BillIssuer {
  const { db, logger, intervalMs = 60 * 60 * 1000 } = options;
  const run = async () => {
    try {
      const issued = await issueBills(db, new Date());
      if (issued.length > 0) logger.info(`bills issued: ${issued.length}`);
    } catch (error) {
      logger.error(`issuing bills failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  void run();
  const timer = setInterval(() => void run(), intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

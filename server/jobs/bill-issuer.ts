import type { Db } from '../db/client.ts';
import type { Logger } from '../http/logger.ts';
import { issueBills } from '../modules/billing/bills.ts';

export type BillIssuer = {
  /** Stops the hourly round and waits for the one in progress (graceful shutdown). */
  stop: () => Promise<void>;
};

/**
 * Issues the month's bills once it is over (server/modules/billing/bills.ts): at start, then
 * every `intervalMs` (an hour). Each process runs one; issueBills takes a transaction-scoped
 * advisory lock, so when several processes share the database one issues and the others skip.
 */
export function startBillIssuer(options: { db: Db; logger: Logger; intervalMs?: number }): BillIssuer {
  const { db, logger, intervalMs = 60 * 60 * 1000 } = options;
  let running: Promise<void> | undefined;
  let stopped = false;
  const run = async () => {
    try {
      const issued = await issueBills(db, new Date());
      if (issued.length > 0) logger.info(`bills issued: ${issued.length}`);
    } catch (error) {
      logger.error(`issuing bills failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const round = () => {
    if (stopped || running) return;
    running = run().finally(() => {
      running = undefined;
    });
  };
  round();
  const timer = setInterval(round, intervalMs);
  timer.unref();
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

import type { Logger } from '../http/logger.ts';
import { withWorkContext } from '../observability/context.ts';

/** A background job that runs a round every `pollMs` (mail, webhook deliveries, scheduled jobs). */
export type PollingLoop = {
  /** Polls from now on (again after a stop). */
  start: () => void;
  /** Stops polling and waits for the round in progress, so a shutdown loses nothing half-done. */
  stop: () => Promise<void>;
  /** One round now (tests, and the loop itself); a round already running is shared, never doubled. */
  runOnce: () => Promise<number>;
};

/**
 * The loop every worker runs: a round, then `pollMs` later the next, never two at once. A failed
 * round is logged (named) and the next one still comes. What a round claims, and how several
 * processes share the work (FOR UPDATE SKIP LOCKED), is the round's own business.
 */
export function pollingLoop(options: {
  name: string;
  pollMs: number;
  logger: Logger;
  round: () => Promise<number>;
}): PollingLoop {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = true;

  function runOnce(): Promise<number> {
    // A round belongs to no request, even when one asked for it: its jobs bring their own ids.
    running ??= withWorkContext({}, () => options.round()).finally(() => {
      running = undefined;
    });
    return running;
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => {
      runOnce()
        .catch((error: unknown) => options.logger.error(`${options.name} round failed`, error))
        .finally(schedule);
    }, options.pollMs);
  }

  return {
    start: () => {
      if (!stopped) return;
      stopped = false;
      schedule();
    },
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => 0);
    },
    runOnce,
  };
}

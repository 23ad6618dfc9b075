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
  /**
   * Work was committed (a LISTEN/NOTIFY wake-up, server/jobs/wakeups.ts): a round now, without
   * waiting for the poll. A wake during a round runs one more round right after it, so work
   * committed while a round was claiming is never left to the next poll. Ignored while stopped.
   */
  wake: () => void;
};

/**
 * The loop every worker runs: a round, then `pollMs` later the next, never two at once; a wake
 * brings the next round forward. A failed round is logged (named) and the next one still comes.
 * With `drain`, a round that found work is followed at once by another until one finds none (a
 * burst is sent at the rate the work allows, not a batch a poll). Polling stays the fallback: a
 * lost wake-up only costs a poll interval. What a round claims, and how several processes share
 * the work (FOR UPDATE SKIP LOCKED), is the round's own business.
 */
export function pollingLoop(options: {
  name: string;
  pollMs: number;
  logger: Logger;
  round: () => Promise<number>;
  drain?: boolean;
}): PollingLoop {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = true;
  /** A wake came while a round was running: run another when it ends. */
  let again = false;
  /** The loop's own chain of rounds (a poll, a wake, or a drain) is under way. */
  let looping = false;

  function runOnce(): Promise<number> {
    // A round belongs to no request, even when one asked for it: its jobs bring their own ids.
    running ??= withWorkContext({}, () => options.round()).finally(() => {
      running = undefined;
    });
    return running;
  }

  /** Rounds back to back while woken (or draining), then the next poll. */
  function cycle() {
    if (stopped || looping) return;
    looping = true;
    if (timer) clearTimeout(timer);
    timer = undefined;
    void (async () => {
      // A round someone else started (runOnce) may have claimed before the work was committed.
      if (running) await running.catch(() => 0);
      for (;;) {
        again = false;
        let found = 0;
        try {
          found = await runOnce();
        } catch (error) {
          options.logger.error(`${options.name} round failed`, error);
        }
        if (stopped) break;
        if (!again && !(options.drain && found > 0)) break;
      }
      looping = false;
      schedule();
    })();
  }

  function schedule() {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(cycle, options.pollMs);
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
    wake: () => {
      if (stopped) return;
      if (looping) again = true;
      else cycle();
    },
  };
}

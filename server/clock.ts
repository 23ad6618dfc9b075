/**
 * The one source of time for the donor-email workflow (reminders, deadlines, digests): the server
 * uses the system clock; tests hand in a manual one and walk a match through weeks in milliseconds.
 */
export type Clock = { now: () => Date };

export const systemClock: Clock = { now: () => new Date() };

/** A clock that moves only when told to. */
export type ManualClock = Clock & { set: (at: Date) => void; advance: (ms: number) => void };

export function manualClock(start: Date): ManualClock {
  let at = start.getTime();
  return {
    now: () => new Date(at),
    set: (to) => {
      at = to.getTime();
    },
    advance: (ms) => {
      at += ms;
    },
  };
}

export const dayMs = 24 * 60 * 60 * 1000;

import type { Db, Queryable } from '../../db/client.ts';

/**
 * How the donors of matches are emailed about their status, handed in by whoever records the
 * change (server/modules/notifications builds it: `matchNotifier`). Recording a match knows only
 * this shape, so the mail side depends on matches and never the reverse (issue #30).
 */
export type MatchNotifier = {
  /**
   * Emails the donors of these matches about their current status, in the change's transaction
   * (the notice commits with the change or not at all), or with `queue` records the emails to be
   * rendered after the commit (`renderQueued`). Answers the matches emailed.
   */
  notify(tx: Queryable, donationIds: readonly number[], options?: { queue?: boolean }): Promise<number[]>;
  /** Renders the queued emails into the outbox; run after the queuing transaction committed. */
  renderQueued(db: Db): Promise<number>;
};

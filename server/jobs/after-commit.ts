import type { Db } from '../db/client.ts';
import type { Logger } from '../http/logger.ts';

/**
 * Work a bulk write leaves for after its commit, so its caller does not wait for it: an import's
 * donor emails are rendered into the outbox (server/modules/templates/mail-queue.ts) and the
 * search indexes it grew are tidied (server/db/search-indexes.ts). Per database, tasks run one at
 * a time in the order they were started; a failure is logged and does not stop the next task.
 * Each task must be safe to lose: a crash before it runs leaves work a later job finishes (the
 * mail worker renders queued emails; vacuum tidies the indexes).
 */

/** The task in progress (or the last one finished) per database. */
const running = new WeakMap<Db, Promise<void>>();

/** Runs `task` after the tasks already started on this database; `what` names it in the log. */
export function afterCommit(db: Db, what: string, task: () => Promise<unknown>, logger: Logger): void {
  const next = (running.get(db) ?? Promise.resolve()).then(task).then(
    () => undefined,
    (error: unknown) => logger.error(`${what} failed`, error),
  );
  running.set(db, next);
}

/** Resolves once every task started on this database so far has finished. */
export function afterCommitSettled(db: Db): Promise<void> {
  return running.get(db) ?? Promise.resolve();
}

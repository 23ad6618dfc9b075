import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Clock } from '../clock.ts';
import type { Db, Tx } from '../db/client.ts';
import { arrayParam } from '../db/rows.ts';
import { scheduledJobs } from '../db/schema.ts';
import type { Logger } from '../http/logger.ts';
import { pollingLoop } from './polling-loop.ts';

export type ScheduledJob = typeof scheduledJobs.$inferSelect;

/** What a job handler decided: done, or try again later (e.g. the weekly limit is not over yet). */
export type JobResult = { done: true } | { retryAt: Date };

/** Runs one job inside the transaction that marks it done: its effects and its completion commit together. */
export type JobHandler = (tx: Tx, job: ScheduledJob, now: Date) => Promise<JobResult>;

/**
 * Runs many due jobs of one kind in one transaction, the one that marks them done: the result of
 * each job by its id. Same meaning as the kind's JobHandler run on each job in turn (run_at, id
 * order), but set-based: a few statements for the whole batch.
 */
export type BatchJobHandler = (tx: Tx, jobs: ScheduledJob[], now: Date) => Promise<Map<number, JobResult>>;

export type SchedulerOptions = {
  db: Db;
  clock: Clock;
  logger: Logger;
  handlers: Record<string, JobHandler>;
  /**
   * Kinds run in batches (the day's reminders): claimed `batchJobs` at a time with FOR UPDATE
   * SKIP LOCKED in a short transaction of their own, which does their work and marks them done.
   * A batch that fails is rolled back and its jobs run one at a time through `handlers`.
   */
  batchHandlers?: Record<string, BatchJobHandler>;
  /**
   * Jobs per batch of a batch kind. `batchLanes` batches run side by side (each its own
   * transaction, SKIP LOCKED keeping them apart), so one batch is rendered in this process while
   * PostgreSQL stores another.
   */
  batchJobs?: number;
  batchLanes?: number;
  /** Work to do before each round (e.g. scheduling the weekly digests), in its own transaction. */
  beforeRound?: (db: Db, now: Date) => Promise<void>;
  pollMs?: number;
  /** How long a claimed job is reserved; a crashed process's job is taken again after it. */
  leaseMs?: number;
  batchSize?: number;
  maxAttempts?: number;
};

export type Scheduler = {
  start: () => void;
  stop: () => Promise<void>;
  /** Runs every job due now (by the clock), in rounds; returns how many ran. */
  runDue: () => Promise<number>;
  /** A job due now was committed: a round now rather than at the next poll. */
  wake: () => void;
};

/**
 * Runs the durable scheduled jobs (reminders, deadline emails, No Response, digests). A round
 * claims due jobs in a short transaction (FOR UPDATE SKIP LOCKED: several processes never claim
 * the same job) by setting a lease; each job then runs in its own transaction that locks its row,
 * checks it is still pending, does its work and marks it done, so a job's effects happen exactly
 * once even if a lease ran out while it was running. Jobs left by a crash are taken again when
 * their lease ends; a restart resumes where the last process stopped.
 */
export function createScheduler(options: SchedulerOptions): Scheduler {
  const { db, clock, logger, handlers } = options;
  const pollMs = options.pollMs ?? 30_000;
  const leaseMs = options.leaseMs ?? 5 * 60_000;
  const batchSize = options.batchSize ?? 200;
  const maxAttempts = options.maxAttempts ?? 5;
  const batchJobs = options.batchJobs ?? 1000;
  const batchLanes = Math.max(1, options.batchLanes ?? 2);
  const batchHandlers = options.batchHandlers ?? {};

  async function claim(now: Date): Promise<number[]> {
    return db.transaction(async (tx) => {
      const due = await tx
        .select({ id: scheduledJobs.id })
        .from(scheduledJobs)
        .where(
          and(
            eq(scheduledJobs.status, 'pending'),
            lte(scheduledJobs.run_at, now),
            or(isNull(scheduledJobs.locked_until), lte(scheduledJobs.locked_until, now)),
          ),
        )
        .orderBy(asc(scheduledJobs.run_at), asc(scheduledJobs.id))
        .limit(batchSize)
        .for('update', { skipLocked: true });
      if (due.length === 0) return [];
      const ids = due.map((d) => d.id);
      await tx
        .update(scheduledJobs)
        .set({
          locked_until: new Date(now.getTime() + leaseMs),
          attempts: sql`${scheduledJobs.attempts} + 1`,
        })
        .where(inArray(scheduledJobs.id, ids));
      return ids;
    });
  }

  async function runOne(id: number, now: Date): Promise<boolean> {
    try {
      return await db.transaction(async (tx) => {
        const [job] = await tx.select().from(scheduledJobs).where(eq(scheduledJobs.id, id)).for('update');
        if (job?.status !== 'pending') return false;
        const handler = handlers[job.kind];
        if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
        const result = await handler(tx, job, now);
        if ('done' in result)
          await tx
            .update(scheduledJobs)
            .set({ status: 'done', done_at: now, locked_until: null, last_error: null })
            .where(eq(scheduledJobs.id, id));
        else
          await tx
            .update(scheduledJobs)
            .set({ run_at: result.retryAt, locked_until: null, attempts: 0 })
            .where(eq(scheduledJobs.id, id));
        return true;
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const [job] = await db.select().from(scheduledJobs).where(eq(scheduledJobs.id, id));
      const givingUp = (job?.attempts ?? 0) >= maxAttempts;
      await db
        .update(scheduledJobs)
        .set({
          status: givingUp ? 'failed' : 'pending',
          last_error: reason.slice(0, 1000),
          locked_until: null,
          run_at: new Date(now.getTime() + 60_000 * 2 ** (job?.attempts ?? 0)),
        })
        .where(eq(scheduledJobs.id, id));
      logger.warn(
        `job ${id} (${job?.kind}): attempt ${job?.attempts} failed (${reason})${givingUp ? '; giving up' : ''}`,
      );
      return false;
    }
  }

  /**
   * One batch of a batch kind: claimed, run and marked in one transaction, so a killed process
   * leaves each batch either all done or all pending (its locks go with its connection), and a
   * new round resumes with the rest; nothing is done twice. Returns the jobs claimed.
   */
  async function runBatch(kind: string, handler: BatchJobHandler, now: Date) {
    let claimed: number[] = [];
    try {
      const count = await db.transaction(async (tx) => {
        const jobs = await tx
          .select()
          .from(scheduledJobs)
          .where(
            and(
              eq(scheduledJobs.status, 'pending'),
              eq(scheduledJobs.kind, kind),
              lte(scheduledJobs.run_at, now),
              or(isNull(scheduledJobs.locked_until), lte(scheduledJobs.locked_until, now)),
            ),
          )
          .orderBy(asc(scheduledJobs.run_at), asc(scheduledJobs.id))
          .limit(batchJobs)
          .for('update', { skipLocked: true });
        claimed = jobs.map((j) => j.id);
        if (jobs.length === 0) return 0;
        const results = await handler(tx, jobs, now);
        const finished = jobs.filter((j) => 'done' in (results.get(j.id) ?? { done: true }));
        const later = jobs.flatMap((j) => {
          const r = results.get(j.id);
          return r && 'retryAt' in r ? [{ id: j.id, at: r.retryAt }] : [];
        });
        if (finished.length > 0)
          await tx.execute(
            sql`update ${scheduledJobs} set status = 'done', done_at = ${now.toISOString()}, locked_until = null,
                  last_error = null
                where id = any(${arrayParam(
                  finished.map((j) => j.id),
                  'int',
                )}) and status = 'pending'`,
          );
        if (later.length > 0)
          await tx.execute(
            sql`update ${scheduledJobs} j set run_at = v.at, locked_until = null, attempts = 0
                from unnest(${arrayParam(
                  later.map((l) => l.id),
                  'int',
                )}, ${arrayParam(
                  later.map((l) => l.at.toISOString()),
                  'timestamptz',
                )}) as v(id, at)
                where j.id = v.id`,
          );
        return jobs.length;
      });
      return { claimed: count, ran: count };
    } catch (error) {
      // One bad job must not hold back the rest: the batch was rolled back; each runs alone.
      logger.warn(
        `${kind} batch of ${claimed.length} failed (${error instanceof Error ? error.message : String(error)}); running them one at a time`,
      );
      let ran = 0;
      for (const id of claimed) if (await runOne(id, now)) ran += 1;
      return { claimed: claimed.length, ran };
    }
  }

  async function round(): Promise<number> {
    let ran = 0;
    const now = clock.now();
    await options.beforeRound?.(db, now);
    for (const [kind, handler] of Object.entries(batchHandlers)) {
      const lane = async () => {
        for (;;) {
          const batch = await runBatch(kind, handler, now);
          ran += batch.ran;
          if (batch.claimed < batchJobs) break;
        }
      };
      await Promise.all(Array.from({ length: batchLanes }, lane));
    }
    // Jobs a job schedules for now (none today) would run in the next round, not this one.
    for (;;) {
      const ids = await claim(now);
      if (ids.length === 0) break;
      for (const id of ids) if (await runOne(id, now)) ran += 1;
      if (ids.length < batchSize) break;
    }
    return ran;
  }

  const loop = pollingLoop({ name: 'scheduler', pollMs, logger, round });
  return { start: loop.start, stop: loop.stop, runDue: loop.runOnce, wake: loop.wake };
}

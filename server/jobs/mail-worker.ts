import { and, asc, eq, lte, notInArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { outbox } from '../db/schema.ts';
import type { Logger } from '../http/logger.ts';
import type { MailTransport, Sender } from '../mail/transport.ts';
import { workJob } from '../observability/context.ts';
import { countDelivery } from '../observability/metrics.ts';
import type { FileStorage } from '../storage/storage.ts';
import { pollingLoop } from './polling-loop.ts';

export type MailWorkerOptions = {
  db: Db;
  transport: MailTransport;
  logger: Logger;
  /** How often to look for due mail. */
  pollMs?: number;
  /** Attempts before a message is marked failed. */
  maxAttempts?: number;
  /** First retry delay; doubles with every failed attempt. */
  retryBaseMs?: number;
  /** How long a claimed message is reserved for its sender before others may retry it. */
  leaseMs?: number;
  /** Messages per round (each claimed and sent on its own). */
  batchSize?: number;
  /**
   * Messages in flight at once (MAIL_CONCURRENCY): that many lanes, each claiming, sending and
   * recording one message at a time. 1 sends strictly in order.
   */
  concurrency?: number;
  /** Where attached files are read from (a message with attachments fails without it). */
  storage?: FileStorage;
  /**
   * Runs in the transaction that marks a message sent, so what its delivery means (a signed
   * packet reaching a company moves its match to Submitted) is never lost between the two.
   */
  afterSent?: (tx: Tx, outboxId: number, now: Date) => Promise<void>;
  /**
   * Runs before each round: renders donor emails still queued (an import renders its own right
   * after committing; this catches those a stopped process left behind).
   */
  renderQueued?: () => Promise<unknown>;
  /**
   * Who a message of an organization (a donor email) goes out as, decided now, at sending, so a
   * domain that stopped verifying falls back at once for mail already queued. Undefined: MAIL_FROM.
   */
  senderFor?: (organizationId: number) => Promise<Sender | undefined>;
};

export type MailWorker = {
  start: () => void;
  /** Stops polling and waits for the delivery in progress. */
  stop: () => Promise<void>;
  /** Delivers what is due now; returns how many messages were attempted. */
  runOnce: () => Promise<number>;
  /** Mail was committed to the outbox: a round now rather than at the next poll. */
  wake: () => void;
};

/**
 * Delivers the outbox, each message on its own: claim it in a short transaction (FOR UPDATE SKIP
 * LOCKED, so several workers never take the same one) by pushing its next attempt past a lease,
 * send it outside the transaction, mark it sent as soon as the SMTP server accepted it, and only
 * then claim the next. `concurrency` lanes do this side by side (over as many pooled SMTP
 * connections, transport.ts). A crash mid-send leaves the messages in flight pending; each is
 * retried when its lease runs out, so delivery is at least once, and the retry carries the same
 * Message-ID (made from the outbox row, transport.ts) so the receiving side can tell it is the
 * same message. Claiming one at a time per lane (not a batch) keeps that doubt to the messages in
 * flight: the rest of a round is neither counted as attempted nor held behind a lease a crash
 * would leave on it, and cannot outlive its lease while waiting behind a slow message (which let
 * a second worker send it as well).
 */
export function createMailWorker(options: MailWorkerOptions): MailWorker {
  const { db, transport, logger } = options;
  const pollMs = options.pollMs ?? 1000;
  const maxAttempts = options.maxAttempts ?? 6;
  const retryBaseMs = options.retryBaseMs ?? 30_000;
  const leaseMs = options.leaseMs ?? 5 * 60_000;
  const concurrency = Math.max(1, options.concurrency ?? 1);
  const batchSize = options.batchSize ?? 10 * concurrency;

  /**
   * Claims the next due message (attempt counted, lease taken), or null when none is due; one this
   * round already tried is not taken again (a failed one may be due at once when retries are quick).
   */
  async function claimNext(tried: number[]) {
    return db.transaction(async (tx) => {
      const [due] = await tx
        .select({ id: outbox.id })
        .from(outbox)
        .where(
          and(
            eq(outbox.status, 'pending'),
            lte(outbox.next_attempt_at, sql`now()`),
            tried.length > 0 ? notInArray(outbox.id, tried) : undefined,
          ),
        )
        .orderBy(asc(outbox.next_attempt_at), asc(outbox.id))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!due) return null;
      const [row] = await tx
        .update(outbox)
        .set({
          attempts: sql`${outbox.attempts} + 1`,
          next_attempt_at: sql`now() + make_interval(secs => ${leaseMs / 1000})`,
        })
        .where(eq(outbox.id, due.id))
        .returning();
      return row ?? null;
    });
  }

  /** Sends one claimed message and records the outcome (sent, or retried later, or failed). */
  async function send(message: NonNullable<Awaited<ReturnType<typeof claimNext>>>): Promise<void> {
    try {
      const attachments = [];
      for (const a of message.attachments) {
        const file = await options.storage?.get(a.file);
        if (!file) throw new Error(`attachment ${a.filename} is missing from file storage`);
        attachments.push({
          filename: a.filename,
          contentType: a.contentType,
          content: Buffer.from(file.bytes),
        });
      }
      // The sender is decided now, not when queued: a domain that stopped verifying falls back at once.
      const sender =
        message.organization_id !== null ? await options.senderFor?.(message.organization_id) : undefined;
      await transport.send(
        {
          to: message.to,
          subject: message.subject,
          html: message.html,
          ...(message.reply_to ? { replyTo: message.reply_to } : {}),
          ...(Object.keys(message.headers).length > 0 ? { headers: message.headers } : {}),
          ...(attachments.length > 0 ? { attachments } : {}),
          text: message.text,
        },
        { id: message.id, createdAt: message.created_at },
        sender,
      );
      await db.transaction(async (tx) => {
        const now = new Date();
        await tx
          .update(outbox)
          .set({ status: 'sent', sent_at: now, last_error: null })
          .where(eq(outbox.id, message.id));
        await options.afterSent?.(tx, message.id, now);
      });
      countDelivery('mail', 'delivered');
      logger.info(`mail ${message.id} sent`, { attempt: message.attempts });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const givingUp = message.attempts >= maxAttempts;
      const delayMs = retryBaseMs * 2 ** (message.attempts - 1);
      await db
        .update(outbox)
        .set({
          status: givingUp ? 'failed' : 'pending',
          last_error: reason.slice(0, 1000),
          next_attempt_at: new Date(Date.now() + delayMs),
        })
        .where(eq(outbox.id, message.id));
      countDelivery('mail', givingUp ? 'gave_up' : 'failed');
      // The recipient is personal data; the id is enough to find the message.
      logger.warn(
        `mail ${message.id}: attempt ${message.attempts} failed (${reason})${givingUp ? '; giving up' : `; retrying in ${Math.round(delayMs / 1000)} s`}`,
      );
    }
  }

  async function deliver(): Promise<number> {
    try {
      await options.renderQueued?.();
    } catch (error) {
      logger.error('rendering queued donor emails failed', error);
    }
    const tried: number[] = [];
    // Each lane claims its next message only when its last one is recorded, so at most
    // `concurrency` messages are ever claimed and unrecorded (the doubt a crash leaves).
    const lane = async () => {
      while (tried.length < batchSize) {
        const message = await claimNext(tried);
        if (!message) return;
        tried.push(message.id);
        // Its log lines (and anything its delivery queues) carry the request that queued it.
        await workJob(
          'mail delivery',
          { requestId: message.request_id, job: 'mail', jobId: message.id },
          () => send(message),
        );
      }
    };
    await Promise.all(Array.from({ length: concurrency }, lane));
    return tried.length;
  }

  // A burst is drained round after round; a wake-up (work committed) starts a round at once.
  const loop = pollingLoop({ name: 'mail worker', pollMs, logger, round: deliver, drain: true });
  return { start: loop.start, stop: loop.stop, runOnce: loop.runOnce, wake: loop.wake };
}

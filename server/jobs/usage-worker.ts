import { and, asc, eq, isNull, lte, notInArray, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { StripeConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import { organizations, stripeUsageReports } from '../db/schema.ts';
import type { Logger } from '../http/logger.ts';
import { duplicateMeterEvent, redactKeys, StripeError, sendMeterEvent } from '../modules/billing/stripe.ts';
import { type PollingLoop, pollingLoop } from './polling-loop.ts';

export type UsageWorkerOptions = {
  db: Db;
  stripe: StripeConfig;
  logger: Logger;
  pollMs?: number;
  /** Attempts before a report is marked failed (its reason shows on the billing page). */
  maxAttempts?: number;
  /** First retry delay; doubles with every failed attempt. */
  retryBaseMs?: number;
  /** How long a claimed report is reserved for its sender before another worker may send it. */
  leaseMs?: number;
  /** Reports per round (claimed and sent one at a time). */
  batchSize?: number;
};

export type UsageReport = typeof stripeUsageReports.$inferSelect;

export type UsageWorker = PollingLoop & {
  /** Claims the next due report (attempt counted, lease taken), or null. */
  claimNext: (tried?: number[]) => Promise<UsageReport | null>;
  /** Sends a claimed report to Stripe (throws StripeError when Stripe refuses or cannot be reached). */
  send: (report: UsageReport) => Promise<void>;
  /** Records that Stripe has a claimed report. */
  markReported: (report: UsageReport) => Promise<void>;
};

/** No customer to bill yet: the payer's checkout has not completed (it is retried). */
export const noCustomer = 'The organization has no Stripe customer yet.';

/**
 * Sends the per-match plans' usage reports (server/modules/billing/usage.ts) to Stripe as billing
 * meter events, as the mail worker sends the outbox: claim one due report in a short transaction
 * (FOR UPDATE SKIP LOCKED, so several workers never take the same one) by pushing its next attempt
 * past a lease, send it outside the transaction, mark it reported, then claim the next. A failure
 * is retried with exponential backoff until `maxAttempts`, then marked failed with its reason.
 *
 * Never twice: a worker killed between Stripe's answer and the mark leaves the report pending;
 * when its lease ends another worker sends it again with the same identifier (and the same
 * idempotency key): Stripe answers the replay with the first answer, or refuses the identifier as
 * already used, and either way the report is marked reported without a second event. Stripe keeps
 * both for at least 24 hours, far longer than a lease. A correction waits for its charge to be
 * reported, so Stripe never sees a refund without the charge it corrects.
 */
export function createUsageWorker(options: UsageWorkerOptions): UsageWorker {
  const { db, stripe, logger } = options;
  const pollMs = options.pollMs ?? 5_000;
  const maxAttempts = options.maxAttempts ?? 8;
  const retryBaseMs = options.retryBaseMs ?? 60_000;
  const leaseMs = options.leaseMs ?? 5 * 60_000;
  const batchSize = options.batchSize ?? 50;

  async function claimNext(tried: number[] = []): Promise<UsageReport | null> {
    return db.transaction(async (tx) => {
      const charge = alias(stripeUsageReports, 'charge');
      const [due] = await tx
        .select({ id: stripeUsageReports.id })
        .from(stripeUsageReports)
        .leftJoin(charge, eq(charge.id, stripeUsageReports.corrects_id))
        .where(
          and(
            eq(stripeUsageReports.status, 'pending'),
            lte(stripeUsageReports.next_attempt_at, sql`now()`),
            or(isNull(stripeUsageReports.corrects_id), eq(charge.status, 'reported')),
            tried.length > 0 ? notInArray(stripeUsageReports.id, tried) : undefined,
          ),
        )
        .orderBy(asc(stripeUsageReports.next_attempt_at), asc(stripeUsageReports.id))
        .limit(1)
        .for('update', { of: stripeUsageReports, skipLocked: true });
      if (!due) return null;
      const [row] = await tx
        .update(stripeUsageReports)
        .set({
          attempts: sql`${stripeUsageReports.attempts} + 1`,
          next_attempt_at: sql`now() + make_interval(secs => ${leaseMs / 1000})`,
        })
        .where(eq(stripeUsageReports.id, due.id))
        .returning();
      return row ?? null;
    });
  }

  async function send(report: UsageReport): Promise<void> {
    const [payer] = await db
      .select({ customer: organizations.stripe_customer_id })
      .from(organizations)
      .where(eq(organizations.id, report.organization_id));
    if (!payer?.customer) throw new StripeError(noCustomer, undefined, 'no_customer');
    try {
      await sendMeterEvent(stripe, {
        identifier: report.identifier,
        customer: payer.customer,
        value: report.value_cents,
      });
    } catch (error) {
      // Stripe already has this identifier: an earlier attempt got through (its answer was lost,
      // or its worker died before marking it). That is the one event; nothing more to send.
      if (error instanceof StripeError && error.status === 400 && duplicateMeterEvent.test(error.message)) {
        logger.info(`usage report ${report.id}: Stripe already has ${report.identifier}`);
        return;
      }
      throw error;
    }
  }

  async function markReported(report: UsageReport): Promise<void> {
    await db
      .update(stripeUsageReports)
      .set({ status: 'reported', reported_at: new Date(), last_error: null })
      .where(eq(stripeUsageReports.id, report.id));
  }

  async function round(): Promise<number> {
    const tried: number[] = [];
    while (tried.length < batchSize) {
      const report = await claimNext(tried);
      if (!report) break;
      tried.push(report.id);
      try {
        await send(report);
        await markReported(report);
      } catch (error) {
        const reason = redactKeys(error instanceof Error ? error.message : String(error), stripe.secretKey);
        const givingUp = report.attempts >= maxAttempts;
        const delayMs = retryBaseMs * 2 ** (report.attempts - 1);
        await db
          .update(stripeUsageReports)
          .set({
            status: givingUp ? 'failed' : 'pending',
            last_error: reason.slice(0, 500),
            next_attempt_at: new Date(Date.now() + delayMs),
          })
          .where(eq(stripeUsageReports.id, report.id));
        logger.warn(
          `usage report ${report.id}: attempt ${report.attempts} failed (${reason})${givingUp ? '; giving up' : `; retrying in ${Math.round(delayMs / 1000)} s`}`,
        );
      }
    }
    return tried.length;
  }

  const loop = pollingLoop({ name: 'usage worker', pollMs, logger, round });
  return { ...loop, claimNext, send, markReported };
}

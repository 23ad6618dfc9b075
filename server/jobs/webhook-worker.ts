import { eq, sql } from 'drizzle-orm';
import { Webhook as Signer } from 'standardwebhooks';
import { webhookDelivered } from '../../src/contract/integrations.ts';
import { unseal } from '../crypto/sealed.ts';
import type { Db } from '../db/client.ts';
import { queryRows } from '../db/rows.ts';
import { partnerApps, webhookAttempts, webhookDeliveries, webhooks } from '../db/schema.ts';
import type { Logger } from '../http/logger.ts';
import { OutboundError, type OutboundOptions, postJson } from '../http/outbound.ts';
import { webhookSecretPurpose } from '../modules/oauth/partner-apps.service.ts';
import { workJob } from '../observability/context.ts';
import { countDelivery } from '../observability/metrics.ts';
import { pollingLoop } from './polling-loop.ts';

/**
 * The delay before each retry of a failed delivery: Standard Webhooks' suggested schedule
 * (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h), about a day in all; the last delay repeats until the
 * delivery's give_up_at.
 */
export const defaultRetrySchedule = [
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
];

export type WebhookWorkerOptions = {
  db: Db;
  logger: Logger;
  /** WEBHOOK_ALLOW_PRIVATE, a timeout, a response limit, and (tests) name resolution. */
  outbound: OutboundOptions;
  pollMs?: number;
  retrySchedule?: readonly number[];
  /** How long a claimed delivery is reserved for its sender before another worker may retry it. */
  leaseMs?: number;
  batchSize?: number;
  /** The clock (tests move it). */
  now?: () => Date;
  /** The server secret, which opens partner apps' sealed signing secrets (JWT_SECRET). */
  secret: string;
};

export type WebhookWorker = {
  start: () => void;
  stop: () => Promise<void>;
  /** Sends what is due now; returns how many deliveries were attempted. */
  runOnce: () => Promise<number>;
  /** Deliveries were committed: a round now rather than at the next poll. */
  wake: () => void;
};

type Claimed = {
  id: number;
  webhook_id: number | null;
  partner_app_id: number | null;
  message_id: string;
  payload: Record<string, unknown>;
  attempts: number;
  give_up_at: Date;
  /** The request that queued it (its log lines repeat it). */
  request_id: string | null;
};

/** With WEBHOOK_ALLOW_PRIVATE, receivers on these hosts (a developer's machine or network) are called over http. */
const localHost = /^(localhost|127\.[0-9.]+|\[::1\]|10\.[0-9.]+|192\.168\.[0-9.]+)(:[0-9]+)?(\/|$)/i;

/**
 * Sends queued webhook deliveries. Each round claims due deliveries in a short transaction (FOR
 * UPDATE SKIP LOCKED: several processes never take the same one) by pushing their next attempt
 * past a lease, then posts outside the transaction. A delivery is only due when no earlier
 * delivery of the same match to the same webhook is still pending, so a match's events arrive
 * in order. A crash mid-send leaves the delivery pending; it is retried when the lease runs out
 * (at least once; receivers dedupe on the webhook-id header).
 */
export function createWebhookWorker(options: WebhookWorkerOptions): WebhookWorker {
  const { db, logger } = options;
  const pollMs = options.pollMs ?? 1000;
  const schedule = options.retrySchedule ?? defaultRetrySchedule;
  const leaseMs = options.leaseMs ?? 60_000;
  const batchSize = options.batchSize ?? 20;
  const now = options.now ?? (() => new Date());

  async function claim(): Promise<Claimed[]> {
    const at = now();
    // The database stamps a new delivery with its own now(), to the microsecond; this clock reads
    // whole milliseconds. A delivery queued earlier in the same millisecond is due, not 'later'.
    const dueBefore = new Date(at.getTime() + 1);
    const leaseUntil = new Date(at.getTime() + leaseMs);
    return db.transaction(async (tx) => {
      const rows = await queryRows<Claimed>(
        tx,
        sql`select d.id, d.webhook_id, d.partner_app_id, d.message_id, d.payload, d.attempts, d.give_up_at, d.request_id
              from webhook_deliveries d
             where d.status = 'pending' and d.next_attempt_at < ${dueBefore.toISOString()}
               and not exists (
                 select 1 from webhook_deliveries e
                  where e.webhook_id is not distinct from d.webhook_id
                    and e.partner_app_id is not distinct from d.partner_app_id
                    and e.donation_id = d.donation_id
                    and e.status = 'pending' and e.id < d.id)
             order by d.id
             limit ${batchSize}
             for update of d skip locked`,
      );
      if (rows.length === 0) return [];
      await tx.execute(
        sql`update webhook_deliveries set attempts = attempts + 1, next_attempt_at = ${leaseUntil.toISOString()}
             where id in (${sql.join(
               rows.map((r) => sql`${r.id}`),
               sql`, `,
             )})`,
      );
      return rows.map((r) => ({
        ...r,
        attempts: Number(r.attempts) + 1,
        give_up_at: new Date(r.give_up_at),
      }));
    });
  }

  /** Where a delivery goes, and how it is signed: an organization's webhook or a partner app's subscription. */
  async function target(delivery: Claimed) {
    if (delivery.partner_app_id !== null) {
      const [app] = await db.select().from(partnerApps).where(eq(partnerApps.id, delivery.partner_app_id));
      if (!app?.webhook_url || !app.webhook_secret_sealed) return undefined;
      const secret = unseal(
        options.secret,
        webhookSecretPurpose,
        `partner_app:${app.id}`,
        app.webhook_secret_sealed,
      );
      return { url: app.webhook_url, secret, body: JSON.stringify(delivery.payload), hookId: null };
    }
    if (delivery.webhook_id === null) return undefined;
    const [hook] = await db.select().from(webhooks).where(eq(webhooks.id, delivery.webhook_id));
    if (!hook) return undefined;
    // spec: "url (stored without the https:// prefix)": deliveries go over https (http only when
    // WEBHOOK_ALLOW_PRIVATE is on, for a local receiver).
    const url = `${options.outbound.allowPrivate && localHost.test(hook.url) ? 'http' : 'https'}://${hook.url}`;
    const body = JSON.stringify({ ...delivery.payload, bearer_token: hook.token });
    return { url, secret: hook.secret, body, hookId: hook.id };
  }

  async function send(delivery: Claimed): Promise<void> {
    const hook = await target(delivery);
    if (!hook) {
      // Deleted since (its deliveries went with it), or the app's subscription was removed.
      await db
        .update(webhookDeliveries)
        .set({ status: 'failed', last_error: 'The subscription was removed.' })
        .where(eq(webhookDeliveries.id, delivery.id));
      return;
    }
    const { body, url } = hook;
    const sentAt = now();
    const signature = new Signer(hook.secret).sign(delivery.message_id, sentAt, body);
    const headers = {
      'webhook-id': delivery.message_id,
      'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
      'webhook-signature': signature,
      'user-agent': 'Twofold-Webhooks/1',
    };
    let code: number | null = null;
    let response = '';
    let durationMs = 0;
    try {
      const answer = await postJson(url, body, headers, options.outbound);
      code = answer.status;
      response = answer.body;
      durationMs = answer.durationMs;
    } catch (error) {
      response = error instanceof Error ? error.message : String(error);
      durationMs = error instanceof OutboundError ? error.durationMs : 0;
    }
    const ok = webhookDelivered(code);
    const finished = now();
    const delay = schedule[Math.min(delivery.attempts - 1, schedule.length - 1)] ?? 60_000;
    // The last attempt is made at give_up_at, so a delivery is tried for its whole lifetime.
    const nextAt = new Date(Math.min(finished.getTime() + delay, delivery.give_up_at.getTime()));
    const givingUp = !ok && finished.getTime() >= delivery.give_up_at.getTime();
    await db.transaction(async (tx) => {
      await tx.insert(webhookAttempts).values({
        delivery_id: delivery.id,
        at: finished,
        status_code: code,
        duration_ms: durationMs,
        response: response.replaceAll('\u0000', '').slice(0, 2000),
      });
      await tx
        .update(webhookDeliveries)
        .set({
          status: ok ? 'delivered' : givingUp ? 'failed' : 'pending',
          last_code: code,
          last_error: ok ? null : response.slice(0, 1000),
          next_attempt_at: ok || givingUp ? finished : nextAt,
          ...(ok ? { delivered_at: finished } : {}),
        })
        .where(eq(webhookDeliveries.id, delivery.id));
      // spec: the badge shows last_code; no answer at all is shown as 0.
      if (hook.hookId !== null)
        await tx
          .update(webhooks)
          .set({ last_code: code ?? 0 })
          .where(eq(webhooks.id, hook.hookId));
    });
    countDelivery('webhook', ok ? 'delivered' : givingUp ? 'gave_up' : 'failed');
    if (ok)
      logger.info(
        `${hook.hookId === null ? `partner app ${delivery.partner_app_id} webhook` : `webhook ${hook.hookId}`} delivery ${delivery.id} delivered (${code})`,
        {
          webhook_id: hook.hookId,
          partner_app_id: delivery.partner_app_id,
          attempt: delivery.attempts,
          status_code: code,
          duration_ms: durationMs,
        },
      );
    else
      logger.warn(
        `${hook.hookId === null ? `partner app ${delivery.partner_app_id} webhook` : `webhook ${hook.hookId}`} delivery ${delivery.id}: attempt ${delivery.attempts} failed (${code ?? response})${givingUp ? '; giving up' : ''}`,
      );
  }

  async function deliver(): Promise<number> {
    const claimed = await claim();
    // Different matches in parallel; one match's deliveries never share a round (see claim).
    await Promise.all(
      claimed.map((d) =>
        workJob('webhook delivery', { requestId: d.request_id, job: 'webhook', jobId: d.id }, () => send(d)),
      ),
    );
    return claimed.length;
  }

  // A wake-up (deliveries committed) starts a round at once. Not drained back to back: measured
  // with bench:webhooks, draining cut throughput from 145 to 41 deliveries/s (not diagnosed).
  const loop = pollingLoop({ name: 'webhook worker', pollMs, logger, round: deliver });
  return { start: loop.start, stop: loop.stop, runOnce: loop.runOnce, wake: loop.wake };
}

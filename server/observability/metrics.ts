import { timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/client.ts';
import { poolStats } from '../db/pool-stats.ts';
import { queryRows } from '../db/rows.ts';

/**
 * The process's Prometheus metrics (prom-client). Counters and histograms live in one registry
 * per process; the queue and pool gauges are read from the database at scrape time, so every
 * process reports the shared queues the same way and nothing is kept between scrapes.
 */
export const registry = new Registry();

let defaultsStarted = false;
/**
 * Node's own metrics (prom-client's defaults: event-loop lag, heap, GC, handles, CPU). Started
 * once per process, when the server starts (the event-loop delay monitor samples from then on).
 */
export function startProcessMetrics(): void {
  if (defaultsStarted) return;
  defaultsStarted = true;
  collectDefaultMetrics({ register: registry });
}

export const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by method, route template and status.',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time to answer an HTTP request (to its response headers), by method, route template and status.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

/** Queues whose deliveries leave the process: each attempt's result. */
export type DeliveryQueue = 'mail' | 'webhook';
/** delivered; failed (will be retried); gave_up (no more retries: the item is marked failed). */
export type DeliveryResult = 'delivered' | 'failed' | 'gave_up';

export const deliveryAttempts = new Counter({
  name: 'twofold_delivery_attempts_total',
  help: 'Delivery attempts of outgoing mail and webhooks by this process, by result (delivered, failed and retried later, gave_up).',
  labelNames: ['queue', 'result'] as const,
  registers: [registry],
});

/** Counts one delivery attempt (the mail and webhook workers). */
export function countDelivery(queue: DeliveryQueue, result: DeliveryResult): void {
  deliveryAttempts.inc({ queue, result });
}

/** One queue's state as the gauges show it. */
export type QueueState = {
  queue: string;
  /** Items due now and not claimed by a worker. */
  due: number;
  /** Seconds since the oldest due item fell due (0 when none is due). */
  oldestDueAgeSeconds: number;
  /** Items given up on (still in the table); null where the queue keeps none. */
  failed: number | null;
};

/**
 * Every queue's depth and age in one statement. Each branch reads only the due (or failed) rows,
 * through the queue's own index: outbox_due_idx and webhook_deliveries_due_idx (status,
 * next_attempt_at), scheduled_jobs_due_idx (run_at, pending only), donation_notifications_queued_idx,
 * employer_screenings_open_idx, bills_unissued_idx, and esign packets from the outbox's due rows.
 * Its cost follows the backlog, never the table's history (bench/metrics-scrape.ts measures it).
 */
export async function queueStates(db: Db): Promise<QueueState[]> {
  const rows = await queryRows<{
    queue: string;
    due: string | number;
    oldest: string | number | null;
    failed: string | number | null;
  }>(
    db,
    sql`select 'mail' as queue,
               (select count(*) from outbox where status = 'pending' and next_attempt_at <= now()) as due,
               (select extract(epoch from now() - min(next_attempt_at)) from outbox
                 where status = 'pending' and next_attempt_at <= now()) as oldest,
               (select count(*) from outbox where status = 'failed') as failed
        union all
        select 'webhook',
               (select count(*) from webhook_deliveries where status = 'pending' and next_attempt_at <= now()),
               (select extract(epoch from now() - min(next_attempt_at)) from webhook_deliveries
                 where status = 'pending' and next_attempt_at <= now()),
               (select count(*) from webhook_deliveries where status = 'failed')
        union all
        select 'scheduler',
               (select count(*) from scheduled_jobs where status = 'pending' and run_at <= now()
                  and (locked_until is null or locked_until <= now())),
               (select extract(epoch from now() - min(run_at)) from scheduled_jobs
                 where status = 'pending' and run_at <= now() and (locked_until is null or locked_until <= now())),
               null
        union all
        select 'mail_render',
               (select count(*) from donation_notifications where queued),
               (select extract(epoch from now() - min(created_at)) from donation_notifications where queued),
               null
        union all
        select 'employer_screening',
               (select count(*) from employer_screenings where status in ('queued', 'running')),
               (select extract(epoch from now() - min(created_at)) from employer_screenings
                 where status in ('queued', 'running')),
               (select count(*) from employer_screenings where status = 'failed')
        union all
        select 'bills',
               (select count(*) from bills where issued_at is null and period_end <= now()),
               (select extract(epoch from now() - min(period_end)) from bills
                 where issued_at is null and period_end <= now()),
               null
        union all
        select 'esign_delivery',
               (select count(*) from outbox o join esign_documents e on e.delivery_outbox_id = o.id
                 where o.status = 'pending' and o.next_attempt_at <= now()),
               (select extract(epoch from now() - min(o.next_attempt_at)) from outbox o
                  join esign_documents e on e.delivery_outbox_id = o.id
                 where o.status = 'pending' and o.next_attempt_at <= now()),
               (select count(*) from outbox o join esign_documents e on e.delivery_outbox_id = o.id
                 where o.status = 'failed' and e.delivered_at is null)`,
  );
  return rows.map((r) => ({
    queue: r.queue,
    due: Number(r.due),
    oldestDueAgeSeconds: r.oldest === null ? 0 : Math.max(0, Number(r.oldest)),
    failed: r.failed === null ? null : Number(r.failed),
  }));
}

/** The scrape's own registry: queue and pool gauges read now from this database. */
async function databaseRegistry(db: Db): Promise<Registry> {
  const scrape = new Registry();
  const depth = new Gauge({
    name: 'twofold_queue_depth',
    help: 'Items due now and waiting for a worker, per queue (mail, webhook, scheduler, mail_render, employer_screening, bills, esign_delivery).',
    labelNames: ['queue'] as const,
    registers: [scrape],
  });
  const age = new Gauge({
    name: 'twofold_queue_oldest_due_age_seconds',
    help: 'Seconds since the oldest due item of the queue fell due (0 when none is due).',
    labelNames: ['queue'] as const,
    registers: [scrape],
  });
  const failed = new Gauge({
    name: 'twofold_queue_failed',
    help: 'Items given up on after their retries (mail, webhook, esign_delivery) or failed jobs (employer_screening).',
    labelNames: ['queue'] as const,
    registers: [scrape],
  });
  const scrapeOk = new Gauge({
    name: 'twofold_queue_scrape_success',
    help: '1 when the queue gauges could be read from the database, 0 when the query failed.',
    registers: [scrape],
  });
  try {
    for (const state of await queueStates(db)) {
      depth.set({ queue: state.queue }, state.due);
      age.set({ queue: state.queue }, state.oldestDueAgeSeconds);
      if (state.failed !== null) failed.set({ queue: state.queue }, state.failed);
    }
    scrapeOk.set(1);
  } catch {
    // The metrics still answer (the process's own figures) when the database does not.
    scrapeOk.set(0);
  }
  const stats = poolStats(db);
  if (stats) {
    const pool = new Gauge({
      name: 'twofold_db_pool_connections',
      help: 'Database connections of this process by state: total (open), idle, and waiting (queries waiting for a connection; PGlite: statements waiting for their turn on its one connection).',
      labelNames: ['state'] as const,
      registers: [scrape],
    });
    const max = new Gauge({
      name: 'twofold_db_pool_max',
      help: 'The most database connections this process opens (PGlite: 1).',
      registers: [scrape],
    });
    const now = stats();
    pool.set({ state: 'total' }, now.total);
    pool.set({ state: 'idle' }, now.idle);
    pool.set({ state: 'waiting' }, now.waiting);
    max.set(now.max);
  }
  return scrape;
}

/** The whole exposition: the process's metrics and the database's gauges, read now. */
export async function metricsText(db: Db): Promise<{ body: string; contentType: string }> {
  const merged = Registry.merge([registry, await databaseRegistry(db)]);
  return { body: await merged.metrics(), contentType: registry.contentType };
}

/** Whether an `Authorization` header carries the metrics token (compared in constant time). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!match?.[1]) return false;
  const given = Buffer.from(match[1]);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

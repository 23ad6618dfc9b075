import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { type App, type AppOptions, createApp } from './app.ts';
import { type Clock, systemClock } from './clock.ts';
import { type Config, isLoopbackHost } from './config.ts';
import type { Database } from './db/client.ts';
import { hostCheck } from './http/host-check.ts';
import type { Logger } from './http/logger.ts';
import type { Lifecycle } from './http/route.ts';
import { afterCommitSettled } from './jobs/after-commit.ts';
import { type BillIssuer, startBillIssuer } from './jobs/bill-issuer.ts';
import { createHousekeeping } from './jobs/housekeeping.ts';
import { createMailWorker, type MailWorker } from './jobs/mail-worker.ts';
import { createScheduler, type Scheduler } from './jobs/scheduler.ts';
import { createUsageWorker, type UsageWorker } from './jobs/usage-worker.ts';
import { wakeChannels } from './jobs/wakeups.ts';
import { createWebhookWorker, type WebhookWorker } from './jobs/webhook-worker.ts';
import { type MailTransport, transportFor } from './mail/transport.ts';
import { createScreeningWorker } from './modules/employers/screening.ts';
import { packetDelivered } from './modules/esign/esign.service.ts';
import { recheckSendingDomains, senderFor } from './modules/sending-domain/sending-domain.service.ts';
import { metricsResponse } from './modules/system/metrics.routes.ts';
import { scheduleDigests } from './modules/templates/digest.ts';
import { closeRenderThread } from './modules/templates/render-thread.ts';
import { workflowBatchHandlers, workflowHandlers } from './modules/templates/workflow.ts';
import { startProcessMetrics } from './observability/metrics.ts';

/** How long a shutdown waits for in-flight requests and jobs before it closes what is left. */
export const defaultShutdownTimeoutMs = 20_000;

export type RunningServer = {
  server: Server;
  app: App;
  /** The port listened on (useful with port 0). */
  port: number;
  /** The metrics port listened on, when METRICS_PORT is set. */
  metricsPort: number | undefined;
  lifecycle: Lifecycle;
  worker: MailWorker;
  webhookWorker: WebhookWorker;
  scheduler: Scheduler;
  billIssuer: BillIssuer;
  /** Per-match plans' usage to Stripe (issue #27); absent when Stripe is not configured. */
  usageWorker: UsageWorker | undefined;
  /**
   * Graceful shutdown: readiness turns 503 at once, no new connection or job is taken, in-flight
   * requests, the mail round and the bill issuer finish, then the database closes. Past
   * `timeoutMs` the connections still open are cut. Resolves `forced` when that happened.
   */
  shutdown: () => Promise<{ forced: boolean }>;
};

export type StartOptions = {
  config: Config;
  database: Database;
  logger: Logger;
  transport?: MailTransport;
  timeoutMs?: number;
  /** The workflow's time (reminders, deadlines); the system clock unless a test moves its own. */
  clock?: Clock;
  /** Passed to createApp (tests mount extra routes). */
  app?: Omit<AppOptions, 'config' | 'db' | 'logger' | 'lifecycle'>;
};

/** Starts the HTTP server and the background jobs of one process on an opened, migrated database. */
export async function startServer(options: StartOptions): Promise<RunningServer> {
  const { config, database, logger } = options;
  const timeoutMs = options.timeoutMs ?? defaultShutdownTimeoutMs;
  const transport = options.transport ?? transportFor(config);
  const lifecycle: Lifecycle = { draining: false };
  startProcessMetrics();
  const webhookWorker = createWebhookWorker({
    db: database.db,
    logger,
    outbound: { allowPrivate: config.webhookAllowPrivate },
    secret: config.jwtSecret,
  });
  webhookWorker.start();
  // Reminders, deadline emails, No Response and the weekly digests: durable jobs, each taken by
  // one process at a time.
  const scheduler = createScheduler({
    db: database.db,
    clock: options.clock ?? systemClock,
    logger,
    handlers: workflowHandlers(config),
    batchHandlers: workflowBatchHandlers(config),
    beforeRound: async (db, now) => {
      await scheduleDigests(db, now);
      // The daily re-verification of sending domains (issue #28): each domain once a day.
      await recheckSendingDomains(db, config, now, logger);
    },
  });
  scheduler.start();
  const billIssuer = startBillIssuer({ db: database.db, logger });
  // Without Stripe the reports wait, pending, for a server that has it.
  const usageWorker = config.stripe
    ? createUsageWorker({ db: database.db, stripe: config.stripe, logger })
    : undefined;
  usageWorker?.start();
  // Spent idempotency answers and one-time tokens, hourly.
  const housekeeping = createHousekeeping({ db: database.db, logger });
  housekeeping.start();
  // Find employers runs (issue #31) a restart left open, and any a start's own kick missed.
  const screeningWorker = createScreeningWorker({ db: database.db, logger });
  screeningWorker.start();
  const { app, storage, notifier } = createApp({
    ...options.app,
    config,
    db: database.db,
    logger,
    lifecycle,
    clock: options.clock ?? systemClock,
  });
  const worker = createMailWorker({
    db: database.db,
    transport,
    logger,
    pollMs: config.mail.pollMs,
    leaseMs: config.mail.leaseMs,
    concurrency: config.mail.concurrency,
    storage,
    afterSent: packetDelivered,
    senderFor: (organizationId) => senderFor(database.db, config, organizationId),
    // The app's own renderer: on PostgreSQL its thread, so a round never renders an import's emails
    // on the event loop (the batches lock their rows: the import's render and this one share them).
    renderQueued: () => notifier.renderQueued(database.db),
  });
  worker.start();
  // Workers wake when work is committed (LISTEN/NOTIFY, server/jobs/wakeups.ts) and still poll:
  // a lost notification only costs a poll interval.
  const unsubscribe = [
    database.wakeups.subscribe(wakeChannels.mail, worker.wake),
    database.wakeups.subscribe(wakeChannels.webhooks, webhookWorker.wake),
    database.wakeups.subscribe(wakeChannels.jobs, scheduler.wake),
  ];
  // While draining, responses ask keep-alive clients to reconnect (to another process).
  const fetch: typeof app.fetch = async (request, ...rest) => {
    const response = await app.fetch(request, ...rest);
    if (lifecycle.draining) {
      try {
        response.headers.set('Connection', 'close');
      } catch {
        // Immutable headers (a fetched response): the server closes idle connections anyway.
      }
    }
    return response;
  };
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch, port: config.port, hostname: config.host }, () =>
      resolve(s as Server),
    ) as Server;
  });

  const metricsServer = config.metrics.port === undefined ? undefined : await listenForMetrics(options);

  let stopping: Promise<{ forced: boolean }> | undefined;
  const shutdown = () => {
    stopping ??= (async () => {
      lifecycle.draining = true;
      for (const stop of unsubscribe) stop();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      metricsServer?.close();
      metricsServer?.closeAllConnections();
      server.closeIdleConnections();
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<'expired'>((resolve) => {
        timer = setTimeout(() => resolve('expired'), timeoutMs);
      });
      const drained = Promise.all([
        // A request that finishes while draining may leave after-commit work (an import's
        // emails); it is waited for once the last request is done, before the database closes.
        closed.then(() => afterCommitSettled(database.db)),
        worker.stop(),
        webhookWorker.stop(),
        scheduler.stop(),
        billIssuer.stop(),
        usageWorker?.stop(),
        housekeeping.stop(),
        screeningWorker.stop(),
        afterCommitSettled(database.db),
      ]).then(() => 'drained' as const);
      const outcome = await Promise.race([drained, expired]);
      clearTimeout(timer);
      if (outcome === 'expired') {
        logger.warn(`shutdown: still busy after ${timeoutMs} ms; closing the remaining connections`);
        server.closeAllConnections();
      }
      transport.close?.();
      await closeRenderThread();
      await database.close();
      return { forced: outcome === 'expired' };
    })();
    return stopping;
  };

  return {
    server,
    app,
    port: (server.address() as AddressInfo).port,
    metricsPort: metricsServer ? (metricsServer.address() as AddressInfo).port : undefined,
    lifecycle,
    worker,
    webhookWorker,
    scheduler,
    billIssuer,
    usageWorker,
    shutdown,
  };
}

/**
 * METRICS_PORT: `GET /metrics` alone on its own port, bound to METRICS_HOST (loopback unless set),
 * so the public port never serves it. The host check applies here too: a web page that rebinds its
 * own name to this machine reads nothing from the loopback port.
 */
async function listenForMetrics(options: StartOptions): Promise<Server> {
  const { config, database, logger } = options;
  const app = new Hono();
  app.use(hostCheck(config));
  app.get('/metrics', (c) => metricsResponse(c, { db: database.db, config }, 'metrics port'));
  app.notFound((c) => c.json({ message: 'Not found' }, 404));
  if (config.metrics.token === undefined && !isLoopbackHost(config.metrics.host))
    logger.warn(
      `METRICS_HOST=${config.metrics.host} without METRICS_TOKEN: anyone who reaches port ${config.metrics.port} reads the metrics.`,
    );
  return new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, port: config.metrics.port, hostname: config.metrics.host }, () =>
      resolve(s as Server),
    ) as Server;
  });
}

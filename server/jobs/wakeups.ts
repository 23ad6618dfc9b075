import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/**
 * The channels the database notifies when work is committed (triggers in the migration
 * `notify-workers`): a statement that inserts outbox rows, webhook deliveries, or scheduled jobs
 * already due calls pg_notify in its own transaction, so the notification is delivered only
 * when that transaction commits, and never for one that rolls back.
 */
export const wakeChannels = {
  mail: 'twofold_outbox',
  webhooks: 'twofold_webhooks',
  jobs: 'twofold_jobs',
} as const;
export type WakeChannel = (typeof wakeChannels)[keyof typeof wakeChannels];

/**
 * Wake-ups of the job workers (PostgreSQL LISTEN/NOTIFY). A subscriber is called after each
 * commit that notified its channel, and once more whenever the listener (re)connects, since
 * notifications sent while it was away are lost (the worker's round then finds that work). A
 * wake-up only brings a round forward: the workers keep polling, so a lost one costs a poll.
 */
export type Wakeups = {
  subscribe: (channel: WakeChannel, fn: () => void) => () => void;
  /** Resolves once the listener is listening on every channel subscribed so far (tests). */
  ready: () => Promise<void>;
  close: () => Promise<void>;
};

/** The listener connection's application_name. */
export const wakeupsApplicationName = 'twofold-wakeups';

type Subscribers = Map<WakeChannel, Set<() => void>>;

function call(subscribers: Subscribers, channel: string) {
  for (const fn of subscribers.get(channel as WakeChannel) ?? []) fn();
}

function callAll(subscribers: Subscribers) {
  for (const channel of subscribers.keys()) call(subscribers, channel);
}

/**
 * On PostgreSQL: one dedicated connection (not from the pool, whose clients come and go) that
 * LISTENs on the subscribed channels. When it drops (a restart, a failover, a killed backend) it
 * reconnects with a growing delay (100 ms doubling to 5 s), listens again and wakes every
 * subscriber once. The connection is opened on the first subscription.
 */
export function postgresWakeups(options: {
  connectionString: string;
  onDrop?: (error: Error | undefined) => void;
  retryMinMs?: number;
  retryMaxMs?: number;
  /** pg_stat_activity's name for the connection (default `twofold-wakeups`). */
  applicationName?: string;
}): Wakeups {
  const subscribers: Subscribers = new Map();
  const retryMinMs = options.retryMinMs ?? 100;
  const retryMaxMs = options.retryMaxMs ?? 5000;
  let client: pg.Client | undefined;
  let connecting: Promise<void> | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryMs = retryMinMs;
  let closed = false;
  const listening = new Set<WakeChannel>();

  const listenSql = (channel: WakeChannel) => `listen ${pg.escapeIdentifier(channel)}`;

  function dropped(which: pg.Client, error?: Error) {
    if (which !== client) return;
    client = undefined;
    connecting = undefined;
    listening.clear();
    which.removeAllListeners('notification');
    which.end().catch(() => {});
    if (closed) return;
    options.onDrop?.(error);
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connect().catch(() => {});
    }, retryMs);
    retryMs = Math.min(retryMs * 2, retryMaxMs);
  }

  function connect(): Promise<void> {
    if (closed) return Promise.resolve();
    connecting ??= (async () => {
      // Named, so an operator (or a test) can find it in pg_stat_activity.
      const next = new pg.Client({
        connectionString: options.connectionString,
        keepAlive: true,
        application_name: options.applicationName ?? wakeupsApplicationName,
      });
      client = next;
      // A dropped connection emits 'error' (and then 'end'): neither may crash the process.
      next.on('error', (error) => dropped(next, error));
      next.on('end', () => dropped(next));
      next.on('notification', (message) => call(subscribers, message.channel));
      try {
        await next.connect();
        for (const channel of subscribers.keys()) {
          await next.query(listenSql(channel));
          listening.add(channel);
        }
      } catch (error) {
        dropped(next, error instanceof Error ? error : new Error(String(error)));
        throw error;
      }
      retryMs = retryMinMs;
      // Whatever was committed while nobody listened is found by a round now.
      callAll(subscribers);
    })();
    return connecting;
  }

  return {
    subscribe(channel, fn) {
      let set = subscribers.get(channel);
      if (!set) {
        set = new Set();
        subscribers.set(channel, set);
      }
      set.add(fn);
      if (!client && !retryTimer) connect().catch(() => {});
      else if (client && connecting)
        void connecting
          .then(async () => {
            if (client && !listening.has(channel)) {
              await client.query(listenSql(channel));
              listening.add(channel);
            }
          })
          .catch(() => {});
      return () => {
        set.delete(fn);
      };
    },
    async ready() {
      for (;;) {
        if (closed) return;
        const pending = connecting;
        if (pending) {
          try {
            await pending;
          } catch {
            // Retried by the timer.
          }
        }
        if (client && [...subscribers.keys()].every((c) => listening.has(c))) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      const open = client;
      client = undefined;
      await open?.end().catch(() => {});
    },
  };
}

/**
 * On PGlite the database is in this process: PGlite's own LISTEN delivers a notification to its
 * callback when the notifying transaction commits. There is no connection to lose.
 */
export function pgliteWakeups(client: PGlite): Wakeups {
  const subscribers: Subscribers = new Map();
  const listens = new Map<WakeChannel, Promise<unknown>>();
  let closed = false;
  return {
    subscribe(channel, fn) {
      let set = subscribers.get(channel);
      if (!set) {
        set = new Set();
        subscribers.set(channel, set);
      }
      set.add(fn);
      if (!listens.has(channel) && !closed)
        listens.set(
          channel,
          client.listen(channel, () => call(subscribers, channel)).catch(() => undefined),
        );
      return () => {
        set.delete(fn);
      };
    },
    async ready() {
      await Promise.all(listens.values());
    },
    async close() {
      closed = true;
      subscribers.clear();
    },
  };
}

/**
 * Where a request's time goes in the server under load: preloaded into the server process by
 * `bench/pglite-load.ts --probe` (`node --import tsx --import ./bench/pglite-load-probe.ts`), it
 * changes nothing the server does and, when the process exits, prints to stderr:
 *   - the event loop's delay (perf_hooks.monitorEventLoopDelay): how long ready work waited;
 *   - garbage collection (count, total and longest pause);
 *   - PGlite's statements: how many per request, their time inside PGlite's lock (the work) and
 *     their time waiting for it (the queue);
 *   - the requests' time from the 'request' event to the response's end (the handler's view).
 * Stats are reset by `SIGUSR2`, so the bench can measure its loaded phase alone.
 */
import diagnostics from 'node:diagnostics_channel';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';

const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();

type Stats = { values: number[] };
const fresh = () => ({
  gc: { values: [] } as Stats,
  lockWait: { values: [] } as Stats,
  turnWait: { values: [] } as Stats,
  lockHeld: { values: [] } as Stats,
  request: { values: [] } as Stats,
  gap: { values: [] } as Stats,
  firstRead: { values: [] } as Stats,
  firstHandled: { values: [] } as Stats,
  requests: 0,
  since: performance.now(),
});
let stats = fresh();

new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) stats.gc.values.push(entry.duration);
}).observe({ entryTypes: ['gc'] });

// PGlite runs every statement inside one lock (an async-mutex): time waiting for it and inside it.
const proto = PGlite.prototype as unknown as {
  _runExclusiveQuery: <T>(fn: () => Promise<T>) => Promise<T>;
};
const original = proto._runExclusiveQuery;
proto._runExclusiveQuery = function <T>(this: unknown, fn: () => Promise<T>): Promise<T> {
  const asked = performance.now();
  return original.call(this, async () => {
    const entered = performance.now();
    stats.lockWait.values.push(entered - asked);
    try {
      return await fn();
    } finally {
      stats.lockHeld.values.push(performance.now() - entered);
    }
  }) as Promise<T>;
};

// Time per statement text (the first 90 characters), to see which statements cost the most.
const bySql = new Map<string, { n: number; ms: number }>();
const pgliteQuery = PGlite.prototype.query;
PGlite.prototype.query = async function <T>(
  this: PGlite,
  ...args: Parameters<typeof pgliteQuery>
): Promise<Awaited<ReturnType<typeof pgliteQuery<T>>>> {
  const started = performance.now();
  try {
    return (await pgliteQuery.apply(this, args as never)) as never;
  } finally {
    const key = String(args[0]).replace(/\s+/g, ' ').slice(0, 90);
    const entry = bySql.get(key) ?? { n: 0, ms: 0 };
    entry.n++;
    entry.ms += performance.now() - started;
    bySql.set(key, entry);
  }
};

// The server's own queue in front of PGlite (server/db/turns.ts), where it has one: time from
// asking for a turn to starting it.
try {
  const { Turns } = await import('../server/db/turns.ts');
  const take = Turns.prototype.take;
  Turns.prototype.take = function <T>(this: InstanceType<typeof Turns>, work: () => Promise<T>) {
    const asked = performance.now();
    return take.call(this, () => {
      stats.turnWait.values.push(performance.now() - asked);
      return work();
    }) as Promise<T>;
  };
} catch {
  // A server without turns: PGlite's lock is the only queue.
}

const startedAt = new WeakMap<object, number>();
// Per connection: when its last response finished, to see how long the next request took to be read.
const lastFinish = new WeakMap<object, number>();
// A new connection: when it was accepted, to see how long its first request took to be read.
const accepted = new WeakMap<object, number>();
const firstRequests = new WeakSet<object>();
diagnostics.subscribe('net.server.socket', (message) => {
  const { socket } = message as { socket: object };
  accepted.set(socket, performance.now());
});
diagnostics.subscribe('http.server.request.start', (message) => {
  const { request, socket } = message as { request: object; socket: object };
  const now = performance.now();
  startedAt.set(request, now);
  const last = lastFinish.get(socket);
  if (last !== undefined) stats.gap.values.push(now - last);
  const acceptedAt = accepted.get(socket);
  if (acceptedAt !== undefined) {
    stats.firstRead.values.push(now - acceptedAt);
    accepted.delete(socket);
    firstRequests.add(request);
  }
});
diagnostics.subscribe('http.server.response.finish', (message) => {
  const { request, socket } = message as { request: object; socket: object };
  const started = startedAt.get(request);
  lastFinish.set(socket, performance.now());
  if (started === undefined) return;
  stats.requests++;
  stats.request.values.push(performance.now() - started);
  if (firstRequests.has(request)) stats.firstHandled.values.push(performance.now() - started);
});

process.on('SIGUSR2', () => {
  stats = fresh();
  bySql.clear();
  loop.reset();
});

const pct = (values: number[], p: number) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const f = (n: number) => `${n.toFixed(1)} ms`;

process.on('exit', () => {
  const seconds = (performance.now() - stats.since) / 1000;
  const lines = [
    `\n[probe] server-side, over the last ${seconds.toFixed(1)} s (since the last reset):`,
    `[probe] event loop delay: p50 ${f(loop.percentile(50) / 1e6)}, p99 ${f(loop.percentile(99) / 1e6)}, max ${f(loop.max / 1e6)}`,
    `[probe] GC: ${stats.gc.values.length} pauses, ${f(sum(stats.gc.values))} in all (${(sum(stats.gc.values) / 10 / seconds) | 0}% of the time), longest ${f(Math.max(0, ...stats.gc.values))}`,
    `[probe] PGlite statements: ${stats.lockHeld.values.length} (${(stats.lockHeld.values.length / Math.max(1, stats.requests)).toFixed(2)} per request); inside the lock p50 ${f(pct(stats.lockHeld.values, 50))}, p99 ${f(pct(stats.lockHeld.values, 99))}, ${f(sum(stats.lockHeld.values))} in all (${(sum(stats.lockHeld.values) / 10 / seconds) | 0}% of the time)`,
    `[probe] waiting for the lock: p50 ${f(pct(stats.lockWait.values, 50))}, p99 ${f(pct(stats.lockWait.values, 99))}, max ${f(Math.max(0, ...stats.lockWait.values))}`,
    `[probe] waiting for a turn (server/db/turns.ts): ${stats.turnWait.values.length} turns, p50 ${f(pct(stats.turnWait.values, 50))}, p99 ${f(pct(stats.turnWait.values, 99))}, max ${f(Math.max(0, ...stats.turnWait.values))}`,
    `[probe] requests: ${stats.requests}; request event to response end p50 ${f(pct(stats.request.values, 50))}, p99 ${f(pct(stats.request.values, 99))}, max ${f(Math.max(0, ...stats.request.values))}`,
    `[probe] a connection's response end to its next request read: p50 ${f(pct(stats.gap.values, 50))}, p99 ${f(pct(stats.gap.values, 99))}, max ${f(Math.max(0, ...stats.gap.values))}`,
    `[probe] new connections: ${stats.firstRead.values.length}; accepted to first request read p50 ${f(pct(stats.firstRead.values, 50))}, max ${f(Math.max(0, ...stats.firstRead.values))}; first request handled p50 ${f(pct(stats.firstHandled.values, 50))}, max ${f(Math.max(0, ...stats.firstHandled.values))}`,
    `[probe] statements held the lock longest: ${[...stats.lockHeld.values]
      .sort((a, b) => b - a)
      .slice(0, 5)
      .map(f)
      .join(', ')}`,
  ];
  for (const [key, { n, ms }] of [...bySql].sort((a, b) => b[1].ms - a[1].ms).slice(0, 8))
    lines.push(`[probe]   ${String(n).padStart(6)} × ${f(ms / n).padStart(9)}  ${key}`);
  process.stderr.write(`${lines.join('\n')}\n`);
});

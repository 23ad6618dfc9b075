/**
 * The webhook delivery benchmark, on PostgreSQL (a fresh database, twofold_bench_webhooks). It
 * prints:
 *
 * - deliveries per second: N status changes queued, then sent by W workers (each its own claim
 *   loop, as W server processes would run) to a receiver on this machine that answers 200;
 * - the delay from a status change (its transaction committed) to its delivery arriving at the
 *   receiver, p50 and p99, while changes keep coming: first with the workers only polling every
 *   second (as before issue #26), then as the server runs them, polling every second and woken by
 *   LISTEN/NOTIFY when deliveries are committed (each worker its own listener connection, as W
 *   server processes would have).
 *
 *   npx tsx bench/webhooks.ts [--deliveries 2000] [--workers 2] [--changes 200]
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { eq, inArray } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../server/db/client.ts';
import { donations, organizations, webhookDeliveries, webhooks } from '../server/db/schema.ts';
import { demoOrganizationNames, seedDemo } from '../server/db/seed.ts';
import { memoryLogger } from '../server/http/logger.ts';
import { postgresWakeups, wakeChannels } from '../server/jobs/wakeups.ts';
import { createWebhookWorker } from '../server/jobs/webhook-worker.ts';
import * as webhookEvents from '../server/modules/integrations/webhook-events.ts';
import { newSigningSecret } from '../server/modules/integrations/webhooks.service.ts';
import { benchDatabaseUrl, ms, percentile, serverUrl } from './shared.ts';

const { values } = parseArgs({
  options: {
    deliveries: { type: 'string', default: '2000' },
    workers: { type: 'string', default: '2' },
    changes: { type: 'string', default: '200' },
  },
});
const total = Number(values.deliveries);
const workerCount = Number(values.workers);
const changes = Number(values.changes);
const name = 'twofold_bench_webhooks';

const admin = new pg.Client({ connectionString: `${serverUrl()}/postgres` });
await admin.connect();
await admin.query(`drop database if exists ${name} with (force)`);
await admin.query(`create database ${name}`);
await admin.end();
const database = await openDatabase({ databaseUrl: benchDatabaseUrl(name) });
await database.migrate();
await seedDemo(database.db);
const db = database.db;

// The receiver: notes when each match's delivery arrives.
const arrivals = new Map<number, number>();
let received = 0;
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => {
    body += chunk;
  });
  req.on('end', () => {
    received++;
    const id = (JSON.parse(body) as { data: { donation: { id: number } } }).data.donation.id;
    if (!arrivals.has(id)) arrivals.set(id, performance.now());
    res.writeHead(200).end('ok');
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const port = (receiver.address() as AddressInfo).port;

const [org] = await db
  .select()
  .from(organizations)
  .where(eq(organizations.name, demoOrganizationNames.hopeHarbor));
if (!org) throw new Error('no demo organization');
await db
  .insert(webhooks)
  .values({ organization_id: org.id, url: `127.0.0.1:${port}/hook`, secret: newSigningSecret() });

async function newMatches(count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let start = 0; start < count; start += 500) {
    const rows = await db
      .insert(donations)
      .values(
        Array.from({ length: Math.min(500, count - start) }, () => ({
          organization_id: org?.id ?? 0,
          amount_cents: 5000,
          donated_at: new Date(),
          status_id: 23,
        })),
      )
      .returning({ id: donations.id });
    ids.push(...rows.map((r) => r.id));
  }
  return ids;
}

const workers = (pollMs: number) =>
  Array.from({ length: workerCount }, () =>
    createWebhookWorker({
      db,
      logger: memoryLogger(),
      outbound: { allowPrivate: true },
      pollMs,
      // No partner app subscriptions here: nothing sealed to open.
      secret: 'bench-secret',
    }),
  );

// 1. Throughput: queue them all, then send.
const ids = await newMatches(total);
for (let i = 0; i < ids.length; i += 500) {
  const batch = ids.slice(i, i + 500);
  await db.transaction(async (tx) => {
    await tx.update(donations).set({ status_id: 4 }).where(inArray(donations.id, batch));
    await webhookEvents.statusChanged(tx, batch);
  });
}
const started = performance.now();
const fast = workers(5);
for (const w of fast) w.start();
while (received < total) await new Promise((resolve) => setTimeout(resolve, 20));
const seconds = (performance.now() - started) / 1000;
await Promise.all(fast.map((w) => w.stop()));
console.log(
  `Webhook deliveries: ${total} to a local receiver with ${workerCount} workers in ${seconds.toFixed(2)} s`,
);
console.log(`  ${(total / seconds).toFixed(0)} deliveries/s`);

// 2. Delay from a status change to its delivery, workers polling every second (the server's
// setting), without and then with wake-ups.
async function delays(woken: boolean) {
  arrivals.clear();
  const committed = new Map<number, number>();
  const live = workers(1000);
  const listeners = woken
    ? live.map(() => postgresWakeups({ connectionString: benchDatabaseUrl(name) }))
    : [];
  for (const [i, w] of live.entries()) listeners[i]?.subscribe(wakeChannels.webhooks, w.wake);
  await Promise.all(listeners.map((l) => l.ready()));
  for (const w of live) w.start();
  for (const id of await newMatches(changes)) {
    await db.transaction(async (tx) => {
      await tx.update(donations).set({ status_id: 4 }).where(eq(donations.id, id));
      await webhookEvents.statusChanged(tx, [id]);
    });
    committed.set(id, performance.now());
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  while ([...committed.keys()].some((id) => !arrivals.has(id)))
    await new Promise((resolve) => setTimeout(resolve, 20));
  await Promise.all(live.map((w) => w.stop()));
  await Promise.all(listeners.map((l) => l.close()));
  return [...committed].map(([id, at]) => (arrivals.get(id) ?? at) - at);
}
const polled = await delays(false);
const woken = await delays(true);
console.log(`Status change to delivery (${changes} changes, one every ~10 ms, 1 s polling):`);
console.log(
  '  before issue #26 (one round a poll, no wake-ups): p50 1.7 s  p99 2.9 s (recorded in the issue)',
);
console.log(
  `  polling only (no wake-ups):   p50 ${ms(percentile(polled, 50))}  p99 ${ms(percentile(polled, 99))}`,
);
console.log(
  `  woken by LISTEN/NOTIFY (now): p50 ${ms(percentile(woken, 50))}  p99 ${ms(percentile(woken, 99))}`,
);
const failed = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.status, 'failed'));
console.log(`  failed deliveries: ${failed.length}`);

receiver.close();
await database.close();

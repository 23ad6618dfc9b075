import { request } from 'node:http';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { outbox, scheduledJobs, webhookDeliveries, webhooks } from '../db/schema.ts';
import { seedDemo } from '../db/seed.ts';
import { memoryLogger } from '../http/logger.ts';
import { createMailWorker } from '../jobs/mail-worker.ts';
import { devMailboxTransport } from '../mail/transport.ts';
import { startServer } from '../serve.ts';
import { call, demoOrganizationIds, signIn } from '../test-helpers.ts';
import { createTestDatabase, type TestDatabase, testConfig } from '../testing.ts';
import { startProcessMetrics } from './metrics.ts';

/** Ports of this file's servers: E2E_PORT 9500's range (+1 … +50). */
const metricsPort = 9531;
const appPort = 9532;
// The second server of a test listens elsewhere: fetch keeps connections to the first one alive,
// and may pick one for a request before it has seen that the shutdown closed it ("other side closed").
const guardedMetricsPort = 9535;
const guardedAppPort = 9536;
const token = 'metrics-token-0123456789abcdef0123';

let testDatabase: TestDatabase;
let database: Database;

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  database = await testDatabase.open();
  await database.migrate();
  await seedDemo(database.db);
  startProcessMetrics();
});
afterAll(async () => {
  await database.close();
  await testDatabase.drop();
});

const appWith = (metrics: Partial<Config['metrics']>) =>
  createApp({
    config: testConfig({ metrics: { token: undefined, port: undefined, host: '127.0.0.1', ...metrics } }),
    db: database.db,
    logger: memoryLogger(),
  }).app;

/** A GET with a Host header of our choosing (fetch does not let a caller set Host). */
function statusWithHost(port: number, path: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

type Sample = { name: string; labels: Record<string, string>; value: number };

/**
 * Parses the Prometheus text exposition format (version 0.0.4) strictly: every line is a HELP, a
 * TYPE or a sample of a declared family, label values quoted and escaped, values numbers.
 */
function parseExposition(text: string): Sample[] {
  const families = new Map<string, string>();
  const samples: Sample[] = [];
  expect(text.endsWith('\n')).toBe(true);
  for (const line of text.split('\n').slice(0, -1)) {
    if (line === '') continue;
    const help = /^# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line);
    if (help) continue;
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      families.set(type[1] ?? '', type[2] ?? '');
      continue;
    }
    const sample =
      /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (-?[0-9.eE+-]+|[Nn]a[Nn]|\+Inf|-Inf)( -?\d+)?$/.exec(line);
    if (!sample) throw new Error(`not a Prometheus line: ${line}`);
    const name = sample[1] ?? '';
    const family = [...families.keys()].find(
      (f) => name === f || (/_(bucket|sum|count|total|created)$/.test(name) && name.startsWith(f)),
    );
    if (!family) throw new Error(`sample of an undeclared family: ${line}`);
    const labels: Record<string, string> = {};
    const labelText = sample[3] ?? '';
    const labelPattern = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\["\\n])*)"(,|$)/y;
    let at = 0;
    while (at < labelText.length) {
      labelPattern.lastIndex = at;
      const label = labelPattern.exec(labelText);
      if (!label) throw new Error(`bad labels in: ${line}`);
      labels[label[1] ?? ''] = label[2] ?? '';
      at = labelPattern.lastIndex;
    }
    samples.push({ name, labels, value: Number(sample[4]) });
  }
  return samples;
}

async function scrape(app: ReturnType<typeof appWith>) {
  const res = await app.request('/metrics', { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  return { text, samples: parseExposition(text) };
}

const sampleValue = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;

describe('where /metrics answers', () => {
  it('nowhere by default: the public port answers 404 as for any unknown path', async () => {
    const res = await call(appWith({}), 'GET', '/metrics');
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ message: 'Not found' });
    expect(res.text).not.toContain('http_requests_total');
  });

  it('with METRICS_TOKEN, on the public port to a caller with the token only', async () => {
    const app = appWith({ token });
    const none = await call(app, 'GET', '/metrics');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    expect(none.json.message).toContain('METRICS_TOKEN');
    const wrong = await call(app, 'GET', '/metrics', { token: `${token}x` });
    expect(wrong.status).toBe(401);
    const almost = await call(app, 'GET', '/metrics', { token: token.replace(/.$/, 'X') });
    expect(almost.status).toBe(401);
    const { samples } = await scrape(app);
    expect(samples.length).toBeGreaterThan(20);
  });

  it('with METRICS_PORT, on that port (loopback) and never the public one; the host check and the token apply there too', async () => {
    const running = await startServer({
      config: testConfig({
        port: appPort,
        host: '127.0.0.1',
        logRequests: false,
        metrics: { token: undefined, port: metricsPort, host: '127.0.0.1' },
      }),
      database: { ...database, close: async () => {} },
      logger: memoryLogger(),
    });
    try {
      expect(running.metricsPort).toBe(metricsPort);
      const publicPort = await fetch(`http://127.0.0.1:${appPort}/metrics`);
      expect(publicPort.status).toBe(404);
      const own = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(own.status).toBe(200);
      const text = await own.text();
      expect(() => parseExposition(text)).not.toThrow();
      expect(text).toContain('nodejs_eventloop_lag_seconds');
      // A page that rebound its own name to this machine: its Host is that name.
      expect(await statusWithHost(metricsPort, '/metrics', 'attacker.example')).toBe(421);
      const elsewhere = await fetch(`http://127.0.0.1:${metricsPort}/api/health/live`);
      expect(elsewhere.status).toBe(404);
    } finally {
      await running.shutdown();
    }
    const guarded = await startServer({
      config: testConfig({
        port: guardedAppPort,
        host: '127.0.0.1',
        logRequests: false,
        metrics: { token, port: guardedMetricsPort, host: '127.0.0.1' },
      }),
      database: { ...database, close: async () => {} },
      logger: memoryLogger(),
    });
    try {
      expect((await fetch(`http://127.0.0.1:${guardedMetricsPort}/metrics`)).status).toBe(401);
      const ok = await fetch(`http://127.0.0.1:${guardedMetricsPort}/metrics`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(ok.status).toBe(200);
      expect(
        (
          await fetch(`http://127.0.0.1:${guardedAppPort}/metrics`, {
            headers: { authorization: `Bearer ${token}` },
          })
        ).status,
      ).toBe(404);
    } finally {
      await guarded.shutdown();
    }
  });
});

describe('what /metrics says', () => {
  it('counts requests by route template and status: no ids, no tokens, no unknown paths in a label', async () => {
    const app = appWith({ token });
    const admin = await signIn(app, 'admin@twofold.test');
    const { hopeHarbor } = await demoOrganizationIds(database.db);
    const before = await scrape(app);
    const orgRoute = { method: 'GET', route: '/api/organization/:id', status: '200' };
    // Counted from a "before": the registry is the process's, and other test files in this worker
    // (vitest.config.ts: the server suites share modules) have already sent requests.
    const started = sampleValue(before.samples, 'http_requests_total', orgRoute) ?? 0;
    const notFound = { method: 'GET', route: '/api/donation/:id', status: '404' };
    const unmatched = { method: 'GET', route: 'unmatched', status: '404' };
    const notFoundBefore = sampleValue(before.samples, 'http_requests_total', notFound) ?? 0;
    const unmatchedBefore = sampleValue(before.samples, 'http_requests_total', unmatched) ?? 0;
    for (let i = 0; i < 3; i += 1)
      await call(app, 'GET', `/api/organization/${hopeHarbor}`, { token: admin });
    await call(app, 'GET', '/api/donation/987654321', { token: admin });
    await call(app, 'GET', '/api/esign/secret-signing-token-abcdef123456');
    await call(app, 'GET', '/api/zzz-unknown-path-4242');
    const { text, samples } = await scrape(app);
    expect(sampleValue(samples, 'http_requests_total', orgRoute)).toBe(started + 3);
    expect(sampleValue(samples, 'http_request_duration_seconds_count', orgRoute)).toBeGreaterThanOrEqual(
      started + 3,
    );
    expect(
      sampleValue(samples, 'http_request_duration_seconds_bucket', { ...orgRoute, le: '+Inf' }),
    ).toBeGreaterThanOrEqual(started + 3);
    expect(sampleValue(samples, 'http_requests_total', notFound)).toBe(notFoundBefore + 1);
    expect(samples.some((s) => s.labels.route === '/api/esign/:token')).toBe(true);
    expect(sampleValue(samples, 'http_requests_total', unmatched)).toBe(unmatchedBefore + 1);
    for (const raw of [
      '987654321',
      'secret-signing-token',
      'zzz-unknown-path',
      `/api/organization/${hopeHarbor}`,
    ])
      expect(text).not.toContain(raw);
    const routes = new Set(samples.flatMap((s) => (s.labels.route ? [s.labels.route] : [])));
    for (const route of routes)
      expect(route === 'unmatched' || /^\/[a-zA-Z0-9/_:.*{}\-[\]\\,]*$/.test(route)).toBe(true);
  });

  it('reads each queue’s depth, the age of its oldest due item and its given-up items from the rows', async () => {
    const app = appWith({ token });
    const empty = await scrape(app);
    for (const queue of [
      'mail',
      'webhook',
      'scheduler',
      'mail_render',
      'employer_screening',
      'bills',
      'esign_delivery',
    ])
      expect(sampleValue(empty.samples, 'twofold_queue_depth', { queue })).toBe(0);
    const mail = { to: 'someone@example.org', subject: 's', html: 'h', text: 't' };
    await database.db.insert(outbox).values([
      { ...mail, next_attempt_at: sql`now() - interval '300 seconds'` },
      { ...mail, next_attempt_at: sql`now() - interval '10 seconds'` },
      { ...mail, next_attempt_at: sql`now() - interval '1 second'` },
      { ...mail, next_attempt_at: sql`now() + interval '1 hour'` },
      { ...mail, status: 'failed' },
      { ...mail, status: 'sent' },
    ]);
    const { hopeHarbor } = await demoOrganizationIds(database.db);
    const [hook] = await database.db
      .insert(webhooks)
      .values({
        organization_id: hopeHarbor,
        url: 'example.org/hook',
        event: 'status',
        token: 't',
        secret: 's',
      })
      .returning();
    const delivery = {
      webhook_id: hook?.id ?? 0,
      event: 'status',
      message_id: 'msg_1',
      payload: {},
      give_up_at: sql`now() + interval '1 day'`,
    };
    await database.db.insert(webhookDeliveries).values([
      { ...delivery, next_attempt_at: sql`now() - interval '60 seconds'` },
      { ...delivery, next_attempt_at: sql`now() + interval '5 minutes'` },
    ]);
    await database.db.insert(scheduledJobs).values([
      { kind: 'digest', key: 'due-1', run_at: sql`now() - interval '30 seconds'` },
      {
        kind: 'digest',
        key: 'claimed',
        run_at: sql`now() - interval '30 seconds'`,
        locked_until: sql`now() + interval '1 minute'`,
      },
      { kind: 'digest', key: 'later', run_at: sql`now() + interval '1 day'` },
    ]);
    const { samples } = await scrape(app);
    expect(sampleValue(samples, 'twofold_queue_depth', { queue: 'mail' })).toBe(3);
    expect(
      sampleValue(samples, 'twofold_queue_oldest_due_age_seconds', { queue: 'mail' }),
    ).toBeGreaterThanOrEqual(300);
    expect(sampleValue(samples, 'twofold_queue_oldest_due_age_seconds', { queue: 'mail' })).toBeLessThan(400);
    expect(sampleValue(samples, 'twofold_queue_failed', { queue: 'mail' })).toBe(1);
    expect(sampleValue(samples, 'twofold_queue_depth', { queue: 'webhook' })).toBe(1);
    expect(
      sampleValue(samples, 'twofold_queue_oldest_due_age_seconds', { queue: 'webhook' }),
    ).toBeGreaterThanOrEqual(60);
    expect(sampleValue(samples, 'twofold_queue_depth', { queue: 'scheduler' })).toBe(1);
    expect(
      sampleValue(samples, 'twofold_queue_oldest_due_age_seconds', { queue: 'scheduler' }),
    ).toBeGreaterThanOrEqual(30);
    expect(sampleValue(samples, 'twofold_queue_depth', { queue: 'bills' })).toBe(0);
    expect(sampleValue(samples, 'twofold_queue_oldest_due_age_seconds', { queue: 'bills' })).toBe(0);
    expect(sampleValue(samples, 'twofold_queue_scrape_success')).toBe(1);

    // Delivered, the queue is empty again, and the attempts are counted.
    const delivered = (s: typeof samples) =>
      sampleValue(s, 'twofold_delivery_attempts_total', { queue: 'mail', result: 'delivered' }) ?? 0;
    const worker = createMailWorker({
      db: database.db,
      transport: devMailboxTransport,
      logger: memoryLogger(),
    });
    await worker.runOnce();
    const after = await scrape(app);
    expect(sampleValue(after.samples, 'twofold_queue_depth', { queue: 'mail' })).toBe(0);
    expect(sampleValue(after.samples, 'twofold_queue_oldest_due_age_seconds', { queue: 'mail' })).toBe(0);
    expect(delivered(after.samples) - delivered(samples)).toBe(3);
  });

  it("shows the database pool, and Node's event-loop lag", async () => {
    const { samples } = await scrape(appWith({ token }));
    const total = sampleValue(samples, 'twofold_db_pool_connections', { state: 'total' });
    const max = sampleValue(samples, 'twofold_db_pool_max');
    if (database.kind === 'pglite') {
      expect([total, max]).toEqual([1, 1]);
    } else {
      expect(total).toBeGreaterThanOrEqual(1);
      expect(max).toBe(10);
    }
    expect(sampleValue(samples, 'twofold_db_pool_connections', { state: 'waiting' })).toBe(0);
    expect(sampleValue(samples, 'twofold_db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(0);
    expect(sampleValue(samples, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(sampleValue(samples, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
  });
});

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { Webhook as Verifier } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  donationNotifications,
  donations,
  webhookAttempts,
  webhookDeliveries,
  webhooks,
} from '../../db/schema.ts';
import { postJson } from '../../http/outbound.ts';
import { createWebhookWorker } from '../../jobs/webhook-worker.ts';
import { call, demoOrganizationIds, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import { hashToken } from '../auth/tokens.ts';
import { recordOpen } from '../notifications/notifications.service.ts';
import * as webhookEvents from './webhook-events.ts';

/** A local endpoint that answers with whatever the test queues (200 when nothing is queued). */
type Received = { headers: IncomingHttpHeaders; body: string; path: string };
let receiver: Server;
let port = 0;
let received: Received[] = [];
let answers: Array<{ status: number; body?: string; headers?: Record<string, string>; hang?: boolean }> = [];

let t: TestContext;
let hope = 0;
let maple = 0;
let admin = '';
/** The workers' clock: real time plus an offset tests move forward to reach retries. */
let offsetMs = 0;
const now = () => new Date(Date.now() + offsetMs);
/** Moves the workers' clock to a moment (later than now). */
const moveClockTo = (at: number) => {
  offsetMs = at - Date.now();
};

function worker(options: { allowPrivate?: boolean; lookup?: LookupFunction; timeoutMs?: number } = {}) {
  return createWebhookWorker({
    db: t.db,
    logger: t.logger,
    outbound: {
      allowPrivate: options.allowPrivate ?? true,
      timeoutMs: options.timeoutMs ?? 2000,
      ...(options.lookup ? { lookup: options.lookup } : {}),
    },
    now,
    secret: t.config.jwtSecret,
  });
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body, path: req.url ?? '' });
      const answer = answers.shift() ?? { status: 200, body: 'ok' };
      if (answer.hang) return;
      res.writeHead(answer.status, answer.headers ?? {});
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  port = (receiver.address() as AddressInfo).port;
  t = await createTestContext();
  const demo = await demoOrganizationIds(t.db);
  hope = demo.hopeHarbor;
  maple = demo.mapleStreet;
  admin = await signIn(t.app, 'admin@twofold.test');
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await t.close();
});
beforeEach(async () => {
  received = [];
  answers = [];
  offsetMs = 0;
  // Each test starts without webhooks (and so without queued deliveries).
  await t.db.delete(webhooks);
});

async function newWebhook(orgId: number, update: { url: string; event?: string; token?: string }) {
  const created = await call(t.app, 'POST', `/api/organization/${orgId}/webhook`, { token: admin });
  expect(created.status).toBe(201);
  const hook = created.json.webhooks.at(-1);
  const updated = await call(t.app, 'PUT', `/api/webhook/${hook.id}`, {
    token: admin,
    body: { event: 'status', token: 'receiver-token', ...update },
  });
  expect(updated.status).toBe(200);
  return updated.json.webhooks.find((w: { id: number }) => w.id === hook.id) as {
    id: number;
    url: string;
    token: string;
    secret: string;
    event: string;
  };
}

async function storedDonation(orgId: number, status = 23) {
  const [row] = await t.db
    .insert(donations)
    .values({
      organization_id: orgId,
      amount_cents: 5000,
      matched_cents: 5000,
      donated_at: new Date('2025-03-01T12:00:00Z'),
      status_id: status,
      company_name: 'Acme Widgets',
      custom: { campaign: 'spring', source: 'web' },
    })
    .returning();
  return row?.id ?? 0;
}

/** A status change as the service makes it: the new status and its events in one transaction. */
async function setStatus(donationId: number, status: number) {
  await t.db.transaction(async (tx) => {
    await tx.update(donations).set({ status_id: status }).where(eq(donations.id, donationId));
    await webhookEvents.statusChanged(tx, [donationId]);
  });
}

const deliveriesOf = (webhookId: number) =>
  t.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.webhook_id, webhookId))
    .orderBy(webhookDeliveries.id);

describe('the webhook calls', () => {
  it('creates with an empty body, stores the URL without its scheme, updates and deletes', async () => {
    const created = await call(t.app, 'POST', `/api/organization/${hope}/webhook`, { token: admin });
    expect(created.status).toBe(201);
    const hook = created.json.webhooks[0];
    expect(hook).toMatchObject({ url: '', event: 'status', last_code: null });
    expect(hook.secret).toMatch(/^whsec_/);
    const updated = await call(t.app, 'PUT', `/api/webhook/${hook.id}`, {
      token: admin,
      body: { url: 'HTTPS://hooks.example.org/twofold', token: 'abc', event: 'reminder_sent' },
    });
    expect(updated.status).toBe(200);
    expect(updated.json.webhooks[0]).toMatchObject({
      url: 'hooks.example.org/twofold',
      token: 'abc',
      event: 'reminder_sent',
    });
    const badEvent = await call(t.app, 'PUT', `/api/webhook/${hook.id}`, {
      token: admin,
      body: { url: 'hooks.example.org', event: 'everything' },
    });
    expect(badEvent.status).toBe(400);
    expect(badEvent.json.message).toContain('event must be status, first_open or reminder_sent');
    const removed = await call(t.app, 'DELETE', `/api/webhook/${hook.id}`, { token: admin });
    expect(removed).toMatchObject({ status: 200, json: { webhooks: [] } });
  });
});

describe('delivery', () => {
  it('posts a status change to a main status with the spec payload, signed the Standard Webhooks way', async () => {
    const hook = await newWebhook(hope, { url: `http://127.0.0.1:${port}/hook` });
    const id = await storedDonation(hope);
    // Through the portal's own call: Submitted (4) is a main status.
    const confirm = await call(t.app, 'POST', '/api/donation/confirm', {
      token: admin,
      body: { donation_ids: [id], status: 'submitted' },
    });
    expect(confirm.status).toBe(200);
    expect(await worker().runOnce()).toBe(1);
    expect(received).toHaveLength(1);
    const [request] = received;
    if (!request) throw new Error('nothing received');
    const verified = new Verifier(hook.secret).verify(request.body, {
      'webhook-id': String(request.headers['webhook-id']),
      'webhook-timestamp': String(request.headers['webhook-timestamp']),
      'webhook-signature': String(request.headers['webhook-signature']),
    }) as Record<string, unknown>;
    expect(verified).toMatchObject({
      event: 'status',
      bearer_token: 'receiver-token',
      data: {
        donation: {
          id,
          amount: 50,
          matched: 50,
          status_id: 4,
          status_string: 'Submitted',
          custom: { campaign: 'spring', medium: null, source: 'web' },
        },
        donor: { id: null },
        timestamp: { timezone_type: 3, timezone: 'UTC' },
        company: { name: 'Acme Widgets' },
      },
    });
    expect((verified.data as { timestamp: { date: string } }).timestamp.date).toMatch(
      /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/,
    );
    // A tampered body fails verification.
    expect(() =>
      new Verifier(hook.secret).verify(request.body.replace('"amount":50', '"amount":51'), {
        'webhook-id': String(request.headers['webhook-id']),
        'webhook-timestamp': String(request.headers['webhook-timestamp']),
        'webhook-signature': String(request.headers['webhook-signature']),
      }),
    ).toThrow();
    const [stored] = await t.db.select().from(webhooks).where(eq(webhooks.id, hook.id));
    expect(stored?.last_code).toBe(200);
    expect((await deliveriesOf(hook.id))[0]?.status).toBe('delivered');
  });

  it("sends nothing for a change to a status that is not a main one, nor to another event's webhook", async () => {
    const hook = await newWebhook(hope, { url: `127.0.0.1:${port}/hook` });
    await newWebhook(hope, { url: `127.0.0.1:${port}/opens`, event: 'first_open' });
    const id = await storedDonation(hope, 4);
    await setStatus(id, 13); // No Charge (internal)
    await setStatus(id, 24); // Awaiting Donor Opt-In
    expect(await deliveriesOf(hook.id)).toHaveLength(0);
    await setStatus(id, 20); // Donor No Response: main
    await setStatus(id, 28); // Donor Engaged: main
    expect(
      (await deliveriesOf(hook.id)).map(
        (d) => (d.payload as { data: { donation: { status_id: number } } }).data.donation.status_id,
      ),
    ).toEqual([20, 28]);
    await worker().runOnce();
    await worker().runOnce();
    expect(received.map((r) => r.path)).toEqual(['/hook', '/hook']);
  });

  it("hears about a chapter's matches on the parent's webhook, and never about another organization's", async () => {
    const demo = await demoOrganizationIds(t.db);
    const parentHook = await newWebhook(hope, { url: `127.0.0.1:${port}/parent` });
    const otherHook = await newWebhook(maple, { url: `127.0.0.1:${port}/other` });
    await setStatus(await storedDonation(demo.northShore), 4);
    expect(await deliveriesOf(parentHook.id)).toHaveLength(1);
    expect(await deliveriesOf(otherHook.id)).toHaveLength(0);
  });

  it('queues a batch of matches (a file import) in match order, each heard one at a main status once', async () => {
    const demo = await demoOrganizationIds(t.db);
    const hook = await newWebhook(hope, { url: `127.0.0.1:${port}/batch` });
    const ids = [
      await storedDonation(hope, 4),
      await storedDonation(demo.northShore, 7),
      await storedDonation(maple, 4), // nobody listens to Maple Street
      await storedDonation(hope, 24), // not a main status
      await storedDonation(demo.northShore, 1),
    ];
    const queuedCount = await t.db.transaction((tx) => webhookEvents.statusChanged(tx, [...ids].reverse()));
    expect(queuedCount).toBe(3);
    const queued = await deliveriesOf(hook.id);
    expect(queued.map((d) => d.donation_id)).toEqual([ids[0], ids[1], ids[4]]);
    expect(
      queued.map((d) => (d.payload as { data: { donation: { status_id: number } } }).data.donation.status_id),
    ).toEqual([4, 7, 1]);
    expect(new Set(queued.map((d) => d.message_id)).size).toBe(3);
    expect(queued[1]?.payload).toMatchObject({
      event: 'status',
      data: {
        donation: {
          id: ids[1],
          amount: 50,
          status_id: 7,
          custom: { campaign: 'spring', medium: null, source: 'web' },
        },
        company: { name: 'Acme Widgets' },
      },
    });
    expect(queued.every((d) => d.status === 'pending' && d.give_up_at > d.created_at)).toBe(true);
  });

  it('retries a failed delivery with backoff, stores last_code, and logs each attempt', async () => {
    const hook = await newWebhook(hope, { url: `127.0.0.1:${port}/hook` });
    await setStatus(await storedDonation(hope), 4);
    answers = [{ status: 503, body: 'down for maintenance' }];
    await worker().runOnce();
    let [delivery] = await deliveriesOf(hook.id);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, last_code: 503 });
    expect(delivery?.next_attempt_at.getTime()).toBeGreaterThanOrEqual(now().getTime() + 4000);
    expect((await t.db.select().from(webhooks).where(eq(webhooks.id, hook.id)))[0]?.last_code).toBe(503);
    // Not due yet: nothing is sent.
    expect(await worker().runOnce()).toBe(0);
    offsetMs += 6000;
    expect(await worker().runOnce()).toBe(1);
    [delivery] = await deliveriesOf(hook.id);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 2, last_code: 200 });
    expect(received).toHaveLength(2);
    expect(received[0]?.headers['webhook-id']).toBe(received[1]?.headers['webhook-id']);
    const log = await call(t.app, 'GET', `/api/webhook/${hook.id}/deliveries`, { token: admin });
    expect(log.status).toBe(200);
    expect(log.json.deliveries[0].log.map((a: { status_code: number }) => a.status_code)).toEqual([200, 503]);
    expect(log.json.deliveries[0].log[1].response).toBe('down for maintenance');
    expect(log.json.deliveries[0].log[1].duration_ms).toEqual(expect.any(Number));
  });

  it('keeps every attempt of a delivery that failed twice and then went through, each with its error', async () => {
    const hook = await newWebhook(hope, { url: `127.0.0.1:${port}/flaky` });
    await setStatus(await storedDonation(hope), 4);
    answers = [
      { status: 0, hang: true },
      { status: 500, body: 'boom' },
    ];
    await worker({ timeoutMs: 300 }).runOnce();
    offsetMs += 6000;
    await worker().runOnce();
    offsetMs += 6 * 60_000;
    await worker().runOnce();
    const [delivery] = await deliveriesOf(hook.id);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 3, last_code: 200 });

    const log = await call(t.app, 'GET', `/api/webhook/${hook.id}/deliveries`, { token: admin });
    expect(log.status).toBe(200);
    const attempts = log.json.deliveries[0].log as Array<Record<string, unknown>>;
    // Newest first; the two failures before the success are all there.
    expect(attempts.map((a) => [a.status_code, a.ok])).toEqual([
      [200, true],
      [500, false],
      [null, false],
    ]);
    expect(attempts[0]).toMatchObject({ error: null, response: 'ok' });
    expect(attempts[1]).toMatchObject({ error: 'HTTP 500', response: 'boom' });
    expect(attempts[2]?.error).toEqual(expect.stringMatching(/\S/));
    expect(attempts[2]?.error).not.toBe('HTTP 0');
    for (const a of attempts) {
      expect(Number.isNaN(Date.parse(String(a.at)))).toBe(false);
      expect(a.duration_ms).toEqual(expect.any(Number));
    }
    expect(Date.parse(String(attempts[0]?.at))).toBeGreaterThan(Date.parse(String(attempts[2]?.at)));
  });

  it('gives up after about a day of failures', async () => {
    const hook = await newWebhook(hope, { url: `127.0.0.1:${port}/hook` });
    await setStatus(await storedDonation(hope), 4);
    for (let i = 0; i < 20; i++) {
      answers = [{ status: 500 }];
      await worker().runOnce();
      const [delivery] = await deliveriesOf(hook.id);
      if (delivery?.status !== 'pending') break;
      moveClockTo(delivery.next_attempt_at.getTime() + 1);
    }
    const [delivery] = await deliveriesOf(hook.id);
    expect(delivery?.status).toBe('failed');
    expect(delivery?.attempts).toBeGreaterThanOrEqual(6);
    expect((delivery?.created_at.getTime() ?? 0) + 24 * 3600_000).toBeLessThanOrEqual(now().getTime());
  });

  it("delivers a match's events in order: a later one waits while an earlier one is retried", async () => {
    const hook = await newWebhook(hope, { url: `127.0.0.1:${port}/hook` });
    const id = await storedDonation(hope);
    const other = await storedDonation(hope);
    await setStatus(id, 4);
    await setStatus(id, 1);
    await setStatus(other, 4);
    answers = [{ status: 500 }];
    await worker().runOnce();
    // The first of the match failed; its second waits; the other match is not held up.
    const statusesSent = () =>
      received.map((r) => {
        const data = (JSON.parse(r.body) as { data: { donation: { id: number; status_id: number } } }).data
          .donation;
        return `${data.id}:${data.status_id}`;
      });
    expect(statusesSent()).toEqual([`${id}:4`, `${other}:4`]);
    offsetMs += 6000;
    await worker().runOnce();
    await worker().runOnce();
    expect(statusesSent()).toEqual([`${id}:4`, `${other}:4`, `${id}:4`, `${id}:1`]);
    expect((await deliveriesOf(hook.id)).map((d) => d.status)).toEqual([
      'delivered',
      'delivered',
      'delivered',
    ]);
  });

  it("counts a delivery the database queued within the worker clock's millisecond as due", async () => {
    const hook = await newWebhook(hope, { url: `127.0.0.1:${port}/hook` });
    await setStatus(await storedDonation(hope), 4);
    // The database stamps to the microsecond; the worker's clock reads whole milliseconds.
    const at = Date.now() + 10_000;
    await t.db
      .update(webhookDeliveries)
      .set({ next_attempt_at: sql`${new Date(at).toISOString()}::timestamptz + interval '500 microseconds'` })
      .where(eq(webhookDeliveries.webhook_id, hook.id));
    const clockAt = (ms: number) =>
      createWebhookWorker({
        db: t.db,
        logger: t.logger,
        outbound: { allowPrivate: true },
        now: () => new Date(ms),
        secret: t.config.jwtSecret,
      });
    expect(await clockAt(at - 1).runOnce()).toBe(0);
    expect(await clockAt(at).runOnce()).toBe(1);
    expect(received).toHaveLength(1);
  });

  it('loses nothing across a restart: a claimed delivery whose worker died is sent by the next one', async () => {
    const hook = await newWebhook(hope, { url: `127.0.0.1:${port}/hook` });
    await setStatus(await storedDonation(hope), 4);
    // A worker claimed it (attempt counted, leased for a minute) and its process died.
    await t.db
      .update(webhookDeliveries)
      .set({ attempts: 1, next_attempt_at: new Date(now().getTime() + 60_000) })
      .where(eq(webhookDeliveries.webhook_id, hook.id));
    const restarted = worker();
    expect(await restarted.runOnce()).toBe(0);
    offsetMs += 61_000;
    expect(await restarted.runOnce()).toBe(1);
    expect(received).toHaveLength(1);
    expect((await deliveriesOf(hook.id))[0]?.status).toBe('delivered');
  });

  it('sends each delivery once when several workers run at the same time', async () => {
    const hook = await newWebhook(hope, { url: `127.0.0.1:${port}/hook` });
    for (let i = 0; i < 6; i++) await setStatus(await storedDonation(hope), 4);
    const workers = [worker(), worker(), worker()];
    await Promise.all(workers.map((w) => w.runOnce()));
    await Promise.all(workers.map((w) => w.runOnce()));
    const ids = received.map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
    expect((await deliveriesOf(hook.id)).every((d) => d.status === 'delivered')).toBe(true);
  });

  it('queues first_open when a donor first opens an email, and reminder_sent when asked', async () => {
    const opens = await newWebhook(hope, { url: `127.0.0.1:${port}/opens`, event: 'first_open' });
    const reminders = await newWebhook(hope, { url: `127.0.0.1:${port}/reminders`, event: 'reminder_sent' });
    const id = await storedDonation(hope);
    await t.db.insert(donationNotifications).values({
      donation_id: id,
      organization_id: hope,
      status_id: 23,
      to_email: 'donor@example.org',
      subject: 'Where do you work?',
      html: '<p>Hi</p>',
      text: 'Hi',
      open_token_hash: hashToken('open-token-1'),
    });
    await recordOpen(t.db, 'open-token-1');
    await recordOpen(t.db, 'open-token-1'); // a second open is not a first open
    expect(await deliveriesOf(opens.id)).toHaveLength(1);
    await t.db.transaction((tx) => webhookEvents.reminderSent(tx, id));
    expect(await deliveriesOf(reminders.id)).toHaveLength(1);
    await worker().runOnce();
    expect(received.map((r) => [r.path, JSON.parse(r.body).event]).sort()).toEqual([
      ['/opens', 'first_open'],
      ['/reminders', 'reminder_sent'],
    ]);
  });

  it('sends a test event and redelivers a delivery with the same message id', async () => {
    const hook = await newWebhook(hope, { url: `127.0.0.1:${port}/hook` });
    const test = await call(t.app, 'POST', `/api/webhook/${hook.id}/test`, { token: admin });
    expect(test.status).toBe(202);
    await worker().runOnce();
    expect(JSON.parse(received[0]?.body ?? '{}')).toMatchObject({
      event: 'test',
      bearer_token: 'receiver-token',
    });
    const again = await call(
      t.app,
      'POST',
      `/api/webhook/${hook.id}/delivery/${test.json.delivery_id}/redeliver`,
      {
        token: admin,
      },
    );
    expect(again.status).toBe(202);
    await worker().runOnce();
    expect(received).toHaveLength(2);
    expect(received[1]?.headers['webhook-id']).toBe(received[0]?.headers['webhook-id']);
    const other = await newWebhook(maple, { url: `127.0.0.1:${port}/other` });
    const wrong = await call(
      t.app,
      'POST',
      `/api/webhook/${other.id}/delivery/${test.json.delivery_id}/redeliver`,
      {
        token: admin === '' ? '' : await signIn(t.app, 'super@twofold.test'),
      },
    );
    expect(wrong).toMatchObject({ status: 404, json: { message: 'Delivery not found' } });
    const empty = await call(t.app, 'POST', `/api/organization/${hope}/webhook`, { token: admin });
    const blank = empty.json.webhooks.at(-1);
    const refused = await call(t.app, 'POST', `/api/webhook/${blank.id}/test`, { token: admin });
    expect(refused).toMatchObject({ status: 400, json: { message: 'Add the webhook URL first.' } });
  });
});

describe('the address guard (WEBHOOK_ALLOW_PRIVATE off)', () => {
  const toLoopback: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as (e: null, a: unknown[]) => void)(null, [{ address: '127.0.0.1', family: 4 }]);
    else (callback as (e: null, a: string, f: number) => void)(null, '127.0.0.1', 4);
  };

  it('refuses loopback, private, link-local and metadata addresses on every delivery, and keeps retrying', async () => {
    for (const url of [
      `localhost:${port}/hook`,
      `127.0.0.1:${port}/hook`,
      '10.1.2.3/hook',
      '192.168.1.1/hook',
      '169.254.169.254/latest/meta-data',
      '[::1]/hook',
      '[fd00:ec2::254]/x',
    ]) {
      const hook = await newWebhook(hope, { url });
      await setStatus(await storedDonation(hope), 4);
      await worker({ allowPrivate: false, timeoutMs: 1000 }).runOnce();
      const [delivery] = await deliveriesOf(hook.id);
      expect(delivery, url).toMatchObject({ status: 'pending', last_code: null });
      const [attempt] = await t.db
        .select()
        .from(webhookAttempts)
        .where(eq(webhookAttempts.delivery_id, delivery?.id ?? 0));
      expect(attempt?.response, url).toMatch(/not allowed/);
      await t.db.delete(webhooks).where(eq(webhooks.id, hook.id));
    }
    expect(received).toHaveLength(0);
  });

  it('refuses a hostname that resolves to a private address', async () => {
    const hook = await newWebhook(hope, { url: `hooks.partner.example:${port}/hook` });
    await setStatus(await storedDonation(hope), 4);
    await worker({ allowPrivate: false, lookup: toLoopback }).runOnce();
    const [delivery] = await deliveriesOf(hook.id);
    const [attempt] = await t.db
      .select()
      .from(webhookAttempts)
      .where(eq(webhookAttempts.delivery_id, delivery?.id ?? 0));
    expect(attempt?.response).toMatch(/127\.0\.0\.1.*not allowed|not allowed.*127\.0\.0\.1/);
    expect(received).toHaveLength(0);
  });

  it('refuses http, follows no redirect, gives up waiting after the timeout and reads only the start of a reply', async () => {
    await expect(postJson(`http://example.org/hook`, '{}', {}, { allowPrivate: false })).rejects.toThrow(
      'Only https:// URLs are allowed',
    );
    const local = { allowPrivate: true, timeoutMs: 500 };
    answers = [{ status: 302, headers: { location: `http://127.0.0.1:${port}/elsewhere` } }];
    const redirect = await postJson(`http://127.0.0.1:${port}/hook`, '{}', {}, local);
    expect(redirect.status).toBe(302);
    expect(received.map((r) => r.path)).toEqual(['/hook']);
    answers = [{ status: 200, hang: true }];
    await expect(postJson(`http://127.0.0.1:${port}/slow`, '{}', {}, local)).rejects.toThrow(
      'No answer within 500 ms',
    );
    answers = [{ status: 200, body: 'x'.repeat(1_000_000) }];
    const big = await postJson(
      `http://127.0.0.1:${port}/big`,
      '{}',
      {},
      { ...local, maxResponseBytes: 1024 },
    );
    expect(big.body.length).toBeLessThanOrEqual(1024);
  });
});

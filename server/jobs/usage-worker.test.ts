import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { companies, organizations, stripeUsageReports } from '../db/schema.ts';
import { memoryLogger } from '../http/logger.ts';
import { type FakeStripe, startFakeStripe } from '../modules/billing/stripe-fake.ts';
import { call, demoOrganizationIds, readyForMatching, signIn } from '../test-helpers.ts';
import { createTestContext, type TestContext } from '../testing.ts';
import { createUsageWorker, noCustomer } from './usage-worker.ts';

const secretKey = 'sk_test_usageWorkerSecret42';
const meter = 'twofold_match_fee';
let fake: FakeStripe;
let t: TestContext;
let token = '';
let hope = 0;
let companyId = 0;
let customer = '';
const stripe = () => {
  const config = t.config.stripe;
  if (!config) throw new Error('the test context has no Stripe');
  return config;
};

beforeAll(async () => {
  fake = await startFakeStripe({ secretKey, meters: [meter] });
  const { stripe: config } = loadConfig({
    DATA_DIR: '/tmp/twofold-usage',
    JWT_SECRET: 'x'.repeat(40),
    STRIPE_SECRET_KEY: secretKey,
    STRIPE_API_BASE: fake.apiBase,
  });
  t = await createTestContext({ config: { logRequests: false, stripe: config } });
  const demo = await demoOrganizationIds(t.db);
  hope = demo.hopeHarbor;
  await readyForMatching(t.db, [hope]);
  customer = fake.createCustomer('billing@hope.test');
  // Hope Harbor pays 5% of the estimated match of each eligible request, through Stripe.
  await t.db
    .update(organizations)
    .set({ plan: 'elig_5', is_premium: 'true', stripe_customer_id: customer })
    .where(eq(organizations.id, hope));
  const [company] = await t.db
    .insert(companies)
    .values({ name: 'Usage Form Co', match_method: 'form', match_ratio: '1' })
    .returning({ id: companies.id });
  companyId = company?.id ?? 0;
  token = await signIn(t.app, 'admin@twofold.test');
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(async () => {
  // Each test starts with nothing left to send.
  await t.db
    .update(stripeUsageReports)
    .set({ status: 'reported' })
    .where(eq(stripeUsageReports.status, 'pending'));
  fake.requests.length = 0;
});

let transaction = 0;
/** A match of $200 (estimated match $200 at 1:1) marked Submitted: on this month's bill. */
async function submittedMatch(): Promise<number> {
  const res = await call(t.app, 'POST', `/api/organization/${hope}/donation`, {
    token,
    body: {
      id: 0,
      transaction_id: `usage-${++transaction}`,
      donated_at: '2026-11-02 12:00:00',
      amount: 200,
      donor: { name: 'Robin Hale', email: `robin-usage-${transaction}@example.org` },
      company_id: companyId,
    },
  });
  expect(res.status, res.text).toBe(201);
  const id = res.json.donation.id as number;
  const confirmed = await call(t.app, 'POST', '/api/donation/confirm', {
    token,
    body: { donation_ids: [id], status: 'submitted' },
  });
  expect(confirmed.status, confirmed.text).toBe(200);
  return id;
}
const reportsOf = (donationId: number) =>
  t.db
    .select()
    .from(stripeUsageReports)
    .where(eq(stripeUsageReports.donation_id, donationId))
    .orderBy(stripeUsageReports.id);
const meterPosts = () => fake.requests.filter((r) => r.path === '/v1/billing/meter_events');
const eventsFor = (identifier: string) => fake.meterEvents.filter((e) => e.identifier === identifier);

describe('per-match usage reported to Stripe (issue #27)', () => {
  it('reports a submitted match once, as a meter event of 5% of its estimated match in cents', async () => {
    const match = await submittedMatch();
    const [charge] = await reportsOf(match);
    expect(charge).toMatchObject({ kind: 'charge', value_cents: 1000, status: 'pending' });
    const worker = createUsageWorker({ db: t.db, stripe: stripe(), logger: memoryLogger() });
    expect(await worker.runOnce()).toBe(1);
    expect(await worker.runOnce()).toBe(0);
    expect((await reportsOf(match))[0]).toMatchObject({ status: 'reported', attempts: 1 });
    expect(eventsFor(charge?.identifier ?? '')).toEqual([
      expect.objectContaining({ event_name: meter, customer, value: 1000, cancelled: false }),
    ]);
    // The bill says Stripe has it.
    const bills = await call(t.app, 'GET', `/api/organization/${hope}/bills`, { token });
    const bill = bills.json.bills.find((b: { id: number }) => b.id === charge?.bill_id);
    expect(bill.usage).toMatchObject({ reported: expect.any(Number), pending: 0, failed: 0 });
    // The library sent the pinned API version, the key as bearer and an idempotency key.
    expect(meterPosts()[0]).toMatchObject({
      authorization: `Bearer ${secretKey}`,
      stripeVersion: '2026-10-28.endive',
      idempotencyKey: `meter-event-${charge?.identifier}`,
    });
  });

  it('reports it once even when the worker dies between sending and marking (idempotent replay)', async () => {
    const match = await submittedMatch();
    const [charge] = await reportsOf(match);
    const logger = memoryLogger();
    // A worker claims the report and sends it, then dies before recording that Stripe has it.
    const dying = createUsageWorker({ db: t.db, stripe: stripe(), logger, leaseMs: 1000 });
    const claimed = await dying.claimNext();
    expect(claimed?.id).toBe(charge?.id);
    if (!claimed) return;
    await dying.send(claimed);
    expect(eventsFor(claimed.identifier)).toHaveLength(1);
    // While its lease runs, no other worker takes it.
    const restarted = createUsageWorker({ db: t.db, stripe: stripe(), logger, leaseMs: 1000 });
    expect(await restarted.runOnce()).toBe(0);
    // After the lease, the restarted worker sends it again: Stripe answers with the first answer.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(await restarted.runOnce()).toBe(1);
    expect(meterPosts()).toHaveLength(2);
    expect(eventsFor(claimed.identifier)).toHaveLength(1);
    expect((await reportsOf(match))[0]).toMatchObject({ status: 'reported', attempts: 2 });
  });

  it('reports it once when Stripe no longer replays the request but refuses the identifier', async () => {
    const match = await submittedMatch();
    const [charge] = await reportsOf(match);
    const logger = memoryLogger();
    const dying = createUsageWorker({ db: t.db, stripe: stripe(), logger, leaseMs: 1000 });
    const claimed = await dying.claimNext();
    if (!claimed) throw new Error('nothing claimed');
    await dying.send(claimed);
    fake.forgetIdempotencyKeys();
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const restarted = createUsageWorker({ db: t.db, stripe: stripe(), logger, leaseMs: 1000 });
    expect(await restarted.runOnce()).toBe(1);
    expect(eventsFor(charge?.identifier ?? '')).toHaveLength(1);
    expect((await reportsOf(match))[0]).toMatchObject({ status: 'reported' });
    expect(logger.lines.some((l) => l.includes(`Stripe already has ${charge?.identifier}`))).toBe(true);
  });

  it('corrects a refunded match with the negative of its charge, after the charge', async () => {
    const match = await submittedMatch();
    const worker = createUsageWorker({ db: t.db, stripe: stripe(), logger: memoryLogger() });
    const before = fake.usageOf(customer);
    await worker.runOnce();
    expect(fake.usageOf(customer)).toBe(before + 1000);
    const refunded = await call(t.app, 'POST', '/api/donation/confirm', {
      token,
      body: { donation_ids: [match], status: 'refunded' },
    });
    expect(refunded.status, refunded.text).toBe(200);
    const [charge, correction] = await reportsOf(match);
    expect(correction).toMatchObject({ kind: 'refund', corrects_id: charge?.id, value_cents: -1000 });
    await worker.runOnce();
    expect(eventsFor(correction?.identifier ?? '')).toEqual([expect.objectContaining({ value: -1000 })]);
    expect(fake.usageOf(customer)).toBe(before);
    // A second refund attempt is refused by the ledger and reports nothing more.
    await call(t.app, 'POST', '/api/donation/confirm', {
      token,
      body: { donation_ids: [match], status: 'refunded' },
    });
    expect(await reportsOf(match)).toHaveLength(2);
  });

  it('corrects a match released from its open bill, and charges it again when it is Submitted again', async () => {
    const [highMinimum] = await t.db
      .insert(companies)
      .values({
        name: 'Usage High Minimum Co',
        match_method: 'form',
        match_ratio: '1',
        minimum_match_cents: 50_000,
      })
      .returning({ id: companies.id });
    const match = await submittedMatch();
    const move = (company: number) =>
      call(t.app, 'PUT', `/api/donation/${match}`, {
        token,
        body: {
          donated_at: '2026-11-02 12:00:00',
          amount: 200,
          donor: { name: 'Robin Hale', email: `robin-release-${match}@example.org` },
          company_id: company,
        },
      });
    const worker = createUsageWorker({ db: t.db, stripe: stripe(), logger: memoryLogger() });
    const before = fake.usageOf(customer);
    // The donor's company turns out to match nothing this small: the match leaves the open bill.
    expect((await move(highMinimum?.id ?? 0)).status).toBe(200);
    const [charge, release] = await reportsOf(match);
    expect(release).toMatchObject({
      kind: 'release',
      corrects_id: charge?.id,
      value_cents: -1000,
      bill_id: charge?.bill_id,
    });
    await worker.runOnce();
    expect(fake.usageOf(customer)).toBe(before);
    // Back to a company that matches it, Submitted again: a new charge, under its own identifier.
    expect((await move(companyId)).status).toBe(200);
    await call(t.app, 'POST', '/api/donation/confirm', {
      token,
      body: { donation_ids: [match], status: 'submitted' },
    });
    const reports = await reportsOf(match);
    expect(reports.map((r) => r.kind)).toEqual(['charge', 'release', 'charge']);
    expect(new Set(reports.map((r) => r.identifier)).size).toBe(3);
    await worker.runOnce();
    expect(fake.usageOf(customer)).toBe(before + 1000);
  });

  it('holds a correction back until its charge is reported', async () => {
    const match = await submittedMatch();
    await call(t.app, 'POST', '/api/donation/confirm', {
      token,
      body: { donation_ids: [match], status: 'refunded' },
    });
    const [charge, correction] = await reportsOf(match);
    // The charge's first attempt fails (Stripe is down): the correction must not go alone.
    fake.failNext(500, 'Stripe is having a bad day', { path: /meter_events/ });
    const worker = createUsageWorker({
      db: t.db,
      stripe: stripe(),
      logger: memoryLogger(),
      retryBaseMs: 100,
    });
    expect(await worker.runOnce()).toBe(1);
    expect(eventsFor(correction?.identifier ?? '')).toHaveLength(0);
    expect((await reportsOf(match))[0]).toMatchObject({
      status: 'pending',
      last_error: expect.stringContaining('500'),
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    await worker.runOnce();
    await worker.runOnce();
    expect(eventsFor(charge?.identifier ?? '')).toHaveLength(1);
    expect(eventsFor(correction?.identifier ?? '')).toHaveLength(1);
  });

  it('retries with backoff, then marks the report failed with a reason that never shows the key', async () => {
    const match = await submittedMatch();
    const logger = memoryLogger();
    // Stripe echoing the key in its error (it masks it; this one does not) must not reach a log or the page.
    fake.failNext(401, `Invalid API Key provided: ${secretKey}`, { path: /meter_events/, times: 2 });
    const worker = createUsageWorker({
      db: t.db,
      stripe: stripe(),
      logger,
      retryBaseMs: 100,
      maxAttempts: 2,
    });
    await worker.runOnce();
    const [first] = await reportsOf(match);
    expect(first).toMatchObject({ status: 'pending', attempts: 1 });
    expect(first?.next_attempt_at.getTime()).toBeGreaterThan(Date.now());
    await new Promise((resolve) => setTimeout(resolve, 250));
    await worker.runOnce();
    const [failed] = await reportsOf(match);
    expect(failed).toMatchObject({ status: 'failed', attempts: 2 });
    expect(failed?.last_error).toContain('401 invalid_request_error');
    expect(failed?.last_error).not.toContain(secretKey);
    expect(logger.lines.some((l) => l.includes('giving up'))).toBe(true);
    expect(logger.lines.join('\n')).not.toContain(secretKey);
    expect(logger.lines.join('\n')).not.toMatch(/sk_test_/);
    const bills = await call(t.app, 'GET', `/api/organization/${hope}/bills`, { token });
    const bill = bills.json.bills.find((b: { id: number }) => b.id === failed?.bill_id);
    expect(bill.usage.failed).toBeGreaterThan(0);
    expect(bill.usage.last_error).toContain('401 invalid_request_error');
    expect(JSON.stringify(bills.json)).not.toContain(secretKey);
  });

  it('reports nothing for a payer billed outside Stripe (no customer), and waits when the customer is gone', async () => {
    await t.db.update(organizations).set({ stripe_customer_id: null }).where(eq(organizations.id, hope));
    try {
      const outside = await submittedMatch();
      expect(await reportsOf(outside)).toEqual([]);
      // A report queued while the customer existed, whose customer is then removed, waits and says why.
      await t.db
        .update(organizations)
        .set({ stripe_customer_id: customer })
        .where(eq(organizations.id, hope));
      const match = await submittedMatch();
      await t.db.update(organizations).set({ stripe_customer_id: null }).where(eq(organizations.id, hope));
      const worker = createUsageWorker({ db: t.db, stripe: stripe(), logger: memoryLogger() });
      await worker.runOnce();
      expect((await reportsOf(match))[0]).toMatchObject({ status: 'pending', last_error: noCustomer });
      expect(meterPosts()).toHaveLength(0);
    } finally {
      await t.db
        .update(organizations)
        .set({ stripe_customer_id: customer })
        .where(eq(organizations.id, hope));
    }
  });
});

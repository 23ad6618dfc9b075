import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../config.ts';
import { auditEvents, organizations } from '../../db/schema.ts';
import { demoOrganizationNames as names } from '../../db/seed.ts';
import { call, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import { signToken, verifyToken } from '../auth/tokens.ts';
import { stripeApiVersion, stripeSignatureHeader } from './stripe.ts';
import { type FakeStripe, startFakeStripe } from './stripe-fake.ts';

/** A Stripe-compatible server on loopback; the official library talks HTTP to it. */
let fake: FakeStripe;
const stripeCalls = () => fake.requests;

const secretKey = 'sk_test_billingSecretKey123';
const webhookSecret = 'whsec_test_billing_webhook_secret';

let plain: TestContext; // no payment provider configured
let withStripe: TestContext;
const ids = { hope: 0, maple: 0, northShore: 0, stranger: 0 };
const tokens: Record<string, string> = {};
const stripeTokens: Record<string, string> = {};

async function orgIdByName(t: TestContext, name: string) {
  const [row] = await t.db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.name, name));
  return row?.id ?? 0;
}

async function billingOf(t: TestContext, id: number) {
  const [row] = await t.db
    .select({
      plan: organizations.plan,
      is_premium: organizations.is_premium,
      stripe_customer_id: organizations.stripe_customer_id,
      cancelled_at: organizations.cancelled_at,
      cancel_reason: organizations.cancel_reason,
    })
    .from(organizations)
    .where(eq(organizations.id, id));
  return row;
}

async function setBilling(t: TestContext, id: number, values: Partial<typeof organizations.$inferInsert>) {
  await t.db.update(organizations).set(values).where(eq(organizations.id, id));
}

beforeAll(async () => {
  fake = await startFakeStripe({ secretKey, meters: ['twofold_match_fee'] });
  plain = await createTestContext();
  withStripe = await createTestContext({
    config: {
      stripe: {
        secretKey,
        api: { host: '127.0.0.1', port: fake.port, protocol: 'http' },
        meterEventName: 'twofold_match_fee',
        webhookSecret,
        prices: { flat_20: 'price_flat20', elig_3: 'price_elig3' },
      },
    },
  });
  ids.hope = await orgIdByName(plain, names.hopeHarbor);
  ids.maple = await orgIdByName(plain, names.mapleStreet);
  ids.northShore = await orgIdByName(plain, names.northShore);
  const [stranger] = await plain.db.insert(organizations).values({ name: 'Stranger Trust' }).returning();
  ids.stranger = stranger?.id ?? 0;
  for (const who of ['admin', 'writer', 'reader', 'super']) {
    tokens[who] = await signIn(plain.app, `${who}@twofold.test`);
    stripeTokens[who] = await signIn(withStripe.app, `${who}@twofold.test`);
  }
});
afterAll(async () => {
  await plain?.close();
  await withStripe?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.requests.length = 0;
});

/**
 * The billing link the portal would fetch for a signed-in user (session token), for this
 * organization and action; made directly so refused users (readers) get one too. Anything that is
 * not a session (missing, garbage, forged) is passed on as it is.
 */
async function linkToken(
  t: TestContext,
  session: string | undefined,
  org: number,
  data: Record<string, unknown>,
) {
  const verified = session ? await verifyToken(t.config.jwtSecret, 'access', session, t.db) : null;
  if (!verified) return session;
  return signToken(t.config.jwtSecret, 'billing-link', verified.subject, { org, data });
}
const withToken = (path: string, token: string | undefined) =>
  `${path}${token ? `?token=${encodeURIComponent(token)}` : ''}`;
const subscribe = async (t: TestContext, org: number, plan: string, session?: string) =>
  call(
    t.app,
    'GET',
    withToken(
      `/api/organization/${org}/subscribe/${plan}`,
      await linkToken(t, session, org, { action: 'subscribe', plan }),
    ),
  );
const portal = async (t: TestContext, org: number, session?: string) =>
  call(
    t.app,
    'GET',
    withToken(
      `/api/organization/${org}/billing-portal`,
      await linkToken(t, session, org, { action: 'portal' }),
    ),
  );

describe('billing links (issue #29: no session token in a URL)', () => {
  const signInPage = 'http://portal.test/portal/login?redirect=%2Fportal%2Fbilling';
  const link = async (org: number, query: string, session = tokens.admin) =>
    call(plain.app, 'GET', `/api/organization/${org}/billing-link?${query}`, { token: session });

  it('gives an admin a five-minute link for one action that opens it, without the session token', async () => {
    await setBilling(plain, ids.maple, { plan: '', is_premium: 'false' });
    const made = await link(ids.maple, 'action=subscribe&plan=flat_0');
    expect(made.status).toBe(200);
    const url = made.json.url as string;
    expect(url).toMatch(/^\/api\/organization\/\d+\/subscribe\/flat_0\?token=/);
    expect(url).not.toContain(tokens.admin);
    const opened = await call(plain.app, 'GET', url);
    expect(opened.headers.get('location')).toBe('http://portal.test/portal/billing?subscribed=flat_0');
    const portalLink = await link(ids.maple, 'action=portal');
    expect(portalLink.json.url).toMatch(/^\/api\/organization\/\d+\/billing-portal\?token=/);
    expect((await link(ids.maple, 'action=subscribe&plan=flat_7')).status).toBe(400);
    expect((await link(ids.hope, 'action=portal', tokens.reader)).status).toBe(403);
  });

  it('no longer takes the session token itself in ?token=', async () => {
    await setBilling(plain, ids.maple, { plan: '', is_premium: 'false' });
    const answer = await call(
      plain.app,
      'GET',
      `/api/organization/${ids.maple}/subscribe/flat_0?token=${encodeURIComponent(tokens.admin ?? '')}`,
    );
    expect(answer.headers.get('location')).toBe(signInPage);
    expect(await billingOf(plain, ids.maple)).toMatchObject({ plan: '', is_premium: 'false' });
  });

  it('opens only its own action, plan and organization, and is no session', async () => {
    await setBilling(plain, ids.maple, { plan: '', is_premium: 'false' });
    const portalUrl = (await link(ids.maple, 'action=portal')).json.url as string;
    const portalToken = new URL(portalUrl, 'http://x').searchParams.get('token') ?? '';
    const subscribeUrl = (await link(ids.maple, 'action=subscribe&plan=flat_0')).json.url as string;
    const subscribeToken = new URL(subscribeUrl, 'http://x').searchParams.get('token') ?? '';
    const open = (path: string, token: string) => call(plain.app, 'GET', withToken(path, token));
    // A portal link chooses no plan; a link for one plan chooses no other.
    expect(
      (await open(`/api/organization/${ids.maple}/subscribe/flat_0`, portalToken)).headers.get('location'),
    ).toBe(signInPage);
    expect(
      (await open(`/api/organization/${ids.maple}/subscribe/flat_20`, subscribeToken)).headers.get(
        'location',
      ),
    ).toBe(signInPage);
    // Another organization the same admin may manage: the link names its own.
    expect((await open(`/api/organization/${ids.hope}/subscribe/flat_0`, subscribeToken)).status).toBe(403);
    // Not a session, not a CSV link.
    expect(
      (await call(plain.app, 'GET', `/api/organization/${ids.maple}/bills`, { token: subscribeToken }))
        .status,
    ).toBe(401);
    expect((await open(`/api/donation/${ids.maple}/csv`, subscribeToken)).status).toBe(401);
    expect(await billingOf(plain, ids.maple)).toMatchObject({ plan: '', is_premium: 'false' });
  });

  it('expires after five minutes', async () => {
    await setBilling(plain, ids.maple, { plan: '', is_premium: 'false' });
    const url = (await link(ids.maple, 'action=subscribe&plan=flat_0')).json.url as string;
    vi.useFakeTimers({ now: Date.now() + 5 * 60_000 + 5_000, toFake: ['Date'] });
    try {
      expect((await call(plain.app, 'GET', url)).headers.get('location')).toBe(signInPage);
    } finally {
      vi.useRealTimers();
    }
    expect(await billingOf(plain, ids.maple)).toMatchObject({ plan: '', is_premium: 'false' });
  });
});

describe('GET /api/organization/{id}/subscribe/{plan} without a payment provider', () => {
  it('puts an admin on the free plan at once and returns to the billing screen', async () => {
    await setBilling(plain, ids.maple, {
      plan: '',
      is_premium: 'false',
      cancelled_at: new Date(),
      cancel_reason: 'x',
    });
    const answer = await subscribe(plain, ids.maple, 'flat_0', tokens.admin);
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('http://portal.test/portal/billing?subscribed=flat_0');
    expect(await billingOf(plain, ids.maple)).toMatchObject({
      plan: 'flat_0',
      is_premium: 'true',
      cancelled_at: null,
      cancel_reason: null,
    });
    // The organization now answers as premium, so the setup card's billing step is gone.
    const org = await call(plain.app, 'GET', `/api/organization/${ids.maple}`, { token: tokens.admin });
    expect(org.json.organization).toMatchObject({ plan: 'flat_0', is_premium: true });
  });

  it("makes a chapter premium in its own right (no longer 'parent')", async () => {
    await setBilling(plain, ids.northShore, { plan: 'premium', is_premium: 'parent' });
    const answer = await subscribe(plain, ids.northShore, 'flat_0', tokens.admin);
    expect(answer.headers.get('location')).toBe('http://portal.test/portal/billing?subscribed=flat_0');
    expect(await billingOf(plain, ids.northShore)).toMatchObject({ plan: 'flat_0', is_premium: 'true' });
  });

  it('explains that a paid plan needs card payments, changing nothing (no fake success)', async () => {
    await setBilling(plain, ids.maple, { plan: '', is_premium: 'false' });
    const answer = await subscribe(plain, ids.maple, 'flat_20', tokens.admin);
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(
      'http://portal.test/portal/billing?billing_error=payments-unavailable',
    );
    expect(await billingOf(plain, ids.maple)).toMatchObject({ plan: '', is_premium: 'false' });
  });

  it('sends the custom plan to the contact form', async () => {
    const answer = await subscribe(plain, ids.maple, 'custom', tokens.admin);
    expect(answer.headers.get('location')).toBe('http://portal.test/portal/contact');
  });

  it("answers 400 'Unknown plan' for a plan outside the catalogue", async () => {
    for (const plan of ['flat_7', 'premium', 'FLAT_0']) {
      const answer = await subscribe(plain, ids.maple, plan, tokens.admin);
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({ message: 'Unknown plan' });
    }
  });

  it('sends a missing, forged or expired token to sign-in and changes nothing', async () => {
    await setBilling(plain, ids.maple, { plan: '', is_premium: 'false' });
    const forged = `${tokens.admin?.slice(0, -4)}AAAA`;
    for (const token of [undefined, '', 'not-a-jwt', forged]) {
      const answer = await subscribe(plain, ids.maple, 'flat_0', token);
      expect(answer.status).toBe(303);
      expect(answer.headers.get('location')).toBe(
        'http://portal.test/portal/login?redirect=%2Fportal%2Fbilling',
      );
    }
    expect(await billingOf(plain, ids.maple)).toMatchObject({ plan: '', is_premium: 'false' });
  });

  it('refuses writers and readers (403) and answers 404 for an organization the caller cannot reach', async () => {
    await setBilling(plain, ids.maple, { plan: '', is_premium: 'false' });
    for (const who of ['writer', 'reader']) {
      const answer = await subscribe(plain, ids.hope, 'flat_0', tokens[who]);
      expect(answer.status).toBe(403);
      expect(answer.json).toEqual({ message: 'You do not have permission to do that.' });
    }
    const other = await subscribe(plain, ids.stranger, 'flat_0', tokens.admin);
    expect(other.status).toBe(404);
    expect(other.json).toEqual({ message: `Organization with id ${ids.stranger} not found` });
    const missing = await subscribe(plain, 2_000_000, 'flat_0', tokens.admin);
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ message: 'Organization with id 2000000 not found' });
    expect(await billingOf(plain, ids.stranger)).toMatchObject({ plan: null, is_premium: 'false' });
    // Super users act as admin everywhere.
    expect((await subscribe(plain, ids.stranger, 'flat_0', tokens.super)).headers.get('location')).toContain(
      'subscribed=flat_0',
    );
  });

  it('never writes the token to the request log', async () => {
    await subscribe(plain, ids.maple, 'flat_0', tokens.admin);
    expect(plain.logger.lines.some((line) => line.includes(tokens.admin ?? '!'))).toBe(false);
    expect(plain.logger.lines.some((line) => line.includes('/subscribe/flat_0 303'))).toBe(true);
  });

  it('explains that the billing portal needs card payments', async () => {
    const answer = await portal(plain, ids.maple, tokens.admin);
    expect(answer.headers.get('location')).toBe(
      'http://portal.test/portal/billing?billing_error=payments-unavailable',
    );
    expect((await portal(plain, ids.hope, tokens.reader)).status).toBe(403);
    expect((await portal(plain, ids.maple)).headers.get('location')).toContain('/portal/login?');
  });

  it('refuses webhooks when no signing secret is configured', async () => {
    const answer = await call(plain.app, 'POST', '/api/billing/stripe/webhook', {
      body: { type: 'checkout.session.completed' },
      headers: { 'stripe-signature': 't=1,v1=00' },
    });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ message: 'Stripe webhooks are not configured on this server.' });
  });
});

describe('with Stripe configured', () => {
  it('opens a subscription checkout with the plan price, the organization and the return addresses', async () => {
    await setBilling(withStripe, ids.maple, { plan: '', is_premium: 'false', stripe_customer_id: null });
    const answer = await subscribe(withStripe, ids.maple, 'flat_20', stripeTokens.admin);
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toMatch(new RegExp(`^${fake.url}/c/pay/cs_test_`));
    expect(stripeCalls()).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: '/v1/checkout/sessions',
        authorization: `Bearer ${secretKey}`,
        stripeVersion: stripeApiVersion,
        params: {
          mode: 'subscription',
          line_items: [{ price: 'price_flat20', quantity: '1' }],
          client_reference_id: String(ids.maple),
          customer_email: 'admin@twofold.test',
          success_url: 'http://portal.test/portal/billing?checkout=flat_20',
          cancel_url: 'http://portal.test/portal/billing?billing_error=checkout-cancelled',
          metadata: { organization_id: String(ids.maple), plan: 'flat_20' },
          subscription_data: { metadata: { organization_id: String(ids.maple), plan: 'flat_20' } },
        },
      }),
    ]);
    // Nothing changes until Stripe confirms the payment.
    expect(await billingOf(withStripe, ids.maple)).toMatchObject({ plan: '', is_premium: 'false' });
  });

  it('bills a percentage plan on a metered price (no quantity) to the known customer', async () => {
    const known = fake.createCustomer('admin@twofold.test');
    await setBilling(withStripe, ids.maple, { plan: '', is_premium: 'false', stripe_customer_id: known });
    await subscribe(withStripe, ids.maple, 'elig_3', stripeTokens.admin);
    const params = stripeCalls()[0]?.params as Record<string, unknown> & {
      line_items: { quantity?: string }[];
    };
    expect(params.line_items).toEqual([{ price: 'price_elig3' }]);
    expect(params.customer).toBe(known);
    expect(params.customer_email).toBeUndefined();
  });

  it('explains a plan without a configured price, and a provider that fails, without calling it a success', async () => {
    await setBilling(withStripe, ids.maple, { plan: '', is_premium: 'false', stripe_customer_id: null });
    const unpriced = await subscribe(withStripe, ids.maple, 'flat_50', stripeTokens.admin);
    expect(unpriced.headers.get('location')).toBe(
      'http://portal.test/portal/billing?billing_error=plan-unavailable',
    );
    expect(stripeCalls()).toHaveLength(0);

    // Stripe masks a wrong key in its error; one that echoed it whole must still not reach the log.
    fake.failNext(401, `Invalid API Key provided: ${secretKey}`);
    const failing = await subscribe(withStripe, ids.maple, 'flat_20', stripeTokens.admin);
    expect(failing.headers.get('location')).toBe(
      'http://portal.test/portal/billing?billing_error=provider-error',
    );
    expect(withStripe.logger.lines.some((l) => l.includes('401 invalid_request_error'))).toBe(true);
    expect(withStripe.logger.lines.some((l) => l.includes(secretKey))).toBe(false);
    expect(withStripe.logger.lines.some((l) => /sk_test_/.test(l))).toBe(false);
    expect(await billingOf(withStripe, ids.maple)).toMatchObject({ plan: '', is_premium: 'false' });
  });

  it('sends a running paid subscription to the billing portal for any change', async () => {
    await setBilling(withStripe, ids.maple, {
      plan: 'flat_20',
      is_premium: 'true',
      stripe_customer_id: 'cus_paid',
    });
    const free = await subscribe(withStripe, ids.maple, 'flat_0', stripeTokens.admin);
    expect(free.headers.get('location')).toBe(
      'http://portal.test/portal/billing?billing_error=change-in-portal',
    );
    const same = await subscribe(withStripe, ids.maple, 'flat_20', stripeTokens.admin);
    expect(same.headers.get('location')).toBe('http://portal.test/portal/billing?subscribed=flat_20');
    expect(stripeCalls()).toHaveLength(0);
    expect(await billingOf(withStripe, ids.maple)).toMatchObject({ plan: 'flat_20', is_premium: 'true' });
  });

  it("opens the customer's billing portal, returning to /portal/billing", async () => {
    const customer = fake.createCustomer();
    await setBilling(withStripe, ids.maple, { stripe_customer_id: customer });
    const answer = await portal(withStripe, ids.maple, stripeTokens.admin);
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toMatch(new RegExp(`^${fake.url}/p/session/bps_`));
    expect(stripeCalls()).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: '/v1/billing_portal/sessions',
        authorization: `Bearer ${secretKey}`,
        params: { customer, return_url: 'http://portal.test/portal/billing' },
      }),
    ]);
    // The portal page itself answers (what the browser is sent to).
    const page = await fetch(answer.headers.get('location') ?? '');
    expect(await page.text()).toContain('Return to Twofold');
  });

  it('explains that there is no subscription to manage before the first payment', async () => {
    await setBilling(withStripe, ids.maple, { stripe_customer_id: null });
    const answer = await portal(withStripe, ids.maple, stripeTokens.admin);
    expect(answer.headers.get('location')).toBe(
      'http://portal.test/portal/billing?billing_error=no-customer',
    );
    expect(stripeCalls()).toHaveLength(0);
  });
});

describe('POST /api/billing/stripe/webhook', () => {
  const now = () => Math.floor(Date.now() / 1000);
  const send = (payload: string, signature: string | undefined) =>
    withStripe.app.request('/api/billing/stripe/webhook', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(signature ? { 'stripe-signature': signature } : {}),
      },
      body: payload,
    });
  const checkoutEvent = (
    orgId: number,
    {
      plan = 'flat_20',
      customer = 'cus_new',
      type = 'checkout.session.completed',
      paymentStatus = 'paid',
    } = {},
  ) =>
    JSON.stringify(
      fake.event(type, {
        client_reference_id: String(orgId),
        customer,
        payment_status: paymentStatus,
        metadata: { plan, organization_id: String(orgId) },
      }),
    );
  const completed = (orgId: number, plan = 'flat_20') => checkoutEvent(orgId, { plan });
  const signed = (payload: string) => send(payload, stripeSignatureHeader(webhookSecret, payload, now()));
  const unbilled = { plan: '', is_premium: 'false', stripe_customer_id: null, cancelled_at: null };

  it('grants no plan for a completed checkout that is not paid (issue #29)', async () => {
    await setBilling(withStripe, ids.maple, unbilled);
    const unpaid = await signed(checkoutEvent(ids.maple, { paymentStatus: 'unpaid' }));
    expect(unpaid.status).toBe(200);
    expect(await billingOf(withStripe, ids.maple)).toMatchObject({ plan: '', is_premium: 'false' });
    // The delayed payment fails: still nothing.
    const failed = await signed(
      checkoutEvent(ids.maple, { type: 'checkout.session.async_payment_failed', paymentStatus: 'unpaid' }),
    );
    expect(failed.status).toBe(200);
    expect(await billingOf(withStripe, ids.maple)).toMatchObject({ plan: '', is_premium: 'false' });
    // A session without its payment status cannot be trusted to be paid.
    const unknown = JSON.stringify(
      fake.event('checkout.session.completed', {
        client_reference_id: String(ids.maple),
        customer: 'cus_x',
        metadata: { plan: 'flat_20' },
      }),
    );
    expect((await signed(unknown)).status).toBe(400);
    expect(await billingOf(withStripe, ids.maple)).toMatchObject({ plan: '', is_premium: 'false' });
  });

  it('grants the plan when a delayed payment succeeds, or when no payment is due', async () => {
    await setBilling(withStripe, ids.maple, unbilled);
    await signed(checkoutEvent(ids.maple, { paymentStatus: 'unpaid', customer: 'cus_later' }));
    const succeeded = await signed(
      checkoutEvent(ids.maple, {
        type: 'checkout.session.async_payment_succeeded',
        paymentStatus: 'paid',
        customer: 'cus_later',
      }),
    );
    expect(succeeded.status).toBe(200);
    expect(await billingOf(withStripe, ids.maple)).toMatchObject({
      plan: 'flat_20',
      is_premium: 'true',
      stripe_customer_id: 'cus_later',
    });
    await setBilling(withStripe, ids.maple, unbilled);
    await signed(checkoutEvent(ids.maple, { plan: 'flat_10', paymentStatus: 'no_payment_required' }));
    expect(await billingOf(withStripe, ids.maple)).toMatchObject({ plan: 'flat_10', is_premium: 'true' });
  });

  it('makes the organization premium on its plan when checkout completes', async () => {
    await setBilling(withStripe, ids.maple, {
      plan: '',
      is_premium: 'false',
      stripe_customer_id: null,
      cancelled_at: new Date(),
    });
    const payload = completed(ids.maple);
    const answer = await send(payload, stripeSignatureHeader(webhookSecret, payload, now()));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ received: true });
    expect(await billingOf(withStripe, ids.maple)).toMatchObject({
      plan: 'flat_20',
      is_premium: 'true',
      stripe_customer_id: 'cus_new',
      cancelled_at: null,
    });
  });

  it('refuses a bad signature, another secret, a missing header and an old (replayed) timestamp', async () => {
    await setBilling(withStripe, ids.maple, { plan: '', is_premium: 'false' });
    const payload = completed(ids.maple);
    const valid = stripeSignatureHeader(webhookSecret, payload, now());
    const attempts = [
      valid.replace(/v1=(.)/, (_, c: string) => `v1=${c === '0' ? '1' : '0'}`),
      stripeSignatureHeader('whsec_someone_else', payload, now()),
      undefined,
      'garbage',
      stripeSignatureHeader(webhookSecret, payload, now() - 6 * 60),
    ];
    for (const signature of attempts) {
      const answer = await send(payload, signature);
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({ message: 'Invalid Stripe signature' });
    }
    // A signature over another body does not carry over to a tampered one.
    const tampered = completed(ids.maple, 'flat_200');
    expect((await send(tampered, valid)).status).toBe(400);
    expect(await billingOf(withStripe, ids.maple)).toMatchObject({ plan: '', is_premium: 'false' });
  });

  it('refuses a signed event it cannot read, and acknowledges events it does not act on', async () => {
    const garbled = '{"type":"checkout.session.completed","data":{}}';
    expect((await send(garbled, stripeSignatureHeader(webhookSecret, garbled, now()))).status).toBe(400);
    const other = JSON.stringify(fake.event('invoice.paid', {}));
    const answer = await send(other, stripeSignatureHeader(webhookSecret, other, now()));
    expect(answer.status).toBe(200);
    expect(withStripe.logger.lines.some((l) => l.includes('(invoice.paid) acknowledged'))).toBe(true);
  });

  it('takes premium away when the subscription ends (a chapter falls back on its parent)', async () => {
    await setBilling(withStripe, ids.maple, {
      plan: 'elig_5',
      is_premium: 'true',
      stripe_customer_id: 'cus_end',
    });
    await setBilling(withStripe, ids.northShore, {
      plan: 'flat_10',
      is_premium: 'true',
      stripe_customer_id: 'cus_chapter',
    });
    for (const customer of ['cus_end', 'cus_chapter']) {
      const payload = JSON.stringify(
        fake.event('customer.subscription.deleted', {
          customer,
          status: 'canceled',
          cancellation_details: { reason: 'cancellation_requested' },
        }),
      );
      expect((await send(payload, stripeSignatureHeader(webhookSecret, payload, now()))).status).toBe(200);
    }
    const maple = await billingOf(withStripe, ids.maple);
    expect(maple).toMatchObject({ plan: '', is_premium: 'false', cancel_reason: 'cancellation_requested' });
    expect(maple?.cancelled_at).toBeInstanceOf(Date);
    expect(await billingOf(withStripe, ids.northShore)).toMatchObject({ plan: '', is_premium: 'parent' });
  });
});

describe('payment provider settings', () => {
  const base = { DATA_DIR: '/tmp/twofold-billing-config', JWT_SECRET: 'x'.repeat(40) };

  it('leave card payments off unless STRIPE_SECRET_KEY is set', () => {
    expect(loadConfig(base).stripe).toBeUndefined();
    expect(loadConfig({ ...base, STRIPE_PRICE_FLAT_20: 'price_1' }).stripe).toBeUndefined();
  });

  it('read the key, the API base, the webhook secret and one price per paid plan', () => {
    const config = loadConfig({
      ...base,
      STRIPE_SECRET_KEY: 'rk_live_abc123',
      STRIPE_API_BASE: 'http://127.0.0.1:12111/',
      STRIPE_WEBHOOK_SECRET: 'whsec_abcdefgh',
      STRIPE_PRICE_FLAT_20: 'price_20',
      STRIPE_PRICE_ELIG_5: 'price_e5',
    });
    expect(config.stripe).toEqual({
      secretKey: 'rk_live_abc123',
      api: { host: '127.0.0.1', port: 12111, protocol: 'http' },
      meterEventName: 'twofold_match_fee',
      webhookSecret: 'whsec_abcdefgh',
      prices: { flat_20: 'price_20', elig_5: 'price_e5' },
    });
    expect(loadConfig({ ...base, STRIPE_SECRET_KEY: 'sk_test_1' }).stripe?.api).toEqual({
      host: 'api.stripe.com',
      port: 443,
      protocol: 'https',
    });
    expect(
      loadConfig({ ...base, STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_METER_EVENT: 'fees' }).stripe
        ?.meterEventName,
    ).toBe('fees');
  });

  it('stop the server on a malformed setting, naming it', () => {
    expect(() => loadConfig({ ...base, STRIPE_SECRET_KEY: 'pk_test_publishable' })).toThrow(
      'Invalid environment variable STRIPE_SECRET_KEY',
    );
    expect(() =>
      loadConfig({ ...base, STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_PRICE_FLAT_5: 'price 5' }),
    ).toThrow('Invalid environment variable STRIPE_PRICE_FLAT_5');
    expect(() =>
      loadConfig({ ...base, STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_API_BASE: 'ftp://stripe.test' }),
    ).toThrow('Invalid environment variable STRIPE_API_BASE');
  });
});

describe('Stripe webhook events, each handled once (issue #27)', () => {
  const now = () => Math.floor(Date.now() / 1000);
  const post = (payload: string, signature?: string) =>
    withStripe.app.request('/api/billing/stripe/webhook', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': signature ?? stripeSignatureHeader(webhookSecret, payload, now()),
      },
      body: payload,
    });
  const subscriptionOf = (org: number, session = stripeTokens.admin) =>
    call(withStripe.app, 'GET', `/api/organization/${org}/subscription`, { token: session });
  const auditKinds = async (org: number) =>
    (
      await withStripe.db
        .select({ kind: auditEvents.kind })
        .from(auditEvents)
        .where(eq(auditEvents.organization_id, org))
    ).map((r) => r.kind);

  it('changes nothing when the same event comes again', async () => {
    await setBilling(withStripe, ids.maple, { plan: '', is_premium: 'false', stripe_customer_id: null });
    const payload = JSON.stringify(
      fake.event('checkout.session.completed', {
        client_reference_id: String(ids.maple),
        customer: 'cus_once',
        payment_status: 'paid',
        metadata: { plan: 'flat_20' },
      }),
    );
    expect((await post(payload)).status).toBe(200);
    expect(await billingOf(withStripe, ids.maple)).toMatchObject({
      plan: 'flat_20',
      stripe_customer_id: 'cus_once',
    });
    const started = (await auditKinds(ids.maple)).filter((k) => k === 'billing.plan_started').length;
    expect(started).toBeGreaterThan(0);
    // Staff move the organization off the plan; Stripe delivers the same event again (a retry, or
    // a replay within the signature's five minutes, freshly signed): it is acknowledged, not applied.
    await setBilling(withStripe, ids.maple, { plan: 'flat_0', stripe_customer_id: null });
    const again = await post(payload);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ received: true });
    expect(await billingOf(withStripe, ids.maple)).toMatchObject({
      plan: 'flat_0',
      stripe_customer_id: null,
    });
    expect((await auditKinds(ids.maple)).filter((k) => k === 'billing.plan_started')).toHaveLength(started);
    expect(withStripe.logger.lines.some((l) => l.includes('already handled; nothing changed'))).toBe(true);
  });

  it('refuses a forged event and a replayed old one, changing nothing', async () => {
    await setBilling(withStripe, ids.maple, { plan: '', is_premium: 'false', stripe_customer_id: null });
    const payload = JSON.stringify(
      fake.event('checkout.session.completed', {
        client_reference_id: String(ids.maple),
        customer: 'cus_forged',
        payment_status: 'paid',
        metadata: { plan: 'flat_200' },
      }),
    );
    const forged = await post(payload, stripeSignatureHeader('whsec_attacker_secret', payload, now()));
    expect(forged.status).toBe(400);
    const replayed = await post(payload, stripeSignatureHeader(webhookSecret, payload, now() - 10 * 60));
    expect(replayed.status).toBe(400);
    expect(await replayed.json()).toEqual({ message: 'Invalid Stripe signature' });
    expect(await billingOf(withStripe, ids.maple)).toMatchObject({ plan: '', stripe_customer_id: null });
  });

  it('shows a past_due subscription to admins (with the portal), not to readers, until it is paid', async () => {
    await setBilling(withStripe, ids.hope, {
      plan: 'elig_5',
      is_premium: 'true',
      stripe_customer_id: 'cus_late',
    });
    const pastDue = fake.event('customer.subscription.updated', { customer: 'cus_late', status: 'past_due' });
    expect((await post(JSON.stringify(pastDue))).status).toBe(200);
    const seen = await subscriptionOf(ids.hope);
    expect(seen.status).toBe(200);
    expect(seen.json).toEqual({
      status: 'past_due',
      since: new Date(pastDue.created * 1000).toISOString(),
      payment_failed: true,
      can_manage: true,
    });
    expect((await subscriptionOf(ids.hope, stripeTokens.reader)).status).toBe(403);
    expect(await auditKinds(ids.hope)).toContain('billing.payment_status');
    // An older event arriving late (Stripe does not promise order) does not undo the newer status.
    const older = {
      ...fake.event('customer.subscription.updated', { customer: 'cus_late', status: 'active' }),
    };
    older.created = pastDue.created - 60;
    await post(JSON.stringify(older));
    expect((await subscriptionOf(ids.hope)).json).toMatchObject({ status: 'past_due', payment_failed: true });
    // Stripe gives up retrying: unpaid, still shown; then the card is fixed and it is paid.
    const unpaid = fake.event('customer.subscription.updated', { customer: 'cus_late', status: 'unpaid' });
    unpaid.created = pastDue.created + 60;
    await post(JSON.stringify(unpaid));
    expect((await subscriptionOf(ids.hope)).json).toMatchObject({ status: 'unpaid', payment_failed: true });
    const active = fake.event('customer.subscription.updated', { customer: 'cus_late', status: 'active' });
    active.created = pastDue.created + 120;
    await post(JSON.stringify(active));
    expect((await subscriptionOf(ids.hope)).json).toMatchObject({ status: 'active', payment_failed: false });
    // Nothing about the plan changed throughout: a failed payment never takes data or the plan away.
    expect(await billingOf(withStripe, ids.hope)).toMatchObject({ plan: 'elig_5', is_premium: 'true' });
  });

  it('refuses an event it cannot read without recording it, so Stripe can send it again', async () => {
    const unreadable = fake.event('customer.subscription.updated', { status: 'past_due' });
    expect((await post(JSON.stringify(unreadable))).status).toBe(400);
    await setBilling(withStripe, ids.hope, {
      plan: 'elig_5',
      is_premium: 'true',
      stripe_customer_id: 'cus_fixed',
      subscription_status: null,
      subscription_status_at: null,
    });
    const fixed = { ...unreadable, data: { object: { customer: 'cus_fixed', status: 'past_due' } } };
    expect((await post(JSON.stringify(fixed))).status).toBe(200);
    expect((await subscriptionOf(ids.hope)).json).toMatchObject({ status: 'past_due' });
  });
});

describe("GET /api/organization/{id}/invoices: the Stripe customer's invoices", () => {
  const invoices = (t: TestContext, org: number, session = stripeTokens.admin) =>
    call(t.app, 'GET', `/api/organization/${org}/invoices`, { token: session });

  it('lists them newest first with date, amount, status and the hosted invoice link', async () => {
    const customer = fake.createCustomer('billing@maple.test');
    await setBilling(withStripe, ids.maple, {
      plan: 'elig_5',
      is_premium: 'true',
      stripe_customer_id: customer,
    });
    const older = fake.addInvoice(customer, {
      created: 1_780_000_000,
      total: 1250,
      amount_due: 1250,
      status: 'paid',
    });
    const newer = fake.addInvoice(customer, {
      created: 1_782_000_000,
      total: 900,
      amount_due: 900,
      status: 'open',
    });
    fake.addInvoice(fake.createCustomer(), { total: 5 }); // someone else's
    const answer = await invoices(withStripe, ids.maple);
    expect(answer.status).toBe(200);
    expect(answer.json.invoices).toEqual([
      {
        id: newer.id,
        number: newer.number,
        created: new Date(1_782_000_000 * 1000).toISOString(),
        currency: 'usd',
        total: 900,
        amount_due: 900,
        status: 'open',
        hosted_invoice_url: newer.hosted_invoice_url,
      },
      expect.objectContaining({ id: older.id, status: 'paid', total: 1250 }),
    ]);
    expect(stripeCalls()).toEqual([
      expect.objectContaining({ method: 'GET', path: '/v1/invoices', params: { customer, limit: '24' } }),
    ]);
  });

  it('has none before the first checkout or without Stripe; refuses readers; explains Stripe failing', async () => {
    await setBilling(withStripe, ids.maple, { stripe_customer_id: null });
    expect((await invoices(withStripe, ids.maple)).json).toEqual({ invoices: [] });
    expect((await invoices(plain, ids.maple, tokens.admin)).json).toEqual({ invoices: [] });
    expect((await invoices(withStripe, ids.hope, stripeTokens.reader)).status).toBe(403);
    await setBilling(withStripe, ids.maple, { stripe_customer_id: fake.createCustomer() });
    fake.failNext(500, 'Stripe is having a bad day', { path: /invoices/, times: 3 });
    const failing = await invoices(withStripe, ids.maple);
    expect(failing.status).toBe(502);
    expect(failing.json).toEqual({ message: 'Stripe did not answer. Please try again in a few minutes.' });
  });
});

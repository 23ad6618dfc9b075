import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import qs from 'qs';
import Stripe from 'stripe';

/**
 * A Stripe-compatible API server for tests and the end-to-end journey, on loopback. The official
 * `stripe` library is pointed at it (host, port, protocol) and talks HTTP to it exactly as it talks
 * to api.stripe.com: form-encoded bodies, the key as bearer, `Idempotency-Key`, `Stripe-Version`.
 * It keeps the parts of the API Twofold uses, with Stripe's rules where they matter to us:
 *
 * - `Idempotency-Key`: the same key with the same parameters replays the first response (with
 *   `Idempotent-Replayed: true`); with other parameters it is refused (`idempotency_error`).
 * - Billing meter events: the `event_name` must be a meter's; the customer must exist; the value a
 *   whole number (negative values correct usage); a second event with an `identifier` already seen
 *   is refused ("An event already exists with identifier ...").
 * - Meter event adjustments (`type=cancel`) cancel an event by identifier.
 * - Customers, checkout sessions (with a hosted page whose Pay button completes the session, creates
 *   the subscription and sends the signed `checkout.session.completed` event, as Stripe does),
 *   billing portal sessions (a hosted page back to `return_url`), subscriptions, invoices (list).
 * - Errors as Stripe shapes them: `{ error: { type, message, code?, param? } }`; a wrong key is a
 *   401 whose message shows the key masked, as Stripe's does.
 *
 * Tests read what it received (`requests`, `meterEvents`, `adjustments`) and can make the next
 * calls fail (`failNext`). Not a mock of Twofold's code: nothing of ours runs in it.
 */

export type FakeRequest = {
  method: string;
  path: string;
  authorization: string;
  idempotencyKey: string | undefined;
  stripeVersion: string | undefined;
  params: Record<string, unknown>;
};

export type FakeMeterEvent = {
  identifier: string;
  event_name: string;
  customer: string;
  value: number;
  timestamp: number;
  cancelled: boolean;
};

export type FakeInvoice = {
  id: string;
  object: 'invoice';
  customer: string;
  created: number;
  currency: string;
  amount_due: number;
  amount_paid: number;
  total: number;
  status: 'draft' | 'open' | 'paid' | 'uncollectible' | 'void';
  hosted_invoice_url: string | null;
  invoice_pdf: string | null;
  number: string | null;
  livemode: false;
};

type Customer = { id: string; object: 'customer'; email: string | null; created: number; livemode: false };
type Subscription = {
  id: string;
  object: 'subscription';
  customer: string;
  status: string;
  metadata: Record<string, string>;
  created: number;
  items: { object: 'list'; data: { id: string; price: { id: string } }[] };
  livemode: false;
};
type CheckoutSession = {
  id: string;
  object: 'checkout.session';
  mode: string;
  url: string | null;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'paid' | 'unpaid' | 'no_payment_required';
  customer: string | null;
  customer_email: string | null;
  client_reference_id: string | null;
  success_url: string;
  cancel_url: string | null;
  metadata: Record<string, string>;
  subscription: string | null;
  price: string;
  subscription_metadata: Record<string, string>;
  livemode: false;
};

export type FakeStripeOptions = {
  /** The one secret key it accepts. */
  secretKey: string;
  /** The event names of the meters set up in this account. */
  meters: string[];
  /** Where it sends signed events (a Stripe webhook endpoint), and the endpoint's signing secret. */
  webhook?: { url: string; secret: string };
  /** 0: any free port. */
  port?: number;
};

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;

const now = () => Math.floor(Date.now() / 1000);
const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

class StripeFailure extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

const missing = (param: string) =>
  new StripeFailure(
    400,
    'invalid_request_error',
    `Missing required param: ${param}.`,
    'parameter_missing',
    param,
  );
const noSuch = (what: string, id: string, param?: string) =>
  new StripeFailure(400, 'invalid_request_error', `No such ${what}: '${id}'`, 'resource_missing', param);

function text(params: Record<string, unknown>, name: string): string | undefined {
  const value = params[name];
  return typeof value === 'string' ? value : undefined;
}
function required(params: Record<string, unknown>, name: string): string {
  const value = text(params, name);
  if (value === undefined || value === '') throw missing(name);
  return value;
}
function record(value: unknown): Record<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).filter(
      (e): e is [string, string] => typeof e[1] === 'string',
    ),
  );
}
const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** Starts the server on 127.0.0.1. */
export async function startFakeStripe(options: FakeStripeOptions) {
  const requests: FakeRequest[] = [];
  const meterEvents: FakeMeterEvent[] = [];
  const adjustments: { identifier: string; event_name: string }[] = [];
  const customers = new Map<string, Customer>();
  const subscriptions = new Map<string, Subscription>();
  const sessions = new Map<string, CheckoutSession>();
  const portalSessions = new Map<string, { id: string; customer: string; return_url: string }>();
  const invoices: FakeInvoice[] = [];
  const idempotent = new Map<string, { fingerprint: string; status: number; body: unknown }>();
  const failures: { status: number; type: string; message: string; path?: RegExp }[] = [];
  const sentEvents: { id: string; type: string; status: number }[] = [];
  let base = '';

  function customer(id: string, param = 'customer'): Customer {
    const found = customers.get(id);
    if (!found) throw noSuch('customer', id, param);
    return found;
  }

  function createCustomer(email: string | null): Customer {
    const c: Customer = { id: newId('cus'), object: 'customer', email, created: now(), livemode: false };
    customers.set(c.id, c);
    return c;
  }

  function event(type: string, object: unknown) {
    return {
      id: newId('evt'),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: now(),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object },
    };
  }

  /** Signs and delivers an event to the webhook endpoint, as Stripe does; returns the endpoint's status. */
  async function deliver(
    evt: { id: string; type: string },
    signAs?: { secret?: string; timestamp?: number },
  ) {
    if (!options.webhook) throw new Error('the fake Stripe has no webhook endpoint to send to');
    const payload = JSON.stringify(evt);
    const header = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: signAs?.secret ?? options.webhook.secret,
      ...(signAs?.timestamp === undefined ? {} : { timestamp: signAs.timestamp }),
    });
    const response = await fetch(options.webhook.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      body: payload,
    });
    await response.arrayBuffer();
    sentEvents.push({ id: evt.id, type: evt.type, status: response.status });
    return response.status;
  }

  async function completeCheckout(session: CheckoutSession) {
    const c = session.customer ? customer(session.customer) : createCustomer(session.customer_email);
    const subscription: Subscription = {
      id: newId('sub'),
      object: 'subscription',
      customer: c.id,
      status: 'active',
      metadata: session.subscription_metadata,
      created: now(),
      items: { object: 'list', data: [{ id: newId('si'), price: { id: session.price } }] },
      livemode: false,
    };
    subscriptions.set(subscription.id, subscription);
    Object.assign(session, {
      status: 'complete',
      payment_status: 'paid',
      customer: c.id,
      subscription: subscription.id,
    });
    const { price: _price, subscription_metadata: _meta, ...visible } = session;
    if (options.webhook) await deliver(event('checkout.session.completed', visible));
    return subscription;
  }

  /** The REST API: one request's answer (throws StripeFailure for Stripe's errors). */
  function api(method: string, path: string, params: Record<string, unknown>): unknown {
    const customerPath = path.match(/^\/v1\/customers\/([^/]+)$/);
    const subscriptionPath = path.match(/^\/v1\/subscriptions\/([^/]+)$/);
    if (method === 'POST' && path === '/v1/customers') {
      return createCustomer(text(params, 'email') ?? null);
    }
    if (method === 'GET' && customerPath) return customer(customerPath[1] ?? '', 'id');

    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const mode = required(params, 'mode');
      const items = Array.isArray(params.line_items) ? params.line_items : [];
      const price = text(record(items[0]), 'price');
      if (!price) throw missing('line_items[0][price]');
      const given = text(params, 'customer');
      if (given) customer(given);
      const id = newId('cs_test');
      const session: CheckoutSession = {
        id,
        object: 'checkout.session',
        mode,
        url: `${base}/c/pay/${id}`,
        status: 'open',
        payment_status: 'unpaid',
        customer: given ?? null,
        customer_email: text(params, 'customer_email') ?? null,
        client_reference_id: text(params, 'client_reference_id') ?? null,
        success_url: required(params, 'success_url'),
        cancel_url: text(params, 'cancel_url') ?? null,
        metadata: record(params.metadata),
        subscription: null,
        price,
        subscription_metadata: record(
          (params.subscription_data as { metadata?: unknown } | undefined)?.metadata,
        ),
        livemode: false,
      };
      sessions.set(id, session);
      const { price: _price, subscription_metadata: _meta, ...visible } = session;
      return visible;
    }

    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      const c = customer(required(params, 'customer'));
      const id = newId('bps');
      const session = { id, customer: c.id, return_url: text(params, 'return_url') ?? base };
      portalSessions.set(id, session);
      return {
        id,
        object: 'billing_portal.session',
        customer: c.id,
        return_url: session.return_url,
        url: `${base}/p/session/${id}`,
        created: now(),
        livemode: false,
      };
    }

    if (method === 'POST' && path === '/v1/billing/meter_events') {
      const eventName = required(params, 'event_name');
      if (!options.meters.includes(eventName))
        throw new StripeFailure(
          400,
          'invalid_request_error',
          `No active meter was found for event name ${eventName}.`,
          undefined,
          'event_name',
        );
      const payload = record(params.payload);
      const customerId = payload.stripe_customer_id;
      if (!customerId) throw missing('payload[stripe_customer_id]');
      customer(customerId, 'payload[stripe_customer_id]');
      const rawValue = payload.value;
      if (rawValue === undefined) throw missing('payload[value]');
      if (!/^-?\d+$/.test(rawValue))
        throw new StripeFailure(
          400,
          'invalid_request_error',
          'The value of payload[value] must be a whole number.',
          undefined,
          'payload[value]',
        );
      const identifier = text(params, 'identifier') ?? newId('mev');
      if (meterEvents.some((e) => e.identifier === identifier))
        throw new StripeFailure(
          400,
          'invalid_request_error',
          `An event already exists with identifier ${identifier}.`,
          undefined,
          'identifier',
        );
      const timestamp = Number(text(params, 'timestamp') ?? now());
      meterEvents.push({
        identifier,
        event_name: eventName,
        customer: customerId,
        value: Number(rawValue),
        timestamp,
        cancelled: false,
      });
      return {
        object: 'billing.meter_event',
        created: now(),
        event_name: eventName,
        identifier,
        livemode: false,
        payload,
        timestamp,
      };
    }

    if (method === 'POST' && path === '/v1/billing/meter_event_adjustments') {
      const eventName = required(params, 'event_name');
      if (text(params, 'type') !== 'cancel') throw missing('type');
      const identifier = text(record(params.cancel), 'identifier');
      if (!identifier) throw missing('cancel[identifier]');
      const target = meterEvents.find((e) => e.identifier === identifier && e.event_name === eventName);
      if (!target) throw noSuch('meter event', identifier, 'cancel[identifier]');
      target.cancelled = true;
      adjustments.push({ identifier, event_name: eventName });
      return {
        object: 'billing.meter_event_adjustment',
        event_name: eventName,
        livemode: false,
        status: 'pending',
        type: 'cancel',
        cancel: { identifier },
      };
    }

    if (method === 'GET' && path === '/v1/invoices') {
      const of = text(params, 'customer');
      if (of) customer(of);
      const limit = Math.min(100, Math.max(1, Number(text(params, 'limit') ?? 10)));
      const all = invoices.filter((i) => !of || i.customer === of).sort((a, b) => b.created - a.created);
      return { object: 'list', url: '/v1/invoices', has_more: all.length > limit, data: all.slice(0, limit) };
    }

    if (method === 'GET' && path === '/v1/subscriptions') {
      const of = text(params, 'customer');
      const data = [...subscriptions.values()].filter((s) => !of || s.customer === of);
      return { object: 'list', url: '/v1/subscriptions', has_more: false, data };
    }
    if (subscriptionPath) {
      const subscription = subscriptions.get(subscriptionPath[1] ?? '');
      if (!subscription) throw noSuch('subscription', subscriptionPath[1] ?? '', 'id');
      if (method === 'GET') return subscription;
    }
    throw new StripeFailure(
      404,
      'invalid_request_error',
      `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs.`,
    );
  }

  /** The hosted pages a browser is sent to: checkout and the customer portal. */
  async function hostedPage(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    const page = (title: string, body: string) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`,
      );
    };
    let m = url.pathname.match(/^\/c\/pay\/([^/]+)$/);
    const session = m ? sessions.get(m[1] ?? '') : undefined;
    if (session && req.method === 'GET') {
      const cancel = session.cancel_url
        ? `<p><a href="${escapeHtml(session.cancel_url)}">Cancel</a></p>`
        : '';
      page('Test checkout', `<form method="post"><button type="submit">Pay</button></form>${cancel}`);
      return true;
    }
    if (session && req.method === 'POST') {
      if (session.status === 'open') await completeCheckout(session);
      res.writeHead(303, { location: session.success_url });
      res.end();
      return true;
    }
    m = url.pathname.match(/^\/p\/session\/([^/]+)$/);
    const portal = m ? portalSessions.get(m[1] ?? '') : undefined;
    if (portal && req.method === 'GET') {
      page(
        'Test customer portal',
        `<p>Payment methods of ${escapeHtml(portal.customer)}</p><p><a href="${escapeHtml(portal.return_url)}">Return to Twofold</a></p>`,
      );
      return true;
    }
    return false;
  }

  function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req'), ...headers });
    res.end(JSON.stringify(body));
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', base);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    if (!url.pathname.startsWith('/v1/')) {
      if (await hostedPage(req, res, url)) return;
      send(res, 404, { error: { type: 'invalid_request_error', message: 'Not found' } });
      return;
    }
    const method = req.method ?? 'GET';
    const params = qs.parse(method === 'GET' ? url.search.slice(1) : rawBody, { depth: 5, arrayLimit: 100 });
    const authorization = req.headers.authorization ?? '';
    const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
    requests.push({
      method,
      path: url.pathname,
      authorization,
      idempotencyKey,
      stripeVersion: req.headers['stripe-version'] as string | undefined,
      params,
    });
    if (authorization !== `Bearer ${options.secretKey}`) {
      const given = authorization.replace(/^Bearer /, '');
      send(res, 401, {
        error: {
          type: 'invalid_request_error',
          message: `Invalid API Key provided: ${given.slice(0, 8)}${'*'.repeat(Math.max(0, given.length - 12))}${given.slice(-4)}`,
        },
      });
      return;
    }
    const fingerprint = createHash('sha256').update(`${method} ${url.pathname} ${rawBody}`).digest('hex');
    if (method === 'POST' && idempotencyKey) {
      const earlier = idempotent.get(idempotencyKey);
      if (earlier && earlier.fingerprint !== fingerprint) {
        send(res, 400, {
          error: {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
          },
        });
        return;
      }
      if (earlier) {
        send(res, earlier.status, earlier.body, { 'idempotent-replayed': 'true' });
        return;
      }
    }
    const failureIndex = failures.findIndex((f) => !f.path || f.path.test(url.pathname));
    const failure = failureIndex >= 0 ? failures.splice(failureIndex, 1)[0] : undefined;
    if (failure) {
      // An injected outage (5xx, 429): like Stripe, such answers are not saved under the key.
      send(
        res,
        failure.status,
        { error: { type: failure.type, message: failure.message } },
        {
          'stripe-should-retry': 'false',
        },
      );
      return;
    }
    let status = 200;
    let body: unknown;
    try {
      body = api(method, url.pathname, params);
    } catch (error) {
      if (!(error instanceof StripeFailure)) throw error;
      status = error.status;
      body = {
        error: {
          type: error.type,
          message: error.message,
          ...(error.code ? { code: error.code } : {}),
          ...(error.param ? { param: error.param } : {}),
        },
      };
    }
    if (method === 'POST' && idempotencyKey) idempotent.set(idempotencyKey, { fingerprint, status, body });
    send(res, status, body);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      send(res, 500, { error: { type: 'api_error', message: String(error) } });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;

  return {
    url: base,
    port,
    requests,
    meterEvents,
    adjustments,
    invoices,
    sentEvents,
    /** The API base to give Twofold (STRIPE_API_BASE). */
    apiBase: base,
    /** The usage Stripe would bill a customer: the sum of its meter events not cancelled. */
    usageOf: (customerId: string) =>
      meterEvents
        .filter((e) => e.customer === customerId && !e.cancelled)
        .reduce((sum, e) => sum + e.value, 0),
    createCustomer: (email: string | null = null) => createCustomer(email).id,
    /** The customers' ids, oldest first (checkout makes one for a new payer). */
    customers: () => [...customers.keys()],
    /** Adds an invoice to a customer (Stripe makes them at each period end). */
    addInvoice(customerId: string, fields: Partial<Omit<FakeInvoice, 'id' | 'object' | 'customer'>> = {}) {
      customer(customerId);
      const id = newId('in');
      const invoice: FakeInvoice = {
        id,
        object: 'invoice',
        customer: customerId,
        created: now(),
        currency: 'usd',
        amount_due: 0,
        amount_paid: 0,
        total: 0,
        status: 'open',
        hosted_invoice_url: `${base}/i/${id}`,
        invoice_pdf: `${base}/i/${id}/pdf`,
        number: `TEST-${invoices.length + 1}`,
        livemode: false,
        ...fields,
      };
      invoices.push(invoice);
      return invoice;
    },
    /** The next matching API call (any, or by path) answers this error instead. */
    failNext(
      status: number,
      message: string,
      options: { type?: string; path?: RegExp; times?: number } = {},
    ) {
      for (let i = 0; i < (options.times ?? 1); i += 1)
        failures.push({
          status,
          message,
          type: options.type ?? (status >= 500 ? 'api_error' : 'invalid_request_error'),
          ...(options.path ? { path: options.path } : {}),
        });
    },
    /** Forgets every saved idempotent response (Stripe keeps them for 24 hours). */
    forgetIdempotencyKeys: () => idempotent.clear(),
    /** A subscription as checkout left it. */
    subscriptionsOf: (customerId: string) =>
      [...subscriptions.values()].filter((s) => s.customer === customerId),
    /**
     * Changes a subscription's status (a renewal payment failed: past_due, then unpaid; or paid
     * again: active) and sends `customer.subscription.updated`, as Stripe does.
     */
    async setSubscriptionStatus(subscriptionId: string, status: string) {
      const subscription = subscriptions.get(subscriptionId);
      if (!subscription) throw new Error(`no subscription ${subscriptionId}`);
      const previous = subscription.status;
      subscription.status = status;
      const evt = {
        ...event('customer.subscription.updated', subscription),
        data: { object: subscription, previous_attributes: { status: previous } },
      };
      return { event: evt, status: options.webhook ? await deliver(evt) : 0 };
    },
    /** A subscription for a customer made directly (as the Dashboard would). */
    createSubscription(customerId: string, metadata: Record<string, string> = {}) {
      customer(customerId);
      const subscription: Subscription = {
        id: newId('sub'),
        object: 'subscription',
        customer: customerId,
        status: 'active',
        metadata,
        created: now(),
        items: { object: 'list', data: [] },
        livemode: false,
      };
      subscriptions.set(subscription.id, subscription);
      return subscription;
    },
    /** Builds an event as Stripe would send it. */
    event,
    /** Sends an event (signed with the endpoint's secret unless told otherwise); the endpoint's status. */
    deliver,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

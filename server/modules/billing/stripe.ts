import Stripe from 'stripe';
import type { StripeConfig } from '../../config.ts';

/**
 * Twofold's Stripe calls, through Stripe's official library (retries with idempotency keys, the
 * API version, types, webhook signatures). The secret key never reaches a log or an error: every
 * failure is rethrown as a StripeError whose message is Stripe's, with any key in it removed.
 */

/**
 * The one Stripe API version Twofold speaks, pinned: a Stripe account upgrade or a library update
 * does not change what the requests and events look like. It is the version the pinned library
 * (stripe 23.1.0) is typed against; moving it is a deliberate change with that library.
 */
export const stripeApiVersion = '2026-10-28.endive' as const;

/** Stripe did not answer, or answered with an error. The message never carries a key. */
export class StripeError extends Error {
  override name = 'StripeError';
  constructor(
    message: string,
    /** Stripe's HTTP status, when it answered. */
    readonly status: number | undefined,
    /** Stripe's error type (invalid_request_error, api_error, ...), or 'connection_error'. */
    readonly type: string,
  ) {
    super(message);
  }
}

/** Removes the key itself and anything shaped like a Stripe secret or restricted key. */
export function redactKeys(text: string, secretKey?: string): string {
  let out = secretKey ? text.split(secretKey).join('[redacted]') : text;
  out = out.replace(/\b(sk|rk)_(test|live)_[A-Za-z0-9*]+/g, '[redacted]');
  return out;
}

const clients = new WeakMap<StripeConfig, Stripe>();

/** The client for this configuration (one per configuration: it keeps its connections). */
export function stripeClient(config: StripeConfig): Stripe {
  let client = clients.get(config);
  if (!client) {
    client = new Stripe(config.secretKey, {
      apiVersion: stripeApiVersion,
      host: config.api.host,
      port: config.api.port,
      protocol: config.api.protocol,
      // A person may be waiting on a redirect; the library retries twice with backoff and the
      // same idempotency key.
      maxNetworkRetries: 2,
      timeout: 15_000,
      telemetry: false,
    });
    clients.set(config, client);
  }
  return client;
}

/** Runs one Stripe call; its failure becomes a StripeError named for `what`, with no key in it. */
export async function stripeCall<T>(config: StripeConfig, what: string, call: (s: Stripe) => Promise<T>) {
  try {
    return await call(stripeClient(config));
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError) {
      const status = error.statusCode;
      const type =
        error.type === 'StripeConnectionError' ? 'connection_error' : (error.rawType ?? error.type);
      throw new StripeError(
        redactKeys(`${what}: ${status ?? 'no answer'} ${type}: ${error.message}`, config.secretKey),
        status,
        type,
      );
    }
    throw new StripeError(
      redactKeys(`${what}: ${error instanceof Error ? error.message : String(error)}`, config.secretKey),
      undefined,
      'connection_error',
    );
  }
}

function sessionUrl(what: string, url: string | null | undefined): string {
  if (typeof url !== 'string' || !/^https?:\/\//.test(url))
    throw new StripeError(`${what}: no session url`, undefined, 'invalid_response');
  return url;
}

type CheckoutRequest = {
  price: string;
  /** Metered prices (the percentage plans) take no quantity. */
  metered: boolean;
  organizationId: number;
  plan: string;
  /** The organization's Stripe customer, when it has been one before; otherwise the admin's email. */
  customer: string | null;
  email: string;
  successUrl: string;
  cancelUrl: string;
};

/** A subscription Checkout Session: returns the checkout page's URL. */
export async function createCheckoutSession(config: StripeConfig, request: CheckoutRequest): Promise<string> {
  const organizationId = String(request.organizationId);
  const metadata = { organization_id: organizationId, plan: request.plan };
  const what = 'checkout session';
  const session = await stripeCall(config, what, (s) =>
    s.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: request.price, ...(request.metered ? {} : { quantity: 1 }) }],
      client_reference_id: organizationId,
      success_url: request.successUrl,
      cancel_url: request.cancelUrl,
      metadata,
      // The subscription carries them too, so its later events name the organization and plan.
      subscription_data: { metadata },
      ...(request.customer ? { customer: request.customer } : { customer_email: request.email }),
    }),
  );
  return sessionUrl(what, session.url);
}

/** The customer portal (payment methods, invoices, cancellation): returns its URL. */
export async function createPortalSession(config: StripeConfig, customer: string, returnUrl: string) {
  const what = 'billing portal session';
  const session = await stripeCall(config, what, (s) =>
    s.billingPortal.sessions.create({ customer, return_url: returnUrl }),
  );
  return sessionUrl(what, session.url);
}

/** Stripe refuses a second meter event with an identifier it has seen (within at least 24 hours). */
export const duplicateMeterEvent = /an event already exists with identifier/i;

/**
 * One billing meter event: `value` (whole cents, negative to correct earlier usage) for the
 * customer, under `identifier`, which Stripe keeps unique. The identifier doubles as the request's
 * idempotency key, so a retry of a request whose answer was lost gets the first answer back.
 */
export async function sendMeterEvent(
  config: StripeConfig,
  event: { identifier: string; customer: string; value: number },
): Promise<void> {
  await stripeCall(config, 'meter event', (s) =>
    s.billing.meterEvents.create(
      {
        event_name: config.meterEventName,
        identifier: event.identifier,
        payload: { stripe_customer_id: event.customer, value: String(event.value) },
      },
      { idempotencyKey: `meter-event-${event.identifier}` },
    ),
  );
}

/** An invoice as the billing page lists it. */
export type InvoiceSummary = {
  id: string;
  number: string | null;
  created: string;
  currency: string;
  /** In the currency's minor unit (cents). */
  total: number;
  amount_due: number;
  status: string;
  hosted_invoice_url: string | null;
};

/** The customer's latest invoices, newest first. */
export async function listInvoices(
  config: StripeConfig,
  customer: string,
  limit = 24,
): Promise<InvoiceSummary[]> {
  const page = await stripeCall(config, 'invoices', (s) => s.invoices.list({ customer, limit }));
  return page.data.map((i) => ({
    id: i.id ?? '',
    number: i.number ?? null,
    created: new Date(i.created * 1000).toISOString(),
    currency: i.currency,
    total: i.total,
    amount_due: i.amount_due,
    status: i.status ?? 'draft',
    hosted_invoice_url: i.hosted_invoice_url ?? null,
  }));
}

/**
 * A webhook event, its signature and its timestamp checked by the library (Stripe's default
 * tolerance, five minutes: an older signature is a replay). Throws when either fails.
 */
export function verifiedEvent(secret: string, payload: string, signature: string | undefined): Stripe.Event {
  return Stripe.webhooks.constructEvent(payload, signature ?? '', secret);
}

/** Signs a payload as Stripe does (tests, and local tooling that sends events). */
export function stripeSignatureHeader(secret: string, payload: string, timestamp?: number): string {
  return Stripe.webhooks.generateTestHeaderString({
    payload,
    secret,
    ...(timestamp === undefined ? {} : { timestamp }),
  });
}

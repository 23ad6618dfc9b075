import { createHmac, timingSafeEqual } from 'node:crypto';
import type { StripeConfig } from '../../config.ts';

/**
 * The few Stripe calls Twofold makes, through Stripe's REST API with fetch (form-encoded bodies,
 * the secret key as bearer). The secret key is never logged: errors carry Stripe's status and
 * error type only.
 */

/** Stripe did not answer, or answered with an error. */
export class StripeError extends Error {
  override name = 'StripeError';
}

/** Stripe answers slowly at worst in seconds; a person is waiting on the redirect. */
const timeoutMs = 15_000;

async function post(stripe: StripeConfig, path: string, fields: Record<string, string>): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(`${stripe.apiBase}${path}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${stripe.secretKey}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams(fields).toString(),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new StripeError(`POST ${path}: no answer (${error instanceof Error ? error.name : 'error'})`);
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new StripeError(`POST ${path}: ${response.status}, not JSON`);
  }
  if (!response.ok) {
    const type = (body as { error?: { type?: unknown } } | null)?.error?.type;
    throw new StripeError(`POST ${path}: ${response.status} ${typeof type === 'string' ? type : ''}`.trim());
  }
  return body;
}

/** The `url` of a session Stripe created: where the browser goes next. */
function sessionUrl(path: string, body: unknown): string {
  const url = (body as { url?: unknown } | null)?.url;
  if (typeof url !== 'string' || !/^https?:\/\//.test(url))
    throw new StripeError(`POST ${path}: no session url`);
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

/** POST /v1/checkout/sessions (mode subscription): returns the checkout page's URL. */
export async function createCheckoutSession(stripe: StripeConfig, request: CheckoutRequest): Promise<string> {
  const organizationId = String(request.organizationId);
  const fields: Record<string, string> = {
    mode: 'subscription',
    'line_items[0][price]': request.price,
    client_reference_id: organizationId,
    success_url: request.successUrl,
    cancel_url: request.cancelUrl,
    'metadata[organization_id]': organizationId,
    'metadata[plan]': request.plan,
    // The subscription carries them too, so its later events name the organization and plan.
    'subscription_data[metadata][organization_id]': organizationId,
    'subscription_data[metadata][plan]': request.plan,
  };
  if (!request.metered) fields['line_items[0][quantity]'] = '1';
  if (request.customer) fields.customer = request.customer;
  else fields.customer_email = request.email;
  const path = '/v1/checkout/sessions';
  return sessionUrl(path, await post(stripe, path, fields));
}

/** POST /v1/billing_portal/sessions: returns the customer portal's URL. */
export async function createPortalSession(
  stripe: StripeConfig,
  customer: string,
  returnUrl: string,
): Promise<string> {
  const path = '/v1/billing_portal/sessions';
  return sessionUrl(path, await post(stripe, path, { customer, return_url: returnUrl }));
}

/** Stripe's default: events signed more than five minutes ago are refused (replays). */
const signatureToleranceSeconds = 5 * 60;

/**
 * Checks a Stripe-Signature header (`t=<unix seconds>,v1=<hex>[,v1=<hex>]`): some v1 must be the
 * HMAC-SHA256 of `${t}.${payload}` with the endpoint's secret, compared in constant time, and t
 * within the tolerance of now.
 */
export function verifyStripeSignature(
  secret: string,
  header: string | undefined,
  payload: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  if (!header) return false;
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.split('=', 2).map((s) => s.trim());
    if (key === 't' && value && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && value && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
  }
  if (timestamp === undefined || signatures.length === 0) return false;
  if (Math.abs(nowSeconds - timestamp) > signatureToleranceSeconds) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex'));
  return signatures.some((s) => timingSafeEqual(Buffer.from(s), expected));
}

/** Signs a payload as Stripe does (for tests and local tooling that send events). */
export function stripeSignatureHeader(secret: string, payload: string, timestamp: number): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

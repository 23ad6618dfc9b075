import { and, eq, inArray, isNull, lte, or } from 'drizzle-orm';
import * as z from 'zod';
import {
  type BillingErrorCode,
  billingPagePath,
  billingPortalPath,
  type PlanId,
  paidPlanIds,
  planById,
  subscribePath,
} from '../../../src/contract/billing.ts';
import { organizationNotFound } from '../../../src/contract/organization.ts';
import type { Tx } from '../../db/client.ts';
import { organizations, stripeEvents } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { AuthUser, Deps } from '../../http/route.ts';
import { recordAudit } from '../audit/audit.ts';
import { signToken, type VerifiedToken } from '../auth/tokens.ts';
import {
  createCheckoutSession,
  createPortalSession,
  type InvoiceSummary,
  listInvoices,
  StripeError,
  verifiedEvent,
} from './stripe.ts';

export const billingMessages = {
  unknownPlan: 'Unknown plan',
  webhookNotConfigured: 'Stripe webhooks are not configured on this server.',
  badSignature: 'Invalid Stripe signature',
  badEvent: 'Invalid Stripe event',
  providerError: 'Stripe did not answer. Please try again in a few minutes.',
} as const;

/** A 303 to a path of the portal (absolute, under PUBLIC_URL: the API may live elsewhere). */
function redirect(deps: Deps, path: string): Response {
  return new Response(null, {
    status: 303,
    headers: { Location: `${deps.config.publicUrl}${path}`, 'Cache-Control': 'no-store' },
  });
}

const back = (deps: Deps, query: string) => redirect(deps, `${billingPagePath}?${query}`);
const failed = (deps: Deps, code: BillingErrorCode) => back(deps, `billing_error=${code}`);

/** Where a billing link without a valid token sends the browser (the router's `refused`). */
export const signInFirst = (deps: Deps) =>
  redirect(deps, `/portal/login?redirect=${encodeURIComponent(billingPagePath)}`);

/**
 * GET /api/organization/:id/billing-link: the address of one billing navigation, carrying a
 * five-minute 'billing-link' token for this user, organization and action (and plan).
 */
export async function billingLink(
  deps: Deps,
  userId: number,
  orgId: number,
  query: { action: 'subscribe' | 'portal'; plan?: string | undefined },
): Promise<{ url: string }> {
  if (query.action === 'portal') {
    const token = await signToken(deps.config.jwtSecret, 'billing-link', userId, {
      org: orgId,
      data: { action: 'portal' },
    });
    return { url: `/${billingPortalPath(orgId, token)}` };
  }
  const plan = query.plan === undefined ? undefined : planById(query.plan);
  if (!plan) throw new HttpError(400, billingMessages.unknownPlan);
  const token = await signToken(deps.config.jwtSecret, 'billing-link', userId, {
    org: orgId,
    data: { action: 'subscribe', plan: plan.id },
  });
  return { url: `/${subscribePath(orgId, plan.id, token)}` };
}

/** A billing link opens only the navigation it was made for: a portal link chooses no plan. */
export function linkIsFor(token: VerifiedToken | undefined, action: 'subscribe' | 'portal', plan?: string) {
  return token?.data.action === action && (action === 'portal' || token.data.plan === plan);
}

async function organizationRow(deps: Deps, orgId: number) {
  const [row] = await deps.db
    .select({
      id: organizations.id,
      plan: organizations.plan,
      is_premium: organizations.is_premium,
      stripe_customer_id: organizations.stripe_customer_id,
    })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  if (!row) throw new HttpError(404, organizationNotFound(orgId));
  return row;
}

const isPaid = (plan: string | null) => plan !== null && (paidPlanIds as readonly string[]).includes(plan);

/**
 * GET /api/organization/:id/subscribe/:plan?token=: the browser's navigation to choose a plan.
 * Answers with a redirect: back to the billing screen (with ?subscribed= or ?billing_error=), to
 * the payment provider's checkout, to the contact form (custom) or to sign-in.
 */
export async function subscribe(deps: Deps, orgId: number, planParam: string, user: AuthUser) {
  const plan = planById(planParam);
  if (!plan) throw new HttpError(400, billingMessages.unknownPlan);
  if (plan.kind === 'contact') return redirect(deps, '/portal/contact');

  const org = await organizationRow(deps, orgId);
  // A running card subscription changes or ends in the provider's portal; a second checkout here
  // would bill the organization twice.
  if (org.is_premium === 'true' && isPaid(org.plan) && org.stripe_customer_id) {
    return org.plan === plan.id ? back(deps, `subscribed=${plan.id}`) : failed(deps, 'change-in-portal');
  }

  if (plan.kind === 'free') {
    // A chapter choosing its own plan becomes premium in its own right (no longer 'parent'):
    // spec: "billing: needed unless premium and not 'parent'".
    await deps.db
      .update(organizations)
      .set({
        plan: plan.id,
        is_premium: 'true',
        cancelled_at: null,
        cancel_reason: null,
        updated_at: new Date(),
      })
      .where(eq(organizations.id, orgId));
    return back(deps, `subscribed=${plan.id}`);
  }

  const stripe = deps.config.stripe;
  if (!stripe) return failed(deps, 'payments-unavailable');
  const price = stripe.prices[plan.id];
  if (!price) return failed(deps, 'plan-unavailable');
  try {
    const url = await createCheckoutSession(stripe, {
      price,
      metered: plan.id.startsWith('elig_'),
      organizationId: orgId,
      plan: plan.id,
      customer: org.stripe_customer_id,
      email: user.email,
      successUrl: `${deps.config.publicUrl}${billingPagePath}?checkout=${plan.id}`,
      cancelUrl: `${deps.config.publicUrl}${billingPagePath}?billing_error=checkout-cancelled`,
    });
    return new Response(null, { status: 303, headers: { Location: url, 'Cache-Control': 'no-store' } });
  } catch (error) {
    if (!(error instanceof StripeError)) throw error;
    deps.logger.error(`billing: checkout for organization ${orgId} failed: ${error.message}`);
    return failed(deps, 'provider-error');
  }
}

/** GET /api/organization/:id/billing-portal?token=: to the provider's customer portal, or back with the reason. */
export async function billingPortal(deps: Deps, orgId: number) {
  const org = await organizationRow(deps, orgId);
  const stripe = deps.config.stripe;
  if (!stripe) return failed(deps, 'payments-unavailable');
  if (!org.stripe_customer_id) return failed(deps, 'no-customer');
  try {
    const url = await createPortalSession(
      stripe,
      org.stripe_customer_id,
      `${deps.config.publicUrl}${billingPagePath}`,
    );
    return new Response(null, { status: 303, headers: { Location: url, 'Cache-Control': 'no-store' } });
  } catch (error) {
    if (!(error instanceof StripeError)) throw error;
    deps.logger.error(`billing: billing portal for organization ${orgId} failed: ${error.message}`);
    return failed(deps, 'provider-error');
  }
}

const text = z.string().min(1).max(255);
/**
 * A Checkout Session event. `payment_status` says whether the money is in: 'paid', or
 * 'no_payment_required' (a trial, a 100 % coupon); 'unpaid' is a completed checkout whose payment
 * (a bank debit) is still on its way, settled later by async_payment_succeeded or _failed.
 */
const CheckoutSession = z.object({
  client_reference_id: z.string().regex(/^\d{1,10}$/),
  customer: text,
  payment_status: z.enum(['paid', 'unpaid', 'no_payment_required']),
  metadata: z.object({ plan: z.enum(paidPlanIds as [PlanId, ...PlanId[]]) }),
});
const checkoutEvents = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
] as const;
const Subscription = z.object({
  customer: text,
  status: z.string().min(1).max(40),
  cancellation_details: z.optional(z.nullable(z.object({ reason: z.optional(z.nullable(z.string())) }))),
});

/** A subscription status in which the last payment failed: shown to admins with the portal link. */
export const paymentFailedStatuses = ['past_due', 'unpaid'] as const;

type StripeEventInfo = { id: string; type: string; created: number; object: unknown };
const system = { kind: 'system', label: 'Stripe' } as const;

function parseObject<T>(schema: z.ZodType<T>, object: unknown): T {
  const parsed = schema.safeParse(object);
  if (!parsed.success) throw new HttpError(400, billingMessages.badEvent);
  return parsed.data;
}

/** A paid checkout (at completion, or when a delayed payment succeeds) puts the organization on its plan. */
async function checkoutEvent(tx: Tx, deps: Deps, event: StripeEventInfo): Promise<string> {
  const session = parseObject(CheckoutSession, event.object);
  const orgId = Number(session.client_reference_id);
  // A completed checkout is not a payment: the plan comes only with the money (or with none due).
  // async_payment_failed, or a completion still unpaid, leaves the plan as it was.
  const settled = session.payment_status === 'paid' || session.payment_status === 'no_payment_required';
  if (event.type === 'checkout.session.async_payment_failed' || !settled) {
    deps.logger.info(
      `billing: ${event.type} for organization ${orgId} (${session.payment_status}): plan unchanged`,
    );
    return `plan unchanged (${session.payment_status})`;
  }
  // An organization deleted since simply has nothing to update; Stripe gets its 2xx.
  const updated = await tx
    .update(organizations)
    .set({
      plan: session.metadata.plan,
      is_premium: 'true',
      stripe_customer_id: session.customer,
      subscription_status: 'active',
      subscription_status_at: new Date(event.created * 1000),
      cancelled_at: null,
      cancel_reason: null,
      updated_at: new Date(),
    })
    .where(eq(organizations.id, orgId))
    .returning({ id: organizations.id });
  if (updated.length === 0) return 'organization not found';
  await recordAudit(tx, {
    kind: 'billing.plan_started',
    organizationId: orgId,
    actor: system,
    summary: `Started the ${planById(session.metadata.plan)?.name ?? session.metadata.plan} plan (payment received)`,
    details: { plan: session.metadata.plan, event: event.id },
  });
  return `plan ${session.metadata.plan} granted`;
}

/** The organization paying through this Stripe customer on a paid plan. */
async function organizationOfCustomer(tx: Tx, customer: string) {
  const [org] = await tx
    .select({
      id: organizations.id,
      parent_id: organizations.parent_id,
      subscription_status: organizations.subscription_status,
    })
    .from(organizations)
    .where(and(eq(organizations.stripe_customer_id, customer), inArray(organizations.plan, paidPlanIds)))
    .for('update');
  return org;
}

/**
 * A subscription changed: its status is kept (past_due and unpaid are shown to admins). An event
 * older than the status already stored (Stripe does not promise order) changes nothing.
 */
async function subscriptionUpdated(tx: Tx, event: StripeEventInfo): Promise<string> {
  const subscription = parseObject(Subscription, event.object);
  const org = await organizationOfCustomer(tx, subscription.customer);
  if (!org) return 'no organization on a paid plan for this customer';
  const at = new Date(event.created * 1000);
  const updated = await tx
    .update(organizations)
    .set({ subscription_status: subscription.status, subscription_status_at: at, updated_at: new Date() })
    .where(
      and(
        eq(organizations.id, org.id),
        or(isNull(organizations.subscription_status_at), lte(organizations.subscription_status_at, at)),
      ),
    )
    .returning({ id: organizations.id });
  if (updated.length === 0) return 'older than the status on record';
  if (org.subscription_status !== subscription.status)
    await recordAudit(tx, {
      kind: 'billing.payment_status',
      organizationId: org.id,
      actor: system,
      summary: `Subscription status changed from ${org.subscription_status ?? 'none'} to ${subscription.status}`,
      details: { from: org.subscription_status, to: subscription.status, event: event.id },
    });
  return `status ${subscription.status}`;
}

/** The subscription ended: the plan is taken away (a chapter falls back on its parent's); nothing is deleted. */
async function subscriptionDeleted(tx: Tx, event: StripeEventInfo): Promise<string> {
  const subscription = parseObject(Subscription, event.object);
  const org = await organizationOfCustomer(tx, subscription.customer);
  if (!org) return 'no organization on a paid plan for this customer';
  const reason = subscription.cancellation_details?.reason ?? 'subscription ended';
  await tx
    .update(organizations)
    .set({
      plan: '',
      is_premium: org.parent_id === null ? 'false' : 'parent',
      subscription_status: 'canceled',
      subscription_status_at: new Date(event.created * 1000),
      cancelled_at: new Date(),
      cancel_reason: reason,
      updated_at: new Date(),
    })
    .where(eq(organizations.id, org.id));
  await recordAudit(tx, {
    kind: 'billing.plan_ended',
    organizationId: org.id,
    actor: system,
    summary: `The paid plan ended (${reason})`,
    details: { reason, event: event.id },
  });
  return 'plan ended';
}

/**
 * POST /api/billing/stripe/webhook: Stripe's events, their signature and timestamp checked by the
 * official library (a forged signature, another endpoint's secret, or a signature older than five
 * minutes, a replay, is refused with 400). Each event is handled once: its id is stored in the
 * transaction that acts on it, and the same event again (Stripe retries, a replay within the
 * tolerance) is acknowledged and changes nothing. Events Twofold does not act on are
 * acknowledged and logged.
 */
export async function stripeWebhook(deps: Deps, payload: string, signature: string | undefined) {
  const secret = deps.config.stripe?.webhookSecret;
  if (!secret) throw new HttpError(400, billingMessages.webhookNotConfigured);
  let event: StripeEventInfo;
  try {
    const verified = verifiedEvent(secret, payload, signature);
    event = {
      id: verified.id,
      type: verified.type,
      created: verified.created,
      object: (verified.data as { object?: unknown } | undefined)?.object,
    };
  } catch (error) {
    deps.logger.warn(
      `billing: refused a Stripe webhook: ${error instanceof Error ? error.message.split('\n')[0] : 'unreadable'}`,
    );
    throw new HttpError(400, billingMessages.badSignature);
  }
  if (typeof event.id !== 'string' || typeof event.type !== 'string' || !Number.isFinite(event.created))
    throw new HttpError(400, billingMessages.badEvent);

  return deps.db.transaction(async (tx) => {
    const [fresh] = await tx
      .insert(stripeEvents)
      .values({ id: event.id, type: event.type, outcome: 'received' })
      .onConflictDoNothing()
      .returning({ id: stripeEvents.id });
    if (!fresh) {
      deps.logger.info(`billing: Stripe event ${event.id} (${event.type}) already handled; nothing changed`);
      return { received: true };
    }
    let outcome: string;
    if ((checkoutEvents as readonly string[]).includes(event.type))
      outcome = await checkoutEvent(tx, deps, event);
    else if (event.type === 'customer.subscription.updated' || event.type === 'customer.subscription.created')
      outcome = await subscriptionUpdated(tx, event);
    else if (event.type === 'customer.subscription.deleted') outcome = await subscriptionDeleted(tx, event);
    else {
      outcome = 'acknowledged, not acted on';
      deps.logger.info(
        `billing: Stripe event ${event.id} (${event.type}) acknowledged; Twofold does not act on it`,
      );
    }
    await tx.update(stripeEvents).set({ outcome }).where(eq(stripeEvents.id, event.id));
    return { received: true };
  });
}

/** The organization's subscription as the billing page and the dashboard show it to admins. */
export async function subscriptionOf(deps: Deps, orgId: number) {
  const [row] = await deps.db
    .select({
      status: organizations.subscription_status,
      since: organizations.subscription_status_at,
      customer: organizations.stripe_customer_id,
    })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  if (!row) throw new HttpError(404, organizationNotFound(orgId));
  return {
    status: row.status,
    since: row.since?.toISOString() ?? null,
    payment_failed: (paymentFailedStatuses as readonly (string | null)[]).includes(row.status),
    can_manage: Boolean(deps.config.stripe && row.customer),
  };
}

/** GET /api/organization/:id/invoices: the Stripe customer's invoices, newest first (none without one). */
export async function invoicesOf(deps: Deps, orgId: number): Promise<{ invoices: InvoiceSummary[] }> {
  const org = await organizationRow(deps, orgId);
  const stripe = deps.config.stripe;
  if (!stripe || !org.stripe_customer_id) return { invoices: [] };
  try {
    return { invoices: await listInvoices(stripe, org.stripe_customer_id) };
  } catch (error) {
    if (!(error instanceof StripeError)) throw error;
    deps.logger.error(`billing: invoices of organization ${orgId} failed: ${error.message}`);
    throw new HttpError(502, billingMessages.providerError);
  }
}

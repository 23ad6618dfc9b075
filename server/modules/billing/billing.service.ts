import { and, eq, inArray } from 'drizzle-orm';
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
import { organizations } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { AuthUser, Deps } from '../../http/route.ts';
import { signToken, type VerifiedToken } from '../auth/tokens.ts';
import { createCheckoutSession, createPortalSession, StripeError, verifyStripeSignature } from './stripe.ts';

export const billingMessages = {
  unknownPlan: 'Unknown plan',
  webhookNotConfigured: 'Stripe webhooks are not configured on this server.',
  badSignature: 'Invalid Stripe signature',
  badEvent: 'Invalid Stripe event',
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
const CheckoutSessionEvent = z.object({
  type: z.enum([
    'checkout.session.completed',
    'checkout.session.async_payment_succeeded',
    'checkout.session.async_payment_failed',
  ]),
  data: z.object({
    object: z.object({
      client_reference_id: z.string().regex(/^\d{1,10}$/),
      customer: text,
      payment_status: z.enum(['paid', 'unpaid', 'no_payment_required']),
      metadata: z.object({ plan: z.enum(paidPlanIds as [PlanId, ...PlanId[]]) }),
    }),
  }),
});
const checkoutEvents: readonly string[] = CheckoutSessionEvent.shape.type.options;
const SubscriptionDeleted = z.object({
  type: z.literal('customer.subscription.deleted'),
  data: z.object({
    object: z.object({
      customer: text,
      cancellation_details: z.optional(z.nullable(z.object({ reason: z.optional(z.nullable(z.string())) }))),
    }),
  }),
});
const AnyEvent = z.object({ type: z.string() });

/**
 * POST /api/billing/stripe/webhook: Stripe's events, signed with the endpoint's secret. A paid
 * checkout (at completion, or later when a delayed payment succeeds) makes the organization premium
 * on its plan; an unpaid or failed one changes nothing; a subscription ending takes the plan away.
 * Other events are acknowledged and ignored. Replays of the same event change nothing further.
 */
export async function stripeWebhook(deps: Deps, payload: string, signature: string | undefined) {
  const secret = deps.config.stripe?.webhookSecret;
  if (!secret) throw new HttpError(400, billingMessages.webhookNotConfigured);
  if (!verifyStripeSignature(secret, signature, payload))
    throw new HttpError(400, billingMessages.badSignature);
  let json: unknown;
  try {
    json = JSON.parse(payload);
  } catch {
    throw new HttpError(400, billingMessages.badEvent);
  }
  const event = AnyEvent.safeParse(json);
  if (!event.success) throw new HttpError(400, billingMessages.badEvent);

  if (checkoutEvents.includes(event.data.type)) {
    const checkout = CheckoutSessionEvent.safeParse(json);
    if (!checkout.success) throw new HttpError(400, billingMessages.badEvent);
    const session = checkout.data.data.object;
    const orgId = Number(session.client_reference_id);
    // A completed checkout is not a payment: the plan comes only with the money (or with none due).
    // async_payment_failed, or a completion still unpaid, leaves the plan as it was.
    const settled = session.payment_status === 'paid' || session.payment_status === 'no_payment_required';
    if (checkout.data.type === 'checkout.session.async_payment_failed' || !settled) {
      deps.logger.info(
        `billing: ${checkout.data.type} for organization ${orgId} (${session.payment_status}): plan unchanged`,
      );
      return { received: true };
    }
    // An organization deleted since simply has nothing to update; Stripe gets its 2xx.
    await deps.db
      .update(organizations)
      .set({
        plan: session.metadata.plan,
        is_premium: 'true',
        stripe_customer_id: session.customer,
        cancelled_at: null,
        cancel_reason: null,
        updated_at: new Date(),
      })
      .where(eq(organizations.id, orgId));
  } else if (event.data.type === 'customer.subscription.deleted') {
    const deleted = SubscriptionDeleted.safeParse(json);
    if (!deleted.success) throw new HttpError(400, billingMessages.badEvent);
    const subscription = deleted.data.data.object;
    const [org] = await deps.db
      .select({ id: organizations.id, parent_id: organizations.parent_id })
      .from(organizations)
      .where(
        and(
          eq(organizations.stripe_customer_id, subscription.customer),
          inArray(organizations.plan, paidPlanIds),
        ),
      );
    if (org) {
      await deps.db
        .update(organizations)
        .set({
          plan: '',
          // A chapter falls back on its parent organization's plan.
          is_premium: org.parent_id === null ? 'false' : 'parent',
          cancelled_at: new Date(),
          cancel_reason: subscription.cancellation_details?.reason ?? 'subscription ended',
          updated_at: new Date(),
        })
        .where(eq(organizations.id, org.id));
    }
  }
  return { received: true };
}

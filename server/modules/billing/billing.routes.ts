import * as z from 'zod';
import { MessageResponse } from '../../../src/contract/auth.ts';
import { BillsResponse, InvoicesResponse, SubscriptionResponse } from '../../../src/contract/billing.ts';
import { IdParams, idSegment, orgFromIdParam } from '../../http/params.ts';
import { defineRoute } from '../../http/route.ts';
import * as service from './billing.service.ts';
import { billsOf } from './bills.ts';

const error = (description: string) => ({ description, schema: MessageResponse });
const tags = ['billing'];

/** The link travels in the query: these are browser navigations, which carry no bearer header. */
const TokenQuery = z.object({ token: z.optional(z.string().max(4096)) });
const BillingLinkQuery = z.object({
  action: z.enum(['subscribe', 'portal']),
  plan: z.optional(z.string().max(40)),
});
const redirects = {
  303: { description: 'To the payment provider, back to /portal/billing (with the outcome), or to sign-in' },
};

/**
 * Subscriptions (spec part 2, section 7). The two navigation routes are opened by the browser with
 * a five-minute 'billing-link' token as `?token=` (the session token never goes into a URL: URLs
 * end up in history, proxies' logs and Referer headers), minted by GET .../billing-link for one
 * action; the router checks it and the admin level like any route's, and sends a browser without
 * a valid link to sign in.
 */
const billingAdmin = { level: 'admin', capability: 'billing.manage', org: orgFromIdParam } as const;
const billingLink = { purpose: 'billing-link', refused: service.signInFirst } as const;
export const billingRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/organization/:id/billing-link',
    access: billingAdmin,
    summary:
      "A five-minute link for one billing navigation: choosing a plan (action=subscribe&plan=) or the payment provider's portal (action=portal)",
    tags,
    params: IdParams,
    query: BillingLinkQuery,
    responses: {
      200: { description: 'The link to open', schema: z.object({ url: z.string() }) },
      400: error('Unknown plan'),
      403: error('Only admins change the plan'),
      404: error('Organization with id {id} not found'),
    },
    handler: ({ params, query, deps, user }) => service.billingLink(deps, user.id, params.id, query),
  }),
  defineRoute({
    method: 'get',
    path: '/api/organization/:id/subscribe/:plan',
    access: billingAdmin,
    tokenInQuery: billingLink,
    summary: 'Choose a plan (a browser navigation with ?token=): free at once, paid through card checkout',
    tags,
    params: z.object({ id: idSegment, plan: z.string() }),
    query: TokenQuery,
    responses: {
      ...redirects,
      400: error('Unknown plan'),
      403: error('Only admins change the plan'),
      404: error('Organization with id {id} not found'),
    },
    handler: async ({ params, deps, user, token }) =>
      service.linkIsFor(token, 'subscribe', params.plan)
        ? service.subscribe(deps, params.id, params.plan, user)
        : service.signInFirst(deps),
  }),
  defineRoute({
    method: 'get',
    path: '/api/organization/:id/billing-portal',
    access: billingAdmin,
    tokenInQuery: billingLink,
    summary: "Manage billing (a browser navigation with ?token=): the payment provider's customer portal",
    tags,
    params: z.object({ id: idSegment }),
    query: TokenQuery,
    responses: {
      ...redirects,
      403: error('Only admins manage billing'),
      404: error('Organization with id {id} not found'),
    },
    handler: async ({ params, deps, token }) =>
      service.linkIsFor(token, 'portal') ? service.billingPortal(deps, params.id) : service.signInFirst(deps),
  }),
  defineRoute({
    method: 'get',
    path: '/api/organization/:id/bills',
    access: { level: 'read', capability: 'organization.view', org: orgFromIdParam },
    summary: "The organization's monthly bills on a per-match plan, newest first, with what each comes to",
    tags,
    params: IdParams,
    responses: { 200: { description: 'The bills', schema: BillsResponse } },
    handler: async ({ params, deps }) => ({ bills: await billsOf(deps.db, params.id) }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/organization/:id/invoices',
    access: billingAdmin,
    summary:
      "The organization's Stripe invoices, newest first: date, amount, status and the hosted invoice link",
    tags,
    params: IdParams,
    responses: {
      200: { description: 'The invoices (none before the first paid checkout)', schema: InvoicesResponse },
      403: error('Only admins see invoices'),
      404: error('Organization with id {id} not found'),
      502: error('Stripe did not answer'),
    },
    handler: ({ params, deps }) => service.invoicesOf(deps, params.id),
  }),
  defineRoute({
    method: 'get',
    path: '/api/organization/:id/subscription',
    access: billingAdmin,
    summary: "The subscription's Stripe status (past_due, unpaid: the last payment failed), for admins",
    tags,
    params: IdParams,
    responses: {
      200: { description: 'The subscription status', schema: SubscriptionResponse },
      403: error('Only admins see the subscription'),
      404: error('Organization with id {id} not found'),
    },
    handler: ({ params, deps }) => service.subscriptionOf(deps, params.id),
  }),
  defineRoute({
    method: 'post',
    path: '/api/billing/stripe/webhook',
    access: 'anonymous',
    summary:
      "Stripe's events (signed with STRIPE_WEBHOOK_SECRET): checkout completed, subscription updated or ended; each handled once",
    tags,
    responses: {
      200: { description: 'The event was accepted' },
      400: error('Invalid Stripe signature, or an event that cannot be read'),
    },
    handler: async ({ c, deps }) =>
      service.stripeWebhook(deps, await c.req.text(), c.req.header('stripe-signature')),
  }),
];

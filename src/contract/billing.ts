import * as z from 'zod/mini';
import type { Organization } from './organization.ts';

/**
 * Subscriptions: the nonprofit's plan with Twofold itself. Twofold never touches donation or
 * matching money; these plans pay for the portal.
 *
 * spec (part 2, sections 3 and 9): "Plans: flat_0, flat_5, flat_10, flat_20, flat_50, flat_100,
 * flat_200, elig_3, elig_5, custom." "Flat plans step 5, 10, 20, 50, 100, 200 per month (default
 * 20); flat_0 is free; elig_5 = 5% of eligible match requests (Full Price); elig_3 = 3% (Growing)."
 */
export const planIds = [
  'flat_0',
  'flat_5',
  'flat_10',
  'flat_20',
  'flat_50',
  'flat_100',
  'flat_200',
  'elig_3',
  'elig_5',
  'custom',
] as const;
export type PlanId = (typeof planIds)[number];
export const PlanId = z.enum(planIds);

/** How a plan is taken: at once (free), through card checkout, or by talking to us. */
export type PlanKind = 'free' | 'paid' | 'contact';

export interface Plan {
  id: PlanId;
  name: string;
  /** The price as people read it: '$20 / month', '3% of eligible match requests'. */
  price: string;
  description: string;
  kind: PlanKind;
}

/** spec: "(default 20)": the plan the screen highlights. */
export const defaultPlan: PlanId = 'flat_20';

const flat = (dollars: number, description: string): Plan => ({
  id: `flat_${dollars}` as PlanId,
  name: `Flat $${dollars}`,
  price: `$${dollars} / month`,
  description,
  kind: 'paid',
});

const flatIncludes = 'Every portal feature, for as many match requests as you track.';

/** The catalogue, in the order the screen shows it. */
export const plans: readonly Plan[] = [
  {
    id: 'flat_0',
    name: 'Free',
    price: '$0 / month',
    description:
      'Track match requests, email donors and see your matching overview. No card needed; change plans at any time.',
    kind: 'free',
  },
  flat(5, `${flatIncludes} Suits a small PTA or a first matching season.`),
  flat(10, `${flatIncludes} For organizations with a steady trickle of matching gifts.`),
  flat(20, `${flatIncludes} Our most chosen plan.`),
  flat(50, `${flatIncludes} For busy development teams with several campaigns.`),
  flat(100, `${flatIncludes} For large organizations and their chapters.`),
  flat(200, `${flatIncludes} For the largest programs, with priority support.`),
  {
    id: 'elig_3',
    name: 'Growing',
    price: '3% of eligible match requests',
    description:
      'Pay as matching grows: 3% of the estimated match of each eligible request, billed monthly. Nothing when there is nothing to match.',
    kind: 'paid',
  },
  {
    id: 'elig_5',
    name: 'Full Price',
    price: '5% of eligible match requests',
    description:
      'Full service: 5% of the estimated match of each eligible request, billed monthly. Nothing when there is nothing to match.',
    kind: 'paid',
  },
  {
    id: 'custom',
    name: 'Custom',
    price: 'Talk to us',
    description:
      'Invoicing, a federation of chapters or anything else: we will put a plan together with you.',
    kind: 'contact',
  },
];

export function planById(id: string): Plan | undefined {
  return plans.find((p) => p.id === id);
}

/** The plans paid through the card payment provider (each needs a price configured on the server). */
export const paidPlanIds = plans.filter((p) => p.kind === 'paid').map((p) => p.id);

/**
 * The plan the organization holds, or null: a plan counts only while the organization is premium
 * in its own right ('parent' means its parent organization's plan covers it).
 */
export function currentPlan(organization: Pick<Organization, 'plan' | 'is_premium'>): Plan | null {
  if (organization.is_premium !== true) return null;
  return planById(organization.plan) ?? null;
}

/**
 * Why a subscribe or billing-portal call came back without a change: the code travels in
 * `?billing_error=` (the server's redirect), the text is what the screen shows.
 */
export const billingErrors = {
  'payments-unavailable':
    'Card payments are not set up on this server yet; choose the free plan or contact us.',
  'plan-unavailable':
    'This plan cannot be bought by card on this server yet; choose another plan or contact us.',
  'provider-error':
    'The payment provider did not answer. Nothing was charged; please try again in a few minutes.',
  'no-customer': 'There is no card subscription to manage yet: choose a paid plan first.',
  'change-in-portal':
    'You have a paid subscription: change or cancel it under Manage billing, then choose the new plan here.',
  'checkout-cancelled': 'Checkout was cancelled. Your plan has not changed.',
} as const;
export type BillingErrorCode = keyof typeof billingErrors;

export function billingErrorMessage(code: string): string {
  return code in billingErrors
    ? billingErrors[code as BillingErrorCode]
    : 'Your plan could not be changed. Please try again or contact us.';
}

/** spec (part 2, section 7, Subscriptions): "The browser opens /api/organization/{id}/subscribe/{plan}?token={token}." */
export function subscribePath(organizationId: number, plan: PlanId, token: string): string {
  return `api/organization/${organizationId}/subscribe/${plan}?token=${encodeURIComponent(token)}`;
}

/** spec: "Billing portal link: /api/organization/{id}/billing-portal?token={token}." */
export function billingPortalPath(organizationId: number, token: string): string {
  return `api/organization/${organizationId}/billing-portal?token=${encodeURIComponent(token)}`;
}

/** The billing screen's own address, where every subscribe and billing-portal call returns. */
export const billingPagePath = '/portal/billing';

/** The share of each eligible request's estimated match a per-match plan bills. */
export const perMatchRates: Readonly<Partial<Record<string, number>>> = { elig_3: 0.03, elig_5: 0.05 };

/**
 * A month's bill on a per-match plan, as GET /api/organization/{id}/bills lists them (newest
 * first). Dollars: the estimated match of the requests it counts and of the refunds credited on
 * it, and what it comes to at its plan's rate (negative when refunds outweigh the month).
 */
export const Bill = z.object({
  id: z.number(),
  plan: z.string(),
  period_start: z.string(),
  period_end: z.string(),
  /** null while the month is open. */
  issued_at: z.nullable(z.string()),
  requests: z.number(),
  matched: z.number(),
  refunds: z.number(),
  refunded: z.number(),
  amount: z.number(),
  /**
   * What Stripe has of the bill's usage (issue #27): its reports (a charge per match, a negative
   * correction per refund or release) reported, waiting to be sent, or given up on with Stripe's
   * last reason.
   */
  usage: z.object({
    reported: z.number(),
    pending: z.number(),
    failed: z.number(),
    last_error: z.nullable(z.string()),
  }),
});
export type Bill = z.infer<typeof Bill>;
export const BillsResponse = z.object({ bills: z.array(Bill) });
export type BillsResponse = z.infer<typeof BillsResponse>;
export const billsPath = (organizationId: number) => `/api/organization/${organizationId}/bills`;

/** Where a bill's usage stands with Stripe, as the billing page says it. */
export function billUsageState(bill: Pick<Bill, 'usage'>): 'none' | 'reported' | 'pending' | 'failed' {
  const { reported, pending, failed } = bill.usage;
  if (failed > 0) return 'failed';
  if (pending > 0) return 'pending';
  return reported > 0 ? 'reported' : 'none';
}

/** One of the organization's Stripe invoices (amounts in cents of `currency`). */
export const Invoice = z.object({
  id: z.string(),
  number: z.nullable(z.string()),
  created: z.string(),
  currency: z.string(),
  total: z.number(),
  amount_due: z.number(),
  status: z.string(),
  hosted_invoice_url: z.nullable(z.string()),
});
export type Invoice = z.infer<typeof Invoice>;
export const InvoicesResponse = z.object({ invoices: z.array(Invoice) });
export type InvoicesResponse = z.infer<typeof InvoicesResponse>;
export const invoicesPath = (organizationId: number) => `/api/organization/${organizationId}/invoices`;

/** An invoice's status in words. */
export const invoiceStatusLabels: Readonly<Record<string, string>> = {
  draft: 'Draft',
  open: 'Due',
  paid: 'Paid',
  uncollectible: 'Uncollectible',
  void: 'Void',
};

/**
 * The organization's subscription, for admins: its Stripe status as the last webhook event said
 * it, and whether the last payment failed (past_due, unpaid), when the page and the dashboard
 * show the portal link to fix it.
 */
export const SubscriptionResponse = z.object({
  status: z.nullable(z.string()),
  since: z.nullable(z.string()),
  payment_failed: z.boolean(),
  can_manage: z.boolean(),
});
export type SubscriptionResponse = z.infer<typeof SubscriptionResponse>;
export const subscriptionPath = (organizationId: number) =>
  `/api/organization/${organizationId}/subscription`;

/** What admins read when the last payment failed (billing page and dashboard). */
export const paymentFailedTexts = {
  title: 'Your last payment did not go through',
  past_due:
    'Stripe will try the card again over the next days. Update your payment method so your plan continues; nothing is lost in the meantime.',
  unpaid:
    'Stripe has stopped retrying the payment. Update your payment method to settle the invoice; your data is safe, and the plan continues once it is paid.',
  action: 'Update payment method',
} as const;

import { billingErrorMessage, planById } from '../../contract/billing.ts';

/** The screen's texts (the heading is the spec's route title). */
export const billingTexts = {
  heading: 'Choose a plan',
  noOrganization: 'You must select an organization to use this section.',
  currentPlan: 'Current plan',
  recommended: 'Most chosen',
  manageBilling: 'Manage billing',
  linkFailed: 'Could not open billing. Please try again.',
  adminsOnly:
    'Only admins of this organization can change its plan. Ask an admin of your organization if you need a different one.',
  parentCovered:
    'This chapter is covered by its parent organization’s plan. Choosing a plan here gives the chapter a plan of its own.',
  noMoney:
    'Plans pay for the Twofold portal itself. Twofold never handles donations or matching gifts: they go straight from donors and their employers to you.',
  stripeSetupLink: 'Set up card payments for your own donation pages',
  billsTitle: 'Monthly bills',
  billsExplained:
    'A match request counts on the bill for the month staff mark it Submitted, at your plan’s share of its estimated match, and is reported to Stripe at once; Stripe charges it on your next invoice. A refund is credited on the month it is made. Each bill is issued when its month ends.',
  billsLoading: 'Loading bills...',
  noBills: 'No bills yet: a bill opens with the first match request marked Submitted.',
  invoicesTitle: 'Invoices',
  invoicesLoading: 'Loading invoices...',
  noInvoices: 'No invoices yet: Stripe sends the first one at the end of your first billing period.',
  paymentMethods: 'Manage payment methods',
} as const;

/** What a return from subscribe or the billing portal tells the user (the server's query parameters). */
export type BillingNotice = { kind: 'success' | 'error'; text: string };

/**
 * ?subscribed={plan}: the plan is in place; ?checkout={plan}: the payment went through and the
 * provider's confirmation makes the plan current; ?billing_error={code}: why nothing changed.
 */
export function billingNotice(search: string): BillingNotice | null {
  const query = new URLSearchParams(search);
  const error = query.get('billing_error');
  if (error) return { kind: 'error', text: billingErrorMessage(error) };
  const subscribed = planById(query.get('subscribed') ?? '');
  if (subscribed) return { kind: 'success', text: `You are now on the ${subscribed.name} plan.` };
  const checkout = planById(query.get('checkout') ?? '');
  if (checkout)
    return {
      kind: 'success',
      text: `Thank you! Your payment for the ${checkout.name} plan went through. It shows here as your current plan as soon as the payment provider confirms it, usually within a minute: reload this page if it has not appeared yet.`,
    };
  return null;
}

/** The query parameters a notice comes from, removed from the address once read (a reload does not repeat it). */
export const noticeParams = ['billing_error', 'subscribed', 'checkout'] as const;

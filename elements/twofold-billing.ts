import billingCss from '../src/features/billing/billing.css?inline';
import { Billing, type BillingProps } from '../src/features/billing/billing.tsx';
import paymentFailedCss from '../src/features/billing/payment-failed.css?inline';
import { defineElement } from './define-element.ts';

/**
 * @summary Subscriptions and billing of the current organization: 'Choose a plan' with the plans,
 * the current one marked, 'Manage billing', a per-match plan's monthly bills with whether Stripe
 * has their usage, the Stripe invoices and 'Manage payment methods' (admins), a failed payment's
 * notice (admins), and (view="stripe-setup") the five steps for entering card payment keys.
 *
 * @attr view - 'plans' (default) or 'stripe-setup'.
 * @attr api-base - The API's origin when it is not the page's own; plan choices open it.
 *
 * @csspart base - The element's inner root.
 * @csspart header - The heading and the organization's name.
 * @csspart notice - The outcome of a return from checkout or the billing portal.
 * @csspart plan - Each plan's card.
 * @csspart choose-button - A plan's Choose button.
 * @csspart manage-billing - The 'Manage billing' link (admins).
 * @csspart bills - The monthly bills of a per-match plan.
 * @csspart invoices - The Stripe invoices (admins).
 * @csspart payment-methods-button - 'Manage payment methods': Stripe's customer portal (admins).
 * @csspart payment-failed - The notice that the last payment failed (admins).
 * @csspart update-payment-button - Its 'Update payment method' button.
 *
 * @cssproperty --twofold-font-family - The typeface.
 * @cssproperty --twofold-color-primary - Links, the highlighted plan and its button.
 */
export const TwofoldBilling = defineElement<BillingProps>('twofold-billing', Billing, {
  props: { view: 'string' },
  styles: [billingCss, paymentFailedCss],
});

declare global {
  interface HTMLElementTagNameMap {
    'twofold-billing': HTMLElement;
  }
}

import billingCss from '../src/features/billing/billing.css?inline';
import { Billing, type BillingProps } from '../src/features/billing/billing.tsx';
import { defineElement } from './define-element.ts';

/**
 * @summary Subscriptions and billing of the current organization: 'Choose a plan' with the plans,
 * the current one marked, 'Manage billing', and (view="stripe-setup") the five steps for entering
 * card payment keys.
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
 *
 * @cssproperty --twofold-font-family - The typeface.
 * @cssproperty --twofold-color-primary - Links, the highlighted plan and its button.
 */
export const TwofoldBilling = defineElement<BillingProps>('twofold-billing', Billing, {
  props: { view: 'string' },
  styles: [billingCss],
});

declare global {
  interface HTMLElementTagNameMap {
    'twofold-billing': HTMLElement;
  }
}

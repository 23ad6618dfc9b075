import payoutsCss from '../src/features/payouts/payouts.css?inline';
import { Payouts } from '../src/features/payouts/payouts.tsx';
import { defineElement } from './define-element.ts';

/**
 * @summary Payouts received for the current organization: upload a disbursement report (CSV or
 * XLSX; Benevity, YourCause, CyberGrants and Bright Funds headers recognised, others mapped), see
 * each line matched, ambiguous (pick one) or unmatched before anything changes, then confirm: the
 * matched requests become Match Completed with the amount and day paid. Lists the reports recorded.
 *
 * @attr api-base - The API's origin when it is not the page's own.
 *
 * @csspart base - The element's inner root.
 * @csspart header - The heading and the organization's name.
 * @csspart upload - The upload form.
 *
 * @cssproperty --twofold-font-family - The typeface.
 * @cssproperty --twofold-color-primary - Links and buttons.
 */
export const TwofoldPayouts = defineElement('twofold-payouts', Payouts, { styles: [payoutsCss] });

declare global {
  interface HTMLElementTagNameMap {
    'twofold-payouts': HTMLElement;
  }
}

import verificationCss from '../src/features/verification/verification.css?inline';
import { Verification } from '../src/features/verification/verification.tsx';
import cardTableCss from '../src/ui/card-table.css?inline';
import { defineElement } from './define-element.ts';

/**
 * @summary The verification queue of the current organization: every match waiting on the
 * nonprofit (NPO to Verify), oldest first, grouped by company and CSR vendor with the deadline,
 * the vendor portal's link and what to check; selected matches are marked verified or declined
 * with a reason (write permission).
 *
 * @attr api-base - The API's origin when it is not the page's own.
 *
 * @prop rowActions - A function giving each queued match an action of its own (last cell).
 *
 * @csspart base - The element's inner root.
 * @csspart header - The heading and the organization's name.
 * @csspart bulk-actions - The selection count and the Mark verified / Decline buttons.
 * @csspart group - Each company's (and vendor's) table.
 *
 * @cssproperty --twofold-font-family - The typeface.
 * @cssproperty --twofold-color-primary - Links and the Mark verified button.
 */
export const TwofoldVerification = defineElement('twofold-verification', Verification, {
  styles: [cardTableCss, verificationCss],
});

declare global {
  interface HTMLElementTagNameMap {
    'twofold-verification': HTMLElement;
  }
}

// uPlot's own rules (legend, cursor), adopted into the shadow root with ours.
import uplotCss from 'uplot/dist/uPlot.min.css?inline';
import dashboardCss from '../src/features/dashboard/dashboard.css?inline';
import { Dashboard } from '../src/features/dashboard/dashboard.tsx';
import setupCss from '../src/features/setup/setup.css?inline';
import { defineElement } from './define-element.ts';

/**
 * @summary The Dashboard of the current organization: its heading, the setup card and the welcome card.
 *
 * @attr api-base - The API's origin when it is not the page's own.
 *
 * @csspart base - The element's inner root.
 * @csspart header - The heading and the organization's name.
 * @csspart setup-card - The setup checklist ('Finish these steps to enable matching!').
 * @csspart welcome-card - The welcome card of a newly complete, premium organization.
 * @csspart matching-overview - The Matching Overview's tiles and dates.
 * @csspart chapters - For a parent organization, its chapters side by side (chart and table).
 * @csspart insights - The figures below the tiles (charts, each with its table).
 * @csspart payment-failed - For admins, the notice that the subscription's last payment failed.
 * @csspart update-payment-button - Its 'Update payment method' button (Stripe's customer portal).
 *
 * @cssproperty --twofold-font-family - The typeface.
 */
export const TwofoldDashboard = defineElement('twofold-dashboard', Dashboard, {
  styles: [uplotCss, dashboardCss, setupCss],
});

declare global {
  interface HTMLElementTagNameMap {
    'twofold-dashboard': HTMLElement;
  }
}

import dashboardCss from '../src/features/dashboard/dashboard.css?inline';
import { Dashboard } from '../src/features/dashboard/dashboard.tsx';
import { defineElement } from './define-element.ts';

/**
 * @summary The Dashboard heading for the current organization.
 *
 * @attr api-base - The API's origin when it is not the page's own.
 *
 * @csspart base - The element's inner root.
 * @csspart header - The heading and the organization's name.
 *
 * @cssproperty --twofold-font-family - The typeface.
 */
export const TwofoldDashboard = defineElement('twofold-dashboard', Dashboard, { styles: [dashboardCss] });

declare global {
  interface HTMLElementTagNameMap {
    'twofold-dashboard': HTMLElement;
  }
}

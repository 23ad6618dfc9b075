import webhooksCss from '../src/features/webhooks/webhooks.css?inline';
import { Webhooks } from '../src/features/webhooks/webhooks.tsx';
import { defineElement } from './define-element.ts';

/**
 * @summary The Webhooks screen of the current organization: each webhook's URL, bearer token and
 * event (saved as they are edited), its last response code, signing secret, deliveries log,
 * 'Send test event' and 'Redeliver'.
 *
 * @attr api-base - The API's origin when it is not the page's own.
 *
 * @csspart base - The element's inner root.
 *
 * @cssproperty --twofold-font-family - The typeface.
 * @cssproperty --twofold-color-danger - The badge of a response code other than 200.
 */
export const TwofoldWebhooks = defineElement('twofold-webhooks', Webhooks, { styles: [webhooksCss] });

declare global {
  interface HTMLElementTagNameMap {
    'twofold-webhooks': HTMLElement;
  }
}

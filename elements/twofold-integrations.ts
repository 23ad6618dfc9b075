import integrationsCss from '../src/features/integrations/integrations.css?inline';
import { Integrations, type IntegrationsProps } from '../src/features/integrations/integrations.tsx';
import partnerAppsCss from '../src/features/oauth/partner-apps.css?inline';
import { defineElement } from './define-element.ts';

/**
 * @summary The Integrations screen of the current organization: the Widget snippet, the API card
 * (its documentation and the Manage API Keys dialog), the Webhooks card and the fundraising
 * platform card.
 *
 * @attr view - 'cards' (default) or 'widget': the Widget guide (pick an element, set its attributes and colours, see it live, copy the snippet).
 * @attr api-base - The API's origin when it is not the page's own.
 *
 * @csspart base - The element's inner root.
 * @csspart card - Each card.
 *
 * @cssproperty --twofold-font-family - The typeface.
 * @cssproperty --twofold-color-primary - Buttons and the new key's frame.
 */
export const TwofoldIntegrations = defineElement<IntegrationsProps>('twofold-integrations', Integrations, {
  props: { view: 'string' },
  styles: [integrationsCss, partnerAppsCss],
});

declare global {
  interface HTMLElementTagNameMap {
    'twofold-integrations': HTMLElement;
  }
}

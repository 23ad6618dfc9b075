import contactCss from '../src/features/contact/contact.css?inline';
import { Contact } from '../src/features/contact/contact.tsx';
import { definePublicElement } from './define-public-element.ts';

/**
 * @summary The contact form: Name, Email, Organization, Subject and Message, with an invisible,
 * self-hosted proof-of-work captcha (solved in the background; no third-party script), and a
 * Send Message button. Works on another origin: point `api-base` at the Twofold server.
 *
 * @attr api-base - The API's origin when it is not the page's own (e.g. `https://portal.twofold.test`).
 *
 * @event twofold-contact-sent - The message was accepted; `detail.name`, `detail.email`, `detail.organization`, `detail.subject`.
 *
 * @csspart base - The element's inner root.
 * @csspart card - The contact card.
 * @csspart submit-button - The Send Message button.
 *
 * @cssproperty --twofold-color-primary - Buttons, links and the brand line.
 * @cssproperty --twofold-font-family - The typeface.
 * @cssproperty --twofold-radius - Corner radius of the card, fields and buttons.
 */
export const TwofoldContact = definePublicElement('twofold-contact', Contact, {
  styles: [contactCss],
});

declare global {
  interface HTMLElementTagNameMap {
    'twofold-contact': HTMLElement & { apiBase?: string };
  }
}

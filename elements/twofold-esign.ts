import esignCss from '../src/features/esign/esign.css?inline';
import { Esign, type EsignProps } from '../src/features/esign/esign.tsx';
import { definePublicElement } from './define-public-element.ts';

/**
 * @summary The donor's signing page for a matching gift form: the form prefilled with the donor,
 * gift, company and nonprofit, the consent to sign electronically, and a typed or drawn signature
 * (typing is the keyboard-accessible way). Signing sends the signed form to the nonprofit, which
 * countersigns it and delivers it to the company. A link that expired or was used offers to email
 * a new one to the donor's address on file. Works on a phone, and on another origin: point
 * `api-base` at the Twofold server.
 *
 * @attr token - The signing link's token. Default: the page address's `/sign/{token}`.
 * @attr api-base - The API's origin when it is not the page's own.
 *
 * @event twofold-esign-signed - The donor signed; `detail.matchId`, `detail.signedAt` (ISO time).
 *
 * @csspart base - The element's inner root.
 * @csspart card - The panel.
 * @csspart form - The prefilled form.
 * @csspart signature-pad - The canvas a signature is drawn on.
 * @csspart submit-button - Sign the form.
 * @csspart resend-button - Email me a new link (expired or used links).
 *
 * @cssproperty --twofold-color-primary - Buttons and choices.
 * @cssproperty --twofold-color-surface - The prefilled form's background.
 * @cssproperty --twofold-font-family - The typeface.
 * @cssproperty --twofold-radius - Corner radius of the card, fields and buttons.
 */
export const TwofoldEsign = definePublicElement<EsignProps>('twofold-esign', Esign, {
  props: { token: 'string' },
  styles: [esignCss],
});

declare global {
  interface HTMLElementTagNameMap {
    'twofold-esign': HTMLElement & EsignProps & { apiBase?: string };
  }
}

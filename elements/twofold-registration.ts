import registrationCss from '../src/features/registration/registration.css?inline';
import { Registration, type RegistrationProps } from '../src/features/registration/registration.tsx';
import { definePublicElement } from './define-public-element.ts';

/**
 * @summary Nonprofit registration: Organization Information (with suggestions of organizations
 * already registered), Categories and Administrative Contact; then 'Registration Complete!' or
 * 'Already Registered!'. Works on another origin: point `api-base` at the Twofold server.
 *
 * @attr api-base - The API's origin when it is not the page's own (e.g. `https://portal.twofold.test`).
 * @attr support-email - The support address offered when the organization is already registered. Default: support@twofold.test.
 * @attr partner - A partner app's client id (OAuth 2.0, issue #25): after registering, the element offers "Connect <partner>", which opens Twofold's consent step in a popup.
 * @attr redirect-uri - The partner app's registered redirect URI (exact match). The popup posts its answer to this URI's origin only; the partner page's element takes it only from Twofold's origin.
 * @attr state - The partner's OAuth state, given back with the code.
 * @attr code-challenge - The partner's PKCE code challenge (S256: base64url SHA-256 of the verifier its server keeps).
 * @attr scope - The scopes to ask for, space-separated. Default: every scope the partner app may ask for.
 *
 * @event twofold-registered - The registration was answered; `detail.registered`, `detail.already_registered`, `detail.email` (the administrator's email).
 * @event twofold-connected - The organization allowed the partner; `detail.code` (the authorization code, for the partner's server to exchange at /oauth/token with its verifier) and `detail.state`.
 * @event twofold-connect-failed - The organization denied the partner (or the request failed); `detail.error` (e.g. `access_denied`) and `detail.state`.
 *
 * @csspart base - The element's inner root.
 * @csspart card - The registration card (and the outcome card).
 * @csspart section - Each of the three form sections.
 * @csspart suggestions - The already-registered organizations under the name field.
 * @csspart submit-button - The Complete Registration button.
 * @csspart connect-button - The Connect <partner> button.
 *
 * @cssproperty --twofold-color-primary - Buttons, links, checkboxes and the brand line.
 * @cssproperty --twofold-font-family - The typeface.
 * @cssproperty --twofold-radius - Corner radius of the card, fields and buttons.
 */
export const TwofoldRegistration = definePublicElement<RegistrationProps>(
  'twofold-registration',
  Registration,
  {
    props: {
      supportEmail: 'string',
      partner: 'string',
      redirectUri: 'string',
      state: 'string',
      codeChallenge: 'string',
      scope: 'string',
    },
    styles: [registrationCss],
  },
);

declare global {
  interface HTMLElementTagNameMap {
    'twofold-registration': HTMLElement & RegistrationProps & { apiBase?: string };
  }
}

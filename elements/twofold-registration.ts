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
 *
 * @event twofold-registered - The registration was answered; `detail.registered`, `detail.already_registered`, `detail.email` (the administrator's email).
 *
 * @csspart base - The element's inner root.
 * @csspart card - The registration card (and the outcome card).
 * @csspart section - Each of the three form sections.
 * @csspart suggestions - The already-registered organizations under the name field.
 * @csspart submit-button - The Complete Registration button.
 *
 * @cssproperty --twofold-color-primary - Buttons, links, checkboxes and the brand line.
 * @cssproperty --twofold-font-family - The typeface.
 * @cssproperty --twofold-radius - Corner radius of the card, fields and buttons.
 */
export const TwofoldRegistration = definePublicElement<RegistrationProps>(
  'twofold-registration',
  Registration,
  {
    props: { supportEmail: 'string' },
    styles: [registrationCss],
  },
);

declare global {
  interface HTMLElementTagNameMap {
    'twofold-registration': HTMLElement & RegistrationProps & { apiBase?: string };
  }
}

import loginCss from '../src/features/login/login.css?inline';
import consentCss from '../src/features/oauth/consent.css?inline';
import { OAuthConsent } from '../src/features/oauth/consent.tsx';
import registrationCss from '../src/features/registration/registration.css?inline';
import { defineElement } from './define-element.ts';

/**
 * @summary The OAuth consent page (issue #25, the page `/oauth/authorize` serves): the partner app's name
 * and logo, what it asks for in words, the organization it will act for (a picker when the user
 * administers several), Allow / Deny. Signed out it offers sign-in (which comes back here) or the
 * registration form. With `response_mode=web_message` it posts the answer to its opener (the
 * embedded registration element), to the redirect URI's exact origin only, and closes.
 *
 * @attr api-base - The API's origin when it is not the page's own.
 *
 * @csspart base - The element's inner root.
 * @csspart card - The consent card.
 */
export const TwofoldOauthConsent = defineElement('twofold-oauth-consent', OAuthConsent, {
  styles: [loginCss, registrationCss, consentCss],
});

declare global {
  interface HTMLElementTagNameMap {
    'twofold-oauth-consent': HTMLElement;
  }
}

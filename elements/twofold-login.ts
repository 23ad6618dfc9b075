import loginCss from '../src/features/login/login.css?inline';
import { Login, type LoginProps } from '../src/features/login/login.tsx';
import { defineElement } from './define-element.ts';

/**
 * @summary The sign-in screen: Password and Magic Link tabs, the Reset Password dialog, and the
 * landing of a magic link (`?magic={token}` in the page address).
 *
 * @attr redirect - Where to go after signing in (a local path). Default: the page's `?redirect=`, else `/portal`.
 * @attr api-base - The API's origin when it is not the page's own.
 *
 * @event twofold-signed-in - The user signed in; `detail.user`, `detail.redirect`.
 *
 * @csspart base - The element's inner root.
 * @csspart card - The sign-in card.
 * @csspart submit-button - The Sign in button.
 * @csspart dialog - The Reset Password dialog.
 *
 * @cssproperty --twofold-color-primary - Buttons, links and the brand line.
 * @cssproperty --twofold-font-family - The typeface.
 * @cssproperty --twofold-radius - Corner radius of the card, fields and buttons.
 */
export const TwofoldLogin = defineElement<LoginProps>('twofold-login', Login, {
  props: { redirect: 'string' },
  styles: [loginCss],
});

declare global {
  interface HTMLElementTagNameMap {
    'twofold-login': HTMLElement & LoginProps & { apiBase?: string };
  }
}

import accountCss from '../src/features/account/account.css?inline';
import { Account } from '../src/features/account/account.tsx';
import cardTableCss from '../src/ui/card-table.css?inline';
import { defineElement } from './define-element.ts';

/**
 * @summary The signed-in user's own account page (issue #24): the Security section with the
 * authenticator app (set up with a QR code or the key as text, confirmed with a code, ten
 * recovery codes shown once, new codes, removal), the passkeys (add, rename, remove) and the signed-in sessions (device, IP address,
 * last seen, this device; end one or all others). A user whose organization requires two-factor
 * sign-in and who has no second factor yet is told so here, the one page they can use.
 *
 * @attr api-base - The API's origin when it is not the page's own.
 *
 * @csspart base - The element's inner root.
 * @csspart header - The title, the user's name and email.
 * @csspart required - The notice that two-factor sign-in must be set up.
 * @csspart authenticator - The authenticator app section.
 * @csspart sessions - The signed-in sessions section.
 * @csspart add-passkey - The Add a passkey button.
 * @csspart dialog - The passkey rename and remove dialogs.
 *
 * @cssproperty --twofold-font-family - The typeface.
 * @cssproperty --twofold-color-primary - Buttons.
 */
export const TwofoldAccount = defineElement('twofold-account', Account, {
  styles: [accountCss, cardTableCss],
});

declare global {
  interface HTMLElementTagNameMap {
    'twofold-account': HTMLElement;
  }
}

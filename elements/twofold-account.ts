import accountCss from '../src/features/account/account.css?inline';
import { Account } from '../src/features/account/account.tsx';
import { defineElement } from './define-element.ts';

/**
 * @summary The signed-in user's own account (issue #24): its Security section, with the user's
 * passkeys (add, rename, remove).
 *
 * @attr api-base - The API's origin when it is not the page's own.
 *
 * @csspart base - The element's inner root.
 * @csspart header - The title and the user's email.
 * @csspart add-passkey - The Add a passkey button.
 * @csspart dialog - The rename and remove dialogs.
 *
 * @cssproperty --twofold-font-family - The typeface.
 * @cssproperty --twofold-color-primary - Buttons.
 */
export const TwofoldAccount = defineElement('twofold-account', Account, { styles: [accountCss] });

declare global {
  interface HTMLElementTagNameMap {
    'twofold-account': HTMLElement;
  }
}

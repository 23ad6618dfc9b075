import resetCss from '../src/features/reset-password/reset-password.css?inline';
import { ResetPassword, type ResetPasswordProps } from '../src/features/reset-password/reset-password.tsx';
import { defineElement } from './define-element.ts';

/**
 * @summary The reset-password screen: New Password, Confirm New Password, then success and a
 * redirect to /login after 3 seconds.
 *
 * @attr token - The reset token. Default: the page's `?token=`.
 * @attr purpose - `create` titles the page for a new account's first password. Default: the page's `?purpose=`, else a reset.
 * @attr api-base - The API's origin when it is not the page's own.
 *
 * @event twofold-password-reset - The password was changed.
 *
 * @csspart base - The element's inner root.
 * @csspart card - The card.
 * @csspart submit-button - The Reset Password button.
 *
 * @cssproperty --twofold-color-primary - Buttons and links.
 * @cssproperty --twofold-font-family - The typeface.
 * @cssproperty --twofold-radius - Corner radius.
 */
export const TwofoldResetPassword = defineElement<ResetPasswordProps>(
  'twofold-reset-password',
  ResetPassword,
  {
    props: { token: 'string', purpose: 'string' },
    styles: [resetCss],
  },
);

declare global {
  interface HTMLElementTagNameMap {
    'twofold-reset-password': HTMLElement & ResetPasswordProps & { apiBase?: string };
  }
}

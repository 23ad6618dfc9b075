import matchDialogCss from '../src/features/match-dialog/match-dialog.css?inline';
import {
  MatchDialogElement,
  type MatchDialogElementProps,
} from '../src/features/match-dialog/match-dialog-element.tsx';
import partsCss from '../src/features/match-request/match-parts.css?inline';
import { defineElement } from './define-element.ts';

/**
 * @summary The match detail dialog: a match's details (editable), its email communications and
 * recurring history, and the actions on it (Submitted, No Charge, Refund, Silence, Save, Save &
 * Re-Email, Delete Match, Submit for Match, Download Packet). Needs a signed-in user with access
 * to the match's organization; toasts show in the page's `<twofold-toaster>`.
 *
 * @attr donation-id - The match to show.
 * @attr open - Present while the dialog is open (like `<dialog open>`); removed when the user closes it.
 * @attr api-base - The API's origin when it is not the page's own.
 *
 * @event twofold-match-closed - The user closed the dialog (Escape, the close button, Cancel, or
 * after a delete); `detail.id`. Removing `open` yourself closes it without this event.
 * @event twofold-match-changed - The match was saved, silenced, changed status or deleted; `detail.id`.
 *
 * @csspart base - The element's inner root.
 * @csspart dialog - The dialog box.
 *
 * @cssproperty --twofold-color-primary - The accent colour.
 * @cssproperty --twofold-match-dialog-width - The dialog's width (default 760px).
 */
export const TwofoldMatchDialog = defineElement<MatchDialogElementProps>(
  'twofold-match-dialog',
  MatchDialogElement,
  { props: { donationId: 'number' }, styles: [matchDialogCss, partsCss] },
);

// `open` mirrors its attribute, as on <dialog>: el.open = true opens the dialog.
if (!Object.hasOwn(TwofoldMatchDialog.prototype, 'open')) {
  Object.defineProperty(TwofoldMatchDialog.prototype, 'open', {
    configurable: true,
    enumerable: true,
    get(this: HTMLElement) {
      return this.hasAttribute('open');
    },
    set(this: HTMLElement, value: unknown) {
      this.toggleAttribute('open', Boolean(value));
    },
  });
}

declare global {
  interface HTMLElementTagNameMap {
    'twofold-match-dialog': HTMLElement & { donationId?: number; open: boolean; apiBase?: string };
  }
}

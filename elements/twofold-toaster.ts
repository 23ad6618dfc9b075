import { Toaster } from '../src/ui/toaster.tsx';
import { defineElement } from './define-element.ts';

/**
 * @summary Shows the toasts of the elements on the page (one at a time, 5 seconds each).
 * Place it once.
 *
 * @csspart base - The element's inner root.
 * @csspart toast - A toast.
 *
 * @cssproperty --twofold-color-danger - Background of failure toasts.
 */
export const TwofoldToaster = defineElement('twofold-toaster', Toaster);

declare global {
  interface HTMLElementTagNameMap {
    'twofold-toaster': HTMLElement;
  }
}

/**
 * How any element asks for a toast: a `twofold-toast` event on window, which the page's
 * <twofold-toaster> (whichever bundle it came from) shows. Public elements import only this, so
 * they do not ship the toast store and its signals; on a page without a toaster the event simply
 * goes unheard (their own forms say the outcome inline too).
 */
export type ToastVariant = 'default' | 'destructive';

export interface ToastInput {
  title?: string;
  description?: string;
  variant?: ToastVariant;
  /** Milliseconds before it goes away on its own; Infinity keeps it until dismissed. */
  duration?: number;
}

export const toastChannel = 'twofold-toast';

/** Sends a toast to the page's toaster. */
export function announceToast(input: ToastInput): void {
  if (typeof window === 'undefined' || typeof window.dispatchEvent !== 'function') return;
  window.dispatchEvent(new CustomEvent(toastChannel, { detail: input }));
}

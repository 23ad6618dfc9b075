import type { Me } from '../contract/index.ts';

/**
 * Every event an element sends its host page. Dispatched from the element, bubbling and
 * composed, so a listener anywhere above it (document included) hears it.
 */
export interface TwofoldEventDetails {
  /** The user signed in (password or magic link); `redirect` is where the portal goes next. */
  'twofold-signed-in': { user: Me; redirect: string };
  /** The user signed out. */
  'twofold-signed-out': Record<string, never>;
  /** A password was reset with a reset link. */
  'twofold-password-reset': Record<string, never>;
  /** The current organization changed in the picker. */
  'twofold-organization-change': { id: number; name: string };
  /** The sidebar was collapsed to icons or expanded. */
  'twofold-sidebar-toggle': { collapsed: boolean };
  /** A report download is about to open its link; preventDefault() to handle it yourself. */
  'twofold-request-download': { url: string; reportId: number };
  /** A company was chosen in the employer lookup; `<twofold-match-request>` on the page takes it. */
  'twofold-company-chosen': { companyId: number; name: string };
  /** The match dialog was closed by the user (Escape, the close button, Cancel, or after a delete). */
  'twofold-match-closed': { id: number | null };
  /** The match changed on the server (saved, silenced, status, deleted): a list showing it should reload. */
  'twofold-match-changed': { id: number | null };
}
export type TwofoldEventName = keyof TwofoldEventDetails;
export type TwofoldEvent<K extends TwofoldEventName> = CustomEvent<TwofoldEventDetails[K]>;

declare global {
  interface GlobalEventHandlersEventMap {
    'twofold-signed-in': TwofoldEvent<'twofold-signed-in'>;
    'twofold-signed-out': TwofoldEvent<'twofold-signed-out'>;
    'twofold-password-reset': TwofoldEvent<'twofold-password-reset'>;
    'twofold-organization-change': TwofoldEvent<'twofold-organization-change'>;
    'twofold-sidebar-toggle': TwofoldEvent<'twofold-sidebar-toggle'>;
    'twofold-request-download': TwofoldEvent<'twofold-request-download'>;
    'twofold-company-chosen': TwofoldEvent<'twofold-company-chosen'>;
    'twofold-match-closed': TwofoldEvent<'twofold-match-closed'>;
    'twofold-match-changed': TwofoldEvent<'twofold-match-changed'>;
  }
}

/** Dispatch a typed `twofold-*` event that crosses shadow boundaries. Returns false if a listener vetoed it. */
export function emit<K extends TwofoldEventName>(
  target: EventTarget | null,
  type: K,
  detail: TwofoldEventDetails[K],
): boolean {
  if (!target) return true;
  return target.dispatchEvent(
    new CustomEvent(type, { detail, bubbles: true, composed: true, cancelable: true }),
  );
}

import { useEffect, useState } from 'react';
import { useElement } from '../../ui/element-context.ts';
import { MatchDialog } from './match-dialog.tsx';

/** What `<twofold-match-dialog>` tells its host page. */
export interface MatchDialogEventDetails {
  /** The dialog closed (Escape, the close button, Cancel, or after a delete). */
  'twofold-match-closed': { id: number | null };
  /** The match changed on the server (saved, silenced, status, deleted): a list showing it should reload. */
  'twofold-match-changed': { id: number | null };
}

export interface MatchDialogElementProps {
  donationId?: number;
}

/** Whether the host element carries the `open` attribute, followed as it changes (like <dialog open>). */
function useOpenAttribute(host: HTMLElement | null): boolean {
  const [open, setOpen] = useState(() => host?.hasAttribute('open') ?? false);
  useEffect(() => {
    if (!host) return;
    setOpen(host.hasAttribute('open'));
    const observer = new MutationObserver(() => setOpen(host.hasAttribute('open')));
    observer.observe(host, { attributes: true, attributeFilter: ['open'] });
    return () => observer.disconnect();
  }, [host]);
  return open;
}

/**
 * The island behind `<twofold-match-dialog>`: opens while the element has `open`, removes it when
 * the user closes the dialog, and reports closes and changes as bubbling, composed events.
 */
export function MatchDialogElement({ donationId }: MatchDialogElementProps) {
  const { host } = useElement();
  const open = useOpenAttribute(host);
  const id =
    typeof donationId === 'number' && Number.isSafeInteger(donationId) && donationId > 0 ? donationId : null;
  const send = <K extends keyof MatchDialogEventDetails>(type: K, detail: MatchDialogEventDetails[K]) =>
    host?.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  return (
    <MatchDialog
      donationId={id}
      open={open}
      onClose={() => {
        host?.removeAttribute('open');
        send('twofold-match-closed', { id });
      }}
      onChanged={() => send('twofold-match-changed', { id })}
    />
  );
}

import { useEffect, useState } from 'react';
import { useElement } from '../../ui/element-context.ts';
import { emit, type TwofoldEventDetails } from '../../ui/events.ts';
import { MatchDialog } from './match-dialog.tsx';

/** What `<twofold-match-dialog>` tells its host page (typed with every other event in src/ui/events.ts). */
export type MatchDialogEventDetails = Pick<
  TwofoldEventDetails,
  'twofold-match-closed' | 'twofold-match-changed'
>;

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
 * the user closes the dialog, and reports the user's closes and the changes with `emit()`. A host
 * that removes `open` itself closed it, and is not told so.
 */
export function MatchDialogElement({ donationId }: MatchDialogElementProps) {
  const { host } = useElement();
  const open = useOpenAttribute(host);
  const id =
    typeof donationId === 'number' && Number.isSafeInteger(donationId) && donationId > 0 ? donationId : null;
  return (
    <MatchDialog
      donationId={id}
      open={open}
      onClose={() => {
        host?.removeAttribute('open');
        emit(host, 'twofold-match-closed', { id });
      }}
      onChanged={() => emit(host, 'twofold-match-changed', { id })}
    />
  );
}

import { type ReactNode, useEffect, useRef } from 'react';
import { Button } from './button.tsx';
import { Dialog } from './dialog.tsx';

export interface ConfirmDialogProps {
  open: boolean;
  /** The question, e.g. "Delete this webhook?" (the dialog's accessible name). */
  title: string;
  /** What happens if the user goes on, e.g. "Deliveries not yet sent are dropped." */
  description?: string;
  /**
   * The confirming button's text, named for the action ("Delete report", "Mark 3 verified"), never
   * a bare "OK": a screen reader user hears what the button does without reading the question.
   */
  confirmLabel: string;
  /** Red confirming button, for what cannot be taken back (deletes). */
  destructive?: boolean;
  /** The action is running: the confirming button waits. */
  busy?: boolean;
  onConfirm: () => void;
  /** Cancel, Escape or the close button. */
  onCancel: () => void;
  children?: ReactNode;
}

/**
 * The portal's own "are you sure?" (in place of the browser's `confirm()`, which cannot be styled,
 * names no action and is blocked in some embedding frames): the native modal Dialog, rendered in
 * the element's shadow root, focus on Cancel when it opens (the safe choice under a stray Enter)
 * and back on the opener when it closes; Escape cancels.
 */
export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  destructive = false,
  busy = false,
  onConfirm,
  onCancel,
  children,
}: ConfirmDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  // Runs after Dialog's own effect (a child's effects run first) has called showModal(), which
  // focused the first button (Close); Cancel is the safer default.
  useEffect(() => {
    if (open) cancelRef.current?.focus();
  }, [open]);
  return (
    <Dialog open={open} onClose={onCancel} title={title} description={description}>
      {children}
      <div className="confirm-dialog__buttons">
        <Button ref={cancelRef} variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button variant={destructive ? 'destructive' : 'primary'} disabled={busy} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}

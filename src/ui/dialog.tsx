import { type ReactNode, useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';
import { Button } from './button.tsx';
import { useElement } from './element-context.ts';

export interface DialogProps {
  open: boolean;
  /**
   * Called when the user closes it (Escape, the close button), and only then: a dialog closed
   * because its owner set `open` to false does not call it back.
   */
  onClose: () => void;
  title: string;
  description?: string;
  children?: ReactNode;
}

/** The element that has focus, looking inside shadow roots. */
function deepActiveElement(): HTMLElement | null {
  let active: Element | null = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active instanceof HTMLElement ? active : null;
}

/**
 * A modal on the native <dialog> (showModal: top layer, inert background, Escape closes).
 * Focus moves into it on open and returns to where it was on close. It renders into the
 * element's own shadow root, so the element's styles reach it.
 */
export function Dialog({ open, onClose, title, description, children }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  // Set while the owner closes it (open became false), so 'close' is not reported as the user's.
  const closingForOwner = useRef(false);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const { root } = useElement();
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      returnTo.current = deepActiveElement();
      dialog.showModal();
    } else if (!open && dialog.open) {
      closingForOwner.current = true;
      dialog.close();
    }
  }, [open]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const closed = () => {
      returnTo.current?.focus();
      returnTo.current = null;
      const byOwner = closingForOwner.current;
      closingForOwner.current = false;
      if (!byOwner) onCloseRef.current();
    };
    dialog.addEventListener('close', closed);
    return () => dialog.removeEventListener('close', closed);
  }, []);

  const content = (
    <div className="twofold-root">
      <dialog
        ref={ref}
        className="dialog"
        part="dialog"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
      >
        <div className="dialog__body">
          <div className="dialog__header">
            <div>
              <h2 id={titleId} className="dialog__title">
                {title}
              </h2>
              {description ? (
                <p id={descriptionId} className="dialog__description">
                  {description}
                </p>
              ) : null}
            </div>
            <Button
              variant="ghost"
              className="dialog__close"
              aria-label="Close"
              onClick={() => ref.current?.close()}
            >
              <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true">
                <path d="M3 3l10 10M13 3L3 13" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
              </svg>
            </Button>
          </div>
          {open ? children : null}
        </div>
      </dialog>
    </div>
  );
  return root ? createPortal(content, root) : content;
}

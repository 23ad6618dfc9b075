import { useSignals } from '@preact/signals-react/runtime';
import { type PointerEvent, useRef, useState } from 'react';
import { dismissToast, swipeThreshold, type Toast, toasts } from '../state/toasts.ts';
import { Button } from './button.tsx';

/**
 * spec: "the swipe threshold is 50": a toast dragged sideways (finger, pen or mouse) 50 px or more
 * is dismissed; less springs back. The close button stays for keyboards and screen readers.
 */
function useSwipe(onSwiped: () => void) {
  const start = useRef<{ x: number; pointer: number } | null>(null);
  const [offset, setOffset] = useState(0);
  const end = (event: PointerEvent<HTMLDivElement>) => {
    const from = start.current;
    if (!from || from.pointer !== event.pointerId) return;
    start.current = null;
    if (Math.abs(event.clientX - from.x) >= swipeThreshold) onSwiped();
    else setOffset(0);
  };
  return {
    offset,
    handlers: {
      onPointerDown: (event: PointerEvent<HTMLDivElement>) => {
        // A press on the close button is a click, not a swipe.
        if ((event.target as Element).closest('button')) return;
        start.current = { x: event.clientX, pointer: event.pointerId };
        // Capture keeps a fast swipe that leaves the toast ours; a pointer the browser no longer
        // tracks (already lifted) cannot be captured, and the swipe works without it.
        try {
          event.currentTarget.setPointerCapture(event.pointerId);
        } catch {
          /* not capturable: the toast's own move and up events still arrive */
        }
      },
      onPointerMove: (event: PointerEvent<HTMLDivElement>) => {
        const from = start.current;
        if (from && from.pointer === event.pointerId) setOffset(event.clientX - from.x);
      },
      onPointerUp: end,
      onPointerCancel: () => {
        start.current = null;
        setOffset(0);
      },
    },
  };
}

function ToastView({ toast }: { toast: Toast }) {
  const swipe = useSwipe(() => dismissToast(toast.id));
  const dragged = swipe.offset !== 0;
  return (
    <div
      className={`toast toast--${toast.variant}${dragged ? ' toast--dragging' : ''}`}
      part="toast"
      {...swipe.handlers}
      style={
        dragged
          ? {
              transform: `translateX(${swipe.offset}px)`,
              opacity: Math.max(0.2, 1 - Math.abs(swipe.offset) / (swipeThreshold * 3)),
            }
          : undefined
      }
    >
      <div className="toast__text">
        {toast.title ? <p className="toast__title">{toast.title}</p> : null}
        {toast.description ? <p className="toast__description">{toast.description}</p> : null}
      </div>
      <Button
        variant="ghost"
        className="toast__close"
        aria-label="Dismiss notification"
        onClick={() => dismissToast(toast.id)}
      >
        <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true">
          <path d="M3 3l10 10M13 3L3 13" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </Button>
    </div>
  );
}

/**
 * The shared toast (spec: one visible at a time). Two live regions that are always present, so
 * screen readers announce what appears in them: polite for news, assertive for failures.
 */
export function Toaster() {
  useSignals();
  const current = toasts.value;
  const polite = current.filter((t) => t.variant !== 'destructive');
  const urgent = current.filter((t) => t.variant === 'destructive');
  return (
    <section className="toaster" aria-label="Notifications">
      <div role="status" aria-live="polite">
        {polite.map((t) => (
          <ToastView key={t.id} toast={t} />
        ))}
      </div>
      <div role="alert" aria-live="assertive">
        {urgent.map((t) => (
          <ToastView key={t.id} toast={t} />
        ))}
      </div>
    </section>
  );
}

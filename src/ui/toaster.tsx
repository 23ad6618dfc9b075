import { useSignals } from '@preact/signals-react/runtime';
import { dismissToast, type Toast, toasts } from '../state/toasts.ts';
import { Button } from './button.tsx';

function ToastView({ toast }: { toast: Toast }) {
  return (
    <div className={`toast toast--${toast.variant}`} part="toast">
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

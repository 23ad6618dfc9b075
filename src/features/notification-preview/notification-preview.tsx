import { format } from 'date-fns';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { getNotificationPreview } from '../../api/notifications.ts';
import type { NotificationPreview as Preview } from '../../contract/notifications.ts';
import './notification-preview.css';

type State = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; email: Preview };

/**
 * spec (section 2): "A preview link per sent notification opens /preview-notification/{id} in a
 * new tab." The email as the donor received it: subject, recipient, date, and its HTML in a
 * sandboxed frame (no scripts, no forms, no navigation of this page), with the plain-text part.
 */
export function NotificationPreview({ id }: { id: string }) {
  const [state, setState] = useState<State>({ kind: 'loading' });

  useEffect(() => {
    let current = true;
    setState({ kind: 'loading' });
    getNotificationPreview(id).then(
      (email) => {
        if (!current) return;
        setState({ kind: 'ready', email });
        document.title = `${email.subject} — Email preview`;
      },
      (error: unknown) => current && setState({ kind: 'error', message: errorMessage(error) }),
    );
    return () => {
      current = false;
    };
  }, [id]);

  if (state.kind === 'loading')
    return (
      <main className="notification-preview">
        <p role="status">Loading the email...</p>
      </main>
    );
  if (state.kind === 'error')
    return (
      <main className="notification-preview">
        <h1 className="notification-preview__title">Email preview</h1>
        <p role="alert" className="notification-preview__error">
          {state.message}
        </p>
      </main>
    );
  const { email } = state;
  return (
    <main className="notification-preview">
      <p className="notification-preview__eyebrow">Email preview</p>
      <h1 className="notification-preview__title">{email.subject}</h1>
      <dl className="notification-preview__meta">
        <div>
          <dt>To</dt>
          <dd>{email.to}</dd>
        </div>
        <div>
          <dt>Sent</dt>
          <dd>{format(new Date(email.created_at), 'MMM d, yyyy h:mm a')}</dd>
        </div>
      </dl>
      <iframe
        className="notification-preview__frame"
        title={`Email: ${email.subject}`}
        sandbox=""
        srcDoc={email.html}
      />
      <details className="notification-preview__text">
        <summary>Plain-text version</summary>
        <pre>{email.text}</pre>
      </details>
    </main>
  );
}

import { type FormEvent, useEffect, useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { addNotifee, listNotifees, removeNotifee } from '../../api/organization-changes.ts';
import type { Notifee } from '../../contract/index.ts';
import { toast } from '../../state/toasts.ts';
import { Button } from '../../ui/button.tsx';
import { Section, TextField } from './fields.tsx';

/** spec (part 1, section 8; part 2, section 8), word for word. */
export const notifeeTexts = {
  notifeeAdded: 'Notification email added',
  notifeeAddFailed: 'Failed to add notification email',
  notifeeRemoved: 'Notification email removed',
  notifeeRemoveFailed: 'Failed to remove notification email',
  notifeesLoadFailed: 'Failed to load notification emails',
} as const;

/**
 * The organization's notification emails (notifees): who gets its weekly notification email
 * besides the primary contact. Shown on Organization → Settings and on the email templates screen.
 */
export function NotifeesSection({ organizationId, admin }: { organizationId: number; admin: boolean }) {
  const [notifees, setNotifees] = useState<Notifee[] | null>(null);
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    listNotifees(organizationId)
      .then((list) => {
        if (live) setNotifees(list);
      })
      .catch(() => {
        if (!live) return;
        setNotifees([]);
        toast({ description: notifeeTexts.notifeesLoadFailed, variant: 'destructive' });
      });
    return () => {
      live = false;
    };
  }, [organizationId]);

  const add = async (event: FormEvent) => {
    event.preventDefault();
    // spec (section 5): "A notification email needs a non-empty value."
    if (!email.trim()) return;
    setBusy(true);
    try {
      setNotifees(await addNotifee(organizationId, email.trim()));
      setEmail('');
      setProblem(null);
      toast({ description: notifeeTexts.notifeeAdded });
    } catch (error) {
      setProblem(error instanceof ApiError && error.fromServer ? error.message : null);
      toast({ description: notifeeTexts.notifeeAddFailed, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  const remove = async (notifee: Notifee) => {
    setBusy(true);
    try {
      setNotifees(await removeNotifee(organizationId, notifee.id));
      setProblem(null);
      toast({ description: notifeeTexts.notifeeRemoved });
    } catch {
      toast({ description: notifeeTexts.notifeeRemoveFailed, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section
      title="Notification emails"
      description="These addresses get the organization’s notification emails (at most weekly), as does the primary contact."
    >
      {notifees === null ? (
        <p className="muted">Loading...</p>
      ) : notifees.length ? (
        <ul className="details__list" aria-label="Notification emails">
          {notifees.map((n) => (
            <li key={n.id} className="details__list-item">
              <span>{n.email}</span>
              {admin ? (
                <Button
                  variant="ghost"
                  disabled={busy}
                  onClick={() => void remove(n)}
                  aria-label={`Remove ${n.email}`}
                >
                  Remove
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No notification emails yet.</p>
      )}
      {problem ? (
        <p role="alert" className="alert">
          {problem}
        </p>
      ) : null}
      {admin ? (
        <form className="details__inline-form" onSubmit={add} aria-label="Add notification email">
          <TextField
            label="Notification email"
            name="notifee_email"
            type="email"
            value={email}
            onChange={setEmail}
            maxLength={255}
          />
          <div className="details__row-actions">
            <Button type="submit" disabled={!email.trim() || busy}>
              Add Email
            </Button>
          </div>
        </form>
      ) : null}
    </Section>
  );
}

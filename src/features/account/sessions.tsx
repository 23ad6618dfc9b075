import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { endOtherSessions, endSession, getSessions } from '../../api/account.ts';
import { errorMessage } from '../../api/client.ts';
import { type AccountSession, sessionMethodLabels } from '../../contract/account.ts';
import { toast } from '../../state/toasts.ts';
import { Badge } from '../../ui/badge.tsx';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';

/** Not in the spec: the texts of the signed-in sessions list (issue #24). */
export const sessionTexts = {
  title: 'Signed-in sessions',
  intro: 'Where your account is signed in now. End any session you do not recognise.',
  loading: 'Loading sessions...',
  thisDevice: 'This device',
  unknownDevice: 'Unknown device',
  endOne: 'End session',
  endOthers: 'Sign out all other sessions',
  endOthersQuestion: 'Sign out all other sessions?',
  endOthersDescription: 'Every other browser and device signed in to your account is signed out at once.',
  ended: 'Session ended',
  endedOthers: (n: number) =>
    n === 1 ? '1 other session was signed out.' : `${n} other sessions were signed out.`,
  none: 'No other sessions.',
} as const;

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The user's live sessions: device, address, last seen, this device; end one or all others. */
export function Sessions() {
  const [sessions, setSessions] = useState<AccountSession[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const titleId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);

  const load = useCallback(async () => {
    try {
      setSessions((await getSessions()).sessions);
      setFailure(null);
    } catch (error) {
      setFailure(errorMessage(error));
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const endOne = async (session: AccountSession) => {
    setBusy(true);
    try {
      await endSession(session.id);
      toast({ title: sessionTexts.ended, description: session.device || sessionTexts.unknownDevice });
      await load();
      // The row and its button are gone: keep focus in the section.
      headingRef.current?.focus();
    } catch (error) {
      toast({ title: 'Could not end the session', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  const endOthers = async () => {
    setBusy(true);
    try {
      const { ended } = await endOtherSessions();
      toast({ title: sessionTexts.ended, description: sessionTexts.endedOthers(ended) });
      setConfirming(false);
      await load();
    } catch (error) {
      toast({ title: 'Could not sign out', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  const others = sessions?.filter((s) => !s.current) ?? [];
  return (
    <section className="account__section" aria-labelledby={titleId} part="sessions">
      <h3 id={titleId} className="account__subtitle" tabIndex={-1} ref={headingRef}>
        {sessionTexts.title}
      </h3>
      <p className="muted">{sessionTexts.intro}</p>
      {failure ? <p role="alert">{failure}</p> : null}
      {sessions === null && !failure ? <Skeleton label={sessionTexts.loading} lines={2} /> : null}
      {sessions ? (
        <div className="card-table-wrap">
          <table className="card-table account__sessions">
            <caption className="visually-hidden">{sessionTexts.title}</caption>
            <thead>
              <tr>
                <th scope="col">Device</th>
                <th scope="col">IP address</th>
                <th scope="col">Last seen</th>
                <th scope="col">Signed in</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.map((session) => (
                <tr key={session.id}>
                  <td data-label="Device">
                    {session.device || sessionTexts.unknownDevice}{' '}
                    {session.current ? <Badge variant="success">{sessionTexts.thisDevice}</Badge> : null}
                  </td>
                  <td data-label="IP address">{session.ip_address ?? '—'}</td>
                  <td data-label="Last seen">{when(session.last_seen_at)}</td>
                  <td data-label="Signed in">
                    {when(session.created_at)} · {sessionMethodLabels[session.method]}
                    {session.two_factor ? ' + second factor' : ''}
                  </td>
                  <td data-label="Actions">
                    {session.current ? null : (
                      <Button
                        variant="secondary"
                        disabled={busy}
                        aria-label={`${sessionTexts.endOne}: ${session.device || sessionTexts.unknownDevice}, last seen ${when(session.last_seen_at)}`}
                        onClick={() => void endOne(session)}
                      >
                        {sessionTexts.endOne}
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {sessions ? (
        <div className="account__actions">
          {others.length ? (
            <Button variant="secondary" disabled={busy} onClick={() => setConfirming(true)}>
              {sessionTexts.endOthers}
            </Button>
          ) : (
            <p className="muted">{sessionTexts.none}</p>
          )}
        </div>
      ) : null}
      <ConfirmDialog
        open={confirming}
        title={sessionTexts.endOthersQuestion}
        description={sessionTexts.endOthersDescription}
        confirmLabel={sessionTexts.endOthers}
        destructive
        busy={busy}
        onConfirm={() => void endOthers()}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}

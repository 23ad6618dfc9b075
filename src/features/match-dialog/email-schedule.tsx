import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useRef, useState } from 'react';
import { errorMessage, getApiBase } from '../../api/client.ts';
import { actOnScheduled, getMatchSchedule } from '../../api/email-schedule.ts';
import { type Donation, notificationLabel } from '../../contract/donations.ts';
import { type MatchSchedule, scheduleMessages } from '../../contract/email-schedule.ts';
import { currentLevel } from '../../state/organization.ts';
import { toast } from '../../state/toasts.ts';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { displayDate, displayDateTime, firstOpenText } from './dates.ts';

type Template = MatchSchedule['sent'][number]['template'];
const templateText = (t: Template) => (t ? `${t.name} · ${t.version}` : '—');

function clickText(s: MatchSchedule['sent'][number]): string {
  if (s.confirm_clicked_at) return `Confirmed ${displayDate(s.confirm_clicked_at)}`;
  if (s.decline_clicked_at) return `Declined ${displayDate(s.decline_clicked_at)}`;
  return 'No click';
}

type Load =
  | { kind: 'loading' }
  | { kind: 'failed'; message: string }
  | { kind: 'ready'; schedule: MatchSchedule };

/**
 * The Email Communications tab (issue #30): the emails sent about the match (opens, clicks,
 * template version), the ones the scheduler will send (date, version) with Send now and Skip for
 * staff who can change matches, and who did that when. Until the schedule has loaded (or if it
 * cannot be), the sent emails the match itself carries are shown.
 */
export function EmailCommunications({ donation }: { donation: Donation }) {
  useSignals();
  const canAct = currentLevel.value !== 'read';
  const [load, setLoad] = useState<Load>({ kind: 'loading' });
  const [busy, setBusy] = useState<number | null>(null);
  const [attempt, setAttempt] = useState(0);
  // A second click before React re-renders the disabled button must not send a second request.
  const acting = useRef(false);

  // `attempt` is the retry: bumping it loads the schedule again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt triggers the reload on purpose
  useEffect(() => {
    let cancelled = false;
    setLoad({ kind: 'loading' });
    getMatchSchedule(donation.id).then(
      (schedule) => {
        if (!cancelled) setLoad({ kind: 'ready', schedule });
      },
      (error: unknown) => {
        if (!cancelled) setLoad({ kind: 'failed', message: errorMessage(error) });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [donation.id, attempt]);

  async function act(jobId: number, action: 'send' | 'skip', label: string) {
    if (acting.current) return;
    acting.current = true;
    setBusy(jobId);
    try {
      const schedule = await actOnScheduled(donation.id, jobId, action);
      setLoad({ kind: 'ready', schedule });
      toast({
        title: action === 'send' ? scheduleMessages.sent : scheduleMessages.skipped,
        description: label,
      });
    } catch (error) {
      toast({
        title: `Could not ${action === 'send' ? 'send' : 'skip'} the ${label}`,
        description: errorMessage(error),
        variant: 'destructive',
      });
      setAttempt((n) => n + 1);
    } finally {
      acting.current = false;
      setBusy(null);
    }
  }

  const schedule = load.kind === 'ready' ? load.schedule : null;
  return (
    <div className="schedule">
      <section aria-labelledby={`sent-${donation.id}`}>
        <h3 className="schedule__heading" id={`sent-${donation.id}`}>
          Sent
        </h3>
        {schedule ? <SentTable schedule={schedule} /> : <SentFallback donation={donation} />}
      </section>
      <section aria-labelledby={`scheduled-${donation.id}`}>
        <h3 className="schedule__heading" id={`scheduled-${donation.id}`}>
          Scheduled
        </h3>
        {load.kind === 'loading' ? <Spinner label="Loading the schedule..." /> : null}
        {load.kind === 'failed' ? (
          <div className="schedule__failed">
            <p className="alert" role="alert">
              The email schedule could not be loaded. {load.message}
            </p>
            <Button variant="secondary" onClick={() => setAttempt((n) => n + 1)}>
              Try again
            </Button>
          </div>
        ) : null}
        {schedule && schedule.scheduled.length === 0 ? (
          <p className="muted">Nothing is scheduled for this match.</p>
        ) : null}
        {schedule && schedule.scheduled.length > 0 ? (
          <ul className="schedule__list">
            {schedule.scheduled.map((s) => (
              <li key={s.id} className="schedule__item">
                <div>
                  <strong>{s.label}</strong>
                  <span className="schedule__meta">
                    {displayDateTime(s.due_at)} · {templateText(s.template)}
                  </span>
                </div>
                {canAct && s.actionable ? (
                  <div className="schedule__actions">
                    <Button
                      variant="secondary"
                      disabled={busy !== null}
                      onClick={() => void act(s.id, 'send', s.label)}
                      aria-label={`Send now (${s.label})`}
                    >
                      {busy === s.id ? 'Working...' : 'Send now'}
                    </Button>
                    <Button
                      variant="ghost"
                      disabled={busy !== null}
                      onClick={() => void act(s.id, 'skip', s.label)}
                      aria-label={`Skip (${s.label})`}
                    >
                      Skip
                    </Button>
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        ) : null}
      </section>
      {schedule && schedule.history.length > 0 ? (
        <section aria-labelledby={`history-${donation.id}`}>
          <h3 className="schedule__heading" id={`history-${donation.id}`}>
            History
          </h3>
          <ul className="schedule__history">
            {schedule.history.map((h) => (
              <li key={h.id}>
                {h.action === 'skip' ? 'Skipped' : 'Sent early'}: {h.label} — {h.user ?? 'a former user'},{' '}
                {displayDateTime(h.at)}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

function PreviewLink({ id, subject }: { id: number; subject: string | null }) {
  return (
    // spec: "A preview link per sent notification opens /preview-notification/{id} in a new tab."
    <a
      href={`${getApiBase()}/preview-notification/${encodeURIComponent(String(id))}`}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={`Preview "${subject ?? 'email'}" (opens in a new tab)`}
    >
      Preview
    </a>
  );
}

function SentTable({ schedule }: { schedule: MatchSchedule }) {
  if (schedule.sent.length === 0)
    return <p className="muted">No emails have been sent for this match yet.</p>;
  // Newest first, as the match's notifications are listed.
  const rows = [...schedule.sent].reverse();
  return (
    <div className="schedule__scroll">
      <table className="match__table">
        <caption className="visually-hidden">Emails sent about this match</caption>
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Subject</th>
            <th scope="col">Template</th>
            <th scope="col">Sent</th>
            <th scope="col">First Opened</th>
            <th scope="col">Clicked</th>
            <th scope="col">
              <span className="visually-hidden">Preview</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((n) => (
            <tr key={n.id}>
              <td>{n.label}</td>
              <td>{n.subject ?? 'Being prepared'}</td>
              <td>{templateText(n.template)}</td>
              <td>{displayDate(n.sent_at)}</td>
              <td>{firstOpenText({ first_open: n.first_open, created_at: n.sent_at })}</td>
              <td>{clickText(n)}</td>
              <td>
                <PreviewLink id={n.id} subject={n.subject} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function SentFallback({ donation }: { donation: Donation }) {
  if (donation.notifications.length === 0)
    return <p className="muted">No emails have been sent for this match yet.</p>;
  return (
    <div className="schedule__scroll">
      <table className="match__table">
        <caption className="visually-hidden">Emails sent about this match</caption>
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Subject</th>
            <th scope="col">Sent</th>
            <th scope="col">First Opened</th>
            <th scope="col">
              <span className="visually-hidden">Preview</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {donation.notifications.map((n) => (
            <tr key={n.id}>
              <td>{notificationLabel(n)}</td>
              <td>{n.subject}</td>
              <td>{displayDate(n.created_at)}</td>
              <td>{firstOpenText(n)}</td>
              <td>
                <PreviewLink id={n.id} subject={n.subject} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

import { useSignals } from '@preact/signals-react/runtime';
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { searchCompanies } from '../../api/companies.ts';
import {
  decideReviews,
  fetchEmployerSummary,
  fetchReviews,
  latestScreening,
  startScreening,
} from '../../api/employers.ts';
import type { CompanySearchEntry } from '../../contract/companies.ts';
import {
  type EmployerReviewDecision,
  type EmployerReviewList,
  type EmployerScreening,
  type EmployerSummary,
  employerMethodLabels,
} from '../../contract/employers.ts';
import { can, type Organization } from '../../contract/index.ts';
import { currentLevel } from '../../state/organization.ts';
import { toast } from '../../state/toasts.ts';
import { Button } from '../../ui/button.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { Field } from '../../ui/field.tsx';
import { OrganizationPage } from '../../ui/organization-page.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { formatAmount } from '../donations/donations-query.ts';

/** How often a run under way is asked for its progress. */
const progressPollMs = 1000;

/**
 * Employers (/portal/employers, issue #31): how the organization's matches found their company,
 * Find employers over the matches at Missing Company Hold (a background run with its progress),
 * and the review list of answers below the organization's confidence threshold, accepted,
 * corrected or rejected one by one or in bulk.
 */
export function Employers() {
  useSignals();
  return (
    <OrganizationPage title="Employers" className="employers">
      {(organization) => (
        <EmployersBody
          organization={organization}
          canWrite={can(currentLevel.value ?? 'none', 'donations.change')}
        />
      )}
    </OrganizationPage>
  );
}

function EmployersBody({ organization, canWrite }: { organization: Organization; canWrite: boolean }) {
  const [summary, setSummary] = useState<EmployerSummary | null>(null);
  const [screening, setScreening] = useState<EmployerScreening | null>(null);
  const [reviews, setReviews] = useState<EmployerReviewList | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [busy, setBusy] = useState(false);
  const [correcting, setCorrecting] = useState<number | null>(null);
  const [status, setStatus] = useState('');
  const statusRef = useRef<HTMLParagraphElement>(null);

  const load = useCallback(async () => {
    try {
      const [s, run, list] = await Promise.all([
        fetchEmployerSummary(organization.id),
        latestScreening(organization.id),
        fetchReviews(organization.id),
      ]);
      setSummary(s);
      setScreening(run.screening);
      setReviews(list);
      const present = new Set(list.reviews.map((r) => r.id));
      setSelected((current) => new Set([...current].filter((id) => present.has(id))));
    } catch (error) {
      toast({
        title: 'Could not load the employers.',
        description: errorMessage(error),
        variant: 'destructive',
      });
    }
  }, [organization.id]);
  useEffect(() => {
    void load();
  }, [load]);

  // A run under way is asked for its progress until it is over; then everything is read again.
  const open = screening?.status === 'queued' || screening?.status === 'running';
  useEffect(() => {
    if (!open) return;
    const timer = setInterval(() => {
      latestScreening(organization.id)
        .then(({ screening: next }) => {
          setScreening(next);
          if (next && next.status !== 'queued' && next.status !== 'running') void load();
        })
        .catch(() => {});
    }, progressPollMs);
    return () => clearInterval(timer);
  }, [open, organization.id, load]);

  const find = async () => {
    setBusy(true);
    try {
      const { screening: run } = await startScreening(organization.id);
      setScreening(run);
    } catch (error) {
      toast({
        title: 'Could not start Find employers.',
        description: errorMessage(error),
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  };

  const decide = async (decision: EmployerReviewDecision) => {
    setBusy(true);
    try {
      const r = await decideReviews(organization.id, decision);
      const parts = [
        r.accepted ? `${r.accepted} accepted` : '',
        r.corrected ? `${r.corrected} corrected` : '',
        r.rejected ? `${r.rejected} rejected` : '',
        r.skipped ? `${r.skipped} skipped (already decided or moved on)` : '',
      ].filter(Boolean);
      const message = `${parts.join(', ') || 'Nothing changed'}.`;
      setStatus(message);
      toast({ title: message });
      setSelected(new Set());
      await load();
      statusRef.current?.focus();
    } catch (error) {
      toast({
        title: 'Could not save the decision.',
        description: errorMessage(error),
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  };

  if (!summary || !reviews) return <Spinner label="Loading employers..." />;
  const found = Object.entries(summary.found).filter(([, n]) => n > 0);
  const ids = reviews.reviews.map((r) => r.id);
  const all = ids.length > 0 && ids.every((id) => selected.has(id));
  const toggle = (list: number[], on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const id of list) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });
  return (
    <div className="employers__body">
      <section className="employers__summary" aria-label="Employers found">
        <p>
          {found.length === 0
            ? 'No match has a company yet.'
            : `Companies found: ${found
                .map(
                  ([method, n]) =>
                    `${n} by ${method === 'unrecorded' ? 'earlier entry' : employerMethodLabels[method as keyof typeof employerMethodLabels].toLowerCase()}`,
                )
                .join(', ')}.`}{' '}
          {summary.missing} {summary.missing === 1 ? 'match waits' : 'matches wait'} at Missing Company Hold;{' '}
          {summary.to_review} to review.
        </p>
        {canWrite ? (
          <Button disabled={busy || open} onClick={() => void find()}>
            Find employers
          </Button>
        ) : null}
        {screening ? <ScreeningProgress screening={screening} /> : null}
      </section>

      <p ref={statusRef} tabIndex={-1} className="employers__status" role="status">
        {status}
      </p>

      <section className="employers__reviews" aria-labelledby="employers-review-title">
        <h2 id="employers-review-title" className="employers__title">
          To review
        </h2>
        {reviews.total === 0 ? (
          <p className="muted">Nothing to review: every answer so far was sure enough, or none was found.</p>
        ) : (
          <>
            <p className="muted">
              Answers below your organization's confidence threshold, least sure first ({reviews.total}).
            </p>
            {canWrite ? (
              <div className="employers__actions">
                <span>{selected.size === 0 ? 'None selected' : `${selected.size} selected`}</span>
                <Button
                  disabled={selected.size === 0 || busy}
                  onClick={() => void decide({ ids: [...selected], action: 'accept' })}
                >
                  Accept selected
                </Button>
                <Button
                  variant="secondary"
                  disabled={selected.size === 0 || busy}
                  onClick={() => void decide({ ids: [...selected], action: 'reject' })}
                >
                  Reject selected
                </Button>
              </div>
            ) : null}
            <div className="data-table-wrap">
              <table className="data-table">
                <thead>
                  <tr>
                    {canWrite ? (
                      <th scope="col">
                        <input
                          type="checkbox"
                          aria-label="Select all reviews"
                          checked={all}
                          onChange={(e) => toggle(ids, e.currentTarget.checked)}
                        />
                      </th>
                    ) : null}
                    <th scope="col">Donor</th>
                    <th scope="col">Employer typed</th>
                    <th scope="col">Amount</th>
                    <th scope="col">Company proposed</th>
                    <th scope="col">Confidence</th>
                    <th scope="col">Why</th>
                    {canWrite ? <th scope="col">Decide</th> : null}
                  </tr>
                </thead>
                <tbody>
                  {reviews.reviews.map((r) => (
                    <tr key={r.id}>
                      {canWrite ? (
                        <td>
                          <input
                            type="checkbox"
                            aria-label={`Select the review of ${r.donor_name ?? r.donor_email ?? `match ${r.donation_id}`}`}
                            checked={selected.has(r.id)}
                            onChange={(e) => toggle([r.id], e.currentTarget.checked)}
                          />
                        </td>
                      ) : null}
                      <td>
                        <span>{r.donor_name ?? ''}</span>
                        {r.donor_email ? <div className="muted">{r.donor_email}</div> : null}
                      </td>
                      <td>{r.typed ?? ''}</td>
                      <td>{formatAmount(r.amount_cents / 100)}</td>
                      <td>{r.company_name}</td>
                      <td>{r.confidence}%</td>
                      <td>{r.reason}</td>
                      {canWrite ? (
                        <td className="employers__row-actions">
                          <Button
                            variant="secondary"
                            disabled={busy}
                            aria-label={`Accept ${r.company_name} for ${r.donor_name ?? `match ${r.donation_id}`}`}
                            onClick={() => void decide({ ids: [r.id], action: 'accept' })}
                          >
                            Accept
                          </Button>
                          <Button
                            variant="secondary"
                            disabled={busy}
                            aria-label={`Correct the company of ${r.donor_name ?? `match ${r.donation_id}`}`}
                            onClick={() => setCorrecting(r.id)}
                          >
                            Correct…
                          </Button>
                          <Button
                            variant="secondary"
                            disabled={busy}
                            aria-label={`Reject ${r.company_name} for ${r.donor_name ?? `match ${r.donation_id}`}`}
                            onClick={() => void decide({ ids: [r.id], action: 'reject' })}
                          >
                            Reject
                          </Button>
                        </td>
                      ) : null}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </section>
      <CorrectDialog
        open={correcting !== null}
        onClose={() => setCorrecting(null)}
        onChoose={(companyId) => {
          const id = correcting;
          setCorrecting(null);
          if (id !== null) void decide({ ids: [id], action: 'correct', company_id: companyId });
        }}
      />
    </div>
  );
}

function ScreeningProgress({ screening }: { screening: EmployerScreening }) {
  const under = screening.status === 'queued' || screening.status === 'running';
  return (
    <div className="employers__progress" aria-live="polite">
      {under ? (
        <label>
          Finding employers: {screening.processed} of {screening.total} matches screened
          <progress max={Math.max(1, screening.total)} value={screening.processed} />
        </label>
      ) : screening.status === 'failed' ? (
        <p className="field__error">Find employers stopped: {screening.error}</p>
      ) : (
        <p>
          Last run: {screening.processed} {screening.processed === 1 ? 'match' : 'matches'} screened,{' '}
          {screening.applied} given their company, {screening.to_review} to review.
        </p>
      )}
    </div>
  );
}

function CorrectDialog({
  open,
  onClose,
  onChoose,
}: {
  open: boolean;
  onClose: () => void;
  onChoose: (companyId: number) => void;
}) {
  const [text, setText] = useState('');
  const [found, setFound] = useState<CompanySearchEntry[]>([]);
  useEffect(() => {
    if (!open) {
      setText('');
      setFound([]);
      return;
    }
    if (text.trim().length < 2) {
      setFound([]);
      return;
    }
    // spec: "Search is delayed by 300 ms".
    const timer = setTimeout(() => {
      void searchCompanies(text.trim()).then((names) => setFound(names.filter((n) => n.company_id !== null)));
    }, 300);
    return () => clearTimeout(timer);
  }, [open, text]);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Correct the company"
      description="Choose the donor's employer from the catalogue."
    >
      <div className="employers__correct">
        <Field
          label="Company"
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          autoComplete="off"
        />
        <ul className="employers__choices" aria-label="Companies found">
          {found.map((n) => (
            <li key={n.company_id}>
              <Button variant="secondary" onClick={() => n.company_id !== null && onChoose(n.company_id)}>
                {n.name}
              </Button>
            </li>
          ))}
        </ul>
        <div className="upload__actions">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
        </div>
      </div>
    </Dialog>
  );
}

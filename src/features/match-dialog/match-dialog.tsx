import { useSignals } from '@preact/signals-react/runtime';
import { type FormEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { confirmDonations, deleteDonation, getDonation, saveDonation } from '../../api/donations.ts';
import type { ConfirmStatus, Donation } from '../../contract/donations.ts';
import { currentLevel, startOrganization } from '../../state/organization.ts';
import { initSession } from '../../state/session.ts';
import { toast } from '../../state/toasts.ts';
import { Badge } from '../../ui/badge.tsx';
import { Button } from '../../ui/button.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { useElement } from '../../ui/element-context.ts';
import { Field } from '../../ui/field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { StatusBadge } from '../../ui/status-badge.tsx';
import { Tabs } from '../../ui/tabs.tsx';
import { formatGiftDay } from '../common.ts';
import { CompanyField } from '../match-request/company-field.tsx';
import { type BillingAction, billingQuestion, confirmStatusOf, matchActions, matchTexts } from './actions.ts';
import { displayDate } from './dates.ts';
import { EmailCommunications } from './email-schedule.tsx';
import {
  type FormErrors,
  formFromDonation,
  type MatchForm,
  newCustomRow,
  silenceWrite,
  validateForm,
  writeFor,
} from './match-form.ts';
import { SignedForm, savePacket, showsSignedForm } from './signed-form.tsx';
import { SuggestCorrection } from './suggest-correction.tsx';

/**
 * The match detail dialog: one donation's details, notifications and recurring history, and the
 * actions staff take on it (spec part 2, section 4 "Actions on a match (detail dialog)").
 */
export interface MatchDialogProps {
  donationId: number | null;
  open: boolean;
  /** The dialog closed (Escape, the close button, Cancel, or the match was deleted). */
  onClose: () => void;
  /** The match changed on the server (saved, silenced, status, deleted): lists should reload. */
  onChanged: () => void;
}

export { displayDate } from './dates.ts';

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

function companyHint(name: string, companyId: number | null): string {
  if (companyId !== null) return 'Linked to the company catalogue.';
  return name.trim()
    ? 'Not linked to a company in the catalogue: type at least 3 characters to search.'
    : 'Type at least 3 characters to search the company catalogue.';
}

type Load = { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'ready'; donation: Donation };

/** The running action, so one runs at a time and its button can say so. */
type Busy = 'save' | 'reprocess' | 'silence' | 'status' | 'delete' | 'packet' | null;

export function MatchDialog({ donationId, open, onClose, onChanged }: MatchDialogProps) {
  useSignals();
  const shown = open && donationId !== null;
  const [load, setLoad] = useState<Load>({ kind: 'loading' });
  const [form, setForm] = useState<MatchForm | null>(null);
  const [tab, setTab] = useState('details');
  // Bumped to fetch again (Try again); a retry that works says so.
  const [attempt, setAttempt] = useState(0);

  // Embedded alone on a host page, the element learns who is signed in and their level (read-only
  // for readers) itself; in the portal both calls do nothing, the shell made them already.
  useEffect(() => {
    void initSession().then(() => startOrganization());
  }, []);

  useEffect(() => {
    if (!shown || donationId === null) return;
    let cancelled = false;
    setLoad({ kind: 'loading' });
    setForm(null);
    setTab('details');
    getDonation(donationId).then(
      (donation) => {
        if (cancelled) return;
        setLoad({ kind: 'ready', donation });
        setForm(formFromDonation(donation));
        // The dialog itself shows a first load; a retry the user asked for is confirmed.
        if (attempt > 0) toast({ title: matchTexts.loaded });
      },
      (error: unknown) => {
        if (cancelled) return;
        setLoad({ kind: 'failed', message: matchTexts.loadFailed });
        toast({ title: matchTexts.loadFailed, description: errorMessage(error), variant: 'destructive' });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [shown, donationId, attempt]);

  const donation = load.kind === 'ready' ? load.donation : null;
  const title = donationId === null ? 'Match' : `Match #${donationId}`;
  const description = donation
    ? [
        donation.donor?.name ?? donation.donor_name,
        money.format(donation.amount),
        formatGiftDay(donation.donated_at),
      ]
        .filter(Boolean)
        .join(' · ')
    : undefined;

  return (
    <Dialog open={shown} onClose={onClose} title={title} description={description}>
      <div className="match">
        {load.kind === 'loading' ? (
          <div className="match__loading">
            <Spinner label="Loading match..." />
            <span aria-hidden="true">Loading match...</span>
          </div>
        ) : null}
        {load.kind === 'failed' ? (
          <div className="match__failed">
            <p className="alert" role="alert">
              {load.message}
            </p>
            <Button variant="secondary" onClick={() => setAttempt((n) => n + 1)}>
              Try again
            </Button>
          </div>
        ) : null}
        {donation && form ? (
          <Tabs
            label="Match"
            selected={tab}
            onSelect={setTab}
            tabs={[
              {
                id: 'details',
                label: 'Match Details',
                content: (
                  <MatchDetails
                    donation={donation}
                    form={form}
                    setForm={setForm}
                    onLoaded={(next, resetForm) => {
                      setLoad({ kind: 'ready', donation: next });
                      if (resetForm) setForm(formFromDonation(next));
                    }}
                    onChanged={onChanged}
                    onClose={onClose}
                  />
                ),
              },
              {
                id: 'emails',
                label: 'Email Communications',
                content: <EmailCommunications donation={donation} />,
              },
              // Issue #16: the signed form, its countersignature and its delivery to the company.
              ...(showsSignedForm(donation)
                ? [
                    {
                      id: 'signed-form',
                      label: 'Signed Form',
                      content: (
                        <SignedForm
                          donation={donation}
                          onChanged={async () => {
                            onChanged();
                            try {
                              setLoad({ kind: 'ready', donation: await getDonation(donation.id) });
                            } catch (error) {
                              toast({
                                title: matchTexts.loadFailed,
                                description: errorMessage(error),
                                variant: 'destructive',
                              });
                            }
                          }}
                        />
                      ),
                    },
                  ]
                : []),
              // spec: "Recurring History (only when recurring history exists)".
              ...(donation.recurring_history.length > 0
                ? [
                    {
                      id: 'recurring',
                      label: 'Recurring History',
                      content: <RecurringHistory donation={donation} />,
                    },
                  ]
                : []),
            ]}
          />
        ) : null}
      </div>
    </Dialog>
  );
}

interface DetailsProps {
  donation: Donation;
  form: MatchForm;
  setForm: (update: (form: MatchForm | null) => MatchForm | null) => void;
  /** A newer copy of the match; `resetForm` when the form should show it (after a save). */
  onLoaded: (donation: Donation, resetForm: boolean) => void;
  onChanged: () => void;
  onClose: () => void;
}

function MatchDetails({ donation, form, setForm, onLoaded, onChanged, onClose }: DetailsProps) {
  const { root } = useElement();
  const [busy, setBusy] = useState<Busy>(null);
  const [errors, setErrors] = useState<FormErrors>({});
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  // A billing action waiting for its yes: the question says what it does to the bill.
  const [confirmingBilling, setConfirmingBilling] = useState<BillingAction | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const keepRef = useRef<HTMLButtonElement>(null);
  const billingNoRef = useRef<HTMLButtonElement>(null);
  const billingOpener = useRef<HTMLElement | null>(null);
  const deleteRef = useRef<HTMLButtonElement>(null);
  const statusHeadingId = useId();
  const customHeadingId = useId();
  // Read-only for people who may only read (the server refuses their changes anyway).
  const readOnly = currentLevel.value === 'read';
  const actions = matchActions(donation);
  const locked = busy !== null;
  // Closing the native <dialog> reports it once through Dialog's onClose (Escape does the same).
  const close = () => {
    const dialog = formRef.current?.closest('dialog');
    if (dialog?.open) dialog.close();
    else onClose();
  };

  useEffect(() => {
    if (confirmingDelete) keepRef.current?.focus();
  }, [confirmingDelete]);
  useEffect(() => {
    if (confirmingBilling) billingNoRef.current?.focus();
  }, [confirmingBilling]);

  const askBilling = (action: BillingAction, opener: HTMLElement) => {
    billingOpener.current = opener;
    setConfirmingBilling(action);
  };
  const cancelBilling = () => {
    setConfirmingBilling(null);
    const opener = billingOpener.current;
    queueMicrotask(() => opener?.focus());
  };

  const update = (patch: Partial<MatchForm>) => setForm((f) => (f ? { ...f, ...patch } : f));

  const run = useCallback(async (what: Exclude<Busy, null>, task: () => Promise<void>) => {
    setBusy(what);
    try {
      await task();
    } finally {
      setBusy(null);
    }
  }, []);

  const save = (reprocess: boolean) => {
    const found = validateForm(form, donation);
    setErrors(found);
    const body = Object.keys(found).length === 0 ? writeFor(form, donation, reprocess) : null;
    if (!body) {
      // Focus the first field to fix; its error is announced with it.
      queueMicrotask(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    void run(reprocess ? 'reprocess' : 'save', async () => {
      try {
        const saved = await saveDonation(body);
        onLoaded(saved, true);
        onChanged();
        toast({ title: reprocess ? matchTexts.reprocessed : matchTexts.saved });
      } catch (error) {
        toast({
          title: reprocess ? matchTexts.reprocessFailed : matchTexts.saveFailed,
          description: errorMessage(error),
          variant: 'destructive',
        });
      }
    });
  };

  const toggleSilence = () =>
    run('silence', async () => {
      const silenced = !donation.silenced;
      try {
        const body = silenceWrite(donation, silenced);
        if (!body) throw new Error('Save the donor name first.');
        const saved = await saveDonation(body);
        onLoaded(saved, false);
        onChanged();
        toast({ title: saved.silenced ? matchTexts.silenced : matchTexts.unsilenced });
      } catch (error) {
        toast({ title: matchTexts.silenceFailed, description: errorMessage(error), variant: 'destructive' });
      }
    });

  // spec: "After a status change the donation is reloaded."
  const changeStatus = (status: ConfirmStatus) =>
    run('status', async () => {
      try {
        await confirmDonations([donation.id], status);
      } catch (error) {
        toast({ title: matchTexts.statusFailed, description: errorMessage(error), variant: 'destructive' });
        return;
      }
      toast({ title: matchTexts.statusUpdated });
      onChanged();
      try {
        onLoaded(await getDonation(donation.id), false);
      } catch (error) {
        toast({ title: matchTexts.loadFailed, description: errorMessage(error), variant: 'destructive' });
      }
    });

  const remove = () =>
    run('delete', async () => {
      try {
        await deleteDonation(donation.id);
      } catch (error) {
        toast({ title: matchTexts.deleteFailed, description: errorMessage(error), variant: 'destructive' });
        return;
      }
      toast({ title: matchTexts.deleted });
      onChanged();
      close();
    });

  const packet = () => run('packet', () => savePacket(donation.id, root));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!readOnly && !locked) save(false);
  };

  return (
    <form ref={formRef} className="match__form" onSubmit={onSubmit} noValidate>
      <section className="match__status" aria-labelledby={statusHeadingId}>
        <h3 id={statusHeadingId} className="match__heading">
          Status
        </h3>
        <dl className="match__facts">
          <div>
            <dt>Status</dt>
            <dd>
              <StatusBadge status={donation.status_id} name={donation.status.name} />
            </dd>
          </div>
          <div>
            <dt>Billing</dt>
            <dd>
              <StatusBadge billing={donation.status.billing_status} />
            </dd>
          </div>
          <div>
            <dt>Estimated match</dt>
            <dd>{money.format(donation.matched)}</dd>
          </div>
          {donation.campaign ? (
            <div>
              <dt>Campaign</dt>
              <dd>{donation.campaign.name}</dd>
            </div>
          ) : null}
          {donation.paid_amount != null ? (
            <div>
              <dt>Paid by the company</dt>
              <dd>
                {money.format(donation.paid_amount)}
                {donation.paid_at ? ` on ${formatGiftDay(`${donation.paid_at}T12:00:00Z`)}` : ''}
              </dd>
            </div>
          ) : null}
          <div>
            <dt>Organization</dt>
            <dd>{donation.organization.name}</dd>
          </div>
          {donation.silenced ? (
            <div>
              <dt>Emails</dt>
              <dd>
                <Badge variant="info">Silenced</Badge>
              </dd>
            </div>
          ) : null}
          {donation.inert === 1 ? (
            <div>
              <dt>Source</dt>
              <dd>External match</dd>
            </div>
          ) : null}
        </dl>
        {readOnly ? null : (
          <fieldset className="match__actions">
            <legend className="visually-hidden">Status actions</legend>
            {actions.submitted ? (
              <Button
                variant="secondary"
                disabled={locked || confirmingBilling !== null}
                onClick={(event) => askBilling('submitted', event.currentTarget)}
              >
                Submitted
              </Button>
            ) : null}
            {actions.submitForMatch ? (
              <Button
                variant="secondary"
                disabled={locked || confirmingBilling !== null}
                onClick={(event) => askBilling('submitted', event.currentTarget)}
              >
                Submit for Match
              </Button>
            ) : null}
            {actions.noCharge ? (
              <Button
                variant="secondary"
                disabled={locked || confirmingBilling !== null}
                onClick={(event) => askBilling('noCharge', event.currentTarget)}
              >
                No Charge
              </Button>
            ) : null}
            {actions.refund ? (
              <Button
                variant="secondary"
                disabled={locked || confirmingBilling !== null}
                onClick={(event) => askBilling('refund', event.currentTarget)}
              >
                Refund
              </Button>
            ) : null}
            {actions.refunded ? (
              <Button variant="secondary" disabled>
                Refunded
              </Button>
            ) : null}
            <Button
              variant="secondary"
              disabled={locked}
              aria-pressed={donation.silenced}
              onClick={toggleSilence}
            >
              {actions.silenceLabel}
            </Button>
            {actions.downloadPacket ? (
              <Button variant="secondary" disabled={locked} onClick={packet}>
                {busy === 'packet' ? 'Downloading...' : 'Download Packet'}
              </Button>
            ) : null}
          </fieldset>
        )}
        {confirmingBilling && !readOnly ? (
          <fieldset className="match__confirm">
            <legend className="match__confirm-question">
              {billingQuestion(confirmingBilling, donation).question}
            </legend>
            <div className="match__confirm-buttons">
              {/* A plain button: focus moves here when the question appears (Button takes no ref). */}
              <button
                ref={billingNoRef}
                type="button"
                className="btn btn--secondary"
                disabled={locked}
                onClick={cancelBilling}
              >
                Cancel
              </button>
              <Button
                disabled={locked}
                onClick={() => {
                  const action = confirmingBilling;
                  setConfirmingBilling(null);
                  void changeStatus(confirmStatusOf[action]);
                }}
              >
                {billingQuestion(confirmingBilling, donation).confirm}
              </Button>
            </div>
          </fieldset>
        ) : null}
      </section>

      <div className="match__grid">
        <Field
          label="Donor Name"
          required
          value={form.donorName}
          readOnly={readOnly}
          error={errors.donorName}
          onChange={(e) => update({ donorName: e.target.value })}
        />
        <Field
          label="Donor Email"
          type="email"
          value={form.donorEmail}
          readOnly={readOnly}
          error={errors.donorEmail}
          onChange={(e) => update({ donorEmail: e.target.value })}
        />
        <CompanyField
          label="Company"
          required={false}
          readOnly={readOnly}
          hint={companyHint(form.companyName, form.companyId)}
          error={errors.companyName}
          value={{ company_name: form.companyName, company_id: form.companyId }}
          onChange={(choice) => update({ companyName: choice.company_name, companyId: choice.company_id })}
        />
        {donation.employer?.reason && donation.company_id !== null ? (
          <p className="muted match-dialog__employer">
            How the company was found: {donation.employer.reason}
            {donation.employer.confidence !== null ? ` (${donation.employer.confidence}% sure)` : ''}
          </p>
        ) : null}
        {donation.email_correction ? (
          // The misspelt domain was corrected on the way in (issue #31): the address as the donor
          // gave it stays visible, so staff can tell the donor or undo it by editing the email.
          <p className="muted match-dialog__email-correction">
            Email corrected from {donation.email_correction.from} to {donation.email_correction.to}
          </p>
        ) : null}
        {donation.company ? (
          <SuggestCorrection companyId={donation.company.id} companyName={donation.company.name} />
        ) : null}
        <Field
          label="Amount"
          required
          inputMode="decimal"
          hint="In dollars"
          value={form.amount}
          readOnly={readOnly}
          error={errors.amount}
          onChange={(e) => update({ amount: e.target.value })}
        />
        <Field
          label="Donated Date"
          type="date"
          required
          value={form.donatedDate}
          readOnly={readOnly}
          error={errors.donatedDate}
          onChange={(e) => update({ donatedDate: e.target.value })}
        />
        <Field
          label="Transaction ID"
          value={form.transactionId}
          readOnly={readOnly}
          error={errors.transactionId}
          onChange={(e) => update({ transactionId: e.target.value })}
        />
      </div>

      <section className="match__custom" aria-labelledby={customHeadingId}>
        <h3 id={customHeadingId} className="match__heading">
          Custom Fields
        </h3>
        {form.custom.length === 0 ? <p className="muted">No custom fields.</p> : null}
        {form.custom.map((row, index) => (
          <div key={row.rowId} className="match__custom-row">
            <Field
              label={`Field ${index + 1} name`}
              value={row.key}
              readOnly={readOnly}
              onChange={(e) =>
                update({
                  custom: form.custom.map((r) => (r.rowId === row.rowId ? { ...r, key: e.target.value } : r)),
                })
              }
            />
            <Field
              label={`Field ${index + 1} value`}
              value={row.value}
              readOnly={readOnly}
              onChange={(e) =>
                update({
                  custom: form.custom.map((r) =>
                    r.rowId === row.rowId ? { ...r, value: e.target.value } : r,
                  ),
                })
              }
            />
            {readOnly ? null : (
              <Button
                variant="ghost"
                className="match__custom-remove"
                aria-label={`Remove field ${index + 1}${row.key.trim() ? ` (${row.key.trim()})` : ''}`}
                onClick={() => update({ custom: form.custom.filter((r) => r.rowId !== row.rowId) })}
              >
                Remove
              </Button>
            )}
          </div>
        ))}
        {errors.custom ? (
          <p className="field__error" role="alert">
            {errors.custom}
          </p>
        ) : null}
        {readOnly ? null : (
          <Button variant="link" onClick={() => update({ custom: [...form.custom, newCustomRow()] })}>
            Add custom field
          </Button>
        )}
      </section>

      {confirmingDelete ? (
        <fieldset className="match__confirm">
          <legend className="match__confirm-question">Delete this match? This cannot be undone.</legend>
          <div className="match__confirm-buttons">
            {/* A plain button: focus moves here when the question appears (Button takes no ref). */}
            <button
              ref={keepRef}
              type="button"
              className="btn btn--secondary"
              disabled={locked}
              onClick={() => {
                setConfirmingDelete(false);
                queueMicrotask(() => deleteRef.current?.focus());
              }}
            >
              Keep Match
            </button>
            <Button variant="destructive" disabled={locked} onClick={remove}>
              {busy === 'delete' ? 'Deleting...' : 'Yes, Delete Match'}
            </Button>
          </div>
        </fieldset>
      ) : null}

      <div className="match__footer">
        {readOnly || confirmingDelete ? null : (
          <button
            ref={deleteRef}
            type="button"
            className="btn btn--destructive"
            disabled={locked}
            onClick={() => setConfirmingDelete(true)}
          >
            Delete Match
          </button>
        )}
        <span className="match__footer-spacer" />
        <Button variant="secondary" disabled={busy === 'delete'} onClick={close}>
          {readOnly ? 'Close' : 'Cancel'}
        </Button>
        {readOnly ? null : (
          <>
            <Button variant="secondary" disabled={locked} onClick={() => save(true)}>
              {busy === 'reprocess' ? 'Saving...' : 'Save & Re-Email'}
            </Button>
            <Button type="submit" disabled={locked}>
              {busy === 'save' ? 'Saving...' : 'Save'}
            </Button>
          </>
        )}
      </div>
    </form>
  );
}

function RecurringHistory({ donation }: { donation: Donation }) {
  return (
    <table className="match__table">
      <caption className="visually-hidden">Earlier gifts of this recurring donation</caption>
      <thead>
        <tr>
          <th scope="col">Donated</th>
          <th scope="col">Amount</th>
          <th scope="col">Recorded</th>
          <th scope="col">Match</th>
        </tr>
      </thead>
      <tbody>
        {donation.recurring_history.map((row) => (
          <tr key={row.id}>
            <td>{formatGiftDay(row.donated_at)}</td>
            <td>{money.format(row.amount)}</td>
            <td>{displayDate(row.created_at)}</td>
            <td>#{row.id}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

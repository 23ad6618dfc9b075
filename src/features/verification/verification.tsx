import { useSignals } from '@preact/signals-react/runtime';
import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { countersignMany } from '../../api/esign.ts';
import { declineMatches, fetchVerificationQueue, verifyMatches } from '../../api/verification.ts';
import { can, type Organization } from '../../contract/index.ts';
import {
  type VerificationItem,
  type VerificationQueueResponse,
  verificationMessages,
} from '../../contract/verification.ts';
import { currentLevel } from '../../state/organization.ts';
import { user } from '../../state/session.ts';
import { toast } from '../../state/toasts.ts';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { Field, TextAreaField } from '../../ui/field.tsx';
import { OrganizationPage } from '../../ui/organization-page.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { formatGiftDay } from '../common.ts';
import { formatAmount } from '../donations/donations-query.ts';

export interface VerificationProps {
  /**
   * Beyond this island: an action per queued match (the e-signature countersigning adds its
   * button here). Shown in the row's last cell.
   */
  rowActions?: (item: VerificationItem) => ReactNode;
}

const dayOf = (day: string) => formatGiftDay(`${day}T12:00:00Z`);

/** The verification queue (/portal/verification): matches waiting on the nonprofit, worked in bulk. */
export function Verification({ rowActions }: VerificationProps) {
  useSignals();
  return (
    <OrganizationPage title="Verification Queue" className="verification">
      {(organization) => (
        <Queue
          organization={organization}
          canWrite={can(currentLevel.value ?? 'none', 'donations.change')}
          rowActions={rowActions}
        />
      )}
    </OrganizationPage>
  );
}

function Queue({
  organization,
  canWrite,
  rowActions,
}: {
  organization: Organization;
  canWrite: boolean;
  rowActions: VerificationProps['rowActions'];
}) {
  const [data, setData] = useState<VerificationQueueResponse | null>(null);
  const [failed, setFailed] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [busy, setBusy] = useState(false);
  const [declining, setDeclining] = useState(false);
  const [countersigning, setCountersigning] = useState(false);
  const [verifying, setVerifying] = useState(false);
  const statusRef = useRef<HTMLParagraphElement>(null);
  const [status, setStatus] = useState('');

  const load = useCallback(async () => {
    try {
      const queue = await fetchVerificationQueue(organization.id);
      setData(queue);
      setFailed(false);
      const present = new Set(queue.groups.flatMap((g) => g.items.map((i) => i.id)));
      setSelected((current) => new Set([...current].filter((id) => present.has(id))));
    } catch (error) {
      setFailed(true);
      toast({
        title: verificationMessages.loadFailed,
        description: errorMessage(error),
        variant: 'destructive',
      });
    }
  }, [organization.id]);
  useEffect(() => {
    void load();
  }, [load]);

  const toggle = (ids: number[], on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });

  const run = async (action: () => Promise<{ message: string }>) => {
    setBusy(true);
    try {
      const result = await action();
      setSelected(new Set());
      setStatus(result.message);
      toast({ title: result.message });
      await load();
      statusRef.current?.focus();
    } catch (error) {
      toast({
        title: 'Failed to update donation status.',
        description: errorMessage(error),
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  };

  if (!data)
    return failed ? (
      <p className="muted">{verificationMessages.loadFailed}</p>
    ) : (
      <Spinner label="Loading queue..." />
    );
  const count = selected.size;
  // The selected matches whose donor signed in Twofold: countersigning them sends the packet on.
  const toCountersign = data.groups
    .flatMap((g) => g.items)
    .filter((i) => i.awaiting_countersign && selected.has(i.id))
    .map((i) => i.id);
  return (
    <div className="verification__body">
      <p className="verification__summary">
        {data.total === 0
          ? verificationMessages.empty
          : `${data.total} ${data.total === 1 ? 'match waits' : 'matches wait'} on your organization, oldest first.`}
        {data.total > data.groups.reduce((n, g) => n + g.items.length, 0)
          ? ' The oldest are shown; work through them to see the rest.'
          : ''}
      </p>
      <p ref={statusRef} tabIndex={-1} className="verification__status" role="status">
        {status}
      </p>
      {canWrite && data.total > 0 ? (
        <div className="verification__actions" part="bulk-actions">
          <span>{count === 0 ? 'No match selected' : `${count} selected`}</span>
          <Button disabled={count === 0 || busy} onClick={() => setVerifying(true)}>
            Mark verified
          </Button>
          <Button
            variant="secondary"
            disabled={toCountersign.length === 0 || busy}
            onClick={() => setCountersigning(true)}
          >
            Countersign…
          </Button>
          <Button variant="secondary" disabled={count === 0 || busy} onClick={() => setDeclining(true)}>
            Decline…
          </Button>
        </div>
      ) : null}
      {data.groups.map((group) => {
        const ids = group.items.map((i) => i.id);
        const all = ids.every((id) => selected.has(id));
        return (
          <section
            key={`${group.company_id ?? group.company_name}-${group.vendor ?? ''}`}
            className="verification__group"
            part="group"
            aria-label={`${group.company_name}${group.vendor ? ` via ${group.vendor}` : ''}`}
          >
            <header className="verification__group-header">
              <h2 className="verification__group-title">
                {group.company_name}
                {group.vendor ? <span className="verification__vendor"> via {group.vendor}</span> : null}
              </h2>
              <p className="verification__group-meta">
                {group.deadline ? `Deadline ${dayOf(group.deadline)}` : 'No deadline known'}
                {group.portal_url ? (
                  <>
                    {' · '}
                    <a href={group.portal_url} target="_blank" rel="noopener noreferrer">
                      {group.vendor ? `Open the ${group.vendor} portal` : 'Company’s page'}
                    </a>
                  </>
                ) : null}
              </p>
            </header>
            <div className="data-table-wrap card-table-wrap">
              <table className="data-table card-table">
                <thead>
                  <tr>
                    {canWrite ? (
                      <th scope="col">
                        <input
                          type="checkbox"
                          aria-label={`Select all of ${group.company_name}`}
                          checked={all}
                          onChange={(e) => toggle(ids, e.currentTarget.checked)}
                        />
                      </th>
                    ) : null}
                    <th scope="col">Donated</th>
                    <th scope="col">Donor</th>
                    <th scope="col">Amount</th>
                    <th scope="col">Status</th>
                    <th scope="col">What to check</th>
                    {rowActions ? <th scope="col">Actions</th> : null}
                  </tr>
                </thead>
                <tbody>
                  {group.items.map((item) => (
                    <tr key={item.id}>
                      {canWrite ? (
                        <td data-label="Select">
                          <input
                            type="checkbox"
                            aria-label={`Select ${item.donor_name ?? item.donor_email ?? 'match'}, ${formatAmount(item.amount)}, ${formatGiftDay(item.donated_at)}`}
                            checked={selected.has(item.id)}
                            onChange={(e) => toggle([item.id], e.currentTarget.checked)}
                          />
                        </td>
                      ) : null}
                      <td data-label="Donated">{formatGiftDay(item.donated_at)}</td>
                      <td data-label="Donor">
                        {item.donor_name ?? '—'}
                        {item.donor_email ? (
                          <span className="verification__email">{item.donor_email}</span>
                        ) : null}
                      </td>
                      <td data-label="Amount">
                        {formatAmount(item.amount)}
                        <span className="verification__email">match {formatAmount(item.matched)}</span>
                      </td>
                      <td data-label="Status">
                        {item.status.name}
                        {item.deadline ? (
                          <span className="verification__email">by {dayOf(item.deadline)}</span>
                        ) : null}
                      </td>
                      <td className="verification__check" data-label="What to check">
                        {item.check}
                      </td>
                      {rowActions ? <td data-label="Actions">{rowActions(item)}</td> : null}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        );
      })}
      {/* A confirmation rather than an undo toast: verifying moves the matches on to Submitted at
          once, and what that sets off (the webhooks' status events, the plan's count of submitted
          matches) cannot be called back by a later undo. */}
      <ConfirmDialog
        open={verifying}
        title={`Mark ${count} ${count === 1 ? 'match' : 'matches'} verified?`}
        description="They move on to Submitted and leave the queue; each match's history records the change."
        confirmLabel={`Mark ${count} verified`}
        busy={busy}
        onConfirm={() => {
          setVerifying(false);
          void run(() => verifyMatches(organization.id, [...selected]));
        }}
        onCancel={() => setVerifying(false)}
      />
      <CountersignDialog
        open={countersigning}
        count={toCountersign.length}
        busy={busy}
        onClose={() => setCountersigning(false)}
        onCountersign={(name) => {
          setCountersigning(false);
          void run(async () => {
            const result = await countersignMany(toCountersign, name);
            const done = result.countersigned.length;
            const skipped = result.skipped.map((s) => `#${s.id}: ${s.reason}`).join(' ');
            return {
              message: `${done} ${done === 1 ? 'form' : 'forms'} countersigned; the packets go to the companies.${skipped ? ` Not countersigned: ${skipped}` : ''}`,
            };
          });
        }}
      />
      <DeclineDialog
        open={declining}
        count={count}
        busy={busy}
        onClose={() => setDeclining(false)}
        onDecline={(reason) => {
          setDeclining(false);
          void run(() => declineMatches(organization.id, [...selected], reason));
        }}
      />
    </div>
  );
}

function DeclineDialog({
  open,
  count,
  busy,
  onClose,
  onDecline,
}: {
  open: boolean;
  count: number;
  busy: boolean;
  onClose: () => void;
  onDecline: (reason: string) => void;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const formId = useId();
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={`Decline ${count} ${count === 1 ? 'match' : 'matches'}`}
      description="Declined matches leave the queue and are not requested from the company. The reason is kept in each match’s history."
    >
      <form
        id={formId}
        className="verification__decline"
        onSubmit={(e) => {
          e.preventDefault();
          if (!reason.trim()) {
            setError('A reason is required');
            return;
          }
          onDecline(reason.trim());
          setReason('');
          setError(undefined);
        }}
      >
        <TextAreaField
          label="Reason"
          required
          maxLength={500}
          value={reason}
          error={error}
          onChange={(e) => setReason(e.currentTarget.value)}
        />
        <div className="verification__dialog-buttons">
          <Button type="button" variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="destructive" disabled={busy}>
            Decline
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** Countersigns the selected signed forms with one typed signature (the bulk call of issue #16). */
function CountersignDialog({
  open,
  count,
  busy,
  onClose,
  onCountersign,
}: {
  open: boolean;
  count: number;
  busy: boolean;
  onClose: () => void;
  onCountersign: (name: string) => void;
}) {
  useSignals();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const formId = useId();
  // The signer's own name, offered once the dialog opens; they may type another.
  useEffect(() => {
    if (open) setName((current) => current || user.value?.name || '');
  }, [open]);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={`Countersign ${count} ${count === 1 ? 'form' : 'forms'}`}
      description="Your typed name signs each form for your organization. Each packet then carries both signatures and goes to its company."
    >
      <form
        id={formId}
        className="verification__decline"
        onSubmit={(e) => {
          e.preventDefault();
          if (!name.trim()) {
            setError('Your name is required');
            return;
          }
          onCountersign(name.trim());
          setError(undefined);
        }}
      >
        <Field
          label="Your full name (your signature)"
          required
          maxLength={120}
          autoComplete="name"
          value={name}
          error={error}
          onChange={(e) => {
            setName(e.currentTarget.value);
            setError(undefined);
          }}
        />
        <div className="verification__dialog-buttons">
          <Button type="button" variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            Countersign
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

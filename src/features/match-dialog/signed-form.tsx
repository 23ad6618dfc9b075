import { useEffect, useId, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { downloadPacket, packetFileName } from '../../api/donations.ts';
import { countersign, deliverAgain, getEsignState, markPosted } from '../../api/esign.ts';
import { type Donation, packetMethods } from '../../contract/donations.ts';
import { type EsignStateResponse, esignStatuses } from '../../contract/esign.ts';
import type { MatchMethod } from '../../contract/index.ts';
import { currentLevel } from '../../state/organization.ts';
import { toast } from '../../state/toasts.ts';
import { Badge } from '../../ui/badge.tsx';
import { Button } from '../../ui/button.tsx';
import { useElement } from '../../ui/element-context.ts';
import { Field } from '../../ui/field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { saveBlob } from '../common.ts';

/**
 * spec: "GET /donation/{id}/esign/download (binary), saved as donation-{id}-esign.pdf." A failure is
 * a toast. The dialog's Download Packet and the Signed Form tab both save it this way.
 */
export async function savePacket(donationId: number, root?: ShadowRoot | HTMLElement | null): Promise<void> {
  try {
    saveBlob(await downloadPacket(donationId), packetFileName(donationId), root);
  } catch (error) {
    toast({ title: 'Failed to download packet.', description: errorMessage(error), variant: 'destructive' });
  }
}

/** Whether the match dialog shows the Signed Form tab: a forms company, or a signature status. */
export function showsSignedForm(donation: Donation): boolean {
  const method = donation.company?.match_method ?? null;
  return (
    (method !== null && (packetMethods as readonly MatchMethod[]).includes(method)) ||
    [esignStatuses.npoToSign, esignStatuses.donorToSign, esignStatuses.originalSignature].includes(
      donation.status_id as 3 | 5 | 6,
    )
  );
}

export const signedFormTexts = {
  countersigned: 'Form countersigned.',
  countersignFailed: 'Failed to countersign the form.',
  posted: 'Packet marked as posted.',
  postFailed: 'Failed to mark the packet as posted.',
  loadFailed: 'Failed to load the signed form.',
  deliverQueued: 'Packet queued for the company.',
  deliverFailed: 'Failed to send the packet to the company.',
} as const;

const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' }) : '—';

const stageText: Record<EsignStateResponse['stage'], string> = {
  none: 'No form has been sent to the donor yet.',
  'awaiting-donor': 'Waiting for the donor to sign.',
  'awaiting-countersign': 'Signed by the donor: ready for your countersignature.',
  countersigned: 'Countersigned. The company takes no forms by email: download the packet and send it.',
  delivering: 'Countersigned and on its way to the company.',
  delivered: 'Delivered to the company.',
  'delivery-failed': 'The email to the company failed. The match stays at NPO to Verify/Sign.',
  print: 'The company needs original signatures: print the packet, sign it with the donor, and post it.',
  posted: 'Posted to the company.',
};

/**
 * The match dialog's Signed Form tab (issue #16): where the form stands, the countersignature,
 * the delivery to the company (with the email's preview and any failure), the original-signature
 * packet and its posting, and the audit trail.
 */
export function SignedForm({ donation, onChanged }: { donation: Donation; onChanged: () => Promise<void> }) {
  const { root } = useElement();
  const [state, setState] = useState<EsignStateResponse | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | undefined>();
  const [busy, setBusy] = useState<'countersign' | 'posted' | 'download' | 'deliver' | null>(null);
  const auditId = useId();
  const readOnly = currentLevel.value === 'read';

  // biome-ignore lint/correctness/useExhaustiveDependencies: reload when the match's status changes.
  useEffect(() => {
    let current = true;
    getEsignState(donation.id).then(
      (s) => current && setState(s),
      (error) => current && setFailed(errorMessage(error)),
    );
    return () => {
      current = false;
    };
  }, [donation.id, donation.status_id]);

  if (failed)
    return (
      <p className="alert" role="alert">
        {signedFormTexts.loadFailed} {failed}
      </p>
    );
  if (!state) return <Spinner label="Loading the signed form..." />;

  const download = async () => {
    setBusy('download');
    try {
      await savePacket(donation.id, root);
    } finally {
      setBusy(null);
    }
  };

  const doCountersign = async () => {
    if (name.trim().length < 2) {
      setNameError('Type your full name to countersign.');
      return;
    }
    setNameError(undefined);
    setBusy('countersign');
    try {
      setState(await countersign(donation.id, { name: name.trim() }));
      toast({ title: signedFormTexts.countersigned });
      await onChanged();
    } catch (error) {
      toast({
        title: signedFormTexts.countersignFailed,
        description: errorMessage(error),
        variant: 'destructive',
      });
    } finally {
      setBusy(null);
    }
  };

  const doPosted = async () => {
    setBusy('posted');
    try {
      setState(await markPosted(donation.id));
      toast({ title: signedFormTexts.posted });
      await onChanged();
    } catch (error) {
      toast({ title: signedFormTexts.postFailed, description: errorMessage(error), variant: 'destructive' });
    } finally {
      setBusy(null);
    }
  };

  const doDeliver = async () => {
    setBusy('deliver');
    try {
      setState(await deliverAgain(donation.id));
      toast({ title: signedFormTexts.deliverQueued });
    } catch (error) {
      toast({
        title: signedFormTexts.deliverFailed,
        description: errorMessage(error),
        variant: 'destructive',
      });
    } finally {
      setBusy(null);
    }
  };

  const signed = state.file_sha256 !== null;
  const canDeliver =
    !readOnly &&
    state.company_forms_email !== null &&
    (state.stage === 'delivery-failed' || state.stage === 'countersigned');
  return (
    <div className="signed-form">
      <p role="status" className="signed-form__stage">
        {stageText[state.stage]}
      </p>
      <dl className="match__facts">
        {state.link_sent_at ? (
          <div>
            <dt>Link sent</dt>
            <dd>{when(state.link_sent_at)}</dd>
          </div>
        ) : null}
        {state.stage === 'awaiting-donor' ? (
          <div>
            <dt>Link expires</dt>
            <dd>{when(state.link_expires_at)}</dd>
          </div>
        ) : null}
        {state.donor_signed_at ? (
          <div>
            <dt>Donor signed</dt>
            <dd>{when(state.donor_signed_at)}</dd>
          </div>
        ) : null}
        {state.countersigned_at ? (
          <div>
            <dt>Countersigned</dt>
            <dd>{when(state.countersigned_at)}</dd>
          </div>
        ) : null}
        {state.posted_at ? (
          <div>
            <dt>Posted</dt>
            <dd>{when(state.posted_at)}</dd>
          </div>
        ) : null}
        {state.company_forms_email ? (
          <div>
            <dt>Company forms email</dt>
            <dd>{state.company_forms_email}</dd>
          </div>
        ) : null}
      </dl>

      {state.stage === 'awaiting-countersign' && !readOnly ? (
        <fieldset className="signed-form__countersign">
          <legend className="match__heading">Countersign</legend>
          <Field
            label="Your full name (your signature)"
            required
            autoComplete="name"
            value={name}
            error={nameError}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <p className="muted">
            {state.company_forms_email
              ? `Countersigning emails the signed packet to ${state.company_forms_email}; the match moves to Submitted once it is delivered.`
              : 'After countersigning, download the packet and send it to the company.'}
          </p>
          <div>
            <Button type="button" onClick={doCountersign} disabled={busy !== null}>
              {busy === 'countersign' ? 'Countersigning...' : 'Countersign'}
            </Button>
          </div>
        </fieldset>
      ) : null}

      {state.delivery ? (
        <section className="signed-form__delivery" aria-label="Email to the company">
          <h3 className="match__heading">Email to the company</h3>
          <p>
            To {state.delivery.to}:{' '}
            <Badge
              variant={
                state.delivery.status === 'sent'
                  ? 'success'
                  : state.delivery.status === 'failed'
                    ? 'danger'
                    : 'info'
              }
            >
              {state.delivery.status === 'sent'
                ? `Sent ${when(state.delivery.sent_at)}`
                : state.delivery.status === 'failed'
                  ? 'Failed'
                  : 'Sending'}
            </Badge>
          </p>
          {state.delivery.error ? (
            <p className="alert" role="alert">
              {state.delivery.status === 'failed' ? 'Delivery failed: ' : 'Last attempt failed (retrying): '}
              {state.delivery.error}
            </p>
          ) : null}
          <details>
            <summary>Preview: {state.delivery.subject}</summary>
            <iframe
              className="signed-form__preview"
              title={`Preview of the email to ${state.delivery.to}`}
              sandbox=""
              srcDoc={state.delivery.preview_html}
            />
          </details>
        </section>
      ) : null}

      {state.stage === 'print' ? (
        <section aria-label="Original signature packet">
          <p className="muted">
            {state.company_forms_address
              ? `The cover letter is addressed to: ${state.company_forms_address.replace(/\n/g, ', ')}.`
              : 'The company has no mailing address on file: the cover letter leaves room for it.'}
          </p>
        </section>
      ) : null}

      <div className="match__actions">
        {signed || state.stage === 'print' ? (
          <Button type="button" variant="secondary" onClick={download} disabled={busy !== null}>
            {busy === 'download'
              ? 'Downloading...'
              : state.stage === 'print'
                ? 'Download print packet'
                : 'Download signed packet'}
          </Button>
        ) : null}
        {canDeliver ? (
          <Button type="button" onClick={doDeliver} disabled={busy !== null}>
            {busy === 'deliver' ? 'Sending...' : `Send to ${state.company_forms_email}`}
          </Button>
        ) : null}
        {state.stage === 'print' && !readOnly ? (
          <Button type="button" onClick={doPosted} disabled={busy !== null}>
            {busy === 'posted' ? 'Saving...' : 'Mark as posted'}
          </Button>
        ) : null}
      </div>

      {state.audit.length > 0 ? (
        <table className="match__table" aria-labelledby={auditId}>
          <caption id={auditId} className="match__heading">
            Audit trail
          </caption>
          <thead>
            <tr>
              <th scope="col">Signature</th>
              <th scope="col">Signed by</th>
              <th scope="col">When</th>
              <th scope="col">IP address</th>
            </tr>
          </thead>
          <tbody>
            {state.audit.map((e) => (
              <tr key={`${e.event}-${e.at}`}>
                <td>{e.event === 'donor-signed' ? 'Donor' : 'Nonprofit'}</td>
                <td>{e.name}</td>
                <td>{when(e.at)}</td>
                <td>{e.ip}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {state.file_sha256 ? (
        <p className="muted signed-form__hash">
          SHA-256 of the stored packet: <code>{state.file_sha256}</code>
        </p>
      ) : null}
    </div>
  );
}

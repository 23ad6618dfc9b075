import { type FormEvent, useCallback, useEffect, useId, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import {
  getSendingDomain,
  removeSendingDomain,
  rotateSendingKey,
  setSendingDomain,
  verifySendingDomain,
} from '../../api/sending-domain.ts';
import {
  type DnsRecord,
  fromNameMaxLength,
  type SendingDomainResponse,
  sendingDomainStatusLabels,
} from '../../contract/sending-domain.ts';
import { toast } from '../../state/toasts.ts';
import { Badge, type BadgeVariant } from '../../ui/badge.tsx';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { Section, TextField } from '../organization/fields.tsx';

const statusVariant: Record<keyof typeof sendingDomainStatusLabels, BadgeVariant> = {
  pending: 'warning',
  verified: 'success',
  failed: 'danger',
};

const recordTitles: Record<DnsRecord['purpose'], string> = {
  dkim: 'DKIM record',
  'dkim-next': 'New DKIM record',
  spf: 'SPF',
  dmarc: 'DMARC record',
};

const checkWords = {
  right: 'Found and right',
  different: 'Found but different',
  missing: 'Missing',
  failed: 'Could not be checked',
} as const;
const checkVariant: Record<keyof typeof checkWords, BadgeVariant> = {
  right: 'success',
  different: 'danger',
  missing: 'warning',
  failed: 'neutral',
};

/**
 * The sender of the organization's donor emails (issue #28), on the Email Templates screen:
 * admins set a name and an address at their own domain, publish the DNS records shown (each with
 * a Copy button), Verify them, rotate the DKIM key and remove the sender. Other members see how
 * donor emails go out, read-only.
 */
export function SendingDomainSection({ organizationId, admin }: { organizationId: number; admin: boolean }) {
  const [data, setData] = useState<SendingDomainResponse | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState<null | 'save' | 'verify' | 'rotate' | 'remove'>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [announcement, setAnnouncement] = useState('');

  const show = useCallback((answer: SendingDomainResponse) => {
    setData(answer);
    setName(answer.sending_domain?.from_name ?? '');
    setEmail(answer.sending_domain?.from_email ?? '');
  }, []);

  useEffect(() => {
    let live = true;
    getSendingDomain(organizationId)
      .then((answer) => {
        if (live) show(answer);
      })
      .catch(() => {
        if (live) setLoadFailed(true);
      });
    return () => {
      live = false;
    };
  }, [organizationId, show]);

  const run = async (
    what: NonNullable<typeof busy>,
    action: () => Promise<SendingDomainResponse>,
    done: string,
  ) => {
    setBusy(what);
    try {
      show(await action());
      setProblem(null);
      toast({ description: done });
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setBusy(null);
    }
  };

  const save = (event: FormEvent) => {
    event.preventDefault();
    void run(
      'save',
      () => setSendingDomain(organizationId, { from_name: name, from_email: email }),
      'Sender saved',
    );
  };

  const copy = async (text: string, what: string) => {
    try {
      await navigator.clipboard.writeText(text);
      // Announced by the section's own live region (and the toast), so screen readers hear it.
      // A repeated copy changes the text too (a no-break space), so it is announced again.
      setAnnouncement((last) => (last === `Copied ${what}` ? `Copied ${what}\u00a0` : `Copied ${what}`));
      toast({ description: 'Copied' });
    } catch {
      toast({
        description: 'Copying is not allowed here: select the text and copy it.',
        variant: 'destructive',
      });
    }
  };

  const domain = data?.sending_domain ?? null;
  return (
    <Section
      title="Sender for donor emails"
      description="Send donor emails from your organization’s own address, DKIM-signed for your domain, so donors and their mail providers recognise them."
    >
      <p className="sender__live" role="status" aria-live="polite">
        {announcement}
      </p>
      {loadFailed ? (
        <p role="alert" className="alert">
          Failed to load the sender.
        </p>
      ) : data === null ? (
        <p className="muted">Loading...</p>
      ) : (
        <>
          <div className="sender__summary">
            {domain ? (
              <Badge variant={statusVariant[domain.status]}>{sendingDomainStatusLabels[domain.status]}</Badge>
            ) : null}
            <dl className="sender__headers">
              <dt>Donor emails go from</dt>
              <dd data-testid="sending-from">{domain ? domain.sending.from : data.platform_from}</dd>
              {domain?.sending.reply_to ? (
                <>
                  <dt>Replies go to</dt>
                  <dd>{domain.sending.reply_to}</dd>
                </>
              ) : null}
            </dl>
          </div>
          {domain?.status === 'pending' ? (
            <p className="muted">
              Until {domain.domain} is verified, donor emails go from Twofold’s address with your sender name,
              and replies go to {domain.from_email}.
            </p>
          ) : null}
          {domain?.status === 'failed' ? (
            <p role="alert" className="alert">
              The DKIM record of {domain.domain} is no longer found as published, so donor emails went back to
              Twofold’s address. Publish it again and choose Verify.
            </p>
          ) : null}
          {admin ? (
            <form className="sender__form" onSubmit={save} aria-label="Sender">
              <TextField
                label="Sender name"
                name="from_name"
                value={name}
                onChange={setName}
                maxLength={fromNameMaxLength}
                required
              />
              <TextField
                label="Sender address"
                name="from_email"
                type="email"
                value={email}
                onChange={setEmail}
                placeholder="giving@yourdomain.org"
                maxLength={320}
                required
              />
              <div className="details__row-actions">
                <Button type="submit" disabled={busy !== null || !name.trim() || !email.trim()}>
                  {busy === 'save' ? 'Saving...' : 'Save sender'}
                </Button>
              </div>
            </form>
          ) : (
            <p className="muted">Only the organization’s admins can change the sender.</p>
          )}
          {problem ? (
            <p role="alert" className="alert">
              {problem}
            </p>
          ) : null}
          {domain ? (
            <>
              <h3 className="sender__subtitle">DNS records for {domain.domain}</h3>
              <p className="muted">
                Add these records at your DNS provider, then choose Verify.
                {domain.checked_at ? ` Last checked ${new Date(domain.checked_at).toLocaleString()}.` : ''}
              </p>
              <ul className="sender__records" aria-label="DNS records">
                {domain.records.map((record) => (
                  <RecordItem key={`${record.purpose}:${record.name}`} record={record} onCopy={copy} />
                ))}
              </ul>
              {domain.next_selector ? (
                <p className="muted">
                  Rotation: Twofold signs with {domain.active_selector} until Verify finds the new record (
                  {domain.next_selector}), then switches to it with no gap.
                </p>
              ) : null}
              {domain.retired_selector ? (
                <p className="muted" data-testid="retired-selector">
                  The previous key’s record {domain.retired_selector}._domainkey.{domain.domain} is no longer
                  used: you may remove it from your DNS (keeping it a few days lets mail already sent still
                  verify).
                </p>
              ) : null}
              {admin ? (
                <div className="details__row-actions">
                  <Button
                    disabled={busy !== null}
                    onClick={() =>
                      void run('verify', () => verifySendingDomain(organizationId), 'DNS records checked')
                    }
                  >
                    {busy === 'verify' ? 'Verifying...' : 'Verify'}
                  </Button>
                  {domain.status === 'verified' && !domain.next_selector ? (
                    <Button
                      variant="secondary"
                      disabled={busy !== null}
                      onClick={() =>
                        void run(
                          'rotate',
                          () => rotateSendingKey(organizationId),
                          'New DKIM key made: publish it',
                        )
                      }
                    >
                      Rotate key
                    </Button>
                  ) : null}
                  <Button variant="ghost" disabled={busy !== null} onClick={() => setConfirmRemove(true)}>
                    Remove sender
                  </Button>
                </div>
              ) : null}
            </>
          ) : null}
        </>
      )}
      <ConfirmDialog
        open={confirmRemove}
        title="Remove the sender?"
        description="Donor emails go from Twofold’s address again, and the DKIM keys are deleted: the DNS records shown here stop being used."
        confirmLabel="Remove sender"
        destructive
        busy={busy === 'remove'}
        onCancel={() => setConfirmRemove(false)}
        onConfirm={() => {
          setConfirmRemove(false);
          void run('remove', () => removeSendingDomain(organizationId), 'Sender removed');
        }}
      />
    </Section>
  );
}

function RecordItem({
  record,
  onCopy,
}: {
  record: DnsRecord;
  onCopy: (text: string, what: string) => Promise<void>;
}) {
  const id = useId();
  const title = recordTitles[record.purpose];
  const check = record.check;
  return (
    <li className="sender__record" aria-labelledby={id} data-purpose={record.purpose}>
      <div className="sender__record-head">
        <h4 id={id} className="sender__record-title">
          {title}
          {record.required ? '' : record.value ? ' (recommended)' : ''}
        </h4>
        {check ? <Badge variant={checkVariant[check.state]}>{checkWords[check.state]}</Badge> : null}
      </div>
      <p className="muted">{record.note}</p>
      {record.value !== null ? (
        <dl className="sender__record-fields">
          <dt>Type</dt>
          <dd>{record.type}</dd>
          <dt>Name</dt>
          <dd className="sender__value">
            <code>{record.name}</code>
            <Button variant="secondary" onClick={() => void onCopy(record.name, `${title} name`)}>
              Copy<span className="templates__sr"> {title} name</span>
            </Button>
          </dd>
          <dt>Value</dt>
          <dd className="sender__value">
            <code>{record.value}</code>
            <Button variant="secondary" onClick={() => void onCopy(record.value ?? '', `${title} value`)}>
              Copy<span className="templates__sr"> {title} value</span>
            </Button>
          </dd>
        </dl>
      ) : null}
      {check && check.state !== 'right' ? (
        <div className="sender__found">
          {check.detail ? <p>{check.detail}</p> : null}
          {check.state === 'missing' ? <p>No TXT record was found at {record.name}.</p> : null}
          {check.found.length > 0 ? (
            <>
              <p>Found:</p>
              <ul className="sender__found-list">
                {check.found.map((value) => (
                  <li key={value}>
                    <code>{value}</code>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

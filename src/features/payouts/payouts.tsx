import { useSignals } from '@preact/signals-react/runtime';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { confirmPayouts, fetchPayoutBatches, type PayoutUpload, previewPayouts } from '../../api/payouts.ts';
import { importFileExtensions } from '../../contract/donation-import.ts';
import { can, type Organization } from '../../contract/index.ts';
import {
  type PayoutBatchesResponse,
  type PayoutChoice,
  type PayoutMap,
  type PayoutPreviewLine,
  type PayoutPreviewResponse,
  payoutMapProblem,
  payoutMessages,
  payoutTargetLabels,
  payoutTargets,
  skipTarget,
} from '../../contract/payouts.ts';
import { currentLevel } from '../../state/organization.ts';
import { toast } from '../../state/toasts.ts';
import { Badge, type BadgeVariant } from '../../ui/badge.tsx';
import { Button } from '../../ui/button.tsx';
import { Field, SelectField } from '../../ui/field.tsx';
import { OrganizationPage } from '../../ui/organization-page.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { formatGiftDay } from '../common.ts';
import { formatAmount } from '../donations/donations-query.ts';

const accept = importFileExtensions.join(',');
const dayOf = (day: string | null) => (day ? formatGiftDay(`${day}T12:00:00Z`) : '—');
const todayDay = () => {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
};

const outcomeLabels: Record<PayoutPreviewLine['outcome'], { label: string; variant: BadgeVariant }> = {
  matched: { label: 'Matched', variant: 'success' },
  ambiguous: { label: 'Pick one', variant: 'info' },
  unmatched: { label: 'No match found', variant: 'neutral' },
  recorded: { label: 'Already recorded', variant: 'neutral' },
  invalid: { label: 'Cannot be read', variant: 'danger' },
};

/** Payouts received (/portal/payouts): disbursement reports matched to match requests. */
export function Payouts() {
  useSignals();
  return (
    <OrganizationPage title="Payouts Received" className="payouts">
      {(organization) => (
        <Screen
          organization={organization}
          canWrite={can(currentLevel.value ?? 'none', 'donations.change')}
        />
      )}
    </OrganizationPage>
  );
}

function Screen({ organization, canWrite }: { organization: Organization; canWrite: boolean }) {
  const [batches, setBatches] = useState<PayoutBatchesResponse | null>(null);
  const [upload, setUpload] = useState<PayoutUpload | null>(null);
  const [preview, setPreview] = useState<PayoutPreviewResponse | null>(null);
  const [choices, setChoices] = useState<Record<number, string>>({});
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState('');
  const resultRef = useRef<HTMLParagraphElement>(null);
  const previewRef = useRef<HTMLHeadingElement>(null);

  const loadBatches = useCallback(async () => {
    try {
      setBatches(await fetchPayoutBatches(organization.id));
    } catch (error) {
      toast({
        title: 'Failed to load payout reports',
        description: errorMessage(error),
        variant: 'destructive',
      });
    }
  }, [organization.id]);
  useEffect(() => {
    void loadBatches();
  }, [loadBatches]);

  const runPreview = async (next: PayoutUpload) => {
    setBusy(true);
    setResult('');
    try {
      const answer = await previewPayouts(organization.id, next);
      setUpload({ ...next, map: answer.map });
      setPreview(answer);
      setChoices(
        Object.fromEntries(
          answer.lines.map((l) => [
            l.line,
            l.outcome === 'matched' && l.candidates[0] ? String(l.candidates[0].donation_id) : 'skip',
          ]),
        ),
      );
      requestAnimationFrame(() => previewRef.current?.focus());
    } catch (error) {
      toast({ title: 'Upload failed', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  const confirm = async () => {
    if (!upload || !preview) return;
    setBusy(true);
    try {
      const chosen: Record<number, PayoutChoice> = {};
      for (const line of preview.lines) {
        const value = choices[line.line];
        if (line.outcome === 'recorded' || line.outcome === 'invalid' || value === undefined) continue;
        chosen[line.line] = value === 'skip' || value === 'create' ? value : Number(value);
      }
      const answer = await confirmPayouts(organization.id, upload, chosen);
      setResult(answer.message);
      toast({ title: 'Payouts recorded', description: answer.message });
      setPreview(null);
      setUpload(null);
      await loadBatches();
      requestAnimationFrame(() => resultRef.current?.focus());
    } catch (error) {
      toast({ title: 'Failed to record payouts', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="payouts__body">
      <p className="payouts__intro">
        Upload the disbursement report a company or its giving platform sent you (Benevity, YourCause,
        CyberGrants and Bright Funds reports are read as they are; other columns you map). Each line is
        matched to a match request, and nothing changes until you confirm.
      </p>
      <p ref={resultRef} tabIndex={-1} role="status" className="payouts__result">
        {result}
      </p>
      {canWrite ? (
        <UploadForm busy={busy} onPreview={(next) => void runPreview(next)} />
      ) : (
        <p className="muted">Only users who can change matches can record payouts.</p>
      )}
      {preview && upload ? (
        <section className="payouts__preview" aria-labelledby="payouts-preview-title">
          <h2 id="payouts-preview-title" ref={previewRef} tabIndex={-1} className="payouts__subtitle">
            Preview of {upload.file.name}
            {preview.vendor ? ` (${preview.vendor} report)` : ''}
          </h2>
          {preview.problem ? (
            <Mapper preview={preview} busy={busy} onPreview={(map) => void runPreview({ ...upload, map })} />
          ) : (
            <>
              <p>
                {preview.recorded
                  ? 'This report was confirmed before: confirming it again changes nothing.'
                  : `${preview.counts.matched} matched, ${preview.counts.ambiguous} to pick, ${preview.counts.unmatched} without a match${preview.counts.recorded ? `, ${preview.counts.recorded} already recorded` : ''}${preview.counts.invalid ? `, ${preview.counts.invalid} unreadable` : ''}.`}
              </p>
              <PreviewTable
                lines={preview.lines}
                choices={choices}
                onChoose={(line, value) => setChoices((c) => ({ ...c, [line]: value }))}
              />
              <div className="payouts__buttons">
                <Button onClick={() => void confirm()} disabled={busy}>
                  Confirm payouts
                </Button>
                <Button
                  variant="secondary"
                  onClick={() => {
                    setPreview(null);
                    setUpload(null);
                  }}
                >
                  Cancel
                </Button>
              </div>
            </>
          )}
        </section>
      ) : null}
      <Batches batches={batches} />
    </div>
  );
}

function UploadForm({ busy, onPreview }: { busy: boolean; onPreview: (upload: PayoutUpload) => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [paidAt, setPaidAt] = useState(todayDay);
  const [error, setError] = useState<string | undefined>();
  return (
    <form
      className="payouts__upload"
      part="upload"
      aria-label="Upload a payout report"
      onSubmit={(e) => {
        e.preventDefault();
        if (!file) {
          setError(payoutMessages.missingFile);
          return;
        }
        setError(undefined);
        onPreview({ file, paidAt });
      }}
    >
      <h2 className="payouts__subtitle">Upload a payout report</h2>
      <Field
        label="Payout report (.csv, .xlsx, .xls)"
        type="file"
        accept={accept}
        required
        error={error}
        onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
      />
      <Field
        label="Payment date for lines without one"
        type="date"
        value={paidAt}
        required
        onChange={(e) => setPaidAt(e.currentTarget.value)}
      />
      <div className="payouts__buttons">
        <Button type="submit" disabled={busy}>
          {busy ? 'Reading…' : 'Preview'}
        </Button>
      </div>
    </form>
  );
}

/** Unknown headers: each column is pointed at a payout field (the import's field mapper, for payouts). */
function Mapper({
  preview,
  busy,
  onPreview,
}: {
  preview: PayoutPreviewResponse;
  busy: boolean;
  onPreview: (map: PayoutMap) => void;
}) {
  const [map, setMap] = useState<PayoutMap>(preview.map);
  const problem = payoutMapProblem(map);
  const problemId = useId();
  const options = [
    ...payoutTargets.map((t) => ({ value: t as string, label: payoutTargetLabels[t] })),
    { value: skipTarget, label: 'Do not use' },
  ];
  return (
    <div className="payouts__mapper">
      <p>The columns of this report are not ones we know. Choose what each column holds.</p>
      <div className="payouts__mapper-grid">
        {preview.headers.map(({ header, original }) => (
          <SelectField
            key={header}
            label={original || header}
            options={options}
            value={map[header] ?? skipTarget}
            onChange={(e) => {
              // Read now: React clears currentTarget before a deferred state updater runs.
              const value = e.currentTarget.value;
              setMap((m) => ({ ...m, [header]: value }));
            }}
          />
        ))}
      </div>
      <p id={problemId} className={problem ? 'payouts__problem' : 'muted'} role="alert">
        {problem ?? 'Ready to match.'}
      </p>
      <Button disabled={busy || problem !== null} aria-describedby={problemId} onClick={() => onPreview(map)}>
        Match these lines
      </Button>
    </div>
  );
}

function PreviewTable({
  lines,
  choices,
  onChoose,
}: {
  lines: PayoutPreviewLine[];
  choices: Record<number, string>;
  onChoose: (line: number, value: string) => void;
}) {
  return (
    <div className="data-table-wrap">
      <table className="data-table">
        <caption className="visually-hidden">Report lines and the match each pays</caption>
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col">Donor</th>
            <th scope="col">Paid</th>
            <th scope="col">Result</th>
            <th scope="col">Match</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line) => {
            const badge = outcomeLabels[line.outcome];
            const who = line.donor_name ?? line.donor_email ?? `line ${line.line}`;
            return (
              <tr key={line.line} data-outcome={line.outcome}>
                <td>{line.line}</td>
                <td>
                  {line.donor_name ?? '—'}
                  {line.donor_email ? <span className="payouts__small">{line.donor_email}</span> : null}
                  {line.company ? <span className="payouts__small">{line.company}</span> : null}
                </td>
                <td>
                  {line.amount === null ? '—' : formatAmount(line.amount)}
                  <span className="payouts__small">{dayOf(line.paid_at)}</span>
                </td>
                <td>
                  <Badge variant={badge.variant}>{badge.label}</Badge>
                </td>
                <td>
                  {line.outcome === 'recorded' || line.outcome === 'invalid' ? (
                    <span className="payouts__small">{line.reason}</span>
                  ) : (
                    <SelectField
                      label={`Match for ${who}`}
                      className="payouts__choice"
                      value={choices[line.line] ?? 'skip'}
                      onChange={(e) => onChoose(line.line, e.currentTarget.value)}
                      options={[
                        ...line.candidates.map((c) => ({
                          value: String(c.donation_id),
                          label: `${c.donor_name ?? c.donor_email ?? 'Donor'}, ${formatAmount(c.amount)} on ${dayOf(c.donated_at)}, ${c.company_name ?? 'no company'} (${c.status_name}; score ${c.score})`,
                        })),
                        { value: 'create', label: 'Record as a new completed match' },
                        { value: 'skip', label: 'Skip this line' },
                      ]}
                    />
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function Batches({ batches }: { batches: PayoutBatchesResponse | null }) {
  if (!batches) return <Spinner label="Loading payout reports..." />;
  return (
    <section className="payouts__batches" aria-labelledby="payouts-batches-title">
      <h2 id="payouts-batches-title" className="payouts__subtitle">
        Reports recorded
      </h2>
      {batches.batches.length === 0 ? (
        <p className="muted">No payout report recorded yet.</p>
      ) : (
        <div className="data-table-wrap">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Recorded</th>
                <th scope="col">Report</th>
                <th scope="col">Lines</th>
                <th scope="col">Paid</th>
              </tr>
            </thead>
            <tbody>
              {batches.batches.map((b) => (
                <tr key={b.id}>
                  <td>{formatGiftDay(b.created_at)}</td>
                  <td>
                    {b.file_name}
                    {b.vendor ? <span className="payouts__small">{b.vendor}</span> : null}
                  </td>
                  <td>
                    {b.lines}
                    <span className="payouts__small">
                      {b.completed} completed, {b.created} new
                    </span>
                  </td>
                  <td>{formatAmount(b.paid)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

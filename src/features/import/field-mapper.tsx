import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { ApiError, errorMessage, requestMessages } from '../../api/client.ts';
import { testImport, uploadImport } from '../../api/donation-list.ts';
import {
  customTargetPrefix,
  duplicateTargets,
  type ImportEmployerRow,
  type ImportMap,
  type ImportRowError,
  importMessages,
  importTargetLabels,
  importTargets,
  mappingProblem,
  skipTarget,
} from '../../contract/donation-import.ts';
import { defaultEmployerThreshold } from '../../contract/employers.ts';
import { toast } from '../../state/toasts.ts';
import { Button } from '../../ui/button.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { EmployerCheck } from './employer-check.tsx';
import type { ImportChoice } from './upload-dialog.tsx';

/** How long the mapper waits after the last change before checking the rows again. */
export const recheckDelayMs = 400;
/** Unreadable rows listed at most (the count says how many there are in all). */
const listedErrors = 50;

export interface FieldMapperProps {
  organizationId: number;
  /** The chosen file and the server's first reading of it; null when closed. */
  choice: ImportChoice | null;
  onClose: () => void;
  /** Rows were created: the list reloads. */
  onUploaded: () => void;
}

/** The choices for one column: every target of the spec, the column as a custom field, and 'do not upload'. */
export function targetOptions(header: string, original: string, current: string | undefined) {
  const options = importTargets.map((target) => ({
    value: target as string,
    label: importTargetLabels[target],
  }));
  options.push({ value: `${customTargetPrefix}${header}`, label: `Custom field: ${original}` });
  if (current?.startsWith(customTargetPrefix) && current !== `${customTargetPrefix}${header}`) {
    options.push({ value: current, label: `Custom field: ${current.slice(customTargetPrefix.length)}` });
  }
  options.push({ value: skipTarget, label: 'Do not upload' });
  return options;
}

/**
 * spec: "Field Mapper dialog after a file is chosen"; "two columns mapped to the same target blocks
 * the upload with 'Mapping Error: …'. If the nonprofit has child organizations, organization_name
 * must be mapped". Each change is checked again by the server (Test with the map; nothing is
 * written) so the counts and unreadable rows shown are what Upload would do.
 */
export function FieldMapper({ organizationId, choice, onClose, onUploaded }: FieldMapperProps) {
  return (
    <Dialog
      open={choice !== null}
      onClose={onClose}
      title="Field Mapper"
      description="Choose where each column of your file goes. Nothing is saved until you click Upload."
    >
      {choice ? (
        <MapperForm
          key={`${choice.file.name}-${choice.file.lastModified}-${choice.file.size}`}
          organizationId={organizationId}
          choice={choice}
          onCancel={onClose}
          onUploaded={onUploaded}
        />
      ) : null}
    </Dialog>
  );
}

interface Check {
  rows: number;
  ready: number;
  duplicates: number;
  errors: ImportRowError[];
  employers: ImportEmployerRow[];
  employerThreshold: number;
}

function MapperForm({
  organizationId,
  choice,
  onCancel,
  onUploaded,
}: {
  organizationId: number;
  choice: ImportChoice;
  onCancel: () => void;
  onUploaded: () => void;
}) {
  const { file, test } = choice;
  const [map, setMap] = useState<ImportMap>(() => ({ ...test.map }));
  // spec: opt_in and no_company on Upload are the upload dialog's two choices (see the contract).
  const [optIn, setOptIn] = useState(choice.sendOptInEmail);
  const [noCompany, setNoCompany] = useState(choice.emailForEmployer);
  const [check, setCheck] = useState<Check>(() => ({
    rows: test.rows,
    ready: test.ready,
    duplicates: test.duplicates,
    errors: test.errors,
    employers: test.employers ?? [],
    employerThreshold: test.employer_threshold ?? defaultEmployerThreshold,
  }));
  const [checking, setChecking] = useState(false);
  const [checkError, setCheckError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [tried, setTried] = useState(false);
  const sequence = useRef(0);
  // The first reading already answers for the proposed map and the upload dialog's options.
  const firstCheck = useRef({ map, optIn, noCompany });
  const problemId = useId();

  // Rows lacking only their employer are taken by the no_company option; the rest cannot be read.
  const withoutEmployer = check.errors.filter((e) => e.kind === 'missing_company');
  const unreadable = check.errors.filter((e) => e.kind !== 'missing_company');
  const hasChildren = test.organization.children.length > 0;
  const problem = mappingProblem(map, hasChildren);
  const duplicates = useMemo(() => new Set(duplicateTargets(map)), [map]);
  // The spec's two messages show as soon as they apply; the other required fields once Upload is tried.
  const shownProblem =
    problem === importMessages.duplicateTarget || problem === importMessages.organizationNameRequired || tried
      ? problem
      : null;

  // Check the rows again with the new map or options once the user pauses (the options decide
  // whether rows without a company can be read); a newer check wins over an older one.
  useEffect(() => {
    const first = firstCheck.current;
    const unchanged = map === first.map && optIn === first.optIn && noCompany === first.noCompany;
    if (unchanged || mappingProblem(map, hasChildren)) return;
    const ticket = ++sequence.current;
    setChecking(true);
    const timer = setTimeout(() => {
      testImport(organizationId, {
        file,
        map,
        sendOptInEmail: optIn,
        emailForEmployer: noCompany,
      })
        .then((result) => {
          if (ticket !== sequence.current) return;
          setCheck({
            rows: result.rows,
            ready: result.ready,
            duplicates: result.duplicates,
            errors: result.errors,
            employers: result.employers ?? [],
            employerThreshold: result.employer_threshold ?? defaultEmployerThreshold,
          });
          setCheckError(null);
        })
        .catch((error: unknown) => {
          if (ticket === sequence.current) setCheckError(errorMessage(error));
        })
        .finally(() => {
          if (ticket === sequence.current) setChecking(false);
        });
    }, recheckDelayMs);
    return () => {
      clearTimeout(timer);
      if (ticket === sequence.current) setChecking(false);
    };
  }, [map, optIn, noCompany, hasChildren, organizationId, file]);

  async function upload() {
    setTried(true);
    if (problem) return;
    setUploading(true);
    try {
      const result = await uploadImport(organizationId, {
        file,
        map,
        optIn,
        noCompany,
      });
      toast({ title: importMessages.uploaded, description: uploadSummary(result) });
      onUploaded();
    } catch (error) {
      // spec: "'Upload failed' (with the server message, or 'An unknown error occurred')".
      const description =
        error instanceof ApiError && error.fromServer && error.status !== 401
          ? error.message
          : requestMessages.unknown;
      if (!(error instanceof ApiError && error.status === 401)) {
        toast({ title: 'Upload failed', description, variant: 'destructive' });
      }
    } finally {
      setUploading(false);
    }
  }

  return (
    <div className="mapper">
      <p className="mapper__file">
        <strong>{file.name}</strong> · {test.rows} {test.rows === 1 ? 'row' : 'rows'} ·{' '}
        {hasChildren ? `${test.organization.name} and its chapters` : test.organization.name}
      </p>
      <div className="mapper__scroll card-table-wrap">
        <table className="mapper__table card-table">
          <thead>
            <tr>
              <th scope="col">Column in your file</th>
              <th scope="col">Sample values</th>
              <th scope="col">Upload as</th>
            </tr>
          </thead>
          <tbody>
            {test.headers.map((header, index) => {
              const original = test.original_headers[index] ?? header;
              const target = map[header] ?? skipTarget;
              const invalid = duplicates.has(target);
              const samples = test.sample
                .map((row) => row[header] ?? '')
                .filter((value) => value.trim() !== '')
                .slice(0, 3);
              return (
                <tr key={header} className={invalid ? 'mapper__row mapper__row--invalid' : 'mapper__row'}>
                  <th scope="row" className="mapper__header">
                    {original}
                  </th>
                  <td className="mapper__samples" data-label="Sample values">
                    {samples.length ? (
                      <ul>
                        {samples.map((value, i) => (
                          // biome-ignore lint/suspicious/noArrayIndexKey: sample values may repeat; their order is fixed
                          <li key={i} title={value}>
                            {value}
                          </li>
                        ))}
                      </ul>
                    ) : (
                      <span className="muted">(empty)</span>
                    )}
                  </td>
                  <td data-label="Upload as">
                    <select
                      className={
                        invalid
                          ? 'field__input mapper__select mapper__select--invalid'
                          : 'field__input mapper__select'
                      }
                      aria-label={`Upload column ${original} as`}
                      aria-invalid={invalid || undefined}
                      aria-describedby={invalid && shownProblem ? problemId : undefined}
                      value={target}
                      onChange={(event) => {
                        const value = event.currentTarget.value;
                        setMap((current) => ({ ...current, [header]: value }));
                      }}
                    >
                      {targetOptions(header, original, target).map((option) => (
                        <option key={option.value} value={option.value}>
                          {option.label}
                        </option>
                      ))}
                    </select>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>

      <fieldset className="mapper__options">
        <legend>Options</legend>
        <label className="upload__option">
          <input
            type="checkbox"
            name="opt_in"
            checked={optIn}
            onChange={(event) => setOptIn(event.currentTarget.checked)}
          />
          <span>Donors opt in first: matches that ask the donor to act wait at Awaiting Donor Opt-In</span>
        </label>
        <label className="upload__option">
          <input
            type="checkbox"
            name="no_company"
            checked={noCompany}
            onChange={(event) => setNoCompany(event.currentTarget.checked)}
          />
          <span>
            Import rows without a company at Missing Company Hold and email those donors for their employer
          </span>
        </label>
      </fieldset>

      <div className="mapper__summary" aria-live="polite">
        {checking ? (
          <p className="muted">Checking rows...</p>
        ) : checkError ? (
          <p className="field__error">Could not check the rows: {checkError}</p>
        ) : (
          <>
            <p>
              <strong>{check.ready}</strong> {check.ready === 1 ? 'row' : 'rows'} ready
            </p>
            {check.duplicates > 0 ? (
              <p>
                <strong>{check.duplicates}</strong> {check.duplicates === 1 ? 'duplicate' : 'duplicates'} will
                be skipped
              </p>
            ) : null}
            <EmployerCheck rows={check.employers} threshold={check.employerThreshold} />
            {withoutEmployer.length > 0 ? (
              <div className="mapper__missing-company">
                <p>
                  <strong>{withoutEmployer.length}</strong>{' '}
                  {withoutEmployer.length === 1 ? 'row has' : 'rows have'} no employer and will be skipped
                  unless you import them without a company (the option above): they then wait at Missing
                  Company Hold and their donors are emailed for their employer.
                </p>
                <Button variant="secondary" onClick={() => setNoCompany(true)}>
                  Import them without a company
                </Button>
              </div>
            ) : null}
            {unreadable.length > 0 ? (
              <div className="mapper__errors">
                <p>
                  <strong>{unreadable.length}</strong>{' '}
                  {unreadable.length === 1 ? 'row cannot be read' : 'rows cannot be read'} and will be
                  skipped:
                </p>
                <ul aria-label="Rows that cannot be read">
                  {unreadable.slice(0, listedErrors).map((error) => (
                    <li key={`${error.row}-${error.reason}`}>
                      Row {error.row}: {error.reason}
                    </li>
                  ))}
                </ul>
                {unreadable.length > listedErrors ? (
                  <p className="muted">…and {unreadable.length - listedErrors} more.</p>
                ) : null}
              </div>
            ) : null}
          </>
        )}
      </div>

      {shownProblem ? (
        <p id={problemId} className="mapper__problem" role="alert">
          {shownProblem}
        </p>
      ) : null}

      <div className="upload__actions">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button
          onClick={() => void upload()}
          disabled={uploading || checking || shownProblem !== null || check.ready === 0}
          aria-busy={uploading || undefined}
        >
          {uploading ? 'Uploading...' : 'Upload'}
        </Button>
      </div>
    </div>
  );
}

/** 'Created 12 donations; 2 duplicates skipped; 1 row could not be read.' */
export function uploadSummary(result: { created: number; duplicates: number; errors: unknown[] }): string {
  const parts = [`Created ${result.created} ${result.created === 1 ? 'donation' : 'donations'}`];
  if (result.duplicates) {
    parts.push(`${result.duplicates} ${result.duplicates === 1 ? 'duplicate' : 'duplicates'} skipped`);
  }
  if (result.errors.length) {
    parts.push(`${result.errors.length} ${result.errors.length === 1 ? 'row' : 'rows'} could not be read`);
  }
  return `${parts.join('; ')}.`;
}

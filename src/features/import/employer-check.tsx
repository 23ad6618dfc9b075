import { useId, useState } from 'react';
import type { ImportEmployerRow } from '../../contract/donation-import.ts';
import { type EmployerMethod, employerMethodLabels, employerMethods } from '../../contract/employers.ts';

/** Rows listed at once; the rest are counted. */
const listedRows = 100;

/**
 * The import Test's employers (issue #31): for each ready row the company found, its confidence
 * and reason, and which rows need a person (no company applied: they wait at Missing Company Hold,
 * and a proposal below the organization's threshold goes to the review list).
 */
export function EmployerCheck({
  rows,
  threshold,
}: {
  rows: readonly ImportEmployerRow[];
  threshold: number;
}) {
  const [onlyPerson, setOnlyPerson] = useState(false);
  const toggleId = useId();
  if (rows.length === 0) return null;
  const applied = rows.filter((r) => r.applied);
  const needPerson = rows.filter((r) => r.needs_person);
  const byMethod = employerMethods
    .map((m) => [m, applied.filter((r) => r.method === m).length] as const)
    .filter(([, n]) => n > 0);
  const corrected = rows.filter((r) => r.email_correction).length;
  const shown = (onlyPerson ? needPerson : rows).slice(0, listedRows);
  const total = onlyPerson ? needPerson.length : rows.length;
  return (
    <section className="employer-check" aria-label="Employers found">
      <p>
        <strong>{applied.length}</strong> {applied.length === 1 ? 'employer' : 'employers'} found
        {byMethod.length > 0
          ? ` (${byMethod.map(([m, n]) => `${employerMethodLabels[m as EmployerMethod].toLowerCase()} ${n}`).join(', ')})`
          : ''}
        ; <strong>{needPerson.length}</strong> {needPerson.length === 1 ? 'row needs' : 'rows need'} a person
        (confidence below {threshold}% or no company).
        {corrected > 0
          ? ` ${corrected} misspelt donor ${corrected === 1 ? 'email' : 'emails'} corrected.`
          : ''}
      </p>
      <label className="upload__option" htmlFor={toggleId}>
        <input
          id={toggleId}
          type="checkbox"
          checked={onlyPerson}
          onChange={(e) => setOnlyPerson(e.currentTarget.checked)}
        />
        <span>Show only the rows that need a person</span>
      </label>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region takes focus so a keyboard can scroll it (axe: scrollable-region-focusable). */}
      <section className="mapper__scroll" tabIndex={0} aria-label="Employer of each row">
        <table className="employer-check__table">
          <thead>
            <tr>
              <th scope="col">Row</th>
              <th scope="col">Employer typed</th>
              <th scope="col">Email</th>
              <th scope="col">Company found</th>
              <th scope="col">Confidence</th>
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((r) => (
              <tr key={r.row} className={r.needs_person ? 'employer-check__row--person' : undefined}>
                <td>{r.row}</td>
                <td>{r.typed ?? ''}</td>
                <td>
                  {r.email ?? ''}
                  {r.email_correction ? (
                    <span className="muted"> (corrected from {r.email_correction.from})</span>
                  ) : null}
                </td>
                <td>
                  {r.company_name ?? '—'}
                  {r.needs_person ? <span className="employer-check__flag"> needs a person</span> : null}
                </td>
                <td>{r.company_id !== null ? `${r.confidence}%` : '—'}</td>
                <td>{r.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {total > listedRows ? <p className="muted">…and {total - listedRows} more rows.</p> : null}
    </section>
  );
}

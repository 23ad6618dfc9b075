import { useEffect, useId, useState } from 'react';
import { fetchEmployerSummary } from '../../api/employers.ts';
import type { EmployerSummary } from '../../contract/employers.ts';

/** How a company was found, in the words the card shows (issue #31: "domain, name, person"). */
const methods: Array<[keyof EmployerSummary['found'], string]> = [
  ['domain', 'Email domain'],
  ['name', 'Typed name'],
  ['alias', 'Alias'],
  ['history', 'Earlier gift'],
  ['person', 'Chosen by staff'],
  ['unrecorded', 'Before identification'],
];

/**
 * Employers found (issue #31): how many of the organization's matches donated in the Matching
 * Overview's range have a company and how it was found, beside those still without one. A failed
 * load only logs: the rest of the dashboard stands without it.
 */
export function EmployersFound({
  organizationId,
  from,
  to,
}: {
  organizationId: number;
  from: string;
  to: string;
}) {
  const [summary, setSummary] = useState<EmployerSummary | null>(null);
  const id = useId();
  useEffect(() => {
    let current = true;
    fetchEmployerSummary(organizationId, { from, to })
      .then((result) => {
        if (current) setSummary(result);
      })
      .catch((error: unknown) => console.error('Failed to load the employers found', error));
    return () => {
      current = false;
    };
  }, [organizationId, from, to]);
  if (!summary) return null;
  const total = Object.values(summary.found).reduce((a, b) => a + b, 0);
  return (
    <section
      className="dashboard__block employers-found"
      aria-labelledby={`${id}-title`}
      part="employers-found"
    >
      <h2 id={`${id}-title`} className="dashboard__block-title">
        Employers found
      </h2>
      <p className="employers-found__total">
        {total.toLocaleString('en-US')} {total === 1 ? 'match has' : 'matches have'} a company;{' '}
        {summary.missing.toLocaleString('en-US')} without one
        {summary.to_review > 0 ? `, ${summary.to_review.toLocaleString('en-US')} to review` : ''}.
      </p>
      <dl className="employers-found__methods">
        {methods
          .filter(([method]) => method !== 'unrecorded' || summary.found.unrecorded > 0)
          .map(([method, label]) => (
            <div key={method} className="employers-found__method" data-method={method}>
              <dt>{label}</dt>
              <dd>{summary.found[method].toLocaleString('en-US')}</dd>
            </div>
          ))}
      </dl>
      {summary.missing > 0 || summary.to_review > 0 ? <a href="/portal/employers">Review employers</a> : null}
    </section>
  );
}

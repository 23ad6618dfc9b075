import { endOfMonth, format, parseISO, subDays } from 'date-fns';
import { useEffect, useId, useState } from 'react';
import { fetchInsights } from '../../api/dashboard.ts';
import { ageingBuckets, type InsightsResponse } from '../../contract/dashboard.ts';
import { statusGroups } from '../../contract/statuses.ts';
import { formatAmount } from '../donations/donations-query.ts';
import { donationsLink } from './matching-overview.tsx';

const day = (d: Date) => format(d, 'yyyy-MM-dd');
const clip = (from: string, to: string, range: { from: string; to: string }) => ({
  from: from < range.from ? range.from : from,
  to: to > range.to ? range.to : to,
});

/** The days of donation an ageing bucket covers, as of the range's end (within the range). */
export function ageingRange(bucket: (typeof ageingBuckets)[number], range: { from: string; to: string }) {
  const end = parseISO(range.to);
  const to = day(subDays(end, bucket.minDays));
  const from = bucket.maxDays === null ? range.from : day(subDays(end, bucket.maxDays));
  return clip(from, to, range);
}

/** A month's first and last day (within the range). */
export function monthRange(month: string, range: { from: string; to: string }) {
  const first = parseISO(`${month}-01`);
  return clip(day(first), day(endOfMonth(first)), range);
}

/** A bar behind a figure, for sighted users; the table beside it carries the numbers for everyone. */
function Bar({ value, max }: { value: number; max: number }) {
  const width = max > 0 ? Math.round((value / max) * 100) : 0;
  return (
    <span className="insights__bar" aria-hidden="true">
      <span style={{ width: `${width}%` }} />
    </span>
  );
}

/**
 * Below the tiles (ours, beyond the spec): the monthly trend, ageing of open requests and the top
 * companies for the overview's dates. Tables (readable by everyone), each figure a link to the
 * donations list filtered to the matches behind it.
 */
export function Insights({ organizationId, from, to }: { organizationId: number; from: string; to: string }) {
  const [data, setData] = useState<InsightsResponse | null>(null);
  const id = useId();
  useEffect(() => {
    let current = true;
    fetchInsights(organizationId, from, to)
      .then((result) => current && setData(result))
      .catch((error: unknown) => console.error('Failed to load the dashboard figures', error));
    return () => {
      current = false;
    };
  }, [organizationId, from, to]);
  if (!data) return null;
  const range = { from: data.from, to: data.to };
  const maxRequested = Math.max(0, ...data.months.map((m) => m.requested));
  return (
    <section className="dashboard__block insights" aria-labelledby={`${id}-title`} part="insights">
      <h2 id={`${id}-title`} className="dashboard__block-title">
        Where the matching money is
      </h2>
      <div className="insights__scroll">
        <table className="insights__table">
          <caption>Estimated match by month of gift</caption>
          <thead>
            <tr>
              <th scope="col">Month</th>
              <th scope="col" className="numeric">
                Requested
              </th>
              <th scope="col" className="numeric">
                Submitted
              </th>
              <th scope="col">
                <span className="visually-hidden">Requested, as a bar</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.months.length === 0 ? (
              <tr>
                <td colSpan={4}>No matches in these dates.</td>
              </tr>
            ) : (
              data.months.map((m) => {
                const r = monthRange(m.month, range);
                return (
                  <tr key={m.month}>
                    <th scope="row">{format(parseISO(`${m.month}-01`), 'MMM yyyy')}</th>
                    <td className="numeric">
                      <a href={donationsLink(r)}>{formatAmount(m.requested)}</a>
                    </td>
                    <td className="numeric">
                      <a href={donationsLink({ ...r, group: 'engaged_submitted' })}>
                        {formatAmount(m.submitted)}
                      </a>
                    </td>
                    <td className="insights__bar-cell">
                      <Bar value={m.requested} max={maxRequested} />
                    </td>
                  </tr>
                );
              })
            )}
          </tbody>
        </table>
      </div>
      <div className="insights__scroll">
        <table className="insights__table">
          <caption>Expected payments by month</caption>
          <thead>
            <tr>
              <th scope="col">Month</th>
              <th scope="col" className="numeric">
                Expected match
              </th>
              <th scope="col" className="numeric">
                Matches
              </th>
            </tr>
          </thead>
          <tbody>
            {data.forecast.length === 0 ? (
              <tr>
                <td colSpan={3}>No submitted matches awaiting payment in these dates.</td>
              </tr>
            ) : (
              data.forecast.map((f) => (
                <tr key={f.month}>
                  <th scope="row">{format(parseISO(`${f.month}-01`), 'MMM yyyy')}</th>
                  <td className="numeric">
                    <a href={donationsLink({ ...range, group: 'engaged_submitted' })}>
                      {formatAmount(f.expected)}
                    </a>
                  </td>
                  <td className="numeric">{f.count.toLocaleString('en-US')}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
        <p className="muted">
          From the day each match was submitted and its company’s usual time to pay (60 days when the company
          has not paid 3 matches yet).
        </p>
      </div>
      <div className="insights__scroll">
        <table className="insights__table">
          <caption>
            Open requests by age (days since the gift, to {format(parseISO(data.to), 'MMM dd, yyyy')})
          </caption>
          <thead>
            <tr>
              <th scope="col">Age</th>
              <th scope="col" className="numeric">
                {statusGroups.donor_contacted.label}
              </th>
              <th scope="col" className="numeric">
                {statusGroups.npo_verify.label}
              </th>
            </tr>
          </thead>
          <tbody>
            {ageingBuckets.map((bucket) => {
              const row = data.ageing.find((a) => a.bucket === bucket.bucket);
              const r = ageingRange(bucket, range);
              return (
                <tr key={bucket.bucket}>
                  <th scope="row">{bucket.label}</th>
                  {(['donor_contacted', 'npo_verify'] as const).map((group) => (
                    <td key={group} className="numeric">
                      <a href={donationsLink({ ...r, group })}>
                        {formatAmount(row?.[group].matched ?? 0)} ({row?.[group].count ?? 0})
                      </a>
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <div className="insights__scroll">
        <table className="insights__table">
          <caption>Companies with the most requested match dollars</caption>
          <thead>
            <tr>
              <th scope="col">Company</th>
              <th scope="col" className="numeric">
                Requested
              </th>
              <th scope="col" className="numeric">
                Reached Submitted
              </th>
            </tr>
          </thead>
          <tbody>
            {data.companies.length === 0 ? (
              <tr>
                <td colSpan={3}>No companies named in these dates.</td>
              </tr>
            ) : (
              data.companies.map((c) => (
                <tr key={c.name}>
                  <th scope="row">
                    <a href={donationsLink({ ...range, company: c.name })}>{c.name}</a>
                  </th>
                  <td className="numeric">{formatAmount(c.requested)}</td>
                  <td className="numeric">
                    <a href={donationsLink({ ...range, company: c.name, group: 'engaged_submitted' })}>
                      {c.requested > 0 ? `${Math.round((c.submitted / c.requested) * 100)}%` : '—'}
                    </a>
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}

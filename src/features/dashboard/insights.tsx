import { endOfMonth, format, parseISO, subDays } from 'date-fns';
import { useEffect, useId, useMemo, useState } from 'react';
import { fetchInsights } from '../../api/dashboard.ts';
import { ageingBuckets, type InsightsResponse } from '../../contract/dashboard.ts';
import { statusGroups } from '../../contract/statuses.ts';
import { formatAmount } from '../donations/donations-query.ts';
import { Chart, chartColors } from './chart.tsx';
import { donationsLink } from './matching-overview.tsx';

const monthLabel = (month: string) => format(parseISO(`${month}-01`), 'MMM yyyy');
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

/**
 * Below the tiles (ours, beyond the spec): the monthly trend, the forecast of payments, ageing of
 * open requests and the top companies for the overview's dates. Each is a chart with its table
 * (the table is what screen readers read); every figure links to the donations list filtered to
 * the matches behind it.
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
  return (
    <section className="dashboard__block insights" aria-labelledby={`${id}-title`} part="insights">
      <h2 id={`${id}-title`} className="dashboard__block-title">
        Where the matching money is
      </h2>
      <Figures data={data} />
    </section>
  );
}

function Figures({ data }: { data: InsightsResponse }) {
  const range = useMemo(() => ({ from: data.from, to: data.to }), [data]);

  // The trend: requested and submitted by month of gift, expected by month of payment.
  const trend = useMemo(() => {
    const months = [
      ...new Set([...data.months.map((m) => m.month), ...data.forecast.map((f) => f.month)]),
    ].sort();
    const gift = new Map(data.months.map((m) => [m.month, m]));
    const paid = new Map(data.forecast.map((f) => [f.month, f]));
    return {
      months,
      categories: months.map(monthLabel),
      series: [
        {
          label: 'Requested',
          color: chartColors.blue,
          values: months.map((m) => gift.get(m)?.requested ?? null),
        },
        {
          label: 'Submitted',
          color: chartColors.green,
          values: months.map((m) => gift.get(m)?.submitted ?? null),
        },
        {
          label: 'Expected payments',
          color: chartColors.amber,
          values: months.map((m) => paid.get(m)?.expected ?? null),
        },
        {
          label: 'Received',
          color: chartColors.violet,
          values: months.map((m) => gift.get(m)?.received ?? null),
        },
      ],
      links: months.map((m) => (gift.has(m) ? donationsLink(monthRange(m, range)) : undefined)),
    };
  }, [data, range]);

  const forecast = useMemo(
    () => ({
      categories: data.forecast.map((f) => monthLabel(f.month)),
      series: [
        { label: 'Expected match', color: chartColors.amber, values: data.forecast.map((f) => f.expected) },
      ],
      links: data.forecast.map((f) => donationsLink({ ...range, expectedMonth: f.month })),
    }),
    [data, range],
  );

  const ageing = useMemo(() => {
    const rows = ageingBuckets.map((bucket) => ({
      bucket,
      row: data.ageing.find((a) => a.bucket === bucket.bucket),
      range: ageingRange(bucket, range),
    }));
    return {
      rows,
      categories: ageingBuckets.map((b) => b.label),
      series: (['donor_contacted', 'npo_verify'] as const).map((group, i) => ({
        label: statusGroups[group].label,
        color: i === 0 ? chartColors.blue : chartColors.violet,
        values: rows.map((r) => r.row?.[group].matched ?? 0),
      })),
    };
  }, [data, range]);

  const companies = useMemo(
    () => ({
      categories: data.companies.map((c) => c.name),
      series: [
        { label: 'Requested', color: chartColors.blue, values: data.companies.map((c) => c.requested) },
        {
          label: 'Reached Submitted',
          color: chartColors.green,
          values: data.companies.map((c) => c.submitted),
        },
      ],
      links: data.companies.map((c) => donationsLink({ ...range, companyName: c.name })),
    }),
    [data, range],
  );

  return (
    <div className="insights__charts">
      <Chart
        title="Match dollars by month"
        kind="lines"
        categories={trend.categories}
        series={trend.series}
        links={trend.links}
        table={
          <table className="insights__table">
            <caption>
              Estimated match by month: requested, submitted and received by month of gift, expected by month
              of payment
            </caption>
            <thead>
              <tr>
                <th scope="col">Month</th>
                <th scope="col" className="numeric">
                  Requested
                </th>
                <th scope="col" className="numeric">
                  Submitted
                </th>
                <th scope="col" className="numeric">
                  Expected payments
                </th>
                <th scope="col" className="numeric">
                  Received
                </th>
              </tr>
            </thead>
            <tbody>
              {trend.months.length === 0 ? (
                <tr>
                  <td colSpan={5}>No matches in these dates.</td>
                </tr>
              ) : (
                trend.months.map((month) => {
                  const m = data.months.find((x) => x.month === month);
                  const f = data.forecast.find((x) => x.month === month);
                  const r = monthRange(month, range);
                  return (
                    <tr key={month}>
                      <th scope="row">{monthLabel(month)}</th>
                      <td className="numeric">
                        {m ? <a href={donationsLink(r)}>{formatAmount(m.requested)}</a> : '—'}
                      </td>
                      <td className="numeric">
                        {m ? (
                          <a href={donationsLink({ ...r, group: 'engaged_submitted' })}>
                            {formatAmount(m.submitted)}
                          </a>
                        ) : (
                          '—'
                        )}
                      </td>
                      <td className="numeric">
                        {f ? (
                          <a href={donationsLink({ ...range, expectedMonth: month })}>
                            {formatAmount(f.expected)}
                          </a>
                        ) : (
                          '—'
                        )}
                      </td>
                      <td className="numeric">
                        {m ? (
                          <a href={`${donationsLink(r)}&paid=paid`}>{formatAmount(m.received ?? 0)}</a>
                        ) : (
                          '—'
                        )}
                      </td>
                    </tr>
                  );
                })
              )}
            </tbody>
          </table>
        }
      />
      <Chart
        title="Expected payments by month"
        kind="bars"
        categories={forecast.categories}
        series={forecast.series}
        links={forecast.links}
        table={
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
                data.forecast.map((f, i) => (
                  <tr key={f.month}>
                    <th scope="row">{monthLabel(f.month)}</th>
                    <td className="numeric">
                      <a href={forecast.links[i]}>{formatAmount(f.expected)}</a>
                    </td>
                    <td className="numeric">
                      <a href={forecast.links[i]}>{f.count.toLocaleString('en-US')}</a>
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        }
      />
      <p className="muted insights__note">
        Expected payments: from the day each match was submitted and its company’s usual time to pay (60 days
        when the company has not paid 3 matches yet).
      </p>
      <Chart
        title={`Open requests by age (days since the gift, to ${format(parseISO(data.to), 'MMM dd, yyyy')})`}
        kind="bars"
        categories={ageing.categories}
        series={ageing.series}
        table={
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
              {ageing.rows.map(({ bucket, row, range: r }) => (
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
              ))}
            </tbody>
          </table>
        }
      />
      <Chart
        title="Companies with the most requested match dollars"
        kind="rows"
        categories={companies.categories}
        series={companies.series}
        links={companies.links}
        table={
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
                      <a href={donationsLink({ ...range, companyName: c.name })}>{c.name}</a>
                    </th>
                    <td className="numeric">{formatAmount(c.requested)}</td>
                    <td className="numeric">
                      <a href={donationsLink({ ...range, companyName: c.name, group: 'engaged_submitted' })}>
                        {c.requested > 0 ? `${Math.round((c.submitted / c.requested) * 100)}%` : '—'}
                      </a>
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        }
      />
    </div>
  );
}

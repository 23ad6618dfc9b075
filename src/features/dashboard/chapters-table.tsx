import { useId, useMemo } from 'react';
import type { StatisticsResponse } from '../../contract/dashboard.ts';
import { statusGroupIds, statusGroups } from '../../contract/statuses.ts';
import { formatAmount } from '../donations/donations-query.ts';
import { Chart, chartColors } from './chart.tsx';
import { donationsLink } from './matching-overview.tsx';

const groupColors = [chartColors.blue, chartColors.violet, chartColors.green, chartColors.grey];

/**
 * For a parent organization: the Matching Overview's groups for itself and each chapter, side by
 * side, as stacked bars with the table behind them; each figure links to that organization's
 * matches of the group on the same dates.
 */
export function ChaptersTable({ stats }: { stats: StatisticsResponse }) {
  const id = useId();
  const chart = useMemo(
    () => ({
      categories: stats.organizations.map((o) => o.name),
      series: statusGroupIds.map((g, i) => ({
        label: statusGroups[g].label,
        color: groupColors[i] ?? chartColors.grey,
        values: stats.organizations.map((o) => o.groups[g].sum),
      })),
      links: stats.organizations.map((o) =>
        donationsLink({ from: stats.from, to: stats.to, organization: o.id }),
      ),
    }),
    [stats],
  );
  if (stats.organizations.length < 2) return null;
  return (
    <section className="dashboard__block chapters" aria-labelledby={`${id}-title`} part="chapters">
      <h2 id={`${id}-title`} className="dashboard__block-title">
        Chapters
      </h2>
      <Chart
        title="Gifts by status group for each organization"
        kind="stacked"
        categories={chart.categories}
        series={chart.series}
        links={chart.links}
        table={
          <table className="chapters__table">
            <caption className="visually-hidden">
              Each organization’s gifts by status group, same dates as the overview
            </caption>
            <thead>
              <tr>
                <th scope="col">Organization</th>
                {statusGroupIds.map((g) => (
                  <th scope="col" key={g} className="numeric">
                    {statusGroups[g].label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {stats.organizations.map((o) => (
                <tr key={o.id}>
                  <th scope="row">
                    <a href={donationsLink({ from: stats.from, to: stats.to, organization: o.id })}>
                      {o.name}
                    </a>
                  </th>
                  {statusGroupIds.map((g) => (
                    <td key={g} className="numeric">
                      <a
                        href={donationsLink({ group: g, from: stats.from, to: stats.to, organization: o.id })}
                      >
                        {formatAmount(o.groups[g].sum)}
                        <span className="chapters__count">
                          {' '}
                          ({o.groups[g].count.toLocaleString('en-US')})
                        </span>
                      </a>
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        }
      />
    </section>
  );
}

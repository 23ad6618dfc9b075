import { useId } from 'react';
import type { StatisticsResponse } from '../../contract/dashboard.ts';
import { statusGroupIds, statusGroups } from '../../contract/statuses.ts';
import { formatAmount } from '../donations/donations-query.ts';

/** For a parent organization: the Matching Overview's groups for itself and each chapter, side by side. */
export function ChaptersTable({ stats }: { stats: StatisticsResponse }) {
  const id = useId();
  if (stats.organizations.length < 2) return null;
  return (
    <section className="dashboard__block chapters" aria-labelledby={`${id}-title`} part="chapters">
      <h2 id={`${id}-title`} className="dashboard__block-title">
        Chapters
      </h2>
      {/* Scrolls sideways on a phone; a scrollable region takes focus so the keyboard can scroll it. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: axe scrollable-region-focusable */}
      <section className="chapters__scroll" aria-label="Chapters side by side" tabIndex={0}>
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
                <th scope="row">{o.name}</th>
                {statusGroupIds.map((g) => (
                  <td key={g} className="numeric">
                    {formatAmount(o.groups[g].sum)}
                    <span className="chapters__count"> ({o.groups[g].count.toLocaleString('en-US')})</span>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </section>
  );
}

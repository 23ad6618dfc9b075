import { useEffect, useId, useRef, useState } from 'react';
import { fetchStatistics } from '../../api/dashboard.ts';
import { dashboardTexts, type StatisticsResponse } from '../../contract/dashboard.ts';
import { statusGroupIds, statusGroups } from '../../contract/statuses.ts';
import { Skeleton } from '../../ui/skeleton.tsx';
import { formatAmount } from '../donations/donations-query.ts';
import {
  chooseDay,
  type DayRange,
  defaultPreset,
  defaultRange,
  displayDay,
  type Preset,
  presetRange,
  presets,
} from './date-range.ts';

/** The donations list filtered to the matches behind a figure (the list reads these on load). */
export function donationsLink(filters: {
  group?: string;
  from?: string;
  to?: string;
  /** The company exactly (the top companies' figures): 'Acme' does not list 'Acme Biotech'. */
  companyName?: string;
  organization?: number;
  expectedMonth?: string;
}): string {
  const params = new URLSearchParams();
  if (filters.group) params.set('status_group', filters.group);
  if (filters.from) params.set('dateFrom', filters.from);
  if (filters.to) params.set('dateTo', filters.to);
  if (filters.companyName) params.set('companyName', filters.companyName);
  if (filters.organization) params.set('organization', String(filters.organization));
  if (filters.expectedMonth) params.set('expectedMonth', filters.expectedMonth);
  return `/portal/donations?${params}`;
}

const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

/**
 * spec section 2, Matching Overview: four status tiles with a dollar sum and a gift count, the
 * date presets and a custom range, 'Loading statistics...' (254 px) while fetching. spec section
 * 4: "Stats fetch failure on the dashboard is only logged, loading ends, and previous values stay."
 */
export function MatchingOverview({
  organizationId,
  onStatistics,
}: {
  organizationId: number;
  onStatistics?: (stats: StatisticsResponse) => void;
}) {
  const [preset, setPreset] = useState<Preset>(defaultPreset);
  const [range, setRange] = useState<DayRange>(() => defaultRange());
  const [stats, setStats] = useState<StatisticsResponse | null>(null);
  const [loading, setLoading] = useState(true);
  const latest = useRef(0);
  const id = useId();

  useEffect(() => {
    const call = ++latest.current;
    setLoading(true);
    fetchStatistics(organizationId, range.from, range.to)
      .then((result) => {
        if (call !== latest.current) return;
        setStats(result);
        onStatistics?.(result);
      })
      .catch((error: unknown) => {
        if (call === latest.current) console.error('Failed to load statistics', error);
      })
      .finally(() => {
        if (call === latest.current) setLoading(false);
      });
  }, [organizationId, range, onStatistics]);

  const choosePreset = (value: Preset) => {
    setPreset(value);
    const next = presetRange(value);
    if (next) setRange(next);
  };

  return (
    <section className="dashboard__block overview" aria-labelledby={`${id}-title`} part="matching-overview">
      <div className="overview__head">
        <h2 id={`${id}-title`} className="dashboard__block-title">
          Matching Overview
        </h2>
        <div className="overview__filter">
          <label className="field__label" htmlFor={`${id}-preset`}>
            Date range
          </label>
          <select
            id={`${id}-preset`}
            className="field__input"
            value={preset}
            onChange={(e) => choosePreset(e.currentTarget.value as Preset)}
          >
            {presets.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </div>
      </div>
      {preset === 'Custom Date Range' ? (
        <div className="overview__custom">
          <div className="field">
            <label className="field__label" htmlFor={`${id}-from`}>
              From
            </label>
            <input
              id={`${id}-from`}
              className="field__input"
              type="date"
              value={range.from}
              max={range.to}
              onChange={(e) => {
                // Read now: React clears currentTarget before a state updater runs.
                const value = e.currentTarget.value;
                setRange((r) => chooseDay(r, 'from', value));
              }}
            />
          </div>
          <div className="field">
            <label className="field__label" htmlFor={`${id}-to`}>
              To
            </label>
            <input
              id={`${id}-to`}
              className="field__input"
              type="date"
              value={range.to}
              min={range.from}
              onChange={(e) => {
                // Read now: React clears currentTarget before a state updater runs.
                const value = e.currentTarget.value;
                setRange((r) => chooseDay(r, 'to', value));
              }}
            />
          </div>
        </div>
      ) : null}
      <p className="overview__range" aria-live="polite">
        {displayDay(range.from)} – {displayDay(range.to)}
      </p>
      {loading ? (
        // spec: "It shows 'Loading statistics...' while fetching (placeholder height 254px)."
        <Skeleton label={dashboardTexts.loadingStatistics} lines={6} minHeight={254} />
      ) : !stats ? (
        <div className="overview__loading" role="status" style={{ minHeight: 254 }}>
          Statistics are not available right now.
        </div>
      ) : (
        <ul className="overview__tiles" part="tiles">
          {statusGroupIds.map((group) => (
            <li key={group} className="overview__tile" data-group={group}>
              <a
                className="overview__tile-link"
                // NPO to Verify is worked from the verification queue (issue 13).
                href={
                  group === 'npo_verify'
                    ? '/portal/verification'
                    : donationsLink({ group, from: stats.from, to: stats.to })
                }
              >
                <span className="overview__tile-label">{statusGroups[group].label}</span>
                <span className="overview__tile-sum">{formatAmount(stats[group].sum)}</span>
                <span className="overview__tile-count">{plural(stats[group].count, 'gift')}</span>
                <span className="visually-hidden">
                  {group === 'npo_verify' ? ', open the verification queue' : ', show these donations'}
                </span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

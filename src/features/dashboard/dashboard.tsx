import { useSignals } from '@preact/signals-react/runtime';
import { useCallback, useEffect, useState } from 'react';
import { can } from '../../contract/access.ts';
import type { StatisticsResponse } from '../../contract/dashboard.ts';
import {
  currentLevel,
  currentOrganization,
  organizationLoading,
  startOrganization,
} from '../../state/organization.ts';
import { initSession, isSuperUser } from '../../state/session.ts';
import { Spinner } from '../../ui/spinner.tsx';
import { SetupCard, WelcomeCard } from '../setup/setup-card.tsx';
import { ChaptersTable } from './chapters-table.tsx';
import { FeatureRequests } from './feature-requests.tsx';
import { Insights } from './insights.tsx';
import { MatchingOverview } from './matching-overview.tsx';
import { UnseenSummary } from './unseen-summary.tsx';

/**
 * The Dashboard for the current organization (spec part 2, section 2): heading, the setup and
 * welcome cards, then stacked in order the Matching Overview and the Feature Requests card.
 */
export function Dashboard() {
  useSignals();
  // A page embedding only this element starts the session and organization itself (no-ops in the portal).
  useEffect(() => {
    void initSession().then(() => startOrganization());
  }, []);
  const organization = currentOrganization.value;
  return (
    <section className="dashboard" aria-labelledby="dashboard-title">
      <header className="dashboard__header" part="header">
        <h1 id="dashboard-title" className="dashboard__title">
          Dashboard
        </h1>
        {organization ? (
          <p className="dashboard__organization">{organization.name}</p>
        ) : organizationLoading.value ? (
          <Spinner label="Loading organization..." />
        ) : (
          <p className="muted">
            No organization selected.{' '}
            {isSuperUser.value
              ? 'Search for an organization to work on it.'
              : 'You do not have access to an organization yet. Ask an administrator of your organization to add you.'}
          </p>
        )}
      </header>
      <SetupCard
        organization={organization}
        loading={organizationLoading.value}
        level={currentLevel.value ?? 'none'}
      />
      <WelcomeCard organization={organization} />
      {organization ? <Overview key={organization.id} organizationId={organization.id} /> : null}
      {organization ? (
        <FeatureRequests
          key={`features-${organization.id}`}
          organization={organization}
          canSubmit={can(currentLevel.value ?? 'none', 'organization.update')}
        />
      ) : null}
    </section>
  );
}

/** The unseen summary, the Matching Overview and, for a parent, its chapters on the same dates. */
function Overview({ organizationId }: { organizationId: number }) {
  const [stats, setStats] = useState<StatisticsResponse | null>(null);
  const onStatistics = useCallback((result: StatisticsResponse) => setStats(result), []);
  return (
    <>
      <UnseenSummary organizationId={organizationId} />
      <MatchingOverview organizationId={organizationId} onStatistics={onStatistics} />
      {stats ? <ChaptersTable stats={stats} /> : null}
      {stats ? <Insights organizationId={organizationId} from={stats.from} to={stats.to} /> : null}
    </>
  );
}

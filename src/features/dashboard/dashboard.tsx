import { useSignals } from '@preact/signals-react/runtime';
import { useCallback, useState } from 'react';
import { can } from '../../contract/access.ts';
import type { StatisticsResponse } from '../../contract/dashboard.ts';
import { currentLevel } from '../../state/organization.ts';
import { isSuperUser } from '../../state/session.ts';
import { OrganizationPage } from '../../ui/organization-page.tsx';
import { SetupCard, WelcomeCard } from '../setup/setup-card.tsx';
import { ChaptersTable } from './chapters-table.tsx';
import { EmployersFound } from './employers-found.tsx';
import { FeatureRequests } from './feature-requests.tsx';
import { Insights } from './insights.tsx';
import { MatchingOverview } from './matching-overview.tsx';
import { PaymentNotice } from './payment-notice.tsx';
import { UnseenSummary } from './unseen-summary.tsx';

/**
 * The Dashboard for the current organization (spec part 2, section 2): heading, the setup and
 * welcome cards, then stacked in order the Matching Overview and the Feature Requests card.
 */
export function Dashboard() {
  useSignals();
  const level = currentLevel.value ?? 'none';
  return (
    <OrganizationPage
      title="Dashboard"
      className="dashboard"
      // spec: "While the organization loads, the card shows 'Loading...'."
      loading={<SetupCard organization={null} loading level={level} />}
      noOrganization={
        <p className="muted">
          No organization selected.{' '}
          {isSuperUser.value
            ? 'Search for an organization to work on it.'
            : 'You do not have access to an organization yet. Ask an administrator of your organization to add you.'}
        </p>
      }
    >
      {(organization) => (
        <>
          {can(level, 'billing.manage') ? <PaymentNotice organizationId={organization.id} /> : null}
          <SetupCard organization={organization} loading={false} level={level} />
          <WelcomeCard organization={organization} />
          <Overview organizationId={organization.id} employers={can(level, 'donations.view')} />
          <FeatureRequests organization={organization} canSubmit={can(level, 'organization.update')} />
        </>
      )}
    </OrganizationPage>
  );
}

/**
 * The unseen summary, the Matching Overview and, on the same dates, a parent's chapters, the
 * insights and the employers found.
 */
function Overview({ organizationId, employers }: { organizationId: number; employers: boolean }) {
  const [stats, setStats] = useState<StatisticsResponse | null>(null);
  const onStatistics = useCallback((result: StatisticsResponse) => setStats(result), []);
  return (
    <>
      <UnseenSummary organizationId={organizationId} />
      <MatchingOverview organizationId={organizationId} onStatistics={onStatistics} />
      {stats ? <ChaptersTable stats={stats} /> : null}
      {stats ? <Insights organizationId={organizationId} from={stats.from} to={stats.to} /> : null}
      {stats && employers ? (
        <EmployersFound organizationId={organizationId} from={stats.from} to={stats.to} />
      ) : null}
    </>
  );
}

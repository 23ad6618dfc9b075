import { useSignals } from '@preact/signals-react/runtime';
import { currentLevel, currentOrganization, organizationLoading } from '../../state/organization.ts';
import { isSuperUser } from '../../state/session.ts';
import { Spinner } from '../../ui/spinner.tsx';
import { SetupCard, WelcomeCard } from '../setup/setup-card.tsx';

/** The Dashboard for the current organization: heading, setup card and welcome card. (Statistics come with their issue.) */
export function Dashboard() {
  useSignals();
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
    </section>
  );
}

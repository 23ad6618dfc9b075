import { useSignals } from '@preact/signals-react/runtime';
import { Fragment, type ReactNode, useEffect, useId } from 'react';
import type { Organization } from '../contract/index.ts';
import { currentOrganization, organizationLoading, startOrganization } from '../state/organization.ts';
import { initSession, isSuperUser } from '../state/session.ts';
import { Skeleton } from './skeleton.tsx';

/** spec (part 1, section 2; part 2, section 2): the screen without a current organization. */
export const organizationPageTexts = {
  noOrganization: 'You must select an organization to use this section.',
  superUserHint: ' Search for an organization in the picker above.',
  loading: 'Loading organization...',
} as const;

export interface OrganizationPageProps {
  /** The screen's heading (its h1). */
  title: ReactNode;
  /** Buttons beside the heading (part="actions"). */
  actions?: ReactNode;
  /** The screen, shown only once an organization is current; given it, or reading the signal. */
  children: ReactNode | ((organization: Organization) => ReactNode);
  /** What shows without an organization, when a screen says more than the spec's sentence. */
  noOrganization?: ReactNode;
  /** What shows while the organization loads, instead of the skeleton. */
  loading?: ReactNode;
  /** Extra class on the page's section (the screen's own block, e.g. 'donations'). */
  className?: string;
}

/**
 * The one frame of an organization's screen (donations, billing, dashboard, reports,
 * integrations…): the heading with the current organization's name under it and the screen's
 * actions, then either the screen or, without an organization, the spec's 'You must select an
 * organization to use this section.' (a skeleton while it loads). The screen is remounted when
 * the current organization changes, so no state of one organization shows on another.
 *
 * An element embedded alone starts the session and the organization itself (both calls do
 * nothing when the portal already did).
 */
export function OrganizationPage({
  title,
  actions,
  children,
  noOrganization,
  loading,
  className,
}: OrganizationPageProps) {
  useSignals();
  useEffect(() => {
    void initSession().then(() => startOrganization());
  }, []);
  const titleId = useId();
  const organization = currentOrganization.value;
  return (
    <section className={className ? `page ${className}` : 'page'} aria-labelledby={titleId}>
      <header className="page__header" part="header">
        <div className="page__heading">
          <h1 id={titleId} className="page__title">
            {title}
          </h1>
          {organization ? <p className="page__organization">{organization.name}</p> : null}
        </div>
        {organization && actions ? (
          <div className="page__actions" part="actions">
            {actions}
          </div>
        ) : null}
      </header>
      {organization ? (
        <Fragment key={organization.id}>
          {typeof children === 'function' ? children(organization) : children}
        </Fragment>
      ) : organizationLoading.value ? (
        (loading ?? <Skeleton label={organizationPageTexts.loading} lines={4} />)
      ) : (
        <div className="page__empty">
          {noOrganization ?? (
            <p className="muted">
              {organizationPageTexts.noOrganization}
              {isSuperUser.value ? organizationPageTexts.superUserHint : ''}
            </p>
          )}
        </div>
      )}
    </section>
  );
}

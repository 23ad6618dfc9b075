import { useEffect, useRef, useState } from 'react';
import { updateOrganization } from '../../api/organization-changes.ts';
import {
  can,
  type EffectiveLevel,
  matchPagePath,
  type Organization,
  remainingSetupSteps,
  setupStepLinks,
} from '../../contract/index.ts';
import { replaceCurrentOrganization } from '../../state/organization.ts';
import { toast } from '../../state/toasts.ts';
import { Button } from '../../ui/button.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';
import { clampStep, completeDelay, debounce, showWelcome, stepTexts } from './setup.ts';

/** spec (part 1, sections 2 and 8), word for word. */
export const setupTexts = {
  heading: 'Finish these steps to enable matching!',
  markComplete: 'Mark Setup Complete',
  loading: 'Loading...',
  welcome: (name: string) => `Welcome ${name},`,
  updated: (name: string) => `Organization "${name}" updated successfully`,
  updateFailed: 'Failed to update organization',
} as const;

/** The dashboard setup card: 'Loading...', the steps still needed, or 'Mark Setup Complete'. */
export function SetupCard({
  organization,
  loading,
  level,
}: {
  organization: Organization | null;
  loading: boolean;
  level: EffectiveLevel;
}) {
  if (!organization) {
    return loading ? (
      <section className="setup" aria-label="Setup" part="setup-card">
        {/* spec: "While the organization loads, the card shows 'Loading...'" (read from the skeleton). */}
        <Skeleton label={setupTexts.loading} lines={3} />
      </section>
    ) : null;
  }
  // spec: hidden once the organization is complete.
  if (organization.complete) return null;
  return <SetupSteps key={organization.id} organization={organization} level={level} />;
}

function SetupSteps({ organization, level }: { organization: Organization; level: EffectiveLevel }) {
  const steps = remainingSetupSteps(organization);
  const [index, setIndex] = useState(0);
  const [dismissed, setDismissed] = useState(false);
  const [marking, setMarking] = useState(false);
  const current = clampStep(index, steps.length);
  const step = steps[current];

  const organizationRef = useRef(organization);
  organizationRef.current = organization;
  const debouncer = useRef(
    debounce(() => {
      setMarking(true);
      updateOrganization(organizationRef.current.id, { complete: true })
        .then((answer) => {
          replaceCurrentOrganization(answer);
          toast({ description: setupTexts.updated(answer.organization.name) });
        })
        .catch(() => {
          toast({ title: 'Error', description: setupTexts.updateFailed, variant: 'destructive' });
        })
        .finally(() => {
          setMarking(false);
          setScheduled(false);
        });
    }, completeDelay),
  );
  const [scheduled, setScheduled] = useState(false);
  // Leaving the dashboard within the 2 s still marks the organization complete.
  useEffect(() => {
    const d = debouncer.current;
    return () => d.flush();
  }, []);

  const titleId = `setup-title-${organization.id}`;

  if (steps.length === 0) {
    const mayComplete = can(level, 'organization.update');
    return (
      <section className="setup" aria-labelledby={titleId} part="setup-card">
        <h2 id={titleId} className="setup__title">
          {setupTexts.heading}
        </h2>
        <p>Every step is done. Mark the setup complete to enable matching.</p>
        {mayComplete ? (
          <div className="setup__actions">
            <Button
              onClick={() => {
                debouncer.current.schedule();
                setScheduled(true);
              }}
              disabled={marking}
            >
              {setupTexts.markComplete}
            </Button>
            <span role="status" className="muted">
              {scheduled || marking ? 'Saving...' : ''}
            </span>
          </div>
        ) : (
          <p className="muted">Someone who can edit this organization can mark the setup complete.</p>
        )}
      </section>
    );
  }

  if (dismissed || !step) {
    return (
      <section className="setup setup--compact" aria-labelledby={titleId} part="setup-card">
        <h2 id={titleId} className="setup__title">
          {setupTexts.heading}
        </h2>
        <Button variant="secondary" onClick={() => setDismissed(false)}>
          Show steps
        </Button>
      </section>
    );
  }

  const last = current === steps.length - 1;
  const text = stepTexts[step];
  return (
    <section className="setup" aria-labelledby={titleId} part="setup-card">
      <div className="setup__header">
        <h2 id={titleId} className="setup__title">
          {setupTexts.heading}
        </h2>
        <p className="setup__count">
          Step {current + 1} of {steps.length}
        </p>
      </div>
      <ol className="setup__dots" aria-label="Steps">
        {steps.map((s, i) => (
          <li
            key={s}
            className={`setup__dot${i === current ? ' setup__dot--current' : ''}`}
            aria-current={i === current ? 'step' : undefined}
          >
            <span className="visually-hidden">{stepTexts[s].title}</span>
          </li>
        ))}
      </ol>
      <div className="setup__step" aria-live="polite">
        <h3 className="setup__step-title">{text.title}</h3>
        <p>{text.text}</p>
        <a className="btn btn--primary setup__configure" href={setupStepLinks[step]}>
          {step === 'billing' ? 'Choose a plan' : 'Configure'}
          <span className="visually-hidden">: {text.title}</span>
        </a>
      </div>
      <div className="setup__actions">
        <Button variant="secondary" disabled={current === 0} onClick={() => setIndex(current - 1)}>
          Previous
        </Button>
        {last ? (
          <Button variant="secondary" onClick={() => setDismissed(true)}>
            Done
          </Button>
        ) : (
          <Button variant="secondary" onClick={() => setIndex(current + 1)}>
            Next
          </Button>
        )}
      </div>
    </section>
  );
}

/** spec: the welcome card, for a complete and premium organization, until a day after onboarding. */
export function WelcomeCard({ organization, now }: { organization: Organization | null; now?: Date }) {
  if (!organization || !showWelcome(organization, now)) return null;
  return (
    <section className="setup setup--welcome" aria-labelledby="welcome-title" part="welcome-card">
      <h2 id="welcome-title" className="setup__title">
        {setupTexts.welcome(organization.name)}
      </h2>
      <p>Your organization is set up and matching is on. Next, you can:</p>
      <ul className="setup__links">
        <li>
          <a href="/portal/organization-details?tab=users">Add users</a> who help with your matching gifts
        </li>
        <li>
          <a href="/portal/integrations">Set up inbound match requests</a> from your donation forms
        </li>
        <li>
          <a href={matchPagePath(organization.name)} target="_blank" rel="noopener">
            Visit your matching page
            <span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        </li>
      </ul>
    </section>
  );
}

import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useId, useState } from 'react';
import { fetchFeatureRequestCounts, saveFeatureRequest } from '../../api/dashboard.ts';
import {
  dashboardTexts,
  type FeatureRequestCounts,
  type FeatureValue,
  featureOf,
  featureOptions,
} from '../../contract/dashboard.ts';
import type { Organization } from '../../contract/index.ts';
import { patchCurrentOrganization } from '../../state/organization.ts';
import { isSuperUser } from '../../state/session.ts';
import { toast } from '../../state/toasts.ts';
import { Button } from '../../ui/button.tsx';

const labelOf = (value: string) => featureOptions.find((o) => o.value === value)?.label ?? value;

/**
 * spec section 2: "Feature Requests: a single-choice list (options in section 9) and a submit
 * button." Section 5: disabled with no choice or while saving; nothing happens without an
 * organization and a choice. It saves custom.amply.feature on the organization.
 */
export function FeatureRequests({
  organization,
  canSubmit,
}: {
  organization: Organization | null;
  canSubmit: boolean;
}) {
  useSignals();
  const [choice, setChoice] = useState<string | null>(() => featureOf(organization?.custom));
  const [saving, setSaving] = useState(false);
  const id = useId();
  // The organization may arrive or be refreshed after the card shows: its saved choice wins then.
  const saved = featureOf(organization?.custom);
  useEffect(() => {
    if (saved) setChoice(saved);
  }, [saved]);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!organization || !choice || saving) return;
    setSaving(true);
    try {
      await saveFeatureRequest(organization.id, choice as FeatureValue);
      const amply = organization.custom.amply;
      patchCurrentOrganization(organization.id, {
        custom: {
          ...organization.custom,
          amply: { ...(amply && typeof amply === 'object' ? amply : {}), feature: choice },
        },
      });
      toast({
        title: dashboardTexts.featureSubmitted,
        description: dashboardTexts.featureSubmittedDescription,
      });
    } catch {
      toast({
        title: dashboardTexts.featureErrorTitle,
        description: dashboardTexts.featureError,
        variant: 'destructive',
      });
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="dashboard__block features" aria-labelledby={`${id}-title`} part="feature-requests">
      <h2 id={`${id}-title`} className="dashboard__block-title">
        Feature Requests
      </h2>
      <form onSubmit={submit} className="features__form">
        <fieldset className="features__options">
          <legend>Which feature would help your organization most?</legend>
          {featureOptions.map((option) => (
            <label key={option.value} className="features__option">
              <input
                type="radio"
                name={`${id}-feature`}
                value={option.value}
                checked={choice === option.value}
                onChange={() => setChoice(option.value)}
                disabled={!canSubmit}
              />
              {option.label}
            </label>
          ))}
        </fieldset>
        {canSubmit ? null : (
          <p className="muted">Only users with write access can submit a feature request.</p>
        )}
        <div>
          <Button type="submit" disabled={!canSubmit || !choice || saving} part="submit-button">
            {saving ? 'Submitting...' : 'Submit'}
          </Button>
        </div>
      </form>
      {isSuperUser.value ? <AllRequests /> : null}
    </section>
  );
}

/** Super users see what every organization asked for, counted by option. */
function AllRequests() {
  const [counts, setCounts] = useState<FeatureRequestCounts | null>(null);
  useEffect(() => {
    fetchFeatureRequestCounts()
      .then(setCounts)
      .catch((error: unknown) => console.error('Failed to load feature request counts', error));
  }, []);
  if (!counts) return null;
  return (
    <table className="table features__counts">
      <caption>Requests across all organizations ({counts.total.toLocaleString('en-US')})</caption>
      <thead>
        <tr>
          <th scope="col">Feature</th>
          <th scope="col" className="numeric">
            Organizations
          </th>
        </tr>
      </thead>
      <tbody>
        {counts.counts.map((c) => (
          <tr key={c.value}>
            <td>{labelOf(c.value)}</td>
            <td className="numeric">{c.count.toLocaleString('en-US')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

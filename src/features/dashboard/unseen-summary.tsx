import { useEffect, useId, useState } from 'react';
import { fetchTiers, recordDashboardVisit } from '../../api/dashboard.ts';
import { giftTiers, type TiersResponse } from '../../contract/dashboard.ts';
import { formatAmount } from '../donations/donations-query.ts';
import { displayDay } from './date-range.ts';

export interface GiftTierCardProps {
  amount: string;
  title: string;
  description: string;
  giftsCount: number;
  accentColor: string;
  /** Seconds before the card fades in. */
  delay?: number;
}

/**
 * spec section 3, Gift-tier summary card: "Fields amount, title, description, giftsCount (shown
 * followed by the word Gifts), accentColor (style class), delay (seconds, default 0). It fades in
 * and slides up 20 pixels over 0.5 seconds."
 */
export function GiftTierCard({
  amount,
  title,
  description,
  giftsCount,
  accentColor,
  delay = 0,
}: GiftTierCardProps) {
  return (
    <li className={`tier-card ${accentColor}`} style={{ animationDelay: `${delay}s` }} part="tier-card">
      <span className="tier-card__amount">{amount}</span>
      <span className="tier-card__title">{title}</span>
      <span className="tier-card__description">{description}</span>
      <span className="tier-card__count">{giftsCount.toLocaleString('en-US')} Gifts</span>
    </li>
  );
}

/**
 * The unseen summary block: what came in since the user's last visit, by gift tier. The server
 * keeps the visit per user and organization, so coming back from another screen (or another
 * browser) shows the same "New since" date rather than restarting at now.
 */
export function UnseenSummary({ organizationId }: { organizationId: number }) {
  const [result, setResult] = useState<TiersResponse | null>(null);
  const id = useId();
  useEffect(() => {
    let current = true;
    recordDashboardVisit(organizationId)
      .then(({ since }) => fetchTiers(organizationId, since))
      .then((tiers) => {
        if (current) setResult(tiers);
      })
      .catch((error: unknown) => console.error('Failed to load the gift summary', error));
    return () => {
      current = false;
    };
  }, [organizationId]);
  if (!result) return null;
  return (
    <section className="dashboard__block unseen" aria-labelledby={`${id}-title`} part="unseen-summary">
      <h2 id={`${id}-title`} className="dashboard__block-title">
        New since {displayDay(result.since.slice(0, 10))}
      </h2>
      <ul className="unseen__cards">
        {giftTiers.map((tier, i) => {
          const figures = result.tiers.find((t) => t.id === tier.id);
          return (
            <GiftTierCard
              key={tier.id}
              amount={formatAmount(figures?.sum ?? 0)}
              title={tier.title}
              description={tier.description}
              giftsCount={figures?.count ?? 0}
              accentColor={tier.accent}
              delay={i * 0.1}
            />
          );
        })}
      </ul>
    </section>
  );
}

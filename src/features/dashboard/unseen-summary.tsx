import { useEffect, useId, useState } from 'react';
import { fetchTiers } from '../../api/dashboard.ts';
import { giftTiers, type TiersResponse } from '../../contract/dashboard.ts';
import { formatAmount } from '../donations/donations-query.ts';
import { displayDay } from './date-range.ts';

/** Where the time of the user's last look at an organization's dashboard is kept (this browser). */
export const seenKey = (orgId: number) => `twofold-dashboard-seen-${orgId}`;
/** A first visit summarises the last 30 days. */
const firstLookDays = 30;

/** When the user last looked (or 30 days ago), and records now as the new last look. */
export function takeLastSeen(orgId: number, now = new Date()): string {
  let previous: string | null = null;
  try {
    previous = localStorage.getItem(seenKey(orgId));
    localStorage.setItem(seenKey(orgId), now.toISOString());
  } catch {
    // Storage can be unavailable (private mode): every visit is then a first look.
  }
  const parsed = previous ? new Date(previous) : null;
  return parsed && !Number.isNaN(parsed.getTime()) && parsed <= now
    ? parsed.toISOString()
    : new Date(now.getTime() - firstLookDays * 86_400_000).toISOString();
}

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

/** The unseen summary block: what came in since the user last looked, by gift tier. */
export function UnseenSummary({ organizationId }: { organizationId: number }) {
  const [since] = useState(() => takeLastSeen(organizationId));
  const [result, setResult] = useState<TiersResponse | null>(null);
  const id = useId();
  useEffect(() => {
    fetchTiers(organizationId, since)
      .then(setResult)
      .catch((error: unknown) => console.error('Failed to load the gift summary', error));
  }, [organizationId, since]);
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

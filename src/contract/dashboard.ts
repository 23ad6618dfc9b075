import * as z from 'zod/mini';
import { type StatusGroup, statusGroupIds } from './statuses.ts';

/**
 * The dashboard calls (spec part 2, sections 2, 3, 7 and 9): the Matching Overview's statistics by
 * status group, and the Feature Requests card. The groups are `statusGroups` of statuses.ts, the
 * same table the donations list's tiles count, so the two never disagree on the same range.
 */

const day = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates must be YYYY-MM-DD'));

/** spec: "reads stats for organization {id} with from and to (yyyy-MM-dd) and grouping by_status". */
export const StatisticsQuery = z.object({
  from: z.optional(day),
  to: z.optional(day),
  report: z.optional(z.enum(['by_status'], 'report must be by_status')),
});
export type StatisticsQuery = z.infer<typeof StatisticsQuery>;

/** One group: the gifts' sum in dollars, their count, and (ours) their estimated match in dollars. */
export const GroupStat = z.object({ sum: z.number(), count: z.number(), matched: z.number() });
export type GroupStat = z.infer<typeof GroupStat>;

const groupShape = Object.fromEntries(statusGroupIds.map((g) => [g, GroupStat])) as Record<
  StatusGroup,
  typeof GroupStat
>;
export const GroupStats = z.object(groupShape);
export type GroupStats = z.infer<typeof GroupStats>;

/**
 * spec: "response donor_contacted, npo_verify, engaged_submitted, no_response, each with sum and
 * count" — for the organization with its chapters. `organizations` breaks the same figures down
 * per organization (the parent itself first, then each chapter), for the chapters table.
 */
export const StatisticsResponse = z.object({
  ...groupShape,
  from: z.string(),
  to: z.string(),
  organizations: z.array(z.object({ id: z.number(), name: z.string(), groups: GroupStats })),
});
export type StatisticsResponse = z.infer<typeof StatisticsResponse>;

export const statisticsPath = (orgId: number) => `/api/organization/${orgId}/statistics`;

/** spec section 9: the feature-request options (value: meaning), in the spec's order. */
export const featureOptions = [
  { value: 'portal-contact', label: 'Bulk email donors from the portal' },
  { value: 'account-manage', label: 'Better account support with periodic follow-ups' },
  { value: 'amount-based-email-limits', label: 'Control who is emailed by donation amount' },
  { value: 'more-documentation', label: 'More documentation' },
  { value: 'more-integrations', label: 'Donation platform integrations' },
  { value: 'better-reporting', label: 'Reporting and analytics' },
  { value: 'more-filters', label: 'Donation filtering' },
  { value: 'other', label: 'Other (email the provider)' },
] as const;
export const featureValues = featureOptions.map((o) => o.value) as [
  (typeof featureOptions)[number]['value'],
  ...(typeof featureOptions)[number]['value'][],
];
export type FeatureValue = (typeof featureOptions)[number]['value'];

/** Saves custom.amply.feature on the organization (spec: "method and path not shown"). */
export const FeatureRequestBody = z.object({
  feature: z.enum(featureValues, `feature must be one of ${featureValues.join(', ')}`),
});
export type FeatureRequestBody = z.infer<typeof FeatureRequestBody>;
export const featureRequestPath = (orgId: number) => `/api/organization/${orgId}/feature-request`;

/** The super user's view: how many organizations chose each option. */
export const FeatureRequestCounts = z.object({
  counts: z.array(z.object({ value: z.string(), count: z.number() })),
  total: z.number(),
});
export type FeatureRequestCounts = z.infer<typeof FeatureRequestCounts>;
export const featureRequestCountsPath = '/api/feature-requests';

/** The chosen option stored on an organization's custom (spec: "custom.amply.feature"). */
export function featureOf(custom: Record<string, unknown> | undefined): string | null {
  const amply = custom?.amply;
  if (!amply || typeof amply !== 'object') return null;
  const feature = (amply as Record<string, unknown>).feature;
  return typeof feature === 'string' ? feature : null;
}

/** spec section 8 and the success messages, word for word. */
export const dashboardTexts = {
  loadingStatistics: 'Loading statistics...',
  featureSubmitted: 'Feature request submitted',
  featureSubmittedDescription: 'Your feature request has been saved successfully.',
  featureErrorTitle: 'Error',
  featureError: 'Failed to submit feature request. Please try again.',
} as const;

/**
 * The gift-tier summary cards of the unseen summary block: the gifts recorded since the user last
 * opened the dashboard, by size. Tiers are ours (the spec gives only the card's fields); amounts
 * are in dollars, `max` exclusive.
 */
export const giftTiers = [
  {
    id: 'leadership',
    title: 'Leadership gifts',
    description: '$1,000 and more',
    min: 1000,
    max: null,
    accent: 'accent-gold',
  },
  {
    id: 'mid_level',
    title: 'Mid-level gifts',
    description: '$250 to $999.99',
    min: 250,
    max: 1000,
    accent: 'accent-teal',
  },
  {
    id: 'everyday',
    title: 'Everyday gifts',
    description: 'Under $250',
    min: 0,
    max: 250,
    accent: 'accent-blue',
  },
] as const;
export type GiftTierId = (typeof giftTiers)[number]['id'];

export const TiersQuery = z.object({
  since: z
    .string()
    .check(
      z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/, 'since must be an ISO 8601 UTC time'),
    ),
});
export const TiersResponse = z.object({
  since: z.string(),
  tiers: z.array(z.object({ id: z.string(), sum: z.number(), count: z.number() })),
});
export type TiersResponse = z.infer<typeof TiersResponse>;
export const tiersPath = (orgId: number) => `/api/organization/${orgId}/statistics/tiers`;

/**
 * The dashboard's visit: recording a look answers the start of the unseen summary's window, kept
 * per user and organization on the server, so navigating away and back keeps the same date.
 */
export const DashboardVisitResponse = z.object({ since: z.string() });
export type DashboardVisitResponse = z.infer<typeof DashboardVisitResponse>;
export const dashboardVisitPath = (orgId: number) => `/api/organization/${orgId}/dashboard/visit`;

/** The figures below the tiles (ours, beyond the spec), for the same organization, chapters and dates. */
export const InsightsResponse = z.object({
  from: z.string(),
  to: z.string(),
  /** Per month of donation: the estimated match of every request, and of those that reached Submitted. */
  months: z.array(
    z.object({
      month: z.string(),
      requested: z.number(),
      submitted: z.number(),
      count: z.number(),
      /** What the companies paid for that month's gifts (payout reports, /portal/payouts). */
      received: z.optional(z.number()),
    }),
  ),
  /** Open requests (Awaiting Submission, NPO to Verify) by days since the gift, as of `to`. */
  ageing: z.array(
    z.object({
      bucket: z.enum(['0-30', '31-90', '90+']),
      donor_contacted: z.object({ count: z.number(), matched: z.number() }),
      npo_verify: z.object({ count: z.number(), matched: z.number() }),
    }),
  ),
  /**
   * Submitted matches not yet completed, by the month their company is expected to pay: the day
   * they were submitted plus the company's typical payout delay (the median days from Submitted
   * to Match Completed over its past matches, from 3 of them; otherwise 60 days). Overdue ones
   * count in the current month.
   */
  forecast: z.array(z.object({ month: z.string(), expected: z.number(), count: z.number() })),
  /** The companies with the most requested match dollars, and how much of it reached Submitted. */
  companies: z.array(
    z.object({ name: z.string(), requested: z.number(), submitted: z.number(), count: z.number() }),
  ),
});
export type InsightsResponse = z.infer<typeof InsightsResponse>;
/** The payout delay assumed for a company with fewer than 3 completed matches to learn from. */
export const defaultPayoutDays = 60;
export const insightsPath = (orgId: number) => `/api/organization/${orgId}/statistics/insights`;
export const ageingBuckets = [
  { bucket: '0-30', label: '0–30 days', minDays: 0, maxDays: 30 },
  { bucket: '31-90', label: '31–90 days', minDays: 31, maxDays: 90 },
  { bucket: '90+', label: 'Over 90 days', minDays: 91, maxDays: null },
] as const;

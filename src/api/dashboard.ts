import {
  DashboardVisitResponse,
  dashboardVisitPath,
  FeatureRequestCounts,
  type FeatureValue,
  featureRequestCountsPath,
  featureRequestPath,
  InsightsResponse,
  insightsPath,
  StatisticsResponse,
  statisticsPath,
  TiersResponse,
  tiersPath,
} from '../contract/dashboard.ts';
import { request, send } from './client.ts';

/** spec: "Organization stats: reads stats for organization {id} with from and to (yyyy-MM-dd) and grouping by_status". */
export function fetchStatistics(orgId: number, from: string, to: string): Promise<StatisticsResponse> {
  return request(StatisticsResponse, statisticsPath(orgId).slice(1), {
    searchParams: { from, to, report: 'by_status' },
  });
}

/** Saves custom.amply.feature on the organization. */
export async function saveFeatureRequest(orgId: number, feature: FeatureValue): Promise<void> {
  await send(featureRequestPath(orgId).slice(1), { method: 'put', json: { feature } });
}

/** Super users: every organization's requests, counted by option. */
export function fetchFeatureRequestCounts(): Promise<FeatureRequestCounts> {
  return request(FeatureRequestCounts, featureRequestCountsPath.slice(1));
}

/** Records the user's look at the dashboard; answers where this visit's unseen summary starts. */
export function recordDashboardVisit(orgId: number): Promise<DashboardVisitResponse> {
  return request(DashboardVisitResponse, dashboardVisitPath(orgId).slice(1), { method: 'post' });
}

/** The gifts recorded since a time, by tier (the unseen summary cards). */
export function fetchTiers(orgId: number, since: string): Promise<TiersResponse> {
  return request(TiersResponse, tiersPath(orgId).slice(1), { searchParams: { since } });
}

/** The figures below the tiles for the same dates. */
export function fetchInsights(orgId: number, from: string, to: string): Promise<InsightsResponse> {
  return request(InsightsResponse, insightsPath(orgId).slice(1), { searchParams: { from, to } });
}

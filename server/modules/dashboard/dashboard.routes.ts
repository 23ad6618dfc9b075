import { MessageResponse } from '../../../src/contract/auth.ts';
import {
  DashboardVisitResponse,
  FeatureRequestBody,
  FeatureRequestCounts,
  InsightsResponse,
  StatisticsQuery,
  StatisticsResponse,
  TiersQuery,
  TiersResponse,
} from '../../../src/contract/dashboard.ts';
import { IdParams, orgFromIdParam } from '../../http/params.ts';
import { defineRoute } from '../../http/route.ts';
import * as dashboard from './dashboard.service.ts';

const error = (description: string) => ({ description, schema: MessageResponse });
const tags = ['dashboard'];

export const dashboardRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/organization/:id/statistics',
    access: { level: 'read', capability: 'donations.view', org: orgFromIdParam },
    summary:
      "The Matching Overview: each status group's gift sum (dollars) and count between from and to, for the organization with its chapters, and per organization",
    tags,
    params: IdParams,
    query: StatisticsQuery,
    responses: {
      200: { description: 'The four groups', schema: StatisticsResponse },
      400: error('Bad dates'),
    },
    handler: ({ deps, params, query }) => dashboard.statistics(deps.db, params.id, query),
  }),
  defineRoute({
    method: 'get',
    path: '/api/organization/:id/statistics/tiers',
    access: { level: 'read', capability: 'donations.view', org: orgFromIdParam },
    summary: 'The gifts recorded since a time, by gift tier (the unseen summary cards), with the chapters',
    tags,
    params: IdParams,
    query: TiersQuery,
    responses: { 200: { description: 'The tiers', schema: TiersResponse }, 400: error('Bad since') },
    handler: ({ deps, params, query }) => dashboard.tiers(deps.db, params.id, query.since),
  }),
  defineRoute({
    method: 'post',
    path: '/api/organization/:id/dashboard/visit',
    access: { level: 'read', capability: 'donations.view', org: orgFromIdParam },
    summary:
      "Record the caller's look at the dashboard; answers the start of this visit's unseen summary (the previous visit's last look, or 30 days ago)",
    tags,
    params: IdParams,
    responses: { 200: { description: 'The window start', schema: DashboardVisitResponse } },
    handler: ({ deps, params, user }) =>
      dashboard.recordDashboardVisit(deps.db, user.id, params.id, deps.clock.now()),
  }),
  defineRoute({
    method: 'get',
    path: '/api/organization/:id/statistics/insights',
    access: { level: 'read', capability: 'donations.view', org: orgFromIdParam },
    summary:
      'Below the tiles: monthly requested and submitted match dollars, ageing of open requests and the top companies, for the same dates',
    tags,
    params: IdParams,
    query: StatisticsQuery,
    responses: { 200: { description: 'The figures', schema: InsightsResponse }, 400: error('Bad dates') },
    handler: ({ deps, params, query }) => dashboard.insights(deps.db, params.id, query),
  }),
  defineRoute({
    method: 'put',
    path: '/api/organization/:id/feature-request',
    access: { level: 'write', capability: 'organization.update', org: orgFromIdParam },
    summary: "Save the organization's feature request (custom.amply.feature)",
    tags,
    params: IdParams,
    body: FeatureRequestBody,
    responses: { 200: { description: 'Saved' }, 400: error('Not one of the options') },
    handler: ({ deps, params, body }) => dashboard.saveFeatureRequest(deps.db, params.id, body),
  }),
  defineRoute({
    method: 'get',
    path: '/api/feature-requests',
    access: 'super',
    summary: 'For super users: how many organizations asked for each feature',
    tags,
    responses: { 200: { description: 'Counts by option', schema: FeatureRequestCounts } },
    handler: ({ deps }) => dashboard.featureRequestCounts(deps.db),
  }),
];

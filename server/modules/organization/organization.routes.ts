import { MessageResponse } from '../../../src/contract/auth.ts';
import {
  OrganizationResponse,
  OrganizationSearchQuery,
  OrganizationSearchResponse,
} from '../../../src/contract/organization.ts';
import { IdParams, orgFromIdParam } from '../../http/params.ts';
import { defineRoute } from '../../http/route.ts';
import * as handlers from './organization.handlers.ts';

const error = (description: string) => ({ description, schema: MessageResponse });
const tags = ['organization'];

export const organizationRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/organization/:id',
    access: { level: 'read', capability: 'organization.view', org: orgFromIdParam },
    summary: 'An organization with its users, chapters and the organizations reachable from it',
    tags,
    params: IdParams,
    responses: {
      200: { description: 'The organization', schema: OrganizationResponse },
      401: error('Not signed in'),
      404: error('Organization with id {id} not found'),
    },
    handler: handlers.get,
  }),
  defineRoute({
    method: 'get',
    path: '/api/search/organization',
    access: 'authenticated',
    summary: 'Search organizations by name (super users: all; others: the ones they reach)',
    tags,
    query: OrganizationSearchQuery,
    responses: {
      200: { description: 'Matching organizations, by name, at most 20', schema: OrganizationSearchResponse },
      401: error('Not signed in'),
    },
    handler: handlers.search,
  }),
];

import * as z from 'zod/mini';
import { MessageResponse } from '../../../src/contract/auth.ts';
import {
  EmployerReviewDecision,
  EmployerReviewDecisionResponse,
  EmployerReviewList,
  EmployerScreeningResponse,
  EmployerSuggestion,
  EmployerSummary,
  EmployerSummaryQuery,
} from '../../../src/contract/employers.ts';
import { IdParams, orgFromIdParam } from '../../http/params.ts';
import { defineRoute } from '../../http/route.ts';
import * as screening from './screening.ts';
import { suggestEmployer } from './suggestion.ts';

const error = (description: string) => ({ description, schema: MessageResponse });
const tags = ['employers'];

/** Employer identification (issue #31): screening, the review list, the summary, the donor's suggestion. */
export const employersRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/organization/:id/employers/screenings',
    access: { level: 'write', capability: 'donations.change', org: orgFromIdParam },
    summary:
      "Find employers: screen the organization's matches at Missing Company Hold in the background (or answer the run under way)",
    tags,
    params: IdParams,
    successStatus: 202,
    responses: { 202: { description: 'The run, queued or under way', schema: EmployerScreeningResponse } },
    handler: ({ deps, params, user }) => screening.startScreening(deps.db, params.id, user.id, deps.logger),
  }),
  defineRoute({
    method: 'get',
    path: '/api/organization/:id/employers/screenings/latest',
    access: { level: 'read', capability: 'donations.view', org: orgFromIdParam },
    summary: "The organization's latest Find employers run and its progress (null: none yet)",
    tags,
    params: IdParams,
    responses: { 200: { description: 'The latest run', schema: EmployerScreeningResponse } },
    handler: ({ deps, params }) => screening.latestScreening(deps.db, params.id),
  }),
  defineRoute({
    method: 'get',
    path: '/api/organization/:id/employers/reviews',
    access: { level: 'read', capability: 'donations.view', org: orgFromIdParam },
    summary: 'The employer review list: answers below the confidence threshold, least sure first, 50 a page',
    tags,
    params: IdParams,
    query: z.object({
      status: z.optional(z.string().check(z.maxLength(20))),
      page: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100_000))),
    }),
    responses: {
      200: { description: 'One page of reviews', schema: EmployerReviewList },
      400: error('Bad status'),
    },
    handler: ({ deps, params, query }) => screening.listReviews(deps.db, params.id, query),
  }),
  defineRoute({
    method: 'post',
    path: '/api/organization/:id/employers/reviews/decide',
    access: { level: 'write', capability: 'donations.change', org: orgFromIdParam },
    summary:
      'Accept, correct or reject reviews (accept and reject several at once); accepted matches move on',
    tags,
    params: IdParams,
    body: EmployerReviewDecision,
    responses: {
      200: { description: 'What was decided', schema: EmployerReviewDecisionResponse },
      400: error('company_id is required to correct a review'),
    },
    handler: ({ deps, params, body, user }) => screening.decideReviews(deps.db, params.id, user.id, body),
  }),
  defineRoute({
    method: 'get',
    path: '/api/organization/:id/employers/summary',
    access: { level: 'read', capability: 'donations.view', org: orgFromIdParam },
    summary:
      "How many of the organization's matches have a company, by how it was found (domain, name, person…); from and to (YYYY-MM-DD, inclusive) keep the matches donated in that range",
    tags,
    params: IdParams,
    query: EmployerSummaryQuery,
    responses: {
      200: { description: 'The counts', schema: EmployerSummary },
      400: error('Bad dates'),
    },
    handler: ({ deps, params, query }) => screening.employerSummary(deps.db, params.id, query),
  }),
  defineRoute({
    method: 'get',
    path: '/api/public/employer-suggestion',
    // The public match request's "Is this your employer?": from the email's domain only, so it
    // tells a stranger nothing about anyone's gifts.
    access: 'anonymous',
    cors: true,
    summary: "Public: the catalogue company an email's domain names (never a free-mail domain), or null",
    tags,
    query: z.object({ email: z.string().check(z.maxLength(320, 'The email is too long')) }),
    rateLimit: { ipFactor: 10, bucket: 'public-company-lookup' },
    responses: {
      200: { description: 'The suggestion', schema: EmployerSuggestion },
      429: error('Too many attempts'),
    },
    handler: ({ deps, query }) => suggestEmployer(deps.db, query.email),
  }),
];

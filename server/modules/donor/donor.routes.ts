import * as z from 'zod/mini';
import { MessageResponse } from '../../../src/contract/auth.ts';
import {
  DonorMatchResponse,
  DonorMatchUpdate,
  DonorMatchUpdateResponse,
  DonorSessionRequest,
  DonorSessionResponse,
  MatchRequest,
  MatchRequestResponse,
  PublicMatchOrganizationResponse,
} from '../../../src/contract/donor.ts';
import { IdParams } from '../../http/params.ts';
import { defineRoute } from '../../http/route.ts';
import { getDonorMatch, openDonorSession, updateDonorMatch } from './donor.service.ts';
import { publicMatchOrganization, requestMatch } from './public-match.service.ts';

const error = (description: string) => ({ description, schema: MessageResponse });
const SlugParams = z.object({ slug: z.string().check(z.minLength(1), z.maxLength(300)) });

/**
 * The donor's side: the donor link's session, the donor's own match (read and edit), and the
 * organization's public matching page. All answer any origin: the donor edit element and the
 * matching page may be embedded on a nonprofit's own site.
 */
export const donorRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/donor/session',
    access: 'anonymous',
    cors: true,
    summary: "Exchange a donor link's one-time token for a donor session (2 hours)",
    tags: ['donor'],
    body: DonorSessionRequest,
    rateLimit: { failuresOnly: true },
    responses: {
      200: {
        description: 'A donor session token and the match the link was for',
        schema: DonorSessionResponse,
      },
      400: error('This link is invalid, used or expired. Please request a new one.'),
      429: error('Too many attempts'),
    },
    handler: ({ deps, body }) => openDonorSession(deps, body.token),
  }),
  defineRoute({
    method: 'get',
    path: '/api/donor/donation/:id',
    access: 'donor',
    cors: true,
    summary: "The donor's own match request",
    tags: ['donor'],
    params: IdParams,
    responses: {
      200: { description: 'The match as its donor sees it', schema: DonorMatchResponse },
      401: error('No donor session'),
      404: error('Donation not found (also for another donor’s match)'),
    },
    handler: ({ deps, donor, params }) => getDonorMatch(deps, donor.email, params.id),
  }),
  defineRoute({
    method: 'put',
    path: '/api/donor/donation/:id',
    access: 'donor',
    cors: true,
    summary: "Correct the donor's name, email or company (the amount cannot change)",
    tags: ['donor'],
    params: IdParams,
    body: DonorMatchUpdate,
    rateLimit: {},
    responses: {
      200: {
        description: 'Updated; transferred says the email changed hands',
        schema: DonorMatchUpdateResponse,
      },
      400: error('Missing name, email or company, or a changed amount'),
      401: error('No donor session'),
      404: error('Donation not found (also for another donor’s match)'),
    },
    handler: ({ deps, donor, params, body }) => updateDonorMatch(deps, donor.email, params.id, body),
  }),
  defineRoute({
    method: 'get',
    path: '/api/public/match/:slug',
    access: 'anonymous',
    cors: true,
    summary: 'The organization behind a public matching page (/match/{slug}, or its id)',
    tags: ['donor'],
    params: SlugParams,
    rateLimit: { ipFactor: 3 },
    responses: {
      200: { description: "The organization's public face", schema: PublicMatchOrganizationResponse },
      404: error('Organization not found'),
      429: error('Too many attempts'),
    },
    handler: ({ deps, params }) => publicMatchOrganization(deps, params.slug),
  }),
  defineRoute({
    method: 'post',
    path: '/api/public/match/:slug',
    access: 'anonymous',
    cors: true,
    summary: 'Request a match of a gift (with a solved captcha challenge); answers the next steps',
    tags: ['donor'],
    params: SlugParams,
    body: MatchRequest,
    rateLimit: { email: (i) => i.body.donor.email },
    successStatus: 201,
    responses: {
      201: {
        description: 'The match, its status and the company’s next steps',
        schema: MatchRequestResponse,
      },
      400: error('Invalid input, or Verification failed. Please try again.'),
      404: error('Organization not found'),
      409: error('A donation with this transaction id already exists for this organization.'),
      429: error('Too many attempts'),
    },
    handler: ({ deps, params, body }) => requestMatch(deps, params.slug, body),
  }),
];

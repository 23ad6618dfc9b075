import * as z from 'zod/mini';
import { MessageResponse } from '../../../src/contract/auth.ts';
import { CsrfTokenResponse, PublicOrganizationSearchResponse } from '../../../src/contract/public.ts';
import { RegistrationRequest, RegistrationResponse } from '../../../src/contract/registration.ts';
import { defineRoute } from '../../http/route.ts';
import { requireCsrf } from './csrf.ts';
import * as handlers from './registration.handlers.ts';

const error = (description: string) => ({ description, schema: MessageResponse });
const tags = ['registration'];

/** spec: the registration payload, sent with return_json=1 (the JSON answer is the only one we give). */
const RegisterBody = z.extend(RegistrationRequest, {
  return_json: z.optional(z.union([z.literal(1), z.literal('1'), z.literal(true)])),
});

export const registrationRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/csrf-token',
    access: 'anonymous',
    cors: true,
    summary: 'A signed token (2 hours) for the registration form',
    tags,
    // Every page showing the form asks for one; registering itself is limited more tightly.
    rateLimit: { ipFactor: 3 },
    responses: {
      200: { description: 'The token', schema: CsrfTokenResponse },
      429: error('Too many attempts'),
    },
    handler: handlers.csrfToken,
  }),
  defineRoute({
    method: 'post',
    path: '/organization/register',
    access: 'anonymous',
    cors: true,
    precheck: requireCsrf,
    summary: 'Register a nonprofit: the organization, its address and categories, its admin contact',
    tags,
    body: RegisterBody,
    rateLimit: {},
    responses: {
      200: { description: 'Registered, or already registered', schema: RegistrationResponse },
      400: error("Invalid input (the spec's registration messages)"),
      403: error('Your form session has expired. Please reload the page and try again.'),
      429: error('Too many attempts'),
    },
    handler: handlers.register,
  }),
  defineRoute({
    method: 'get',
    path: '/api/public/organization-search',
    access: 'anonymous',
    cors: true,
    summary: 'Registered organizations whose name contains the term (at least 2 characters), at most 10',
    tags,
    query: z.object({ term: z.optional(z.string().check(z.maxLength(200))) }),
    // A person typing a name searches often (300 ms after each pause).
    rateLimit: { ipFactor: 10 },
    responses: {
      200: { description: 'Matching organizations', schema: PublicOrganizationSearchResponse },
      429: error('Too many attempts'),
    },
    handler: handlers.search,
  }),
];

import { MessageResponse } from '../../../src/contract/auth.ts';
import {
  DeclineRequest,
  VerificationQueueResponse,
  VerificationResult,
  VerifyRequest,
  verificationMessages,
} from '../../../src/contract/verification.ts';
import { IdParams, orgFromIdParam } from '../../http/params.ts';
import { defineRoute } from '../../http/route.ts';
import * as verification from './verification.service.ts';

const error = (description: string) => ({ description, schema: MessageResponse });
const tags = ['verification'];

/** The verification queue: matches waiting on the nonprofit, and its bulk actions. */
export const verificationRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/organization/:id/verification',
    access: { level: 'read', capability: 'donations.view', org: orgFromIdParam },
    summary:
      "Matches waiting on the nonprofit (NPO to Verify), oldest first, grouped by company and CSR vendor, with the organization's chapters'",
    tags,
    params: IdParams,
    responses: { 200: { description: 'The queue', schema: VerificationQueueResponse } },
    handler: ({ deps, params }) => verification.verificationQueue(deps.db, params.id),
  }),
  defineRoute({
    method: 'post',
    path: '/api/organization/:id/verification/verify',
    access: { level: 'write', capability: 'donations.change', org: orgFromIdParam },
    summary: 'Mark queued matches verified: each moves on to Submitted (all or none)',
    tags,
    params: IdParams,
    body: VerifyRequest,
    responses: {
      200: { description: 'Verified', schema: VerificationResult },
      404: error('Donation not found'),
      409: error(verificationMessages.notInQueue),
    },
    handler: ({ deps, params, body, user }) =>
      verification.verifyMatches(deps.db, params.id, user.id, body, deps.clock.now()),
  }),
  defineRoute({
    method: 'post',
    path: '/api/organization/:id/verification/decline',
    access: { level: 'write', capability: 'donations.change', org: orgFromIdParam },
    summary: 'Decline queued matches with a reason, kept in their history (all or none)',
    tags,
    params: IdParams,
    body: DeclineRequest,
    responses: {
      200: { description: 'Declined', schema: VerificationResult },
      404: error('Donation not found'),
      409: error(verificationMessages.notInQueue),
    },
    handler: ({ deps, params, body, user }) =>
      verification.declineMatches(deps.db, params.id, user.id, body, deps.clock.now()),
  }),
];

import * as z from 'zod/mini';
import { MessageResponse } from '../../../src/contract/auth.ts';
import { donationMessages } from '../../../src/contract/donations.ts';
import {
  BulkCountersignRequest,
  BulkCountersignResponse,
  CountersignRequest,
  EsignFormResponse,
  EsignSignRequest,
  EsignSignResponse,
  EsignStateResponse,
  esignMessages,
} from '../../../src/contract/esign.ts';
import { IdParams } from '../../http/params.ts';
import { defineRoute } from '../../http/route.ts';
import { donationOrganization, donationsOrganizations } from '../donations/donations.service.ts';
import {
  countersign,
  countersignMany,
  deliverAgain,
  esignState,
  markPosted,
  resendLink,
  signForm,
  signingForm,
} from './esign.service.ts';

const error = (description: string) => ({ description, schema: MessageResponse });
const tags = ['esign'];

/** A signing link's token (a signed 'esign-link' token; anything else is a 404). */
const TokenParams = z.object({ token: z.string().check(z.minLength(1), z.maxLength(2000)) });

const orgOfDonation = {
  org: (input: { params: { id: number } }, db: Parameters<typeof donationOrganization>[0]) =>
    donationOrganization(db, input.params.id),
  unreachable: donationMessages.notFound,
} as const;

/**
 * Signed forms (issue #16): the donor's signing page behind `/sign/{token}` (public, any origin:
 * `<twofold-esign>` may be embedded), and the staff's side in the match dialog: the form's state
 * and audit trail, the countersignature (one match, or several for the verification queue), and
 * posting an original-signature packet. The packet itself is GET /donation/{id}/esign/download.
 */
export const esignRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/esign/:token',
    access: 'anonymous',
    cors: true,
    summary: 'The form a signing link opens (prefilled: donor, gift, company, nonprofit), or why it cannot',
    tags,
    params: TokenParams,
    rateLimit: { failuresOnly: true, bucket: 'esign-view' },
    responses: {
      200: {
        description: 'open (with the form), signed, expired, used or closed',
        schema: EsignFormResponse,
      },
      404: error(esignMessages.invalidLink),
    },
    handler: ({ deps, params }) => signingForm(deps, params.token),
  }),
  defineRoute({
    method: 'post',
    path: '/api/esign/:token',
    access: 'anonymous',
    cors: true,
    summary:
      'The donor signs (typed or drawn, with consent): the signed packet with its audit page is stored and the match moves to NPO to Verify/Sign. Once per link',
    tags,
    params: TokenParams,
    body: EsignSignRequest,
    rateLimit: { bucket: 'esign-sign' },
    responses: {
      200: { description: 'Signed', schema: EsignSignResponse },
      400: error('No consent, no signature, or an unreadable drawing'),
      404: error(esignMessages.invalidLink),
      409: error('The link has expired or was used, or the match no longer waits for a signature'),
    },
    handler: ({ deps, params, body, ip, c }) =>
      signForm(deps, params.token, body, { ip, userAgent: c.req.header('user-agent') ?? '' }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/esign/:token/resend',
    access: 'anonymous',
    cors: true,
    summary: "An expired or used signing link asks for a new one, emailed to the donor's address on file",
    tags,
    params: TokenParams,
    rateLimit: { bucket: 'esign-resend' },
    responses: {
      200: { description: 'A new link was emailed', schema: MessageResponse },
      404: error(esignMessages.invalidLink),
      409: error('Already signed, no longer waiting for a signature, or no donor email'),
    },
    handler: ({ deps, params }) => resendLink(deps, params.token),
  }),
  defineRoute({
    method: 'get',
    path: '/api/donation/:id/esign',
    access: { level: 'read', capability: 'donations.view', ...orgOfDonation },
    summary:
      "A match's signed form: where it stands, its audit trail, and its delivery to the company (with a preview)",
    tags,
    params: IdParams,
    responses: {
      200: { description: 'The signed form', schema: EsignStateResponse },
      404: error('Donation not found'),
    },
    handler: ({ deps, params }) => esignState(deps.db, params.id),
  }),
  defineRoute({
    method: 'post',
    path: '/api/donation/:id/esign/countersign',
    access: { level: 'write', capability: 'donations.change', ...orgOfDonation },
    summary:
      'The nonprofit countersigns a donor-signed form (typed or drawn); a company that takes forms by email is sent the packet, and the match moves to Submitted once it is delivered',
    tags,
    params: IdParams,
    body: CountersignRequest,
    responses: {
      200: { description: 'Countersigned', schema: EsignStateResponse },
      400: error('No signature, or an unreadable drawing'),
      404: error('Donation not found'),
      409: error(
        'Not signed by the donor yet, already countersigned, not at NPO to Verify/Sign, or a changed file',
      ),
    },
    handler: ({ deps, params, body, user, ip, c }) =>
      countersign(deps, params.id, user.id, body, { ip, userAgent: c.req.header('user-agent') ?? '' }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/donation/esign/countersign',
    access: {
      level: 'write',
      capability: 'donations.change',
      org: (input, db) => donationsOrganizations(db, input.body.donation_ids),
      unreachable: donationMessages.notFound,
    },
    summary:
      'Countersign several donor-signed forms at once with a typed signature (the verification queue); each is done or skipped with its reason',
    tags,
    body: BulkCountersignRequest,
    responses: {
      200: { description: 'What was countersigned and what was skipped', schema: BulkCountersignResponse },
      400: error('Bad body'),
      404: error('Donation not found'),
    },
    handler: ({ deps, body, user, ip, c }) =>
      countersignMany(deps, user.id, body, { ip, userAgent: c.req.header('user-agent') ?? '' }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/donation/:id/esign/deliver',
    access: { level: 'write', capability: 'donations.change', ...orgOfDonation },
    summary:
      "Send a countersigned packet to the company's forms email again (after a failed delivery, or a forms email added since)",
    tags,
    params: IdParams,
    responses: {
      200: { description: 'Queued', schema: EsignStateResponse },
      404: error('Donation not found'),
      409: error('Not countersigned, already delivered or on its way, no forms email, or a changed file'),
    },
    handler: ({ deps, params }) => deliverAgain(deps, params.id),
  }),
  defineRoute({
    method: 'post',
    path: '/api/donation/:id/esign/posted',
    access: { level: 'write', capability: 'donations.change', ...orgOfDonation },
    summary: 'Mark an Original Signature Only packet as posted to the company: the match moves to Submitted',
    tags,
    params: IdParams,
    responses: {
      200: { description: 'Posted', schema: EsignStateResponse },
      404: error('Donation not found'),
      409: error('Not at Original Signature Only, or already posted'),
    },
    handler: ({ deps, params, user }) => markPosted(deps, params.id, user.id),
  }),
];

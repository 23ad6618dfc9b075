import { MessageResponse } from '../../../src/contract/auth.ts';
import {
  ConfirmRequest,
  DonationListQuery,
  DonationListResponse,
  DonationResponse,
  DonationWrite,
  donationMessages,
} from '../../../src/contract/donations.ts';
import { IdParams, orgFromIdParam } from '../../http/params.ts';
import { defineRoute } from '../../http/route.ts';
import * as donations from './donations.service.ts';

const error = (description: string) => ({ description, schema: MessageResponse });
const tags = ['donations'];
/** Routes under /api/donation/{id} act on the donation's organization. */
const orgOfDonation = (
  input: { params: { id: number } },
  db: Parameters<typeof donations.donationOrganization>[0],
) => donations.donationOrganization(db, input.params.id);

export const donationsRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/organization/:id/donation',
    access: { level: 'read', capability: 'donations.view', org: orgFromIdParam },
    summary:
      "The organization's matches (with its chapters'), filtered, sorted and paged, with the tile counts",
    tags,
    params: IdParams,
    query: DonationListQuery,
    responses: {
      200: { description: 'One page of matches', schema: DonationListResponse },
      400: error('Bad query'),
    },
    handler: ({ deps, params, query }) => donations.listDonations(deps.db, params.id, query),
  }),
  defineRoute({
    method: 'post',
    path: '/api/organization/:id/donation',
    access: { level: 'write', capability: 'donations.change', org: orgFromIdParam },
    summary: 'Create a match; its status is resolved from the organization and the company',
    tags,
    params: IdParams,
    body: DonationWrite,
    successStatus: 201,
    responses: {
      201: { description: 'The new match', schema: DonationResponse },
      409: error('A donation with this transaction id already exists for this organization.'),
    },
    handler: ({ deps, params, body, user }) =>
      donations.createDonation(deps.db, params.id, user.id, body, 'staff', deps.notifier),
  }),
  defineRoute({
    method: 'post',
    path: '/api/donation/confirm',
    access: {
      level: 'write',
      capability: 'donations.change',
      org: (input, db) => donations.donationsOrganizations(db, input.body.donation_ids),
      unreachable: donationMessages.notFound,
    },
    summary: 'Mark matches Submitted, No Charge or Refunded (all or none)',
    tags,
    body: ConfirmRequest,
    responses: { 200: { description: 'Updated' }, 404: error('Donation not found') },
    handler: ({ deps, body, user }) => donations.confirmDonations(deps.db, user.id, body),
  }),
  defineRoute({
    method: 'get',
    path: '/api/donation/:id',
    access: {
      level: 'read',
      capability: 'donations.view',
      org: orgOfDonation,
      unreachable: donationMessages.notFound,
    },
    summary: 'One match',
    tags,
    params: IdParams,
    responses: {
      200: { description: 'The match', schema: DonationResponse },
      404: error('Donation not found'),
    },
    handler: ({ deps, params }) => donations.getDonation(deps.db, params.id),
  }),
  defineRoute({
    method: 'put',
    path: '/api/donation/:id',
    access: {
      level: 'write',
      capability: 'donations.change',
      org: orgOfDonation,
      unreachable: donationMessages.notFound,
    },
    summary: 'Update a match; reprocess (or a new company) resolves its status again',
    tags,
    params: IdParams,
    body: DonationWrite,
    responses: {
      200: { description: 'The match', schema: DonationResponse },
      404: error('Donation not found'),
      409: error('A donation with this transaction id already exists for this organization.'),
    },
    handler: ({ deps, params, body, user }) =>
      donations.updateDonation(deps.db, params.id, user.id, body, 'staff', deps.notifier),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/donation/:id',
    access: {
      level: 'write',
      capability: 'donations.change',
      org: orgOfDonation,
      unreachable: donationMessages.notFound,
    },
    summary: 'Delete a match',
    tags,
    params: IdParams,
    responses: { 200: { description: 'Deleted', schema: MessageResponse }, 404: error('Donation not found') },
    handler: ({ deps, params }) => donations.removeDonation(deps.db, params.id),
  }),
];

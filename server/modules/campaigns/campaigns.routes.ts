import { MessageResponse } from '../../../src/contract/auth.ts';
import {
  CampaignList,
  CampaignResponse,
  CampaignWrite,
  campaignTexts,
} from '../../../src/contract/campaigns.ts';
import { IdParams, orgFromIdParam } from '../../http/params.ts';
import { defineRoute } from '../../http/route.ts';
import * as campaigns from './campaigns.service.ts';

const error = (description: string) => ({ description, schema: MessageResponse });
const tags = ['campaigns'];
/** Routes under /api/campaigns/{id} act on the campaign's organization. */
const campaignAccess = {
  level: 'write',
  capability: 'campaigns.change',
  org: (input: { params: { id: number } }, db: Parameters<typeof campaigns.campaignOrganization>[0]) =>
    campaigns.campaignOrganization(db, input.params.id),
  unreachable: campaignTexts.notFound,
} as const;
const invalid = error(
  'A field is missing or wrong, the end date is before the start date, Min is above a Max other than 0, or the ratio does not parse',
);

export const campaignsRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/organization/:id/campaigns',
    access: { level: 'read', capability: 'organization.view', org: orgFromIdParam },
    summary: "The organization's matching campaigns, the latest first",
    tags,
    params: IdParams,
    responses: { 200: { description: 'The campaigns', schema: CampaignList } },
    handler: ({ deps, params }) => campaigns.listCampaigns(deps.db, params.id),
  }),
  defineRoute({
    method: 'post',
    path: '/api/organization/:id/campaigns',
    access: { level: 'write', capability: 'campaigns.change', org: orgFromIdParam },
    summary: 'Create a matching campaign: a company, its days, min and max (0: none) and match ratio',
    tags,
    params: IdParams,
    body: CampaignWrite,
    successStatus: 201,
    responses: { 201: { description: 'The new campaign', schema: CampaignResponse }, 400: invalid },
    handler: ({ deps, params, body }) => campaigns.createCampaign(deps.db, params.id, body),
  }),
  defineRoute({
    method: 'put',
    path: '/api/campaigns/:id',
    access: campaignAccess,
    summary: 'Change a campaign (gifts recorded or saved from then on take its new terms)',
    tags,
    params: IdParams,
    body: CampaignWrite,
    responses: {
      200: { description: 'The campaign', schema: CampaignResponse },
      400: invalid,
      404: error(campaignTexts.notFound),
    },
    handler: ({ deps, params, body }) => campaigns.updateCampaign(deps.db, params.id, body),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/campaigns/:id',
    access: campaignAccess,
    summary: 'Delete a campaign (estimates it made are kept)',
    tags,
    params: IdParams,
    responses: {
      200: { description: 'Deleted', schema: MessageResponse },
      404: error(campaignTexts.notFound),
    },
    handler: ({ deps, params }) => campaigns.removeCampaign(deps.db, params.id),
  }),
];

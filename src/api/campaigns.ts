import {
  CampaignList,
  CampaignResponse,
  type CampaignWrite,
  campaignPath,
  campaignsPath,
} from '../contract/campaigns.ts';
import { request, send } from './client.ts';

/** GET /api/organization/{id}/campaigns: the organization's campaigns, the latest first. */
export async function listCampaigns(orgId: number) {
  return (await request(CampaignList, campaignsPath(orgId).slice(1))).campaigns;
}

/** POST /api/organization/{id}/campaigns. Never retried: each call creates a campaign. */
export async function createCampaign(orgId: number, campaign: CampaignWrite) {
  return (
    await request(CampaignResponse, campaignsPath(orgId).slice(1), {
      method: 'post',
      json: campaign,
      retries: 0,
    })
  ).campaign;
}

/** PUT /api/campaigns/{id}. */
export async function updateCampaign(campaignId: number, campaign: CampaignWrite) {
  return (
    await request(CampaignResponse, campaignPath(campaignId).slice(1), { method: 'put', json: campaign })
  ).campaign;
}

/** DELETE /api/campaigns/{id}. */
export async function deleteCampaign(campaignId: number): Promise<void> {
  await send(campaignPath(campaignId).slice(1), { method: 'delete' });
}

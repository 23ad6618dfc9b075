import {
  type AuthorizationParams,
  ConnectedAppList,
  ConsentAnswer,
  type ConsentDecision,
  ConsentInfo,
  type PartnerAppInput,
  PartnerAppList,
  PartnerAppSecretIssued,
} from '../contract/oauth.ts';
import { request, send } from './client.ts';

/** Partner apps and their connections (issue #25). */

const params = (query: AuthorizationParams) =>
  Object.fromEntries(Object.entries(query).filter((e): e is [string, string] => typeof e[1] === 'string'));

/** What the consent page shows for an authorization request. */
export async function consentInfo(query: AuthorizationParams) {
  return request(ConsentInfo, 'api/oauth/authorization', { searchParams: params(query) });
}

/** The user's Allow or Deny: where to send the answer. */
export async function decide(decision: ConsentDecision) {
  return request(ConsentAnswer, 'api/oauth/authorization', { method: 'post', json: decision, retries: 0 });
}

export async function listConnectedApps(organizationId: number) {
  return (await request(ConnectedAppList, `api/organization/${organizationId}/connected-apps`)).apps;
}

export async function disconnectApp(organizationId: number, grantId: number) {
  await send(`api/organization/${organizationId}/connected-apps/${grantId}`, { method: 'delete' });
}

export async function listPartnerApps() {
  return (await request(PartnerAppList, 'api/partner-apps')).apps;
}

export async function createPartnerApp(input: PartnerAppInput) {
  return request(PartnerAppSecretIssued, 'api/partner-apps', { method: 'post', json: input, retries: 0 });
}

export async function rotatePartnerSecret(id: number) {
  return request(PartnerAppSecretIssued, `api/partner-apps/${id}/secret`, { method: 'post', retries: 0 });
}

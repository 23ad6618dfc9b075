import { type SendingDomainInput, SendingDomainResponse } from '../contract/sending-domain.ts';
import { request } from './client.ts';

const path = (orgId: number) => `api/organization/${orgId}/sending-domain`;

/** GET: the organization's donor email sender, its DNS records and their last check. */
export function getSendingDomain(orgId: number): Promise<SendingDomainResponse> {
  return request(SendingDomainResponse, path(orgId));
}

/** PUT: set the sender (admins). A new domain gets a new DKIM key and starts unverified. */
export function setSendingDomain(orgId: number, body: SendingDomainInput): Promise<SendingDomainResponse> {
  return request(SendingDomainResponse, path(orgId), { method: 'put', json: body });
}

/** DELETE: back to the platform address. */
export function removeSendingDomain(orgId: number): Promise<SendingDomainResponse> {
  return request(SendingDomainResponse, path(orgId), { method: 'delete' });
}

/** POST …/verify: look the records up now. */
export function verifySendingDomain(orgId: number): Promise<SendingDomainResponse> {
  return request(SendingDomainResponse, `${path(orgId)}/verify`, { method: 'post' });
}

/** POST …/rotate: publish a new DKIM key beside the current one. */
export function rotateSendingKey(orgId: number): Promise<SendingDomainResponse> {
  return request(SendingDomainResponse, `${path(orgId)}/rotate`, { method: 'post' });
}

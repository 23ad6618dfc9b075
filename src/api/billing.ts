import {
  BillsResponse,
  billingPortalPath,
  billsPath,
  type PlanId,
  subscribePath,
} from '../contract/billing.ts';
import { authToken } from '../state/token.ts';
import { getApiBase, request } from './client.ts';

/**
 * Subscriptions are browser navigations, not API calls: the server answers with redirects (to the
 * payment provider's checkout or portal, or back to /portal/billing). The access token travels in
 * the query, as the spec's URLs have it.
 */

function resolve(path: string): string {
  return new URL(path, `${getApiBase()}/`).toString();
}

/**
 * spec: "The browser opens /api/organization/{id}/subscribe/{plan}?token={token}", resolved
 * against the API base. null without a session token: spec: "a missing token on subscribe logs an
 * error and does nothing".
 */
export function subscribeUrl(organizationId: number, plan: PlanId): string | null {
  const token = authToken.value;
  if (!token) {
    console.error('Cannot subscribe: no authentication token in this session.');
    return null;
  }
  return resolve(subscribePath(organizationId, plan, token));
}

/** spec: "Billing portal link: /api/organization/{id}/billing-portal?token={token}". null without a token. */
export function billingPortalUrl(organizationId: number): string | null {
  const token = authToken.value;
  if (!token) {
    console.error('Cannot open the billing portal: no authentication token in this session.');
    return null;
  }
  return resolve(billingPortalPath(organizationId, token));
}

/** GET /api/organization/{id}/bills: the monthly bills of a per-match plan, newest first. */
export function listBills(organizationId: number): Promise<BillsResponse> {
  return request(BillsResponse, billsPath(organizationId).slice(1));
}

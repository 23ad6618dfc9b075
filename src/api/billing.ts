import {
  BillsResponse,
  billingPortalPath,
  billsPath,
  type PlanId,
  subscribePath,
} from '../contract/billing.ts';
import { currentToken } from '../state/token-store.ts';
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
 * A navigation URL carrying the session token (the spec's `?token=`), resolved against the API
 * base; null without a token: spec: "a missing token on subscribe logs an error and does nothing".
 */
function withToken(path: (token: string) => string, what: string): string | null {
  const token = currentToken();
  if (!token) {
    console.error(`Cannot ${what}: no authentication token in this session.`);
    return null;
  }
  return resolve(path(token));
}

/** spec: "The browser opens /api/organization/{id}/subscribe/{plan}?token={token}". */
export function subscribeUrl(organizationId: number, plan: PlanId): string | null {
  return withToken((token) => subscribePath(organizationId, plan, token), 'subscribe');
}

/** spec: "Billing portal link: /api/organization/{id}/billing-portal?token={token}". */
export function billingPortalUrl(organizationId: number): string | null {
  return withToken((token) => billingPortalPath(organizationId, token), 'open the billing portal');
}

/** GET /api/organization/{id}/bills: the monthly bills of a per-match plan, newest first. */
export function listBills(organizationId: number): Promise<BillsResponse> {
  return request(BillsResponse, billsPath(organizationId).slice(1));
}

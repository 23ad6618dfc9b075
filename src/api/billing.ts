import * as z from 'zod/mini';
import {
  BillsResponse,
  billsPath,
  InvoicesResponse,
  invoicesPath,
  type PlanId,
  SubscriptionResponse,
  subscriptionPath,
} from '../contract/billing.ts';
import { currentToken } from '../state/token-store.ts';
import { getApiBase, request } from './client.ts';

/**
 * Subscriptions are browser navigations, not API calls: the server answers with redirects (to the
 * payment provider's checkout or portal, or back to /portal/billing). The spec's URLs carry
 * `?token=`; that token is a five-minute link for the one navigation, fetched just before it
 * (GET billing-link, as the CSV links do), never the session token (issue #29).
 */

function resolve(path: string): string {
  return new URL(path, `${getApiBase()}/`).toString();
}

const LinkResponse = z.object({ url: z.string() });

/**
 * The navigation's address, resolved against the API base; null without a session: spec: "a
 * missing token on subscribe logs an error and does nothing".
 */
async function billingLink(
  organizationId: number,
  searchParams: Record<string, string>,
  what: string,
): Promise<string | null> {
  if (!currentToken()) {
    console.error(`Cannot ${what}: no authentication token in this session.`);
    return null;
  }
  const { url } = await request(LinkResponse, `api/organization/${organizationId}/billing-link`, {
    searchParams,
  });
  return resolve(url);
}

/** spec: "The browser opens /api/organization/{id}/subscribe/{plan}?token={token}". */
export function subscribeUrl(organizationId: number, plan: PlanId): Promise<string | null> {
  return billingLink(organizationId, { action: 'subscribe', plan }, 'subscribe');
}

/** spec: "Billing portal link: /api/organization/{id}/billing-portal?token={token}". */
export function billingPortalUrl(organizationId: number): Promise<string | null> {
  return billingLink(organizationId, { action: 'portal' }, 'open the billing portal');
}

/**
 * The portal link's own href, without a token: opened in a new tab it goes through sign-in back
 * to the billing screen; a plain click fetches a link instead (billingPortalUrl).
 */
export function billingPortalHref(organizationId: number): string {
  return resolve(`api/organization/${organizationId}/billing-portal`);
}

/** GET /api/organization/{id}/bills: the monthly bills of a per-match plan, newest first. */
export function listBills(organizationId: number): Promise<BillsResponse> {
  return request(BillsResponse, billsPath(organizationId).slice(1));
}

/** GET /api/organization/{id}/invoices (admins): the Stripe invoices, newest first. */
export function listInvoices(organizationId: number): Promise<InvoicesResponse> {
  return request(InvoicesResponse, invoicesPath(organizationId).slice(1));
}

/** GET /api/organization/{id}/subscription (admins): the subscription's Stripe status. */
export function getSubscription(organizationId: number): Promise<SubscriptionResponse> {
  return request(SubscriptionResponse, subscriptionPath(organizationId).slice(1));
}

import {
  OrganizationResponse,
  OrganizationSearchResponse,
  type OrganizationSummary,
} from '../contract/organization.ts';
import { request } from './client.ts';
/** GET /api/organization/{id}: the organization, the ones reachable from it, the caller's level. */
export function getOrganization(id: number): Promise<OrganizationResponse> {
  return request(OrganizationResponse, `api/organization/${encodeURIComponent(String(id))}`);
}

/** GET /api/search/organization?term= */
export async function searchOrganizations(term: string): Promise<OrganizationSummary[]> {
  const result = await request(OrganizationSearchResponse, 'api/search/organization', {
    searchParams: { term },
  });
  return result.organizations;
}

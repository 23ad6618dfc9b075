import { PublicCompanySearchResponse } from '../contract/company-lookup.ts';
import { request } from './client.ts';

/**
 * The public employer lookup: anonymous calls, cross-origin from a partner's page (`api-base`).
 * Its own module keeps the staff schemas out of the public elements.
 */

/** GET /api/public/companies?q=: companies whose name contains the text, with their public programme. */
export async function lookupCompanies(q: string) {
  return (
    await request(PublicCompanySearchResponse, 'api/public/companies', {
      searchParams: { q },
      authenticated: false,
    })
  ).companies;
}

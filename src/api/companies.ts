import { CompanyRef, type CompanySearchEntry, CompanySearchResponse } from '../contract/companies.ts';
import { request } from './client.ts';

/**
 * GET /search/company-name/{text}?exclude=false&other=true (spec), for the staff dialog and the
 * donor-facing forms alike; its own module keeps the staff schemas out of the public elements.
 * spec (section 8): "a failed company search returns empty names".
 */
export async function searchCompanies(text: string): Promise<CompanySearchEntry[]> {
  try {
    const { names } = await request(
      CompanySearchResponse,
      `search/company-name/${encodeURIComponent(text)}`,
      {
        searchParams: { exclude: 'false', other: 'true' },
        authenticated: false,
      },
    );
    return names;
  } catch {
    return [];
  }
}

/** GET /api/public/companies/{id} (the public employer lookup): a preselected `company-id`'s name. */
export function publicCompanyName(id: number) {
  return request(CompanyRef, `api/public/companies/${id}`, { authenticated: false });
}

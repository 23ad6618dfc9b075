import { CompanyRef, type CompanySearchEntry, CompanySearchResponse } from '../contract/companies.ts';
import { EmployerSuggestion } from '../contract/employers.ts';
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

/**
 * GET /api/public/employer-suggestion (issue #31): the catalogue company the donor's email domain
 * names, for the match request's "Is this your employer?"; none when the call fails.
 */
export async function employerSuggestion(email: string): Promise<EmployerSuggestion> {
  try {
    return await request(EmployerSuggestion, 'api/public/employer-suggestion', {
      searchParams: { email },
      authenticated: false,
    });
  } catch {
    return { company: null, reason: null };
  }
}

import * as z from 'zod/mini';
import { type ImportMap, ImportTestResponse, ImportUploadResponse } from '../contract/donation-import.ts';
import { type DonationListQuery, DonationListResponse } from '../contract/donations.ts';
import { ApiError, getApiBase, request } from './client.ts';

/**
 * The donations list screen's calls (spec part 2, section 7, Donations): the list, the CSV
 * export token and the two import steps. One donation's own calls live in donations.ts.
 */

/** The list query as sent: `filters[...]` keys flattened, blanks left out. */
export type DonationListParams = Omit<DonationListQuery, '_token'>;

function searchParams(query: DonationListParams): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (typeof value === 'string' && value !== '') params.set(key, value);
  }
  return params;
}

/** GET /api/organization/{id}/donation: one page, the total and the tile counts. */
export function listDonations(orgId: number, query: DonationListParams): Promise<DonationListResponse> {
  return request(DonationListResponse, `api/organization/${orgId}/donation`, {
    searchParams: searchParams(query),
  });
}

const CsvTokenResponse = z.object({ url: z.string() });

/**
 * GET /api/donation/{orgId}/csv-token with the list's query. spec: "Response: url, opened in a new
 * tab; a 401 yields null." The url is a path on the API with a short-lived token in it; the answer
 * is absolute (against the API base) so a new tab can open it.
 */
export async function csvExportUrl(orgId: number, query: DonationListParams): Promise<string | null> {
  try {
    const { url } = await request(CsvTokenResponse, `api/donation/${orgId}/csv-token`, {
      searchParams: searchParams(query),
    });
    return new URL(url, `${getApiBase()}/`).toString();
  } catch (error) {
    // The client has already signed the user out and sent them to the login page.
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export interface ImportTestInput {
  file: File;
  sendOptInEmail: boolean;
  emailForEmployer: boolean;
  /** A mapping to check instead of the proposed one (the mapper re-checks after each change). */
  map?: ImportMap;
}

/**
 * POST /api/organization/{id}/donation/import-file/Test (multipart). Reads the file and answers
 * the proposed mapping, a sample and what an upload would do; nothing is written.
 */
export function testImport(orgId: number, input: ImportTestInput): Promise<ImportTestResponse> {
  const body = new FormData();
  body.set('donations', input.file);
  if (input.sendOptInEmail) body.set('sendOptInEmail', 'true');
  if (input.emailForEmployer) body.set('emailForEmployer', 'true');
  if (input.map) body.set('map', JSON.stringify(input.map));
  return request(ImportTestResponse, `api/organization/${orgId}/donation/import-file/Test`, {
    method: 'post',
    body,
  });
}

export interface ImportUploadInput {
  file: File;
  map: ImportMap;
  /** The upload dialog's 'send opt-in email' choice, as the mapper leaves it. */
  optIn: boolean;
  /** The upload dialog's 'email for employer' choice, as the mapper leaves it. */
  noCompany: boolean;
}

/**
 * POST /api/organization/{id}/donation/import-file/Upload. spec: "form data: donations,
 * type=Upload, opt_in, no_company, map (JSON of source to target)". opt_in and no_company are the
 * upload dialog's sendOptInEmail and emailForEmployer under the names the Upload call reads.
 */
export function uploadImport(orgId: number, input: ImportUploadInput): Promise<ImportUploadResponse> {
  const body = new FormData();
  body.set('donations', input.file);
  body.set('type', 'Upload');
  body.set('opt_in', String(input.optIn));
  body.set('no_company', String(input.noCompany));
  body.set('map', JSON.stringify(input.map));
  return request(ImportUploadResponse, `api/organization/${orgId}/donation/import-file/Upload`, {
    method: 'post',
    body,
  });
}

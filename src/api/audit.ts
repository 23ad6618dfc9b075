import * as z from 'zod/mini';
import { type AuditFilters, AuditPage } from '../contract/audit.ts';
import { ApiError, getApiBase, request } from './client.ts';

/** The audit log's calls (issue #24): one page of the log, and the link to its CSV. */

function searchParams(query: Record<string, string | undefined>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  return params;
}

/** GET /api/organization/{id}/audit-events: a page, newest first, after `cursor`. */
export function listAuditEvents(
  orgId: number,
  filters: AuditFilters,
  cursor?: string | null,
): Promise<AuditPage> {
  return request(AuditPage, `api/organization/${orgId}/audit-events`, {
    searchParams: searchParams({ ...filters, cursor: cursor ?? undefined }),
  });
}

const CsvTokenResponse = z.object({ url: z.string() });

/**
 * GET /api/organization/{id}/audit-events/csv-token: the CSV's five-minute link for the same
 * filters, absolute so a new tab can open it; null after a 401 (the client has signed out).
 */
export async function auditCsvUrl(orgId: number, filters: AuditFilters): Promise<string | null> {
  try {
    const { url } = await request(CsvTokenResponse, `api/organization/${orgId}/audit-events/csv-token`, {
      searchParams: searchParams(filters),
    });
    return new URL(url, `${getApiBase()}/`).toString();
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

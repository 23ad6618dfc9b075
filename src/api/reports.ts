import * as z from 'zod/mini';
import {
  type ReportFormat,
  ReportResponse,
  ReportsResponse,
  type ReportWrite,
  reportPath,
  reportsPath,
} from '../contract/reports.ts';
import { getApiBase, request, send } from './client.ts';

/** spec: "GET /api/organization/{id}/reports. Response: reports, sharedReports." */
export function listReports(orgId: number): Promise<ReportsResponse> {
  return request(ReportsResponse, reportsPath(orgId).slice(1));
}

/** spec: "POST /api/organization/{id}/reports saves a report (body as the report entity)." */
export async function saveReport(orgId: number, report: ReportWrite) {
  return (await request(ReportResponse, reportsPath(orgId).slice(1), { method: 'post', json: report }))
    .report;
}

/** spec: "DELETE /api/reports/{id}." */
export async function deleteReport(reportId: number): Promise<void> {
  await send(reportPath(reportId).slice(1), { method: 'delete' });
}

const LinkResponse = z.object({ url: z.string() });

/**
 * spec: "GET /api/donation/{orgId}/csv-token?report_id={id}. Response: url; the browser navigates
 * to it." The url is made absolute against the API base.
 */
export async function reportDownloadUrl(
  orgId: number,
  reportId: number,
  format: ReportFormat,
): Promise<string> {
  const { url } = await request(LinkResponse, `api/donation/${orgId}/csv-token`, {
    searchParams: { report_id: String(reportId), format },
  });
  return new URL(url, `${getApiBase()}/`).toString();
}

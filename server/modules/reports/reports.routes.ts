import * as z from 'zod/mini';
import { MessageResponse } from '../../../src/contract/auth.ts';
import { ReportResponse, ReportsResponse, ReportWrite, reportTexts } from '../../../src/contract/reports.ts';
import { IdParams, orgFromIdParam } from '../../http/params.ts';
import { defineRoute } from '../../http/route.ts';
import { auditBy } from '../audit/audit.ts';
import { csvMessages } from '../donations/export.ts';
import * as reports from './reports.service.ts';

const error = (description: string) => ({ description, schema: MessageResponse });
const tags = ['reports'];

const DownloadQuery = z.object({
  token: z.string().check(z.minLength(1, 'token is required'), z.maxLength(8192)),
});

export const reportsRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/organization/:id/reports',
    access: { level: 'read', capability: 'donations.view', org: orgFromIdParam },
    summary: "The caller's own reports of the organization, and the ones shared with it",
    tags,
    params: IdParams,
    responses: { 200: { description: 'reports and sharedReports', schema: ReportsResponse } },
    handler: ({ deps, params, user }) => reports.listReports(deps.db, params.id, user.id),
  }),
  defineRoute({
    method: 'post',
    path: '/api/organization/:id/reports',
    access: { level: 'write', capability: 'reports.change', org: orgFromIdParam },
    summary: 'Save a report: without an id (or 0) a new one, with an id that report',
    tags,
    params: IdParams,
    body: ReportWrite,
    responses: {
      200: { description: 'The saved report', schema: ReportResponse },
      400: error('Report name is required / You must select at least one column / a bad filter'),
      404: error(reportTexts.notFound),
    },
    handler: ({ deps, params, body, user }) => reports.saveReport(deps.db, params.id, user.id, body),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/reports/:id',
    access: {
      level: 'write',
      capability: 'reports.change',
      org: (input, db) => reports.reportOrganization(db, input.params.id),
      unreachable: reportTexts.notFound,
    },
    summary: 'Delete a report',
    tags,
    params: IdParams,
    responses: { 200: { description: 'Deleted', schema: MessageResponse }, 404: error(reportTexts.notFound) },
    handler: async ({ deps, params, user }) =>
      reports.removeReport(deps.db, params.id, await reports.reportOrganization(deps.db, params.id), user.id),
  }),
  defineRoute({
    method: 'get',
    path: '/api/reports/:id/download',
    // Opened by the browser without the bearer token: the signed 'csv-link' token in the query is
    // the credential, checked by the router and the guard like a bearer token (read on the report's
    // organization); the handler checks that the link names this report and that it is visible.
    access: {
      level: 'read',
      capability: 'donations.view',
      org: (input, db) => reports.reportOrganization(db, input.params.id),
      unreachable: reportTexts.notFound,
    },
    tokenInQuery: { purpose: 'csv-link', refused: csvMessages.expired },
    summary: 'The file a csv-token?report_id= link points at (CSV streamed, or XLSX)',
    tags,
    params: IdParams,
    query: DownloadQuery,
    responses: {
      200: { description: 'text/csv or .xlsx' },
      401: error('The link has expired or is not valid'),
      403: error('The link is for another organization, or its user may no longer read it'),
      404: error(reportTexts.notFound),
      413: error('Too many rows for XLSX'),
    },
    handler: (ctx) =>
      reports.reportDownload(ctx.deps.db, ctx.params.id, ctx.token, ctx.user.id, auditBy(ctx)),
  }),
];

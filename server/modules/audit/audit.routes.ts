import * as z from 'zod/mini';
import { AuditFilters, AuditListQuery, AuditPage } from '../../../src/contract/audit.ts';
import { MessageResponse } from '../../../src/contract/auth.ts';
import { IdParams, orgFromIdParam } from '../../http/params.ts';
import { defineRoute } from '../../http/route.ts';
import { csvMessages } from '../donations/export.ts';
import { auditCsvDownload, auditCsvLink, listAuditEvents } from './audit.service.ts';
import { auditBy } from './audit.ts';

const error = (description: string) => ({ description, schema: MessageResponse });
const tags = ['audit'];
/** The log is the organization's admins' (and super users', who act as admin everywhere). */
const access = { level: 'admin', org: orgFromIdParam } as const;
const CsvQuery = z.object({
  token: z.string().check(z.minLength(1, 'token is required'), z.maxLength(8192)),
});

export const auditRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/organization/:id/audit-events',
    access,
    summary:
      "The organization's audit log, newest first: its entries and its members' sign-ins and second-factor changes, filtered by person, kind and days (UTC), one page per cursor",
    tags,
    params: IdParams,
    query: AuditListQuery,
    responses: {
      200: { description: 'One page and the next page’s cursor', schema: AuditPage },
      400: error('A bad filter, a reversed date range or a cursor this log did not hand out'),
    },
    handler: ({ deps, params, query, user }) =>
      listAuditEvents(deps.db, { orgId: params.id, superUser: user.globalPermission }, query),
  }),
  defineRoute({
    method: 'get',
    path: '/api/organization/:id/audit-events/csv-token',
    access,
    summary: 'A five-minute link to the CSV of the audit log for the same filters',
    tags,
    params: IdParams,
    query: AuditFilters,
    responses: {
      200: { description: 'The link to open', schema: z.object({ url: z.string() }) },
      400: error('A bad filter or a reversed date range'),
    },
    handler: ({ deps, params, query, user }) =>
      auditCsvLink(deps.config.jwtSecret, user.id, params.id, query),
  }),
  defineRoute({
    method: 'get',
    path: '/api/organization/:id/audit-events/csv',
    access,
    // Opened in a new tab without the bearer token: the signed 'csv-link' token is the credential.
    tokenInQuery: { purpose: 'csv-link', refused: csvMessages.expired },
    summary:
      'The CSV file an audit log csv-token link points at (streamed, UTF-8 with BOM); the download is itself recorded',
    tags,
    params: IdParams,
    query: CsvQuery,
    responses: {
      200: { description: 'text/csv' },
      401: error('The link has expired, is not valid, or is another download’s'),
      403: error('The link is for another organization, or its user is no longer an admin of it'),
    },
    handler: (ctx) =>
      auditCsvDownload(
        ctx.deps.db,
        { orgId: ctx.params.id, superUser: ctx.user.globalPermission },
        ctx.token,
        auditBy(ctx),
      ),
  }),
];

import * as z from 'zod/mini';
import { MessageResponse } from '../../../src/contract/auth.ts';
import {
  ImportTestResponse,
  ImportUploadResponse,
  importMessages,
  maxImportBytes,
} from '../../../src/contract/donation-import.ts';
import { DonationListQuery, donationMessages } from '../../../src/contract/donations.ts';
import { queryId } from '../../../src/contract/fields.ts';
import { reportFormats } from '../../../src/contract/reports.ts';
import { HttpError } from '../../http/errors.ts';
import { IdParams, orgFromIdParam } from '../../http/params.ts';
import { defineRoute } from '../../http/route.ts';
import { auditBy } from '../audit/audit.ts';
import { currentPacket } from '../esign/esign.service.ts';
import { reportLink } from '../reports/reports.service.ts';
import { donationOrganization } from './donations.service.ts';
import { csvDownload, csvLink, csvMessages } from './export.ts';
import { formFlag, testImport, uploadImport, uploadType } from './import.ts';

/**
 * The donations list's files: the CSV export (a signed link, then the streamed file), the e-sign
 * packet PDF, and the donation file import (Test, then Upload).
 */

const error = (description: string) => ({ description, schema: MessageResponse });
const tags = ['donations'];

/**
 * The csv-token query: the list's filters, or (spec: "GET /api/donation/{orgId}/csv-token?report_id={id}")
 * a saved report of the organization, as CSV or (ours) XLSX.
 */
const CsvTokenQuery = z.extend(DonationListQuery, {
  report_id: z.optional(queryId('report_id must be a report id')),
  format: z.optional(z.enum(reportFormats, 'format must be csv or xlsx')),
});

const CsvQuery = z.object({
  token: z.string().check(z.minLength(1, 'token is required'), z.maxLength(8192)),
});

const flag = z.optional(z.string().check(z.maxLength(10)));
/** The multipart form of both import calls (spec: "form data: donations file, …, map"). */
const ImportForm = z.object({
  donations: z.custom<File>((value) => value instanceof File, importMessages.missingFile),
  map: z.optional(z.string().check(z.maxLength(100_000))),
  type: z.optional(z.string().check(z.maxLength(20))),
  opt_in: flag,
  no_company: flag,
  sendOptInEmail: flag,
  emailForEmployer: flag,
});
type ImportForm = z.infer<typeof ImportForm>;

const importOptions = (form: ImportForm) => ({
  optIn: formFlag(form.opt_in) || formFlag(form.sendOptInEmail),
  noCompany: formFlag(form.no_company) || formFlag(form.emailForEmployer),
});

// The multipart envelope around a 10 MB file needs a little room.
const importBodyLimit = { bytes: maxImportBytes + 64 * 1024, message: importMessages.tooLarge };

const packetRoute = (path: string) =>
  defineRoute({
    method: 'get',
    path,
    access: {
      level: 'read',
      capability: 'donations.view',
      org: (input, db) => donationOrganization(db, input.params.id),
      unreachable: donationMessages.notFound,
    },
    summary:
      'The current packet of a match: signed (and countersigned) once signed, after its SHA-256 check; the print packet with a cover letter at Original Signature Only; otherwise the packet with signature fields, for e-sign, paper or mail companies at status 1 or 4',
    tags,
    params: IdParams,
    responses: {
      200: { description: 'application/pdf, saved as donation-{id}-esign.pdf' },
      404: error('Donation not found'),
      409: error(
        'Not an e-sign, paper or mail company, not at status 1 or 4, or a signed file that fails its SHA-256 check',
      ),
    },
    handler: ({ deps, params }) => currentPacket(deps, params.id),
  });

export const donationsIoRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/donation/:id/csv-token',
    access: { level: 'read', capability: 'donations.view', org: orgFromIdParam },
    summary:
      "A five-minute link to the CSV of the organization's matches (with its chapters'), for the list's filters; {id} is the organization",
    tags,
    params: IdParams,
    query: CsvTokenQuery,
    responses: {
      200: { description: 'The link to open', schema: z.object({ url: z.string() }) },
      400: error('Bad query'),
      404: error('Report not found'),
    },
    handler: ({ deps, params, query, user }) => {
      const { report_id, format, ...filters } = query;
      // The list's export is CSV only (PostgreSQL's COPY); a workbook is a saved report's. Asked
      // for one without a report, say so rather than hand back a CSV named as asked.
      if (report_id === undefined && format === 'xlsx') throw new HttpError(400, csvMessages.xlsxNeedsReport);
      return report_id === undefined
        ? csvLink(deps.db, deps.config.jwtSecret, user.id, params.id, filters)
        : reportLink(deps.db, deps.config.jwtSecret, user.id, params.id, Number(report_id), format ?? 'csv');
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/donation/:id/csv',
    // The link is opened in a new tab, without the bearer token: the signed 'csv-link' token in
    // the query is the credential, checked by the router and guard like a bearer token.
    access: { level: 'read', capability: 'donations.view', org: orgFromIdParam },
    tokenInQuery: { purpose: 'csv-link', refused: csvMessages.expired },
    summary: 'The CSV file a csv-token link points at (streamed, UTF-8 with BOM)',
    tags,
    params: IdParams,
    query: CsvQuery,
    responses: {
      200: { description: 'text/csv' },
      401: error('The link has expired or is not valid'),
      403: error('The link is for another organization, or its user may no longer read it'),
      404: error('Organization with id {id} not found (its user has lost access)'),
    },
    handler: (ctx) => csvDownload(ctx.deps.db, ctx.params.id, ctx.token, auditBy(ctx)),
  }),
  // spec: "GET /donation/{id}/esign/download (binary)" (no /api prefix); the portal calls the
  // /api form with its bearer token.
  packetRoute('/donation/:id/esign/download'),
  packetRoute('/api/donation/:id/esign/download'),
  defineRoute({
    method: 'post',
    path: '/api/organization/:id/donation/import-file/Test',
    access: { level: 'write', capability: 'donations.change', org: orgFromIdParam },
    summary:
      'Read a donation file (.csv, .xlsx, .xls; up to 4000 rows): the proposed (or given) map, a sample, and what an upload would do. Writes nothing',
    tags,
    params: IdParams,
    body: ImportForm,
    bodyKind: 'multipart',
    bodyLimit: importBodyLimit,
    responses: {
      200: { description: 'The map, sample and row check', schema: ImportTestResponse },
      400: error(
        'Unsupported file type, no column names, more than 4000 rows, more than 100,000 rows, 1,000 columns or 2,000,000 cells, a damaged workbook, or a bad map',
      ),
      413: error(
        'Over 10 MB, a workbook that unpacks past 100 MB, or a file that needs too much memory or time to read',
      ),
      429: error(importMessages.busy),
    },
    handler: ({ deps, params, body }) =>
      testImport(deps.db, params.id, body.donations, body.map, importOptions(body)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/organization/:id/donation/import-file/Upload',
    access: { level: 'write', capability: 'donations.change', org: orgFromIdParam },
    summary:
      'Create the matches of a donation file with a map (all in one transaction); duplicates and unreadable rows are skipped and reported',
    tags,
    params: IdParams,
    body: ImportForm,
    bodyKind: 'multipart',
    bodyLimit: importBodyLimit,
    responses: {
      200: { description: 'What was created', schema: ImportUploadResponse },
      400: error('A mapping error, unsupported file type, no column names or more than 4000 rows'),
      409: error('Another upload created some of these donations meanwhile'),
      413: error(
        'Over 10 MB, a workbook that unpacks past 100 MB, or a file that needs too much memory or time to read',
      ),
      429: error(importMessages.busy),
    },
    handler: ({ deps, params, body, user }) => {
      uploadType(body.type);
      return uploadImport(
        deps.db,
        params.id,
        user.id,
        body.donations,
        body.map,
        importOptions(body),
        deps.notifier,
        deps.logger,
      );
    },
  }),
];

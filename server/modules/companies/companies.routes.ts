import * as z from 'zod/mini';
import { MessageResponse } from '../../../src/contract/auth.ts';
import { CompanySearchQuery, CompanySearchResponse } from '../../../src/contract/companies.ts';
import {
  CompanyList,
  CompanyListQuery,
  CompanyProgramme,
  CompanySuggestionBody,
  CompanySuggestionList,
  CompanyWithHistory,
  ReviewBody,
} from '../../../src/contract/company-admin.ts';
import { PublicCompany, PublicCompanySearchResponse } from '../../../src/contract/company-lookup.ts';
import { IdParams } from '../../http/params.ts';
import { defineRoute } from '../../http/route.ts';
import { auditBy } from '../audit/audit.ts';
import { exportCatalogue, importCatalogue } from './catalogue-file.ts';
import { searchCompanyNames } from './companies.service.ts';
import * as programme from './company-programme.service.ts';

const error = (description: string) => ({ description, schema: MessageResponse });

export const companiesRoutes = [
  defineRoute({
    method: 'get',
    path: '/search/company-name/:text',
    // Donors use it on the match forms, signed in or not.
    access: 'anonymous',
    // The donor edit element and the public matching page search from nonprofits' own sites.
    cors: true,
    summary: 'Companies whose name starts with or contains the text (at least 3 characters), at most 20',
    tags: ['companies'],
    params: z.object({ text: z.string().check(z.maxLength(200, 'The search text is too long')) }),
    query: CompanySearchQuery,
    // A person typing a name searches often (300 ms after each pause).
    rateLimit: { ipFactor: 10 },
    responses: {
      200: { description: 'Matching companies, then the typed text as Other', schema: CompanySearchResponse },
      400: error('Type at least 3 characters to search companies.'),
      429: error('Too many attempts'),
    },
    handler: ({ deps, params, query }) =>
      searchCompanyNames(deps.db, params.text, {
        exclude: query.exclude === 'true',
        other: query.other === 'true',
      }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/companies',
    // The catalogue is shared by every organization: any signed-in staff member reads it.
    access: 'authenticated',
    summary: 'The companies catalogue, a page at a time (25), optionally those whose name contains q',
    tags: ['companies'],
    query: CompanyListQuery,
    responses: { 200: { description: 'A page of companies and the total', schema: CompanyList } },
    handler: ({ deps, query }) => programme.listCompanies(deps.db, query.q, Number(query.page ?? '1')),
  }),
  defineRoute({
    method: 'get',
    path: '/api/companies/:id',
    access: 'authenticated',
    summary: "A company's programme and its history: who changed what, when",
    tags: ['companies'],
    params: IdParams,
    responses: {
      200: { description: 'The company and its history, newest first', schema: CompanyWithHistory },
      404: error('Company with id {id} not found'),
    },
    handler: ({ deps, params }) => programme.companyWithHistory(deps.db, params.id),
  }),
  defineRoute({
    method: 'put',
    path: '/api/companies/:id',
    // The catalogue serves every nonprofit: only super users change it (staff suggest corrections).
    access: 'super',
    summary: "Save a company's programme (super users); the changed fields go to its history",
    tags: ['companies'],
    params: IdParams,
    body: CompanyProgramme,
    responses: {
      200: { description: 'The saved company and its history', schema: CompanyWithHistory },
      400: error('The field or rule that is not met'),
      403: error('Super users only'),
      404: error('Company with id {id} not found'),
    },
    handler: (ctx) => programme.saveCompany(ctx.deps.db, ctx.params.id, ctx.body, ctx.user.id, auditBy(ctx)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/companies/:id/suggestions',
    access: 'authenticated',
    summary: "Suggest a correction to a company's programme, for a super user to review",
    tags: ['companies'],
    params: IdParams,
    body: CompanySuggestionBody,
    successStatus: 201,
    responses: {
      201: { description: 'Waiting for review' },
      400: error('Change at least one field to suggest a correction.'),
      404: error('Company with id {id} not found'),
    },
    handler: ({ deps, params, body, user }) => programme.suggestCorrection(deps.db, params.id, body, user.id),
  }),
  defineRoute({
    method: 'get',
    path: '/api/company-suggestions',
    access: 'super',
    summary: 'The review queue: pending suggested corrections, oldest first, beside the values today',
    tags: ['companies'],
    responses: {
      200: { description: 'Pending suggestions', schema: CompanySuggestionList },
      403: error('Super users only'),
    },
    handler: ({ deps }) => programme.pendingSuggestions(deps.db),
  }),
  defineRoute({
    method: 'post',
    path: '/api/company-suggestions/:id/accept',
    access: 'super',
    summary: 'Accept a suggestion: its values are applied to the company, with history',
    tags: ['companies'],
    params: IdParams,
    body: ReviewBody,
    bodyKind: 'optional-json',
    responses: {
      200: { description: 'Applied', schema: MessageResponse },
      400: error('The suggestion no longer fits the programme'),
      404: error('Suggestion with id {id} not found'),
      409: error('This suggestion has already been reviewed.'),
    },
    handler: (ctx) =>
      programme.acceptSuggestion(ctx.deps.db, ctx.params.id, ctx.user.id, ctx.body.note, auditBy(ctx)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/company-suggestions/:id/reject',
    access: 'super',
    summary: 'Reject a suggestion, with a note; the company is unchanged',
    tags: ['companies'],
    params: IdParams,
    body: ReviewBody,
    bodyKind: 'optional-json',
    responses: {
      200: { description: 'Rejected', schema: MessageResponse },
      404: error('Suggestion with id {id} not found'),
      409: error('This suggestion has already been reviewed.'),
    },
    handler: ({ deps, params, body, user }) =>
      programme.rejectSuggestion(deps.db, params.id, user.id, body.note),
  }),
  defineRoute({
    method: 'get',
    path: '/api/public/companies',
    // The public employer lookup (/companies and <twofold-company-lookup> on nonprofits' sites).
    access: 'anonymous',
    cors: true,
    summary:
      'Public: companies whose name contains q (at least 3 characters), at most 20, with their public programme',
    tags: ['companies'],
    query: z.object({ q: z.string().check(z.maxLength(200, 'The search text is too long')) }),
    // A person typing a name searches often (300 ms after each pause).
    rateLimit: { ipFactor: 10, bucket: 'public-company-lookup' },
    responses: {
      200: { description: 'Matching companies and how they match', schema: PublicCompanySearchResponse },
      400: error('Type at least 3 characters to search companies.'),
      429: error('Too many attempts'),
    },
    handler: ({ deps, query }) => programme.lookupCompanies(deps.db, query.q),
  }),
  defineRoute({
    method: 'get',
    path: '/api/public/companies/:id',
    // <twofold-match-request company-id="..."> names its preselected company with it.
    access: 'anonymous',
    cors: true,
    summary: 'Public: one company and how it matches gifts (the public programme fields)',
    tags: ['companies'],
    params: IdParams,
    rateLimit: { ipFactor: 10, bucket: 'public-company-lookup' },
    responses: {
      200: { description: 'The company', schema: PublicCompany },
      404: error('Company with id {id} not found'),
      429: error('Too many attempts'),
    },
    handler: ({ deps, params }) => programme.publicCompany(deps.db, params.id),
  }),
  defineRoute({
    method: 'get',
    path: '/api/company-catalogue',
    // Issue 31: the catalogue as a file, the same columns as the import takes (docs/companies-catalogue.md).
    access: 'super',
    summary: 'The whole companies catalogue as CSV or XLSX (super users), the columns the import takes',
    tags: ['companies'],
    query: z.object({ format: z.optional(z.enum(['csv', 'xlsx'])) }),
    responses: { 200: { description: 'text/csv or .xlsx' } },
    handler: ({ deps, query }) => exportCatalogue(deps.db, query.format ?? 'csv'),
  }),
  defineRoute({
    method: 'post',
    path: '/api/company-catalogue',
    access: 'super',
    summary:
      'Import a catalogue file (CSV or XLSX, super users): every row checked first, nothing written unless all are valid; companies created or updated by name with history',
    tags: ['companies'],
    body: z.object({
      file: z.custom<File>((value) => value instanceof File, 'Choose a CSV or XLSX file'),
    }),
    bodyKind: 'multipart',
    bodyLimit: { bytes: 20 * 1024 * 1024, message: 'The file is larger than 20 MB' },
    responses: {
      200: {
        description: 'What the import did',
        schema: z.object({
          message: z.string(),
          created: z.number(),
          updated: z.number(),
          unchanged: z.number(),
          errors: z.array(z.object({ row: z.number(), reason: z.string() })),
        }),
      },
      400: error('Nothing was imported: the rows with problems, each named'),
    },
    handler: (ctx) => importCatalogue(ctx.deps.db, ctx.user.id, ctx.body.file, auditBy(ctx)),
  }),
];

import * as z from 'zod/mini';
import {
  CompanyList,
  type CompanyProgramme,
  type CompanySuggestionBody,
  CompanySuggestionList,
  CompanyWithHistory,
} from '../contract/company-admin.ts';
import { MessageResponse } from '../contract/index.ts';
import { download, request } from './client.ts';

/** GET /api/companies: a page of the catalogue, optionally searched by name. */
export function listCompanies(q: string, page: number) {
  const searchParams: Record<string, string> = { page: String(page) };
  if (q.trim()) searchParams.q = q.trim();
  return request(CompanyList, 'api/companies', { searchParams });
}

/** GET /api/companies/{id}: the company and its history. */
export function getCompany(id: number) {
  return request(CompanyWithHistory, `api/companies/${id}`);
}

/** PUT /api/companies/{id} (super users). */
export function saveCompany(id: number, programme: CompanyProgramme) {
  return request(CompanyWithHistory, `api/companies/${id}`, { method: 'put', json: programme });
}

/** POST /api/companies/{id}/suggestions: a correction for a super user to review. */
export function suggestCorrection(id: number, body: CompanySuggestionBody) {
  return request(MessageResponse, `api/companies/${id}/suggestions`, { method: 'post', json: body });
}

/** GET /api/company-suggestions (super users): the pending ones. */
export async function listSuggestions() {
  return (await request(CompanySuggestionList, 'api/company-suggestions')).suggestions;
}

/** POST /api/company-suggestions/{id}/accept or /reject (super users), with an optional note. */
export function reviewSuggestion(id: number, verdict: 'accept' | 'reject', note: string) {
  return request(MessageResponse, `api/company-suggestions/${id}/${verdict}`, {
    method: 'post',
    json: { note: note.trim() || null },
  });
}

/** Issue 31: what a catalogue import did. */
export const CatalogueImportResult = z.object({
  message: z.string(),
  created: z.number(),
  updated: z.number(),
  unchanged: z.number(),
  errors: z.array(z.object({ row: z.number(), reason: z.string() })),
});

/** GET /api/company-catalogue: the whole catalogue as a file (super users). */
export function exportCatalogue(format: 'csv' | 'xlsx'): Promise<Blob> {
  return download('api/company-catalogue', { searchParams: { format } });
}

/** POST /api/company-catalogue: a catalogue file imported (every row checked first). */
export function importCatalogue(file: File) {
  const body = new FormData();
  body.set('file', file);
  return request(CatalogueImportResult, 'api/company-catalogue', { method: 'post', body });
}

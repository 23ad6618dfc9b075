import {
  CompanyList,
  type CompanyProgramme,
  type CompanySuggestionBody,
  CompanySuggestionList,
  CompanyWithHistory,
} from '../contract/company-admin.ts';
import { MessageResponse } from '../contract/index.ts';
import { request } from './client.ts';

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

import {
  type EmployerReviewDecision,
  EmployerReviewDecisionResponse,
  EmployerReviewList,
  EmployerScreeningResponse,
  EmployerSummary,
} from '../contract/employers.ts';
import { request } from './client.ts';

/** Employer identification's staff calls (issue #31): Find employers, the review list, the summary. */

const base = (orgId: number) => `api/organization/${orgId}/employers`;

export function startScreening(orgId: number): Promise<EmployerScreeningResponse> {
  return request(EmployerScreeningResponse, `${base(orgId)}/screenings`, { method: 'post' });
}

export function latestScreening(orgId: number): Promise<EmployerScreeningResponse> {
  return request(EmployerScreeningResponse, `${base(orgId)}/screenings/latest`);
}

export function fetchReviews(orgId: number, page = 1): Promise<EmployerReviewList> {
  return request(EmployerReviewList, `${base(orgId)}/reviews?page=${page}`);
}

export function decideReviews(
  orgId: number,
  decision: EmployerReviewDecision,
): Promise<EmployerReviewDecisionResponse> {
  return request(EmployerReviewDecisionResponse, `${base(orgId)}/reviews/decide`, {
    method: 'post',
    json: decision,
  });
}

/** The counts; with a range (YYYY-MM-DD), only the matches donated in it (the dashboard's card). */
export function fetchEmployerSummary(
  orgId: number,
  range?: { from: string; to: string },
): Promise<EmployerSummary> {
  return request(EmployerSummary, `${base(orgId)}/summary`, range ? { searchParams: range } : {});
}

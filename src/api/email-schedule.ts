import {
  MatchSchedule,
  type ScheduledEmailsQuery,
  ScheduledEmailsResponse,
} from '../contract/email-schedule.ts';
import { request } from './client.ts';

/** Issue #30: a match's email schedule, and the organization's scheduled emails. */

const id = (value: number) => encodeURIComponent(String(value));

/** GET /api/donation/{id}/email-schedule. */
export function getMatchSchedule(donationId: number): Promise<MatchSchedule> {
  return request(MatchSchedule, `api/donation/${id(donationId)}/email-schedule`);
}

/** POST /api/donation/{id}/email-schedule/{jobId}/send | skip: the schedule after it. */
export function actOnScheduled(
  donationId: number,
  jobId: number,
  action: 'send' | 'skip',
): Promise<MatchSchedule> {
  return request(MatchSchedule, `api/donation/${id(donationId)}/email-schedule/${id(jobId)}/${action}`, {
    method: 'post',
  });
}

/** GET /api/organization/{id}/scheduled-emails. */
export function getScheduledEmails(organizationId: number, query: ScheduledEmailsQuery) {
  const searchParams = Object.fromEntries(
    Object.entries(query).filter(([, v]) => v !== undefined && v !== ''),
  );
  return request(ScheduledEmailsResponse, `api/organization/${id(organizationId)}/scheduled-emails`, {
    searchParams,
  });
}

import * as z from 'zod';
import { MessageResponse } from '../../../src/contract/auth.ts';
import { donationMessages } from '../../../src/contract/donations.ts';
import {
  MatchSchedule,
  ScheduledEmailsQuery,
  ScheduledEmailsResponse,
} from '../../../src/contract/email-schedule.ts';
import { IdParams, idSegment, orgFromIdParam } from '../../http/params.ts';
import { defineRoute } from '../../http/route.ts';
import { donationOrganization } from '../donations/donations.service.ts';
import * as schedule from './email-schedule.service.ts';

const error = (description: string) => ({ description, schema: MessageResponse });
const tags = ['email schedule'];
const JobParams = z.object({ id: idSegment, jobId: idSegment });
const orgOfDonation = (input: { params: { id: number } }, db: Parameters<typeof donationOrganization>[0]) =>
  donationOrganization(db, input.params.id);

export const emailScheduleRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/donation/:id/email-schedule',
    access: {
      level: 'read',
      capability: 'donations.view',
      org: orgOfDonation,
      unreachable: donationMessages.notFound,
    },
    summary:
      "A match's donor emails: sent (opens, clicks), scheduled (date, template version) and staff's actions",
    tags,
    params: IdParams,
    responses: {
      200: { description: 'The schedule', schema: MatchSchedule },
      404: error('Donation not found'),
    },
    handler: ({ deps, params }) => schedule.matchSchedule(deps.db, params.id, deps.clock.now()),
  }),
  defineRoute({
    method: 'post',
    path: '/api/donation/:id/email-schedule/:jobId/send',
    access: {
      level: 'write',
      capability: 'donations.change',
      org: orgOfDonation,
      unreachable: donationMessages.notFound,
    },
    summary:
      'Send a scheduled reminder or deadline email now, as the scheduler would (once, however often asked)',
    tags,
    params: JobParams,
    responses: {
      200: { description: 'Sent; the schedule after it', schema: MatchSchedule },
      404: error('No such scheduled email of this match'),
      409: error('No longer scheduled, or the scheduler would not send it now (and why)'),
    },
    handler: ({ deps, params, user }) =>
      schedule.sendScheduledNow(deps.db, deps.config, deps.clock.now(), user.id, params.id, params.jobId),
  }),
  defineRoute({
    method: 'post',
    path: '/api/donation/:id/email-schedule/:jobId/skip',
    access: {
      level: 'write',
      capability: 'donations.change',
      org: orgOfDonation,
      unreachable: donationMessages.notFound,
    },
    summary: "Skip a scheduled reminder or deadline email; the sequence's next step is planned from its date",
    tags,
    params: JobParams,
    responses: {
      200: { description: 'Skipped; the schedule after it', schema: MatchSchedule },
      404: error('No such scheduled email of this match'),
      409: error('No longer scheduled'),
    },
    handler: ({ deps, params, user }) =>
      schedule.skipScheduled(deps.db, deps.clock.now(), user.id, params.id, params.jobId),
  }),
  defineRoute({
    method: 'get',
    path: '/api/organization/:id/scheduled-emails',
    access: { level: 'read', capability: 'donations.view', org: orgFromIdParam },
    summary:
      'What goes out across the organization and its chapters, by day and template (30 days by default)',
    tags,
    params: IdParams,
    query: ScheduledEmailsQuery,
    responses: {
      200: { description: 'Scheduled emails by day', schema: ScheduledEmailsResponse },
      400: error('Bad date range, template or chapter'),
    },
    handler: ({ deps, params, query }) =>
      schedule.organizationSchedule(deps.db, params.id, query, deps.clock.now()),
  }),
];

import * as z from 'zod/mini';
import { queryId, realDay } from './fields.ts';

/**
 * Issue #30, the email schedule: what a match's donor has been sent and will be sent next, and
 * what goes out across an organization in the coming days. Dates are ISO 8601 strings.
 */

/** The scheduled steps of the donor-email workflow (scheduled_jobs.kind) and the weekly staff email. */
export const scheduleKinds = ['reminder', 'no-response', 'deadline', 'expire', 'digest'] as const;
export type ScheduleKind = (typeof scheduleKinds)[number];

/** Template types the workflow sends from, named as the Email Templates screen names them. */
export const scheduleTemplateNames: Readonly<Record<number, string>> = {
  5: 'Donor e-sign',
  6: 'Original signature',
  7: 'CSR vendor portal',
  8: 'Manual email matching',
  9: 'Policy incomplete',
  10: 'Below minimum',
  11: 'Against policy',
  15: 'Direct debit only',
  19: 'No matching program',
  23: 'Match requested without company name',
  24: 'Donor opt-in',
  25: 'Donor e-sign',
  102: 'Match deadline approaching',
};

/** How the schedule names one step. Reminder stage 2 is the 1st reminder, 3 the 2nd. */
export function scheduleLabel(kind: string, stage: number | null | undefined): string {
  if (kind === 'reminder') return stage === 3 ? '2nd reminder' : '1st reminder';
  if (kind === 'no-response') return 'Donor No Response (status change, no email)';
  if (kind === 'deadline') return 'Deadline approaching';
  if (kind === 'expire') return 'About to expire';
  if (kind === 'digest') return 'Weekly staff email';
  return kind;
}

/** Staff can send now or skip these (No Response is a status change, not an email). */
export const actionableKinds: ReadonlySet<string> = new Set(['reminder', 'deadline', 'expire']);

export const ScheduleTemplate = z.object({
  /** The template type (status id, 102 for the deadline emails). */
  type: z.number(),
  name: z.string(),
  /** 'Default', 'A'..'G'. */
  version: z.string(),
});

export const SentEmail = z.object({
  id: z.number(),
  label: z.string(),
  subject: z.nullable(z.string()),
  sent_at: z.string(),
  template: z.nullable(ScheduleTemplate),
  first_open: z.nullable(z.string()),
  /** The donor used the email's confirm / decline link. */
  confirm_clicked_at: z.nullable(z.string()),
  decline_clicked_at: z.nullable(z.string()),
});

export const ScheduledEmail = z.object({
  /** The scheduled job: what send-now and skip name. */
  id: z.number(),
  kind: z.enum(scheduleKinds),
  label: z.string(),
  stage: z.nullable(z.number()),
  due_at: z.string(),
  template: z.nullable(ScheduleTemplate),
  /** Staff may send it now or skip it. */
  actionable: z.boolean(),
});

export const ScheduleHistoryRow = z.object({
  id: z.number(),
  action: z.enum(['send_now', 'skip']),
  label: z.string(),
  at: z.string(),
  user: z.nullable(z.string()),
});

export const MatchSchedule = z.object({
  donation_id: z.number(),
  /** The server's time (the scheduler's clock): what "now" means for the dates below. */
  now: z.string(),
  sent: z.array(SentEmail),
  scheduled: z.array(ScheduledEmail),
  history: z.array(ScheduleHistoryRow),
});
export type MatchSchedule = z.infer<typeof MatchSchedule>;

const day = realDay('Use a real date, YYYY-MM-DD.');

/** spec-silent: the view's default and longest windows. */
export const scheduleWindowDays = 30;
export const maxScheduleWindowDays = 92;

export const ScheduledEmailsQuery = z.object({
  from: z.optional(day),
  to: z.optional(day),
  /** A template type id, or 'digest' for the weekly staff email. */
  template: z.optional(z.string().check(z.regex(/^(\d{1,3}|digest)$/, 'Unknown template.'))),
  /** One chapter (or the organization itself) of the organization. */
  chapter: z.optional(queryId('chapter must be an organization id')),
});
export type ScheduledEmailsQuery = z.infer<typeof ScheduledEmailsQuery>;

export const ScheduledEmailsGroup = z.object({
  /** The template type id, or 'digest'. */
  template: z.string(),
  template_name: z.string(),
  label: z.string(),
  count: z.number(),
  /** The matches it is about (none for the staff email), at most 50 listed. */
  matches: z.array(z.object({ id: z.number(), donor_name: z.nullable(z.string()) })),
  /** Projected: the weekly staff email goes out only if matches still wait on the staff then. */
  projected: z.boolean(),
});

export const ScheduledEmailsResponse = z.object({
  from: z.string(),
  to: z.string(),
  now: z.string(),
  total: z.number(),
  days: z.array(z.object({ day: z.string(), count: z.number(), groups: z.array(ScheduledEmailsGroup) })),
  templates: z.array(z.object({ value: z.string(), name: z.string() })),
  chapters: z.array(z.object({ id: z.number(), name: z.string() })),
});
export type ScheduledEmailsResponse = z.infer<typeof ScheduledEmailsResponse>;

export const scheduleMessages = {
  noLongerScheduled: 'This email is no longer scheduled.',
  notActionable: 'Only a scheduled reminder or deadline email can be sent now or skipped.',
  wouldNotSend:
    'This email would not be sent: the match no longer waits on the donor for it (its status changed, the donor answered or unsubscribed, or the match is silenced).',
  tooSoon: (at: string) =>
    `A follow-up of this match went out less than a day ago; this one can go from ${at}.`,
  sent: 'Email sent',
  skipped: 'Email skipped',
  badRange: 'The end date must be on or after the start date.',
  rangeTooLong: `Choose at most ${maxScheduleWindowDays} days.`,
} as const;

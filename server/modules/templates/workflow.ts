import { and, eq, gt, isNotNull, or, sql } from 'drizzle-orm';
import type { TemplateStage } from '../../../src/contract/email-templates.ts';
import { dayMs } from '../../clock.ts';
import type { Tx } from '../../db/client.ts';
import {
  donationNotifications,
  donationStatusHistory,
  donations,
  emailTemplates,
  scheduledJobs,
} from '../../db/schema.ts';
import type { JobHandler, JobResult } from '../../jobs/scheduler.ts';
import * as webhookEvents from '../integrations/webhook-events.ts';
import { donorActionStatuses } from './actions.ts';
import { digestHandler } from './digest.ts';
import {
  chooseVersion,
  emailCompanyName,
  liveVersions,
  type MailLinks,
  matchFacts,
  type PlannedMail,
  sendDonorMails,
  templateTypeOfStatus,
  unsubscribedAmong,
} from './donor-mail.ts';

const done: JobResult = { done: true };

/** spec: Donor No Response (20), after the 2nd reminder goes unanswered. */
export const noResponseStatus = 20;

/** Whether the donor used a confirm or decline link of this match since `since`. */
async function clickedSince(tx: Tx, donationId: number, since: Date): Promise<boolean> {
  const [row] = await tx
    .select({ id: donationNotifications.id })
    .from(donationNotifications)
    .where(
      and(
        eq(donationNotifications.donation_id, donationId),
        gt(donationNotifications.created_at, new Date(since.getTime() - 1)),
        or(
          isNotNull(donationNotifications.confirm_clicked_at),
          isNotNull(donationNotifications.decline_clicked_at),
        ),
      ),
    )
    .limit(1);
  return row !== undefined;
}

async function notification(tx: Tx, id: unknown) {
  if (typeof id !== 'number') return undefined;
  const [n] = await tx.select().from(donationNotifications).where(eq(donationNotifications.id, id));
  return n;
}

/**
 * The facts of a match that may be emailed again, or null when it may not: silenced, no donor
 * email, deactivated organization, or a donor who unsubscribed.
 */
async function emailable(tx: Tx, donationId: number) {
  const [row] = await matchFacts(tx, [donationId]);
  const email = row?.donor_email?.trim().toLowerCase();
  if (!row || !email || row.silenced || row.deactivated) return null;
  const unsubscribed = await unsubscribedAmong(tx, [row.organization_id], [email]);
  if (unsubscribed.size > 0) return null;
  return { row, email, companyName: emailCompanyName(row) };
}

/** At most one follow-up email of a match a day (a reminder and a deadline email due together). */
const followUpSpacingMs = dayMs;

/**
 * Sends one follow-up of a match. Follow-ups keep their own schedule: the weekly limit holds for
 * the first email about a match (a donor with several gifts is not emailed about each within a
 * week), but a match's reminders and deadline emails are planned by this workflow, and the spec's
 * deadline emails could never go out between weekly reminders otherwise. Two follow-ups of one
 * match due the same day go a day apart.
 */
async function sendFollowUp(tx: Tx, mail: PlannedMail, links: MailLinks, now: Date): Promise<JobResult> {
  const [last] = await tx
    .select({ at: sql<string | null>`max(${donationNotifications.created_at})` })
    .from(donationNotifications)
    .where(eq(donationNotifications.donation_id, mail.row.id));
  const lastAt = last?.at ? new Date(last.at).getTime() : 0;
  if (now.getTime() - lastAt < followUpSpacingMs) return { retryAt: new Date(lastAt + followUpSpacingMs) };
  const sent = await sendDonorMails(tx, [mail], links, now);
  // Webhooks listening for reminder_sent hear about each reminder that went out.
  if (mail.kind === 'reminder' && sent.length > 0) await webhookEvents.reminderSent(tx, mail.row.id);
  return done;
}

/**
 * The 1st or 2nd reminder (payload: the previous email, the initial one, the stage): sent with
 * the initial email's template version while the match still waits at the same status and the
 * donor has neither confirmed nor declined.
 */
function reminder(links: MailLinks): JobHandler {
  return async (tx, job, now) => {
    const initial = await notification(tx, job.payload.initial_id ?? job.payload.notification_id);
    const stage = job.payload.stage;
    if (!initial || job.donation_id === null || (stage !== 2 && stage !== 3)) return done;
    const facts = await emailable(tx, job.donation_id);
    if (!facts || facts.row.status_id !== initial.status_id) return done;
    if (await clickedSince(tx, job.donation_id, initial.created_at)) return done;
    let [template] =
      initial.template_id === null
        ? []
        : await tx.select().from(emailTemplates).where(eq(emailTemplates.id, initial.template_id));
    if (!template) {
      const type = templateTypeOfStatus(facts.row.status_id);
      if (type === null) return done;
      const versions = await liveVersions(tx, [
        { organization_id: facts.row.organization_id, status_id: type },
      ]);
      template = chooseVersion(versions.get(`${facts.row.organization_id}:${type}`) ?? [], facts.row.id);
    }
    if (!template) return done;
    return sendFollowUp(
      tx,
      { ...facts, template, stage: stage as TemplateStage, kind: 'reminder', initialId: initial.id },
      links,
      now,
    );
  };
}

/** After the 2nd reminder: a match still waiting, without an answer, becomes Donor No Response (20). */
const noResponse: JobHandler = async (tx, job, now) => {
  const initial = await notification(tx, job.payload.initial_id);
  if (!initial || job.donation_id === null) return done;
  const [match] = await tx
    .select({ status_id: donations.status_id })
    .from(donations)
    .where(eq(donations.id, job.donation_id))
    .for('update');
  if (!match || match.status_id !== initial.status_id) return done;
  if (await clickedSince(tx, job.donation_id, initial.created_at)) return done;
  await tx
    .update(donations)
    .set({ status_id: noResponseStatus, updated_at: now })
    .where(eq(donations.id, job.donation_id));
  await tx.insert(donationStatusHistory).values({
    donation_id: job.donation_id,
    from_status_id: match.status_id,
    to_status_id: noResponseStatus,
    user_id: null,
    source: 'system',
    at: now,
  });
  await webhookEvents.statusChanged(tx, [job.donation_id]);
  await cancelPending(tx, job.donation_id, job.id, now);
  return done;
};

/**
 * Match Deadline Approaching (template 102, initial texts) and 'Match About to Expire' (its second
 * field set): sent while the match still waits on the donor, who has not used any link of it.
 */
function deadlineMail(links: MailLinks, kind: 'deadline' | 'expire'): JobHandler {
  return async (tx, job, now) => {
    if (job.donation_id === null) return done;
    const deadline = new Date(`${String(job.payload.deadline)}T23:59:59Z`);
    if (!(deadline.getTime() > now.getTime())) return done;
    const facts = await emailable(tx, job.donation_id);
    if (!facts || !donorActionStatuses.has(facts.row.status_id)) return done;
    if (await clickedSince(tx, job.donation_id, new Date(0))) return done;
    const versions = await liveVersions(tx, [{ organization_id: facts.row.organization_id, status_id: 102 }]);
    const template = chooseVersion(versions.get(`${facts.row.organization_id}:102`) ?? [], facts.row.id);
    if (!template) return done;
    const result = await sendFollowUp(
      tx,
      { ...facts, template, stage: kind === 'deadline' ? 1 : 2, kind },
      links,
      now,
    );
    // A deadline email held back past the deadline is no use: drop it.
    if ('retryAt' in result && result.retryAt.getTime() >= deadline.getTime()) return done;
    return result;
  };
}

/** The match's other pending jobs, once it has moved on. */
async function cancelPending(tx: Tx, donationId: number, exceptJobId: number, now: Date) {
  await tx
    .update(scheduledJobs)
    .set({ status: 'cancelled', done_at: now })
    .where(
      and(
        eq(scheduledJobs.donation_id, donationId),
        eq(scheduledJobs.status, 'pending'),
        sql`${scheduledJobs.id} <> ${exceptJobId}`,
      ),
    );
}

/** The donor-email workflow's job handlers, by job kind. */
export function workflowHandlers(links: MailLinks): Record<string, JobHandler> {
  return {
    reminder: reminder(links),
    'no-response': noResponse,
    deadline: deadlineMail(links, 'deadline'),
    expire: deadlineMail(links, 'expire'),
    digest: digestHandler(links),
  };
}

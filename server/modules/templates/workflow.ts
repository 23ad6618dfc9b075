import { and, eq, gt, isNotNull, or, sql } from 'drizzle-orm';
import type { TemplateStage } from '../../../src/contract/email-templates.ts';
import { dayMs } from '../../clock.ts';
import type { Tx } from '../../db/client.ts';
import { anyOf, arrayParam, orgKey, queryRows } from '../../db/rows.ts';
import {
  donationNotifications,
  donationStatusHistory,
  donations,
  emailTemplates,
  scheduledJobs,
} from '../../db/schema.ts';
import type { BatchJobHandler, JobHandler, JobResult, ScheduledJob } from '../../jobs/scheduler.ts';
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

/**
 * The day's reminders in batches (the scheduler's BatchJobHandler for 'reminder'): the same
 * checks, texts and emails as `reminder` run on each job in turn, with a few statements for the
 * whole batch — the initial emails, the matches' facts, unsubscribes, clicks, template versions
 * and last emails each read once, every email rendered in one pass (one React render per layout)
 * and the outbox rows inserted together by sendDonorMails.
 */
function reminders(links: MailLinks): BatchJobHandler {
  return async (tx, jobs, now) => {
    const results = new Map<number, JobResult>(jobs.map((j) => [j.id, done]));
    const initialOf = (job: ScheduledJob) => {
      const id = job.payload.initial_id ?? job.payload.notification_id;
      return typeof id === 'number' ? id : undefined;
    };
    const initialIds = [...new Set(jobs.flatMap((j) => initialOf(j) ?? []))];
    const initials = new Map(
      (initialIds.length === 0
        ? []
        : await tx
            .select({
              id: donationNotifications.id,
              status_id: donationNotifications.status_id,
              template_id: donationNotifications.template_id,
              created_at: donationNotifications.created_at,
            })
            .from(donationNotifications)
            .where(anyOf(donationNotifications.id, initialIds, 'int'))
      ).map((n) => [n.id, n]),
    );
    // The jobs that may send: a known initial email, a match, a reminder stage.
    const candidates = jobs.flatMap((job) => {
      const initialId = initialOf(job);
      const initial = initialId === undefined ? undefined : initials.get(initialId);
      const stage = job.payload.stage;
      if (!initial || job.donation_id === null || (stage !== 2 && stage !== 3)) return [];
      return [{ job, initial, donationId: job.donation_id, stage: stage as TemplateStage }];
    });
    if (candidates.length === 0) return results;
    const facts = new Map(
      (
        await matchFacts(
          tx,
          candidates.map((c) => c.donationId),
        )
      ).map((row) => [row.id, row]),
    );
    const emailOf = (id: number) => facts.get(id)?.donor_email?.trim().toLowerCase();
    const reachable = candidates.filter((c) => {
      const row = facts.get(c.donationId);
      return row && emailOf(c.donationId) && !row.silenced && !row.deactivated;
    });
    const unsubscribed = await unsubscribedAmong(
      tx,
      [...new Set(reachable.map((c) => facts.get(c.donationId)?.organization_id ?? 0))],
      [...new Set(reachable.map((c) => emailOf(c.donationId) ?? ''))],
    );
    const waiting = reachable.filter((c) => {
      const row = facts.get(c.donationId);
      if (!row || unsubscribed.has(orgKey(row.organization_id, emailOf(c.donationId) ?? ''))) return false;
      return row.status_id === c.initial.status_id;
    });
    // The donor used a confirm or decline link of the match since its initial email.
    const clicked = new Set(
      waiting.length === 0
        ? []
        : (
            await queryRows<{ job_id: number }>(
              tx,
              sql`select v.job_id from unnest(${arrayParam(
                waiting.map((c) => c.job.id),
                'int',
              )}, ${arrayParam(
                waiting.map((c) => c.donationId),
                'int',
              )}, ${arrayParam(
                waiting.map((c) => c.initial.created_at.toISOString()),
                'timestamptz',
              )}) as v(job_id, donation_id, since)
                  where exists (select 1 from ${donationNotifications} n
                    where n.donation_id = v.donation_id
                      and n.created_at > v.since - interval '1 millisecond'
                      and (n.confirm_clicked_at is not null or n.decline_clicked_at is not null))`,
            )
          ).map((r) => Number(r.job_id)),
    );
    const unanswered = waiting.filter((c) => !clicked.has(c.job.id));
    // The initial email's version; without one, the live version of the status's template type.
    const templateIds = [...new Set(unanswered.flatMap((c) => c.initial.template_id ?? []))];
    const templates = new Map(
      (templateIds.length === 0
        ? []
        : await tx
            .select()
            .from(emailTemplates)
            .where(anyOf(emailTemplates.id, templateIds, 'int'))
      ).map((t) => [t.id, t]),
    );
    const fallbackPairs = unanswered.flatMap((c) => {
      const row = facts.get(c.donationId);
      if (!row || (c.initial.template_id !== null && templates.has(c.initial.template_id))) return [];
      const type = templateTypeOfStatus(row.status_id);
      return type === null ? [] : [{ organization_id: row.organization_id, status_id: type }];
    });
    const uniquePairs = [
      ...new Map(fallbackPairs.map((p) => [`${p.organization_id}:${p.status_id}`, p])).values(),
    ];
    const versions = await liveVersions(tx, uniquePairs);
    // At most one follow-up a day per match: the last email of each.
    const donationIds = [...new Set(unanswered.map((c) => c.donationId))];
    const lastAt = new Map(
      (donationIds.length === 0
        ? []
        : await tx
            .select({
              id: donationNotifications.donation_id,
              at: sql<string | null>`max(${donationNotifications.created_at})`,
            })
            .from(donationNotifications)
            .where(anyOf(donationNotifications.donation_id, donationIds, 'int'))
            .groupBy(donationNotifications.donation_id)
      ).map((r) => [r.id, r.at ? new Date(r.at).getTime() : 0]),
    );
    const planned: PlannedMail[] = [];
    for (const c of unanswered) {
      const row = facts.get(c.donationId);
      if (!row) continue;
      let template = c.initial.template_id === null ? undefined : templates.get(c.initial.template_id);
      if (!template) {
        const type = templateTypeOfStatus(row.status_id);
        if (type === null) continue;
        template = chooseVersion(versions.get(`${row.organization_id}:${type}`) ?? [], row.id);
      }
      if (!template) continue;
      const last = lastAt.get(row.id) ?? 0;
      if (now.getTime() - last < followUpSpacingMs) {
        results.set(c.job.id, { retryAt: new Date(last + followUpSpacingMs) });
        continue;
      }
      // A match with two reminders due in one batch: the second waits a day, as it would after the first.
      lastAt.set(row.id, now.getTime());
      planned.push({
        row,
        email: emailOf(row.id) ?? '',
        companyName: emailCompanyName(row),
        template,
        stage: c.stage,
        kind: 'reminder',
        initialId: c.initial.id,
      });
    }
    const sent = await sendDonorMails(tx, planned, links, now);
    // Webhooks listening for reminder_sent hear about each reminder that went out.
    if (sent.length > 0)
      await webhookEvents.remindersSent(
        tx,
        planned.map((p) => p.row.id),
      );
    return results;
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

/** The kinds the scheduler runs in batches (the day's reminders), with the same meaning as workflowHandlers'. */
export function workflowBatchHandlers(links: MailLinks): Record<string, BatchJobHandler> {
  return { reminder: reminders(links) };
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

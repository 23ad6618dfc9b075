import { and, eq } from 'drizzle-orm';
import { html } from 'hono/html';
import { type DeadlineRule, matchDeadline } from '../../../src/contract/donor.ts';
import { statuses } from '../../../src/contract/statuses.ts';
import type { Db, Queryable } from '../../db/client.ts';
import {
  companies,
  donationNotifications,
  donationStatusHistory,
  donations,
  emailUnsubscribes,
  organizations,
  scheduledJobs,
} from '../../db/schema.ts';
import * as webhookEvents from '../integrations/webhook-events.ts';
import { actionLinkExpiry, type EmailAction } from './links.ts';

/**
 * The statuses where the donor has a step to take, so the email's confirm and decline buttons
 * move the match: 5 and 25 (e-sign), 6 (original signature), 7 (company portal), 8 (notify the
 * company), 24 (opt-in).
 */
export const donorActionStatuses: ReadonlySet<number> = new Set([5, 6, 7, 8, 24, 25]);

/** spec: confirm moves the match to Donor Engaged (28), decline to Donor Declined (21). */
export const actionTargets = { confirm: 28, decline: 21 } as const;

export type ActionOutcome = { title: string; message: string; done: boolean };

/**
 * What a donor's click on a signed email link does, once: confirm and decline record the click on
 * the notification (the stats count it) and move the match if it still waits on the donor;
 * unsubscribe stops the organization's emails to that donor. A second click changes nothing and
 * says so. The notification row is locked for the change, so two clicks at once act once.
 */
export async function performAction(
  db: Db,
  notificationId: number,
  action: EmailAction,
  now: Date,
): Promise<ActionOutcome> {
  return db.transaction(async (tx) => {
    const [n] = await tx
      .select({
        id: donationNotifications.id,
        donation_id: donationNotifications.donation_id,
        organization_id: donationNotifications.organization_id,
        status_id: donationNotifications.status_id,
        kind: donationNotifications.kind,
        to_email: donationNotifications.to_email,
        confirm_clicked_at: donationNotifications.confirm_clicked_at,
        decline_clicked_at: donationNotifications.decline_clicked_at,
        org_name: organizations.name,
      })
      .from(donationNotifications)
      .innerJoin(organizations, eq(organizations.id, donationNotifications.organization_id))
      .where(eq(donationNotifications.id, notificationId))
      .for('update', { of: donationNotifications });
    if (!n)
      return {
        title: 'Link no longer valid',
        message: 'This match request no longer exists, so there is nothing to change.',
        done: false,
      };
    const org = n.org_name;

    if (action === 'unsubscribe') {
      const added = await tx
        .insert(emailUnsubscribes)
        .values({ organization_id: n.organization_id, email: n.to_email, created_at: now })
        .onConflictDoNothing()
        .returning({ email: emailUnsubscribes.email });
      return {
        title: 'You are unsubscribed',
        message:
          added.length > 0
            ? `${org} will not email you about matching gifts any more.`
            : `You were already unsubscribed: ${org} does not email you about matching gifts.`,
        done: added.length > 0,
      };
    }

    const clickedBefore = action === 'confirm' ? n.confirm_clicked_at : n.decline_clicked_at;
    if (clickedBefore)
      return {
        title: 'Already recorded',
        message: `We already have your answer (${clickedBefore.toISOString().slice(0, 10)}). Nothing else to do, thank you.`,
        done: false,
      };
    await tx
      .update(donationNotifications)
      .set(action === 'confirm' ? { confirm_clicked_at: now } : { decline_clicked_at: now })
      .where(eq(donationNotifications.id, n.id));

    const [match] = await tx
      .select({ status_id: donations.status_id })
      .from(donations)
      .where(eq(donations.id, n.donation_id))
      .for('update');
    const waiting =
      match !== undefined &&
      donorActionStatuses.has(match.status_id) &&
      (n.kind === 'deadline' || n.kind === 'expire' || match.status_id === n.status_id);
    if (!match || !waiting) {
      const name = match ? statuses[match.status_id as keyof typeof statuses] : undefined;
      return {
        title: 'Thank you',
        message: `Your match request has already moved on${name ? ` (${name})` : ''}, so nothing changed.`,
        done: false,
      };
    }
    const to = actionTargets[action];
    await tx.update(donations).set({ status_id: to, updated_at: now }).where(eq(donations.id, n.donation_id));
    await tx.insert(donationStatusHistory).values({
      donation_id: n.donation_id,
      from_status_id: match.status_id,
      to_status_id: to,
      user_id: null,
      source: 'donor',
      at: now,
    });
    await webhookEvents.statusChanged(tx, [n.donation_id]);
    // The donor answered: the match's pending reminders and deadline emails are moot.
    await tx
      .update(scheduledJobs)
      .set({ status: 'cancelled', done_at: now })
      .where(and(eq(scheduledJobs.donation_id, n.donation_id), eq(scheduledJobs.status, 'pending')));
    return action === 'confirm'
      ? {
          title: 'Thank you!',
          message: `We have recorded that you submitted your gift to ${org} for a match. ${org} takes it from here; we will not remind you again.`,
          done: true,
        }
      : {
          title: 'Thank you for letting us know',
          message: `We will not remind you about matching your gift to ${org}. Your gift means a great deal all the same.`,
          done: true,
        };
  });
}

/**
 * A confirm or decline link past its lifetime (links.ts: the match's deadline plus a grace
 * period, or a year without one): the page that says so, names the organization to contact
 * instead and how to unsubscribe. Null while the link works, for unsubscribe links (they never
 * expire) and for a notification that is gone (performAction says so).
 */
export async function expiredLink(
  db: Queryable,
  notificationId: number,
  action: EmailAction,
  now: Date,
): Promise<ActionOutcome | null> {
  if (action === 'unsubscribe') return null;
  const [n] = await db
    .select({
      created_at: donationNotifications.created_at,
      donated_at: donations.donated_at,
      deadline_rule: companies.deadline_rule,
      deadline_days: companies.deadline_days,
      org_name: organizations.name,
      contact: organizations.notify_contact,
    })
    .from(donationNotifications)
    .innerJoin(donations, eq(donations.id, donationNotifications.donation_id))
    .innerJoin(organizations, eq(organizations.id, donationNotifications.organization_id))
    .leftJoin(companies, eq(companies.id, donations.company_id))
    .where(eq(donationNotifications.id, notificationId));
  if (!n) return null;
  const deadline = n.deadline_rule
    ? matchDeadline(n.deadline_rule as DeadlineRule, n.deadline_days, n.donated_at.toISOString())
    : null;
  const expires = actionLinkExpiry(deadline, n.created_at);
  if (now.getTime() < expires.getTime()) return null;
  const on = expires.toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' });
  const org = n.org_name;
  const contact = n.contact.email ? ` at ${n.contact.email}` : ' directly';
  return {
    title: 'This link has expired',
    message:
      `This link stopped working on ${on}, ${deadline ? "after the company's deadline to request a match for this gift" : 'a year after the email was sent'}, so nothing was changed. ` +
      `If you still want to tell ${org} about matching your gift, please contact ${org}${contact}. ` +
      `To stop ${org}'s matching gift emails, use the Unsubscribe link at the bottom of any of their emails: it keeps working.`,
    done: false,
  };
}

/** The small public page of an email link: what it will do (GET) or what it did (POST). */
export function actionPage(options: {
  title: string;
  message: string;
  /** A button that performs the action (the GET page), posting back to the same address. */
  form?: { action: string; label: string } | undefined;
}): string {
  // hono/html escapes every interpolated value (the title and message may carry a donor's words).
  const form = options.form
    ? html`<form method="post" action="${options.form.action}"><button type="submit">${options.form.label}</button></form>`
    : '';
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title}</title>
<style>body{margin:0;padding:48px 16px;background:#f3f4f6;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#1f2937}
main{max-width:480px;margin:0 auto;background:#fff;border-radius:8px;padding:32px}h1{margin:0 0 12px;font-size:22px}
p{font-size:16px;line-height:1.5}button{font:inherit;font-weight:600;color:#fff;background:#0f766e;border:0;border-radius:6px;padding:12px 20px;cursor:pointer}
button:focus-visible{outline:3px solid #134e4a;outline-offset:2px}</style></head>
<body><main><h1>${options.title}</h1><p>${options.message}</p>${form}</main></body></html>`.toString();
}

/** What the GET page of each action says before the donor confirms it. */
export const actionQuestions: Record<EmailAction, { title: string; message: string; label: string }> = {
  confirm: {
    title: 'Did you submit your gift for a match?',
    message: 'Confirm below and we will stop reminding you.',
    label: "Yes, I've done it",
  },
  decline: {
    title: 'Not submitting this gift for a match?',
    message: 'Confirm below and we will stop reminding you about it.',
    label: "I won't be submitting",
  },
  unsubscribe: {
    title: 'Unsubscribe from matching gift emails?',
    message: 'You will no longer receive matching gift emails from this organization.',
    label: 'Unsubscribe',
  },
};

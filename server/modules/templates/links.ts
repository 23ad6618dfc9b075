import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signed, single-purpose links of a donor email: confirm ("I've done it"), decline, and
 * unsubscribe. A link names one notification and one action, signed with the server's secret
 * (HMAC-SHA256), so it cannot be turned into another action or another donor's link. Nothing is
 * stored: the notification row records what the link did.
 */
export const emailActions = ['confirm', 'decline', 'unsubscribe'] as const;
export type EmailAction = (typeof emailActions)[number];

const signature = (secret: string, notificationId: number, action: EmailAction) =>
  createHmac('sha256', secret).update(`twofold-email-action:${notificationId}:${action}`).digest('base64url');

/** The token of one action: `{notificationId}.{action}.{signature}`. */
export function actionToken(secret: string, notificationId: number, action: EmailAction): string {
  return `${notificationId}.${action}.${signature(secret, notificationId, action)}`;
}

/** The notification and action a token names, or null when it is malformed or not ours. */
export function readActionToken(
  secret: string,
  token: string,
): { notificationId: number; action: EmailAction } | null {
  const match = /^([0-9]{1,10})\.(confirm|decline|unsubscribe)\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const notificationId = Number(match[1]);
  const action = match[2] as EmailAction;
  const expected = Buffer.from(signature(secret, notificationId, action));
  const given = Buffer.from(match[3] ?? '');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return { notificationId, action };
}

/**
 * How long a confirm or decline link works: until the match's own deadline (the company's
 * deadline for the gift, the one the deadline emails count down to) plus a grace period, since a
 * donor who submitted on the last day may read the reminder and click a few weeks later; when no
 * deadline is known (no company, or a company without a deadline rule), a year after the email.
 * After that the link answers 410 with a page that says what to do instead.
 *
 * Unsubscribe links do not expire. RFC 8058 one-click unsubscribe is POSTed by mail providers
 * whenever the donor presses their Unsubscribe button, possibly years later, and US and EU rules
 * expect an unsubscribe to keep working; what a stolen unsubscribe link can do is stop one
 * organization's matching-gift emails to one donor, which is what the donor asked for anyway.
 */
export const actionLinkGraceDays = 30;
export const actionLinkFallbackDays = 365;

/** When a confirm or decline link stops working (unsubscribe links never do: see above). */
export function actionLinkExpiry(deadline: string | null, sentAt: Date): Date {
  const dayMs = 24 * 60 * 60 * 1000;
  return deadline
    ? new Date(new Date(`${deadline}T23:59:59.999Z`).getTime() + actionLinkGraceDays * dayMs)
    : new Date(sentAt.getTime() + actionLinkFallbackDays * dayMs);
}

/** The public address of an action link (the token in the query: request logs carry paths only). */
export const actionUrl = (publicUrl: string, secret: string, notificationId: number, action: EmailAction) =>
  `${publicUrl}/api/email/${action}?t=${actionToken(secret, notificationId, action)}`;

/**
 * spec (section 9): reminders and the workflow's waits, in one place (the README quotes them).
 * The 1st reminder a week after the initial email, the 2nd a week after the 1st; a week after the
 * 2nd with no answer the match becomes Donor No Response (20).
 */
export const reminderSchedule = {
  firstReminderDays: 7,
  secondReminderDays: 7,
  noResponseDays: 7,
} as const;

/** spec (section 9): Match Deadline Approaching within 3 weeks of the deadline; 'Match About to Expire' one week before. */
export const deadlineNoticeDays = 21;
export const expiryNoticeDays = 7;

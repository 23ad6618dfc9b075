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

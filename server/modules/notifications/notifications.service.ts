import { and, eq, isNull, sql } from 'drizzle-orm';
import { notificationTexts } from '../../../src/contract/notifications.ts';
import { type Clock, dayMs, systemClock } from '../../clock.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { orgKey, orgKeyPairs, queryRows } from '../../db/rows.ts';
import { donationNotifications, donations } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { hashToken } from '../auth/tokens.ts';
import type { MatchNotifier } from '../donations/match-notifier.ts';
import * as webhookEvents from '../integrations/webhook-events.ts';
import {
  chooseVersion,
  emailCompanyName,
  liveVersions,
  type MailLinks,
  matchFacts,
  sendDonorMails,
  templateTypeOfStatus,
  unsubscribedAmong,
} from '../templates/donor-mail.ts';
import { hasQueuedMails, renderQueuedMails } from '../templates/mail-queue.ts';
import { renderQueuedOffThread } from '../templates/render-thread.ts';

/**
 * The statuses a donor is emailed about, and why: the donor has something to do, or should know
 * why their gift will not be matched. The spec's email templates (section 3: "7 CSR vendor
 * portal; 8 manual email matching; 9 policy incomplete; 10 below minimum; 11 against policy; 23
 * match requested without company name; 19 no matching program; 24 donor opt-in; 15 direct
 * debit only") plus the two signature statuses, where the donor signs.
 *
 * | status                                          | the email tells the donor                              |
 * |-------------------------------------------------|--------------------------------------------------------|
 * | 5 Donor to E-Sign Form                          | watch for the e-signature form and sign it             |
 * | 6 Original Signature Only                       | the company needs a hand-signed form                   |
 * | 7 Donor to Submit in Company Portal             | submit the gift in the company's portal (guide, URL)   |
 * | 8 Donor to Notify Company                       | tell the company's matching gift team                  |
 * | 9 Company Policy Incomplete                     | ask how the company matches; correct the request       |
 * | 10 Below Company Minimum                        | the minimum; gifts may be combined; correct the request|
 * | 11 Against Company Policy                       | the policy excludes the nonprofit; correct the request |
 * | 15 Donation Can't Be Matched Outside Company Site | give through the company's site next time            |
 * | 19 Company Has No Matching Program              | no program known; correct the request                  |
 * | 23 Missing Company Hold                         | add your employer                                      |
 * | 24 Awaiting Donor Opt-In                        | review the request to go ahead                         |
 *
 * Not emailed: statuses where the nonprofit acts (2, 3), where the match has moved on (1, 4, 13,
 * 16, 20, 21, 25, 28), a recurring hold (22, a later gift of the series is submitted), and the
 * nonprofit's own state (14 disabled, 17 registration incomplete).
 */
export const notifiedStatuses: ReadonlySet<number> = new Set<number>([5, 6, 7, 8, 9, 10, 11, 15, 19, 23, 24]);

/** spec: "Notification emails are sent at most weekly" — per donor (email) and organization. */
export const notificationIntervalDays = 7;

/** Where the links in a donor email point, and the workflow's clock (the system's by default). */
export type NotificationLinks = MailLinks & { clock?: Clock | undefined };

/**
 * The notifier the donations service is handed (it records matches without importing the mail
 * side): `notifyMatches` and `renderQueuedMails` with these links.
 */
export function matchNotifier(
  links: NotificationLinks,
  options: {
    /**
     * PostgreSQL's URL: queued emails are rendered in a worker thread with its own connection
     * (render-thread.ts). Only on the system clock: a test's manual clock stays in this thread.
     */
    renderOffThread?: string | undefined;
  } = {},
): MatchNotifier {
  const url = options.renderOffThread;
  return {
    notify: (tx, donationIds, notifyOptions) => notifyMatches(tx, donationIds, links, notifyOptions),
    renderQueued: url
      ? async (db) => ((await hasQueuedMails(db)) ? (await renderQueuedOffThread(url, links)).rendered : 0)
      : (db) => renderQueuedMails(db, links),
  };
}

/**
 * Emails the donors of these matches about their current status, in the caller's transaction
 * (the outbox row and the notification record commit with the change that caused them), rendered
 * from the organization's live template version for the status (server/mail/donor-email.tsx). A
 * match is skipped, with nothing recorded, when its status calls for no email, it is silenced, its
 * donor has no email or unsubscribed from the organization's emails, its organization is
 * deactivated, emails only donors who named an employer (email_who 'company') and it has none,
 * the gift is below the organization's email_min (whole dollars), or its donor was emailed by the
 * organization within the last week. Several matches of one donor in one call send one email
 * (the first match's).
 */
export async function notifyMatches(
  tx: Queryable,
  donationIds: readonly number[],
  links: NotificationLinks,
  /** queue: record the emails now and render them after the caller commits (sendDonorMails). */
  options: { queue?: boolean } = {},
): Promise<number[]> {
  if (donationIds.length === 0) return [];
  const now = (links.clock ?? systemClock).now();
  const rows = await matchFacts(tx, donationIds, notifiedStatuses);

  const candidates = rows.flatMap((row) => {
    const email = row.donor_email?.trim().toLowerCase();
    const company = emailCompanyName(row);
    const type = templateTypeOfStatus(row.status_id);
    if (!email || !notifiedStatuses.has(row.status_id) || type === null || row.silenced || row.deactivated)
      return [];
    if (row.email_who === 'company' && company === null) return [];
    if (row.amount_cents < row.email_min * 100) return [];
    return [{ row, email, company, type }];
  });
  if (candidates.length === 0) return [];

  // One notifier per organization at a time, so two requests for the same donor cannot both find
  // no email this week and both send one. Ordered ids: two callers never wait on each other in turn.
  const orgIds = [...new Set(candidates.map((c) => c.row.organization_id))].sort((a, b) => a - b);
  for (const orgId of orgIds)
    await tx.execute(sql`select pg_advisory_xact_lock(${notifierLockSpace}::int, ${orgId}::int)`);

  const emails = [...new Set(candidates.map((c) => c.email))];
  const emailed = await recentlyEmailed(
    tx,
    candidates.map((c) => [c.row.organization_id, c.email] as const),
    now,
  );
  const unsubscribed = await unsubscribedAmong(tx, orgIds, emails);
  const versions = await liveVersions(
    tx,
    [...new Map(candidates.map((c) => [`${c.row.organization_id}:${c.type}`, c])).values()].map((c) => ({
      organization_id: c.row.organization_id,
      status_id: c.type,
    })),
  );

  const planned = candidates.flatMap(({ row, email, company, type }) => {
    const key = orgKey(row.organization_id, email);
    // A request just merged from below-minimum gifts is what the donor's earlier email promised
    // ("give again and your gifts are combined"): the weekly limit does not hold it back.
    const merged = Array.isArray((row.custom.history as { merged_from?: unknown } | undefined)?.merged_from);
    if ((emailed.has(key) && !merged) || unsubscribed.has(key)) return [];
    const template = chooseVersion(versions.get(`${row.organization_id}:${type}`) ?? [], row.id);
    if (!template) return [];
    emailed.add(key);
    return [{ row, email, companyName: company, template, stage: 1 as const, kind: 'initial' as const }];
  });
  return sendDonorMails(tx, planned, links, now, options);
}

/**
 * Which of these (organization, email) pairs the organization emailed within the last week before
 * `now`: one probe of the recipients' index (organization, address, newest first) per pair.
 */
export async function recentlyEmailed(
  tx: Queryable,
  pairs: ReadonlyArray<readonly [number, string]>,
  now: Date,
): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  const since = new Date(now.getTime() - notificationIntervalDays * dayMs);
  const recent = await queryRows<{ org: number; email: string }>(
    tx,
    sql`select k.org, k.email from ${orgKeyPairs(pairs, 'email')}
        cross join lateral (select 1 from ${donationNotifications} n
          where n.organization_id = k.org and n.to_email = k.email and n.created_at > ${since}::timestamptz
          limit 1) as sent`,
  );
  return new Set(recent.map((r) => orgKey(r.org, r.email)));
}

/** The first key of the notifier's advisory locks (the second is the organization id). */
export const notifierLockSpace = 7_401;

/**
 * The open-tracking image was loaded: the first time sets first_open, later ones change nothing.
 * An unknown token changes nothing either; the caller answers the same image whatever happened.
 */
export async function recordOpen(db: Db, token: string): Promise<void> {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(token)) return;
  await db.transaction(async (tx) => {
    const opened = await tx
      .update(donationNotifications)
      .set({ first_open: sql`now()` })
      .where(
        and(
          eq(donationNotifications.open_token_hash, hashToken(token)),
          isNull(donationNotifications.first_open),
        ),
      )
      .returning({ donation_id: donationNotifications.donation_id });
    // The first open of this email: webhooks listening for first_open hear about it.
    for (const row of opened) await webhookEvents.firstOpened(tx, row.donation_id);
  });
}

/** The organization of a notification's match (the guard's lookup), or 404. */
export async function notificationOrganization(db: Queryable, notificationId: number): Promise<number> {
  const [row] = await db
    .select({ organization_id: donations.organization_id })
    .from(donationNotifications)
    .innerJoin(donations, eq(donations.id, donationNotifications.donation_id))
    .where(eq(donationNotifications.id, notificationId));
  if (!row) throw new HttpError(404, notificationTexts.notFound);
  return row.organization_id;
}

/** What was sent, for the portal's preview: the stored copy, which has no open-tracking image. */
export async function notificationPreview(db: Queryable, notificationId: number) {
  const [row] = await db
    .select({
      id: donationNotifications.id,
      donation_id: donationNotifications.donation_id,
      subject: donationNotifications.subject,
      to: donationNotifications.to_email,
      created_at: donationNotifications.created_at,
      html: donationNotifications.html,
      text: donationNotifications.text,
    })
    .from(donationNotifications)
    .where(and(eq(donationNotifications.id, notificationId), eq(donationNotifications.queued, false)));
  if (!row) throw new HttpError(404, notificationTexts.notFound);
  return {
    ...row,
    subject: row.subject ?? '',
    html: row.html ?? '',
    text: row.text ?? '',
    created_at: row.created_at.toISOString(),
  };
}

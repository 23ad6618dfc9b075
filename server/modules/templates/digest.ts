import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { statuses, statusIdOf } from '../../../src/contract/statuses.ts';
import { dayMs } from '../../clock.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { donations, notifees, organizations, scheduledJobs } from '../../db/schema.ts';
import { enqueueMail } from '../../jobs/outbox.ts';
import type { JobHandler } from '../../jobs/scheduler.ts';
import { actionDigestMail } from '../../mail/templates.ts';
import type { MailLinks } from './donor-mail.ts';

/**
 * What needs the nonprofit's action, by status: matches to review, to verify or sign, and holds.
 */
export const digestStatuses = [
  { status: 2, label: 'to review' },
  { status: 3, label: 'to verify or sign' },
  { status: 22, label: 'on recurring hold' },
  { status: 23, label: 'held for a missing company' },
] as const;

/** spec: "Notification emails are sent at most weekly." */
export const digestIntervalDays = 7;

/**
 * Schedules this week's digest of each organization with matches needing action (one job per
 * organization and week: the key makes it idempotent, however often and wherever it runs).
 */
export async function scheduleDigests(db: Db, now: Date): Promise<void> {
  const week = Math.floor(now.getTime() / (digestIntervalDays * dayMs));
  const ids = digestStatuses.map((s) => s.status);
  await db.execute(sql`
    insert into ${scheduledJobs} (kind, key, organization_id, run_at)
    select 'digest', 'digest:' || d.organization_id || ':' || ${week}::int, d.organization_id, ${now.toISOString()}::timestamptz
    from (select distinct ${donations.organization_id} as organization_id from ${donations}
          where ${inArray(donations.status_id, ids)}) d
    on conflict (key) do nothing`);
}

/** Who gets the organization's digest: its notification emails and its primary contact, once each. */
export async function digestRecipients(
  db: Queryable,
  orgId: number,
  contactEmail: string | null | undefined,
): Promise<Set<string>> {
  const recipients = new Set(
    (await db.select({ email: notifees.email }).from(notifees).where(eq(notifees.org_id, orgId))).map((n) =>
      n.email.toLowerCase(),
    ),
  );
  // spec: "A primary contact also receives the notification emails."
  if (contactEmail) recipients.add(contactEmail.trim().toLowerCase());
  return recipients;
}

/**
 * The first moment the organization's next digest may go: a week after the last one sent (0 when
 * none was). The job waits for it, and the Scheduled Emails view projects from it.
 */
export async function nextDigestAllowed(db: Queryable, orgId: number): Promise<number> {
  const [last] = await db
    .select({ at: scheduledJobs.done_at })
    .from(scheduledJobs)
    .where(
      and(
        eq(scheduledJobs.kind, 'digest'),
        eq(scheduledJobs.organization_id, orgId),
        eq(scheduledJobs.status, 'done'),
      ),
    )
    .orderBy(desc(scheduledJobs.done_at))
    .limit(1);
  return last?.at ? last.at.getTime() + digestIntervalDays * dayMs : 0;
}

/** Sends one organization's digest, unless one went out within the week (then it waits). */
export function digestHandler(links: MailLinks): JobHandler {
  return async (tx, job, now) => {
    const orgId = job.organization_id;
    if (orgId === null) return { done: true };
    const nextAllowed = await nextDigestAllowed(tx, orgId);
    if (nextAllowed > now.getTime()) return { retryAt: new Date(nextAllowed) };
    const [org] = await tx
      .select({
        name: organizations.name,
        contact: organizations.notify_contact,
        off: organizations.rule_deactivated,
      })
      .from(organizations)
      .where(eq(organizations.id, orgId));
    if (!org || org.off) return { done: true };
    const counts = await tx
      .select({ status: donations.status_id, n: count() })
      .from(donations)
      .where(
        and(
          eq(donations.organization_id, orgId),
          inArray(
            donations.status_id,
            digestStatuses.map((s) => s.status),
          ),
        ),
      )
      .groupBy(donations.status_id);
    const items = digestStatuses.flatMap(({ status, label }) => {
      const n = counts.find((c) => c.status === status)?.n ?? 0;
      return n > 0 ? [`${n} ${n === 1 ? 'match' : 'matches'} ${label} (${statuses[status]})`] : [];
    });
    const recipients = await digestRecipients(tx, orgId, org.contact.email);
    if (items.length === 0 || recipients.size === 0) return { done: true };
    for (const to of [...recipients].sort())
      await enqueueMail(
        tx,
        await actionDigestMail({
          to,
          organizationName: org.name,
          items,
          // Matches to verify or sign are worked from the verification queue; holds from the list.
          ...(counts.some((c) => c.status === statusIdOf.npoToVerify && c.n > 0)
            ? { url: `${links.publicUrl}/portal/verification`, actionLabel: 'Open the verification queue' }
            : { url: `${links.publicUrl}/portal/donations` }),
          supportEmail: links.supportEmail,
        }),
      );
    return { done: true };
  };
}

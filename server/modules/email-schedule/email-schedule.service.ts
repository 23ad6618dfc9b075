import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { donationMessages } from '../../../src/contract/donations.ts';
import {
  actionableKinds,
  type MatchSchedule,
  maxScheduleWindowDays,
  type ScheduledEmailsQuery,
  type ScheduledEmailsResponse,
  type ScheduleKind,
  scheduleKinds,
  scheduleLabel,
  scheduleMessages,
  scheduleTemplateNames,
  scheduleWindowDays,
} from '../../../src/contract/email-schedule.ts';
import { reminderTemplateIds, versionLabels } from '../../../src/contract/email-templates.ts';
import { dayMs } from '../../clock.ts';
import type { Db, Queryable, Tx } from '../../db/client.ts';
import { anyOf, queryRows } from '../../db/rows.ts';
import {
  donationNotifications,
  donations,
  emailScheduleActions,
  emailTemplates,
  organizations,
  scheduledJobs,
  users,
} from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import {
  digestIntervalDays,
  digestRecipients,
  digestStatuses,
  nextDigestAllowed,
} from '../templates/digest.ts';
import { chooseVersion, type MailLinks } from '../templates/donor-mail.ts';
import { reminderSchedule } from '../templates/links.ts';
import { workflowHandlers } from '../templates/workflow.ts';

/**
 * Issue #30: the donor-email schedule made visible and steerable. It reads the scheduler's own
 * rows (scheduled_jobs) rather than predicting them, so what the match dialog and the
 * organization's view show is what the scheduler will run; send-now runs the scheduler's own job
 * handler (same checks, same email, same next step) and skip cancels the job and plans the
 * sequence's next step as the scheduler would have after sending it.
 */

const templateOf = (row: { status_id: number; version: number } | null | undefined) =>
  row
    ? {
        type: row.status_id,
        name: scheduleTemplateNames[row.status_id] ?? `Template ${row.status_id}`,
        version: versionLabels[row.version] ?? `Version ${row.version}`,
      }
    : null;

const asKind = (kind: string): ScheduleKind | null =>
  (scheduleKinds as readonly string[]).includes(kind) ? (kind as ScheduleKind) : null;

const stageOf = (payload: Record<string, unknown>): number | null =>
  typeof payload.stage === 'number' ? payload.stage : null;

/** The notification a reminder continues (its initial email: the version every reminder reuses). */
const initialIdOf = (payload: Record<string, unknown>): number | null => {
  const id = payload.initial_id ?? payload.notification_id;
  return typeof id === 'number' ? id : null;
};

/**
 * The version the deadline emails (template 102) will use for this match, read without writing:
 * the scheduler's choice among the live versions, or the shipped Default while none is stored.
 */
async function deadlineVersion(db: Queryable, organizationId: number, donationId: number) {
  const live = await db
    .select({ status_id: emailTemplates.status_id, version: emailTemplates.version })
    .from(emailTemplates)
    .where(
      and(
        eq(emailTemplates.organization_id, organizationId),
        eq(emailTemplates.status_id, 102),
        eq(emailTemplates.live, true),
      ),
    )
    .orderBy(asc(emailTemplates.version));
  return chooseVersion(live, donationId) ?? { status_id: 102, version: 0 };
}

/** A match's emails: sent (with opens and clicks), scheduled (with their dates) and staff's actions. */
export async function matchSchedule(db: Queryable, donationId: number, now: Date): Promise<MatchSchedule> {
  const [match] = await db
    .select({ organization_id: donations.organization_id })
    .from(donations)
    .where(eq(donations.id, donationId));
  if (!match) throw new HttpError(404, donationMessages.notFound);
  const sent = await db
    .select({
      id: donationNotifications.id,
      kind: donationNotifications.kind,
      stage: donationNotifications.stage,
      subject: donationNotifications.subject,
      created_at: donationNotifications.created_at,
      first_open: donationNotifications.first_open,
      confirm_clicked_at: donationNotifications.confirm_clicked_at,
      decline_clicked_at: donationNotifications.decline_clicked_at,
      template_status: emailTemplates.status_id,
      template_version: emailTemplates.version,
    })
    .from(donationNotifications)
    .leftJoin(emailTemplates, eq(emailTemplates.id, donationNotifications.template_id))
    .where(eq(donationNotifications.donation_id, donationId))
    .orderBy(asc(donationNotifications.created_at), asc(donationNotifications.id));
  const jobs = await db
    .select()
    .from(scheduledJobs)
    .where(and(eq(scheduledJobs.donation_id, donationId), eq(scheduledJobs.status, 'pending')))
    .orderBy(asc(scheduledJobs.run_at), asc(scheduledJobs.id));
  const deadline = jobs.some((j) => j.kind === 'deadline' || j.kind === 'expire')
    ? await deadlineVersion(db, match.organization_id, donationId)
    : null;
  const scheduled: MatchSchedule['scheduled'] = [];
  for (const job of jobs) {
    const kind = asKind(job.kind);
    if (!kind) continue;
    const stage = stageOf(job.payload);
    let template: ReturnType<typeof templateOf> = null;
    if (kind === 'reminder') {
      const initial = sent.find((s) => s.id === initialIdOf(job.payload));
      template =
        initial?.template_status != null && initial.template_version != null
          ? templateOf({ status_id: initial.template_status, version: initial.template_version })
          : null;
    } else if (kind === 'deadline' || kind === 'expire') template = templateOf(deadline);
    scheduled.push({
      id: job.id,
      kind,
      label: scheduleLabel(kind, stage),
      stage,
      // An overdue job goes in the scheduler's next round: it is due now, not in the past.
      due_at: new Date(Math.max(job.run_at.getTime(), now.getTime())).toISOString(),
      template,
      actionable: actionableKinds.has(kind),
    });
  }
  const history = await db
    .select({
      id: emailScheduleActions.id,
      action: emailScheduleActions.action,
      kind: emailScheduleActions.kind,
      stage: emailScheduleActions.stage,
      at: emailScheduleActions.at,
      name: users.name,
      email: users.email,
    })
    .from(emailScheduleActions)
    .leftJoin(users, eq(users.id, emailScheduleActions.user_id))
    .where(eq(emailScheduleActions.donation_id, donationId))
    .orderBy(desc(emailScheduleActions.at), desc(emailScheduleActions.id));
  return {
    donation_id: donationId,
    now: now.toISOString(),
    sent: sent.map((s) => ({
      id: s.id,
      label: scheduleLabelOfSent(s.kind, s.stage),
      subject: s.subject,
      sent_at: s.created_at.toISOString(),
      template:
        s.template_status != null && s.template_version != null
          ? templateOf({ status_id: s.template_status, version: s.template_version })
          : null,
      first_open: s.first_open?.toISOString() ?? null,
      confirm_clicked_at: s.confirm_clicked_at?.toISOString() ?? null,
      decline_clicked_at: s.decline_clicked_at?.toISOString() ?? null,
    })),
    scheduled,
    history: history.map((h) => ({
      id: h.id,
      action: h.action,
      label: scheduleLabel(h.kind, h.stage),
      at: h.at.toISOString(),
      user: h.name?.trim() || h.email || null,
    })),
  };
}

function scheduleLabelOfSent(kind: string, stage: number): string {
  if (kind === 'initial') return 'Initial email';
  if (kind === 'link') return 'New signing link';
  return scheduleLabel(kind, stage);
}

/** The match's pending job, locked, and the action already taken on it (a repeated click). */
async function lockedJob(tx: Tx, donationId: number, jobId: number) {
  const [job] = await tx
    .select()
    .from(scheduledJobs)
    .where(and(eq(scheduledJobs.id, jobId), eq(scheduledJobs.donation_id, donationId)))
    .for('update');
  if (!job) throw new HttpError(404, scheduleMessages.noLongerScheduled);
  const [acted] = await tx
    .select({ action: emailScheduleActions.action })
    .from(emailScheduleActions)
    .where(eq(emailScheduleActions.job_id, jobId));
  return { job, acted: acted?.action ?? null };
}

/**
 * One staff action on a scheduled email, in one transaction: the job row locked, the same action
 * repeated (a double click) answered with the schedule as it stands, anything else done to the
 * job refused, then the action's own work and its line in the history.
 */
async function actOnScheduled(
  db: Db,
  now: Date,
  userId: number,
  donationId: number,
  jobId: number,
  action: 'send_now' | 'skip',
  work: (tx: Tx, job: Awaited<ReturnType<typeof lockedJob>>['job']) => Promise<void>,
): Promise<MatchSchedule> {
  return db.transaction(async (tx) => {
    const { job, acted } = await lockedJob(tx, donationId, jobId);
    if (acted === action) return matchSchedule(tx, donationId, now);
    if (acted !== null || job.status !== 'pending')
      throw new HttpError(409, scheduleMessages.noLongerScheduled);
    if (!actionableKinds.has(job.kind)) throw new HttpError(409, scheduleMessages.notActionable);
    await work(tx, job);
    await tx.insert(emailScheduleActions).values({
      donation_id: donationId,
      job_id: job.id,
      action,
      kind: job.kind,
      stage: stageOf(job.payload),
      user_id: userId,
      at: now,
    });
    return matchSchedule(tx, donationId, now);
  });
}

async function notificationCount(tx: Tx, donationId: number): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(donationNotifications)
    .where(eq(donationNotifications.donation_id, donationId));
  return row?.n ?? 0;
}

/**
 * Sends a scheduled reminder or deadline email now, through the scheduler's own handler for its
 * kind, in one transaction with the job marked done and the action recorded. The job row is
 * locked first, so a double click (or the scheduler's round) runs it once: the second request
 * finds it done by this action and answers the same schedule. When the handler would not send
 * (the match moved on, the donor answered) or would wait (a follow-up went out within a day),
 * nothing changes and the caller is told why.
 */
export async function sendScheduledNow(
  db: Db,
  links: MailLinks,
  now: Date,
  userId: number,
  donationId: number,
  jobId: number,
): Promise<MatchSchedule> {
  return actOnScheduled(db, now, userId, donationId, jobId, 'send_now', async (tx, job) => {
    const handler = workflowHandlers(links)[job.kind];
    if (!handler) throw new HttpError(409, scheduleMessages.notActionable);
    const before = await notificationCount(tx, donationId);
    const result = await handler(tx, job, now);
    if ('retryAt' in result) throw new HttpError(409, scheduleMessages.tooSoon(result.retryAt.toISOString()));
    if ((await notificationCount(tx, donationId)) === before)
      throw new HttpError(409, scheduleMessages.wouldNotSend);
    await tx
      .update(scheduledJobs)
      .set({ status: 'done', done_at: now, locked_until: null, last_error: null })
      .where(eq(scheduledJobs.id, job.id));
  });
}

/**
 * Skips a scheduled reminder or deadline email. The sequence goes on as if it had gone on its
 * day: skipping the 1st reminder plans the 2nd reminder `secondReminderDays` after the skipped
 * one's date (or after now, when it was already due); skipping the 2nd plans Donor No Response
 * `noResponseDays` after it. A deadline email skipped is simply not sent (the other deadline
 * email keeps its own date).
 */
export async function skipScheduled(
  db: Db,
  now: Date,
  userId: number,
  donationId: number,
  jobId: number,
): Promise<MatchSchedule> {
  return actOnScheduled(db, now, userId, donationId, jobId, 'skip', async (tx, job) => {
    await tx
      .update(scheduledJobs)
      .set({ status: 'cancelled', done_at: now, locked_until: null })
      .where(eq(scheduledJobs.id, job.id));
    const stage = stageOf(job.payload);
    if (job.kind === 'reminder' && (stage === 2 || stage === 3)) {
      const [match] = await tx
        .select({ status_id: donations.status_id, organization_id: donations.organization_id })
        .from(donations)
        .where(eq(donations.id, donationId));
      const nextKind = stage === 2 ? 'reminder' : 'no-response';
      const days = stage === 2 ? reminderSchedule.secondReminderDays : reminderSchedule.noResponseDays;
      const from = Math.max(job.run_at.getTime(), now.getTime());
      if (match)
        await tx
          .insert(scheduledJobs)
          .values({
            kind: nextKind,
            key: `${nextKind}:${donationId}:${match.status_id}:skip-${job.id}`,
            donation_id: donationId,
            organization_id: match.organization_id,
            payload: {
              ...(typeof job.payload.notification_id === 'number'
                ? { notification_id: job.payload.notification_id }
                : {}),
              initial_id: initialIdOf(job.payload),
              stage: stage + 1,
              skipped_job_id: job.id,
            },
            run_at: new Date(from + days * dayMs),
          })
          .onConflictDoNothing();
    }
  });
}

const dayOf = (d: Date) => d.toISOString().slice(0, 10);
const maxListed = 50;

/**
 * What goes out across an organization (and its chapters) day by day, by template: the pending
 * reminders and deadline emails, and the weekly staff email projected from the digest's own rule
 * (at most weekly, while matches wait on the staff). Days are UTC, as the scheduler's are.
 */
export async function organizationSchedule(
  db: Queryable,
  orgId: number,
  query: ScheduledEmailsQuery,
  now: Date,
): Promise<ScheduledEmailsResponse> {
  const today = dayOf(now);
  const from = query.from ?? today;
  const to = query.to ?? dayOf(new Date(Date.parse(`${from}T00:00:00Z`) + (scheduleWindowDays - 1) * dayMs));
  const fromMs = Date.parse(`${from}T00:00:00Z`);
  const endMs = Date.parse(`${to}T00:00:00Z`) + dayMs;
  if (endMs <= fromMs) throw new HttpError(400, scheduleMessages.badRange);
  if (endMs - fromMs > maxScheduleWindowDays * dayMs) throw new HttpError(400, scheduleMessages.rangeTooLong);

  const family = await db
    .select({ id: organizations.id, name: organizations.name, parent_id: organizations.parent_id })
    .from(organizations)
    .where(sql`${organizations.id} = ${orgId} or ${organizations.parent_id} = ${orgId}`)
    .orderBy(sql`${organizations.parent_id} nulls first`, asc(organizations.name));
  const chapters = family.filter((o) => o.id !== orgId).map((o) => ({ id: o.id, name: o.name }));
  if (query.chapter !== undefined && !family.some((o) => o.id === Number(query.chapter)))
    throw new HttpError(400, 'chapter must be this organization or one of its chapters');
  const scope = query.chapter !== undefined ? [Number(query.chapter)] : family.map((o) => o.id);

  // Overdue jobs go in the scheduler's next round: they count on today.
  const rows = await queryRows<{
    id: number;
    kind: string;
    stage: number | null;
    due: string;
    donation_id: number;
    donor_name: string | null;
    template_type: number | null;
    template_version: number | null;
  }>(
    db,
    sql`select j.id, j.kind, (j.payload->>'stage')::int as stage,
          greatest(j.run_at, ${now.toISOString()}::timestamptz) as due,
          j.donation_id, dn.name as donor_name,
          t.status_id as template_type, t.version as template_version
        from ${scheduledJobs} j
        join ${donations} d on d.id = j.donation_id
        left join donors dn on dn.id = d.donor_id
        left join ${donationNotifications} n
          on j.kind = 'reminder' and n.id = coalesce((j.payload->>'initial_id')::int, (j.payload->>'notification_id')::int)
        left join ${emailTemplates} t on t.id = n.template_id
        where j.status = 'pending' and j.kind in ('reminder', 'deadline', 'expire')
          and ${anyOf(sql`j.organization_id`, scope, 'int')}
          and greatest(j.run_at, ${now.toISOString()}::timestamptz) >= ${new Date(fromMs).toISOString()}::timestamptz
          and greatest(j.run_at, ${now.toISOString()}::timestamptz) < ${new Date(endMs).toISOString()}::timestamptz
        order by due, j.id`,
  );
  type Group = ScheduledEmailsResponse['days'][number]['groups'][number];
  const byDay = new Map<string, Map<string, Group>>();
  const add = (
    day: string,
    key: string,
    group: Omit<Group, 'count' | 'matches'>,
    match?: Group['matches'][number],
    n = 1,
  ) => {
    let groups = byDay.get(day);
    if (!groups) {
      groups = new Map();
      byDay.set(day, groups);
    }
    let g = groups.get(key);
    if (!g) {
      g = { ...group, count: 0, matches: [] };
      groups.set(key, g);
    }
    g.count += n;
    if (match && g.matches.length < maxListed) g.matches.push(match);
  };
  for (const r of rows) {
    const type = r.kind === 'reminder' ? r.template_type : 102;
    if (type === null) continue;
    const template = String(type);
    if (query.template !== undefined && query.template !== template) continue;
    const label = scheduleLabel(r.kind, r.stage);
    add(
      dayOf(new Date(r.due)),
      `${template}:${label}`,
      {
        template,
        template_name: scheduleTemplateNames[type] ?? `Template ${type}`,
        label,
        projected: false,
      },
      { id: r.donation_id, donor_name: r.donor_name },
    );
  }

  if (query.template === undefined || query.template === 'digest') {
    for (const org of family.filter((o) => scope.includes(o.id))) {
      for (const day of await digestDays(db, org.id, now, fromMs, endMs))
        add(
          day.day,
          `digest:${org.id}`,
          {
            template: 'digest',
            template_name: scheduleLabel('digest', null),
            // With chapters, each organization's staff get their own.
            label: family.length > 1 ? org.name : 'Matches waiting on the staff',
            projected: day.projected,
          },
          undefined,
          day.recipients,
        );
    }
  }

  const days = [...byDay.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([day, groups]) => {
      const list = [...groups.values()].sort(
        (a, b) => a.template_name.localeCompare(b.template_name) || a.label.localeCompare(b.label),
      );
      return { day, count: list.reduce((n, g) => n + g.count, 0), groups: list };
    });
  return {
    from,
    to,
    now: now.toISOString(),
    total: days.reduce((n, d) => n + d.count, 0),
    days,
    // What the scheduler sends: the reminder templates, the deadline emails, the staff email.
    templates: [
      ...[...reminderTemplateIds, 102]
        .sort((a, b) => a - b)
        .map((t) => ({ value: String(t), name: scheduleTemplateNames[t] ?? `Template ${t}` })),
      { value: 'digest', name: scheduleLabel('digest', null) },
    ],
    chapters,
  };
}

/**
 * The weekly staff email's days in the window: the pending digest's day (or the first day the
 * weekly limit allows), then every week after; later ones are projected (they go only if matches
 * still wait on the staff then). None while nothing waits or nobody would receive it.
 */
async function digestDays(db: Queryable, orgId: number, now: Date, fromMs: number, endMs: number) {
  const [org] = await db
    .select({ contact: organizations.notify_contact, off: organizations.rule_deactivated })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  if (!org || org.off) return [];
  const [waiting] = await db
    .select({ n: count() })
    .from(donations)
    .where(
      and(
        eq(donations.organization_id, orgId),
        inArray(
          donations.status_id,
          digestStatuses.map((s) => s.status),
        ),
      ),
    );
  if (!waiting || waiting.n === 0) return [];
  const recipients = await digestRecipients(db, orgId, org.contact.email);
  if (recipients.size === 0) return [];
  const [pending] = await db
    .select({ at: scheduledJobs.run_at })
    .from(scheduledJobs)
    .where(
      and(
        eq(scheduledJobs.kind, 'digest'),
        eq(scheduledJobs.organization_id, orgId),
        eq(scheduledJobs.status, 'pending'),
      ),
    )
    .orderBy(asc(scheduledJobs.run_at))
    .limit(1);
  const allowed = await nextDigestAllowed(db, orgId);
  let at = Math.max(now.getTime(), allowed, pending?.at.getTime() ?? 0);
  const out: Array<{ day: string; recipients: number; projected: boolean }> = [];
  for (let i = 0; at < endMs; i += 1, at += digestIntervalDays * dayMs)
    if (at >= fromMs)
      out.push({ day: dayOf(new Date(at)), recipients: recipients.size, projected: i > 0 || !pending });
  return out;
}

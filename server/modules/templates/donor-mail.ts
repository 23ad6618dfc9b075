import { createHmac } from 'node:crypto';
import { and, asc, eq, or, type SQL, sql } from 'drizzle-orm';
import { type DeadlineRule, matchDeadline } from '../../../src/contract/donor.ts';
import {
  reminderTemplateIds,
  type TemplateStage,
  type TemplateTexts,
  type TemplateTypeId,
} from '../../../src/contract/email-templates.ts';
import { dayMs } from '../../clock.ts';
import type { Queryable } from '../../db/client.ts';
import {
  type ArrayType,
  anyOf,
  arrayParam,
  insertUnnest,
  nextIds,
  orgKey,
  queryRows,
} from '../../db/rows.ts';
import {
  campaigns,
  companies,
  donationNotifications,
  donations,
  donors,
  emailTemplates,
  emailUnsubscribes,
  organizations,
  outbox,
  scheduledJobs,
} from '../../db/schema.ts';
import { type DonorEmailInput, renderDonorEmails } from '../../mail/donor-email.tsx';
import type { MailMessage } from '../../mail/templates.ts';
import { hashToken } from '../auth/tokens.ts';
import { signingLink } from '../esign/esign-link.ts';
import { logoUrl } from '../organization/logo-url.ts';
import { donorActionStatuses } from './actions.ts';
import { templateTypeOfStatus } from './defaults.ts';
import { actionUrl, deadlineNoticeDays, expiryNoticeDays, reminderSchedule } from './links.ts';
import { versionTexts } from './templates.service.ts';
import { variableValues } from './variables.ts';

/** What a donor email needs from the server's settings: its origin, support address and secret. */
export type MailLinks = { publicUrl: string; supportEmail: string; jwtSecret: string };

/**
 * The match facts a donor email is made of (one query for a batch); with `statuses`, only the
 * matches at one of them (the others are emailed nothing).
 */
export async function matchFacts(
  db: Queryable,
  donationIds: readonly number[],
  statuses?: ReadonlySet<number>,
) {
  if (donationIds.length === 0) return [];
  return db
    .select({
      id: donations.id,
      organization_id: donations.organization_id,
      status_id: donations.status_id,
      silenced: donations.silenced,
      amount_cents: donations.amount_cents,
      donated_at: donations.donated_at,
      transaction_id: donations.transaction_id,
      custom: donations.custom,
      campaign_id: donations.campaign_id,
      campaign_name: campaigns.name,
      campaign_message: campaigns.message,
      company_id: donations.company_id,
      company_name: donations.company_name,
      donor_name: donors.name,
      donor_email: donors.email,
      org: {
        name: organizations.name,
        ein: organizations.ein,
        url: organizations.url,
        mission: organizations.mission,
        file_logo: organizations.file_logo,
        notify_contact: organizations.notify_contact,
      },
      deactivated: organizations.rule_deactivated,
      email_who: organizations.email_who,
      email_min: organizations.email_min,
      catalogue_name: companies.name,
      company: {
        match_method: companies.match_method,
        program: companies.program,
        minimum_match_cents: companies.minimum_match_cents,
        maximum_match_cents: companies.maximum_match_cents,
        csr_vendor: companies.csr_vendor,
        url: companies.url,
        guide: companies.guide,
      },
      deadline_rule: companies.deadline_rule,
      deadline_days: companies.deadline_days,
    })
    .from(donations)
    .innerJoin(organizations, eq(organizations.id, donations.organization_id))
    .leftJoin(donors, eq(donors.id, donations.donor_id))
    .leftJoin(companies, eq(companies.id, donations.company_id))
    .leftJoin(campaigns, eq(campaigns.id, donations.campaign_id))
    .where(
      and(
        anyOf(donations.id, [...new Set(donationIds)], 'int'),
        statuses ? anyOf(donations.status_id, [...statuses], 'int') : undefined,
      ),
    )
    .orderBy(donations.id);
}
export type MatchFacts = Awaited<ReturnType<typeof matchFacts>>[number];

/** The company a donor email names: the catalogue's name, else the name the donor typed (trimmed). */
export function emailCompanyName(row: Pick<MatchFacts, 'catalogue_name' | 'company_name'>): string | null {
  return row.catalogue_name ?? (row.company_name?.trim() || null);
}

/** The FAQ's process flag for a status, so the FAQ opens on the entries that apply to the donor. */
const faqProcess: Partial<Record<number, string>> = {
  5: 'esign',
  6: 'paper',
  7: 'portal',
  8: 'contact',
  15: 'direct',
};

/** One donor email to send: which match, which version, which email of the sequence. */
export type PlannedMail = {
  row: MatchFacts;
  email: string;
  companyName: string | null;
  template: typeof emailTemplates.$inferSelect;
  stage: TemplateStage;
  /** 'link': a new signing link the donor asked for (no follow-ups are planned from it). */
  kind: 'initial' | 'reminder' | 'deadline' | 'expire' | 'link';
  /** A reminder's initial email (its sequence). */
  initialId?: number | undefined;
};

/** The path of the open-tracking image of a notification. */
const openPixelPath = (token: string) => `/api/notification/open.gif?t=${token}`;
/** The open-tracking image in a rendered email (the first; there is one). */
const openPixelImage = /<img [^>]*open\.gif\?t=[A-Za-z0-9_-]+"[^>]*\/>/;

/**
 * Emails per batch: their rows are inserted as lists (no parameter limit), so this only bounds
 * the memory of rendered emails held at once.
 */
const insertBatch = 2000;

/** One email's facts as the notification row records them before it is rendered. */
type Recorded = { id: number; mail: PlannedMail };

/**
 * The open-tracking token of a notification: derived from the server's secret and the
 * notification's id (only its hash is stored), so an email recorded now can be rendered later.
 */
function openToken(secret: string, notificationId: number): string {
  return createHmac('sha256', secret).update(`open-pixel:${notificationId}`).digest('base64url');
}

/**
 * Donor emails in the caller's transaction: each is a notification row (what the portal previews
 * and the stats count) and an outbox row (what goes out, with its open-tracking image and
 * unsubscribe headers). An initial email of a template with reminders schedules its 1st
 * reminder. Returns the notification ids.
 *
 * With `queue`, the emails are recorded, not rendered: the notification rows hold the facts
 * (match, address, template version, stage) and `queued`, and renderQueuedMails
 * (mail-queue.ts) renders them into the outbox once the caller has committed. A bulk import
 * uses it: rendering and storing a thousand emails' HTML would otherwise be most of its
 * transaction.
 */
export async function sendDonorMails(
  tx: Queryable,
  planned: readonly PlannedMail[],
  links: MailLinks,
  now: Date,
  options: { queue?: boolean } = {},
): Promise<number[]> {
  const created: number[] = [];
  for (let start = 0; start < planned.length; start += insertBatch) {
    const part = planned.slice(start, start + insertBatch);
    // The links name the notification, so its id is taken before the email is rendered.
    const ids = await nextIds(tx, 'donation_notifications', part.length);
    const recorded = part.map((mail, i) => ({ id: ids[i] as number, mail }));
    if (options.queue) await recordQueued(tx, recorded, links, now);
    else await renderMails(tx, recorded, links, now, 'insert');
    // The next step of a sequence: the 1st reminder after the initial email, the 2nd after the
    // 1st, Donor No Response after the 2nd (only templates with reminder tabs).
    const next: Array<typeof scheduledJobs.$inferInsert> = part.flatMap((p, i) => {
      if (p.kind !== 'initial' && p.kind !== 'reminder') return [];
      if (!reminderTemplateIds.has(p.template.status_id)) return [];
      const id = ids[i] as number;
      const initialId = p.kind === 'initial' ? id : p.initialId;
      const days =
        p.stage === 1
          ? reminderSchedule.firstReminderDays
          : p.stage === 2
            ? reminderSchedule.secondReminderDays
            : reminderSchedule.noResponseDays;
      const kind = p.stage === 3 ? 'no-response' : 'reminder';
      return [
        {
          kind: kind as string,
          key: `${kind}:${p.row.id}:${p.row.status_id}:${id}`,
          donation_id: p.row.id,
          organization_id: p.row.organization_id,
          payload: {
            notification_id: id,
            ...(initialId ? { initial_id: initialId } : {}),
            stage: p.stage + 1,
          },
          run_at: new Date(now.getTime() + days * dayMs),
        },
      ];
    });
    // spec (section 9): Match Deadline Approaching "if the donor has not clicked emails and the
    // deadline is within 3 weeks"; 'Match About to Expire' "one week before expiry".
    for (const p of part) {
      if (p.kind !== 'initial' || !donorActionStatuses.has(p.row.status_id) || !p.row.deadline_rule) continue;
      const day = matchDeadline(
        p.row.deadline_rule as DeadlineRule,
        p.row.deadline_days,
        p.row.donated_at.toISOString().slice(0, 10),
      );
      if (!day) continue;
      const deadline = new Date(`${day}T23:59:59Z`).getTime();
      if (deadline <= now.getTime()) continue;
      const common = {
        donation_id: p.row.id,
        organization_id: p.row.organization_id,
        payload: { deadline: day },
      };
      next.push({
        ...common,
        kind: 'deadline',
        key: `deadline:${p.row.id}:${day}`,
        run_at: new Date(Math.max(now.getTime(), deadline - deadlineNoticeDays * dayMs)),
      });
      if (deadline - expiryNoticeDays * dayMs > now.getTime())
        next.push({
          ...common,
          kind: 'expire',
          key: `expire:${p.row.id}:${day}`,
          run_at: new Date(deadline - expiryNoticeDays * dayMs),
        });
    }
    if (next.length > 0) await tx.insert(scheduledJobs).values(next).onConflictDoNothing();
    created.push(...ids);
  }
  return created;
}

/**
 * Renders these emails and stores them: the outbox rows, and their notification rows, inserted
 * (`insert`) or, for queued ones, filled in (`update`).
 */
export async function renderMails(
  tx: Queryable,
  recorded: readonly Recorded[],
  links: MailLinks,
  now: Date,
  how: 'insert' | 'update',
): Promise<void> {
  // One texts object per template version, so the renderer sees the same layout as the same.
  const texts = new Map<PlannedMail['template'], TemplateTexts>();
  const textsOf = (template: PlannedMail['template']) => {
    let found = texts.get(template);
    if (!found) {
      found = versionTexts(template);
      texts.set(template, found);
    }
    return found;
  };
  // In parts of `mailParts.rows`: a statement carrying 4,000 emails' HTML (an import's) is
  // some 30 MB, whose parameters the driver builds and writes in one go on the event loop.
  const rows = mailParts.rows;
  for (let from = 0; from < recorded.length; from += rows)
    await renderMailPart(tx, recorded.slice(from, from + rows), links, now, how, textsOf);
}

/**
 * Emails rendered and stored per pair of statements (outbox rows, then their notification rows);
 * a setting so the tests can cut a small batch into several parts.
 */
export const mailParts = { rows: 500 };

async function renderMailPart(
  tx: Queryable,
  recorded: readonly Recorded[],
  links: MailLinks,
  now: Date,
  how: 'insert' | 'update',
  textsOf: (template: PlannedMail['template']) => TemplateTexts,
): Promise<void> {
  const prepared: DonorEmailInput[] = [];
  for (const { id, mail: p } of recorded) {
    const faq = new URL('/portal/faq', links.publicUrl);
    faq.searchParams.set('di', String(p.row.id));
    faq.searchParams.set('de', p.email);
    if (p.companyName) faq.searchParams.set('cn', p.companyName);
    const process = faqProcess[p.row.status_id];
    if (process) faq.searchParams.set(process, '1');
    // spec (section 4): 5 Donor to E-Sign Form — the email carries the signing link.
    const sign = p.row.status_id === 5 ? await signingLink(tx, links, p.row, now) : null;
    prepared.push({
      to: p.email,
      texts: textsOf(p.template),
      stage: p.stage,
      values: variableValues({
        donorName: p.row.donor_name,
        transactionId: p.row.transaction_id,
        donatedAt: p.row.donated_at,
        custom: p.row.custom,
        campaign:
          p.row.campaign_id !== null && p.row.campaign_name !== null
            ? { name: p.row.campaign_name, message: p.row.campaign_message ?? '' }
            : null,
        organization: { ...p.row.org, file_logo: logoUrl(links.publicUrl, p.row.org.file_logo) },
        companyName: p.companyName,
        company: p.row.company_id !== null && p.row.company ? p.row.company : null,
      }),
      links: {
        confirm: actionUrl(links.publicUrl, links.jwtSecret, id, 'confirm'),
        decline: actionUrl(links.publicUrl, links.jwtSecret, id, 'decline'),
        sign,
        unsubscribe: actionUrl(links.publicUrl, links.jwtSecret, id, 'unsubscribe'),
        faq: faq.toString(),
        companyUrl: p.row.company_id !== null ? (p.row.company?.url ?? null) : null,
        companyGuide: p.row.company_id !== null ? (p.row.company?.guide ?? null) : null,
        openPixel: `${links.publicUrl}${openPixelPath(openToken(links.jwtSecret, id))}`,
      },
      supportEmail: links.supportEmail,
    });
  }
  // One React render per distinct layout, each email's values written into it.
  const mails = await renderDonorEmails(prepared);
  const rendered = recorded.map(({ id }, i) => {
    const sent = mails[i] as MailMessage;
    // The copy kept for the portal's preview is the same email without its tracking image.
    const pixel = openPixelImage.exec(sent.html)?.[0] ?? null;
    const kept = { ...sent, html: sent.html.replace(openPixelImage, '') };
    // The database makes that copy from the outbox row (below) when removing the image is
    // removing its one occurrence (its token is unique); otherwise the copy is sent as is.
    const derivable = pixel !== null && sent.html.indexOf(pixel) === sent.html.lastIndexOf(pixel);
    return { id, kept, sent, pixel: derivable ? pixel : null };
  });
  // The outbox rows and their notification rows: one statement each, the outbox ids taken first
  // so each notification names its own message.
  const outboxIds = await nextIds(tx, 'outbox', rendered.length);
  await tx.execute(
    insertUnnest(outbox, [
      { column: outbox.id, type: 'int', values: outboxIds },
      { column: outbox.to, type: 'text', values: rendered.map((r) => r.sent.to) },
      { column: outbox.subject, type: 'text', values: rendered.map((r) => r.sent.subject) },
      { column: outbox.html, type: 'text', values: rendered.map((r) => r.sent.html) },
      { column: outbox.text, type: 'text', values: rendered.map((r) => r.sent.text) },
      { column: outbox.headers, type: 'jsonb', values: rendered.map((r) => r.sent.headers ?? {}) },
      { column: outbox.created_at, type: 'timestamptz', values: rendered.map(() => now) },
      // Sent for the match's organization: the worker picks its sender when it sends.
      {
        column: outbox.organization_id,
        type: 'int',
        values: recorded.map((r) => r.mail.row.organization_id),
      },
    ]),
  );
  const ids = arrayParam(
    rendered.map((r) => r.id),
    'int',
  );
  const htmls = arrayParam(
    rendered.map((r) => (r.pixel === null ? r.kept.html : null)),
    'text',
  );
  const pixels = arrayParam(
    rendered.map((r) => r.pixel),
    'text',
  );
  const sentAs = arrayParam(outboxIds, 'int');
  // The notification rows take the subject, text and (without its tracking image) HTML from
  // their outbox rows, so each email's HTML goes to the database once, not twice.
  const notified =
    how === 'update'
      ? await queryRows<{ id: number }>(
          tx,
          sql`update ${donationNotifications} n
              set subject = o.subject, html = coalesce(v.html, replace(o.html, v.pixel, '')), text = o.text,
                outbox_id = o.id, queued = false
              from unnest(${ids}, ${htmls}, ${pixels}, ${sentAs}) as v(id, html, pixel, outbox_id)
              join ${outbox} o on o.id = v.outbox_id
              where n.id = v.id
              returning n.id`,
        )
      : await queryRows<{ id: number }>(
          tx,
          sql`insert into ${donationNotifications} (id, donation_id, organization_id, status_id, to_email,
                subject, html, text, outbox_id, open_token_hash, template_id, stage, kind, created_at)
              select n.id, n.donation_id, n.organization_id, n.status_id, n.to_email,
                o.subject, coalesce(n.html, replace(o.html, n.pixel, '')), o.text, o.id,
                n.open_token_hash, n.template_id, n.stage, n.kind, n.created_at
              from unnest(${sql.join(
                [ids, ...factColumns(recorded, links, now), htmls, pixels, sentAs],
                sql`, `,
              )}) as n(id, donation_id, organization_id, status_id, to_email, open_token_hash,
                       template_id, stage, kind, created_at, html, pixel, outbox_id)
              join ${outbox} o on o.id = n.outbox_id
              returning ${sql.identifier('id')}`,
        );
  if (notified.length !== recorded.length)
    throw new Error('notification rows written do not match the emails');
}

/**
 * The facts of each email as lists, in the notification table's order: donation_id,
 * organization_id, status_id, to_email, open_token_hash, template_id, stage, kind, created_at.
 */
function factColumns(recorded: readonly Recorded[], links: MailLinks, now: Date): SQL[] {
  const facts: Array<[(r: Recorded) => unknown, ArrayType]> = [
    [(r) => r.mail.row.id, 'int'],
    [(r) => r.mail.row.organization_id, 'int'],
    [(r) => r.mail.row.status_id, 'int'],
    [(r) => r.mail.email, 'text'],
    [(r) => hashToken(openToken(links.jwtSecret, r.id)), 'text'],
    [(r) => r.mail.template.id, 'int'],
    [(r) => r.mail.stage, 'int'],
    [(r) => r.mail.kind, 'text'],
    [() => now.toISOString(), 'timestamptz'],
  ];
  return facts.map(([of, type]) => arrayParam(recorded.map(of), type));
}

/** The notification rows of emails to render later (queued; no subject, HTML or outbox row yet). */
async function recordQueued(tx: Queryable, recorded: readonly Recorded[], links: MailLinks, now: Date) {
  await tx.execute(
    sql`insert into ${donationNotifications} (id, donation_id, organization_id, status_id, to_email,
          open_token_hash, template_id, stage, kind, created_at, queued)
        select *, true from unnest(${sql.join(
          [
            arrayParam(
              recorded.map((r) => r.id),
              'int',
            ),
            ...factColumns(recorded, links, now),
          ],
          sql`, `,
        )})`,
  );
}

/** The live versions of these template types (Default's row made on first use). Reminders reuse the version of their initial email. */
export async function liveVersions(
  tx: Queryable,
  pairs: ReadonlyArray<{ organization_id: number; status_id: TemplateTypeId }>,
) {
  if (pairs.length === 0) return new Map<string, Array<typeof emailTemplates.$inferSelect>>();
  await tx
    .insert(emailTemplates)
    .values(pairs.map((p) => ({ ...p, version: 0, live: true })))
    .onConflictDoNothing();
  const rows = await tx
    .select()
    .from(emailTemplates)
    .where(
      and(
        eq(emailTemplates.live, true),
        or(
          ...pairs.map((p) =>
            and(
              eq(emailTemplates.organization_id, p.organization_id),
              eq(emailTemplates.status_id, p.status_id),
            ),
          ),
        ),
      ),
    )
    .orderBy(asc(emailTemplates.version));
  const byPair = new Map<string, Array<typeof emailTemplates.$inferSelect>>();
  for (const r of rows) {
    const key = `${r.organization_id}:${r.status_id}`;
    byPair.set(key, [...(byPair.get(key) ?? []), r]);
  }
  return byPair;
}

/**
 * The version a new match gets. Default is "always live" as the fallback: it sends while no
 * customised version is live. Once versions A.. are live, new matches share them (by match id,
 * so the choice is stable and even); to test a change against the shipped texts, make an
 * unchanged copy live beside it.
 */
export function chooseVersion<T extends { version: number }>(
  versions: readonly T[],
  donationId: number,
): T | undefined {
  const custom = versions.filter((v) => v.version > 0);
  const pool = custom.length > 0 ? custom : versions;
  return pool[donationId % pool.length];
}

/** Donors (organization, email) who unsubscribed, among these. */
export async function unsubscribedAmong(
  tx: Queryable,
  orgIds: readonly number[],
  emails: readonly string[],
): Promise<Set<string>> {
  if (orgIds.length === 0 || emails.length === 0) return new Set();
  const rows = await tx
    .select({ org: emailUnsubscribes.organization_id, email: emailUnsubscribes.email })
    .from(emailUnsubscribes)
    .where(
      and(
        anyOf(emailUnsubscribes.organization_id, [...orgIds], 'int'),
        anyOf(emailUnsubscribes.email, [...emails], 'text'),
      ),
    );
  return new Set(rows.map((r) => orgKey(r.org, r.email)));
}

export { templateTypeOfStatus };

import { randomBytes } from 'node:crypto';
import { and, eq, inArray, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import { isMainStatus, type WebhookEventName } from '../../../src/contract/integrations.ts';
import { statusName } from '../../../src/contract/statuses.ts';
import type { Queryable } from '../../db/client.ts';
import { anyOf, insertUnnest } from '../../db/rows.ts';
import {
  companies,
  donations,
  donors,
  oauthGrants,
  organizations,
  partnerApps,
  webhookDeliveries,
  webhooks,
} from '../../db/schema.ts';
import { organizationChain } from '../permissions/permissions.service.ts';

/**
 * The webhook events of a match, queued in the transaction of the change that causes them (so a
 * change and its deliveries commit together, and a crash loses neither). The webhook worker
 * (server/jobs/webhook-worker.ts) sends them.
 *
 * Call one of these three with the transaction that made the change:
 * - `statusChanged(tx, donationIds)` after a match's status changed (only main statuses are sent);
 * - `firstOpened(tx, donationId)` when a donor first opens an email about their match;
 * - `reminderSent(tx, donationId)` when a reminder about the match was sent to the donor.
 */

/** How long a delivery is retried before it is given up (spec'd nowhere; Standard Webhooks retries about a day). */
export const deliveryLifetimeMs = 24 * 60 * 60 * 1000;

/** A Standard Webhooks message id: unique per event, the same on each attempt (receivers dedupe on it). */
export function newMessageId(): string {
  return `msg_${randomBytes(16).toString('hex')}`;
}

/** Who hears an event: an organization's webhook, or a partner app's subscription. */
type Listener = { webhook: number } | { partnerApp: number };

/** PHP's DateTime as JSON, as the spec's example payload shows it: "timestamp {date, timezone_type, timezone}". */
export function phpTimestamp(at: Date) {
  const iso = at.toISOString();
  return {
    date: `${iso.slice(0, 10)} ${iso.slice(11, 19)}.${iso.slice(20, 23)}000`,
    timezone_type: 3,
    timezone: 'UTC',
  };
}

/**
 * spec: "Example payload sent to the endpoint: data.donation {id, amount, matched, status_id,
 * status_string, custom{campaign, medium, source}}, data.ein, data.donor {id, name, email, phone},
 * data.timestamp {date, timezone_type, timezone}, data.company {name}, and a bearer_token."
 * The bearer_token is added when it is sent (the webhook's token at that moment); `event` names
 * which event this is.
 */
export type WebhookPayload = {
  event: WebhookEventName | 'test';
  data: {
    donation: {
      id: number;
      amount: number;
      matched: number;
      status_id: number;
      status_string: string;
      custom: { campaign: unknown; medium: unknown; source: unknown };
    };
    ein: string | null;
    donor: { id: number | null; name: string | null; email: string | null; phone: string | null };
    timestamp: ReturnType<typeof phpTimestamp>;
    company: { name: string | null };
  };
};

async function payloads(tx: Queryable, event: WebhookPayload['event'], donationIds: number[], at: Date) {
  const rows = await tx
    .select({
      id: donations.id,
      organization_id: donations.organization_id,
      amount_cents: donations.amount_cents,
      matched_cents: donations.matched_cents,
      status_id: donations.status_id,
      custom: donations.custom,
      company_name: donations.company_name,
      catalogue_name: companies.name,
      ein: organizations.ein,
      donor_id: donors.id,
      donor_name: donors.name,
      donor_email: donors.email,
      donor_phone: donors.phone,
    })
    .from(donations)
    .innerJoin(organizations, eq(organizations.id, donations.organization_id))
    .leftJoin(donors, eq(donors.id, donations.donor_id))
    .leftJoin(companies, eq(companies.id, donations.company_id))
    .where(anyOf(donations.id, donationIds, 'int'))
    .orderBy(donations.id);
  return rows.map((r) => ({
    organizationId: r.organization_id,
    donationId: r.id,
    statusId: r.status_id,
    payload: {
      event,
      data: {
        donation: {
          id: r.id,
          amount: r.amount_cents / 100,
          matched: r.matched_cents / 100,
          status_id: r.status_id,
          status_string: statusName(r.status_id),
          custom: {
            campaign: r.custom.campaign ?? null,
            medium: r.custom.medium ?? null,
            source: r.custom.source ?? null,
          },
        },
        ein: r.ein,
        donor: { id: r.donor_id, name: r.donor_name, email: r.donor_email, phone: r.donor_phone },
        timestamp: phpTimestamp(at),
        company: { name: r.catalogue_name ?? r.company_name },
      },
    } satisfies WebhookPayload,
  }));
}

/**
 * Queues an event of these matches for every webhook listening to it: the match's organization's
 * own, and its parents' (a parent hears about its chapters' matches). Webhooks without a URL
 * are skipped. Returns how many deliveries were queued.
 */
async function enqueue(
  tx: Queryable,
  event: WebhookEventName,
  donationIds: number[],
  keep: (statusId: number) => boolean = () => true,
  at = new Date(),
): Promise<number> {
  if (donationIds.length === 0) return 0;
  // First who listens (most matches' organizations have no webhook): each match's organization
  // and status, then the listeners of each organization once (a file import's thousands of
  // matches share a few); payloads are read only for the matches someone hears about.
  const matches = await tx
    .select({ id: donations.id, organization_id: donations.organization_id, status_id: donations.status_id })
    .from(donations)
    .where(anyOf(donations.id, [...new Set(donationIds)], 'int'));
  // Listeners: an organization's own webhooks ({ webhook }), and the partner apps it (or a parent)
  // granted 'webhooks:manage' that have a subscription ({ partnerApp }, issue #25).
  const listenersOf = new Map<number, Listener[]>();
  for (const orgId of new Set(matches.filter((m) => keep(m.status_id)).map((m) => m.organization_id))) {
    const chain = await organizationChain(tx, orgId);
    const listeners = await tx
      .select({ id: webhooks.id })
      .from(webhooks)
      .where(and(inArray(webhooks.organization_id, chain), eq(webhooks.event, event), ne(webhooks.url, '')));
    const apps = await tx
      .selectDistinct({ id: partnerApps.id })
      .from(oauthGrants)
      .innerJoin(partnerApps, eq(partnerApps.id, oauthGrants.app_id))
      .where(
        and(
          inArray(oauthGrants.organization_id, chain),
          isNull(oauthGrants.revoked_at),
          sql`${oauthGrants.scopes} ? 'webhooks:manage'`,
          isNotNull(partnerApps.webhook_url),
          isNull(partnerApps.disabled_at),
        ),
      );
    listenersOf.set(orgId, [
      ...listeners.map((w) => ({ webhook: w.id })),
      ...apps.map((a) => ({ partnerApp: a.id })),
    ]);
  }
  const heard = matches.filter(
    (m) => keep(m.status_id) && (listenersOf.get(m.organization_id) ?? []).length > 0,
  );
  if (heard.length === 0) return 0;
  const items = (
    await payloads(
      tx,
      event,
      heard.map((m) => m.id),
      at,
    )
  ).filter((item) => keep(item.statusId));
  const deliveries = items.flatMap((item) =>
    (listenersOf.get(item.organizationId) ?? []).map((listener) => ({
      webhook_id: 'webhook' in listener ? listener.webhook : null,
      partner_app_id: 'partnerApp' in listener ? listener.partnerApp : null,
      donation_id: item.donationId,
      event,
      message_id: newMessageId(),
      // A partner app hears about many organizations: each event names its own.
      payload:
        'partnerApp' in listener ? { ...item.payload, organization_id: item.organizationId } : item.payload,
      give_up_at: new Date(at.getTime() + deliveryLifetimeMs),
    })),
  );
  // One insert of lists whatever the count (ids in list order: a match's deliveries in order).
  if (deliveries.length > 0)
    await tx.execute(
      insertUnnest(webhookDeliveries, [
        { column: webhookDeliveries.webhook_id, type: 'int', values: deliveries.map((d) => d.webhook_id) },
        {
          column: webhookDeliveries.partner_app_id,
          type: 'int',
          values: deliveries.map((d) => d.partner_app_id),
        },
        { column: webhookDeliveries.donation_id, type: 'int', values: deliveries.map((d) => d.donation_id) },
        { column: webhookDeliveries.event, type: 'text', values: deliveries.map((d) => d.event) },
        { column: webhookDeliveries.message_id, type: 'text', values: deliveries.map((d) => d.message_id) },
        { column: webhookDeliveries.payload, type: 'jsonb', values: deliveries.map((d) => d.payload) },
        {
          column: webhookDeliveries.give_up_at,
          type: 'timestamptz',
          values: deliveries.map((d) => d.give_up_at),
        },
      ]),
    );
  return deliveries.length;
}

/**
 * These matches' status just changed (call after writing the new status, in the same
 * transaction). spec: "The main statuses of a webhook are status ids below 12, plus 20 and 28":
 * a change to any other status is not sent.
 */
export function statusChanged(tx: Queryable, donationIds: number[]): Promise<number> {
  return enqueue(tx, 'status', donationIds, isMainStatus);
}

/** A donor opened an email about this match for the first time. */
export function firstOpened(tx: Queryable, donationId: number): Promise<number> {
  return enqueue(tx, 'first_open', [donationId]);
}

/** A reminder about this match was sent to its donor. */
export function reminderSent(tx: Queryable, donationId: number): Promise<number> {
  return enqueue(tx, 'reminder_sent', [donationId]);
}

/** Reminders about these matches were sent to their donors (a batch of the day's reminders). */
export function remindersSent(tx: Queryable, donationIds: number[]): Promise<number> {
  return enqueue(tx, 'reminder_sent', donationIds);
}

/** The example payload a 'Send test event' delivers: made-up values, clearly a test. */
export function testPayload(at = new Date()): WebhookPayload {
  return {
    event: 'test',
    data: {
      donation: {
        id: 0,
        amount: 100,
        matched: 100,
        status_id: 1,
        status_string: statusName(1),
        custom: { campaign: 'test', medium: 'test', source: 'test' },
      },
      ein: null,
      donor: { id: null, name: 'Test Donor', email: 'donor@example.org', phone: null },
      timestamp: phpTimestamp(at),
      company: { name: 'Example Company' },
    },
  };
}

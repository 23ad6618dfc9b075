import { randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  integrationMessages,
  type Webhook,
  type WebhookDeliveryList,
  type WebhookList,
  type WebhookUpdate,
  webhookAttemptError,
  webhookDelivered,
} from '../../../src/contract/integrations.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { webhookAttempts, webhookDeliveries, webhooks } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { currentRequestId } from '../../observability/context.ts';
import { type AuditBy, recordBy } from '../audit/audit.ts';
import { deliveryLifetimeMs, newMessageId, testPayload } from './webhook-events.ts';

const maxWebhooksPerOrganization = 20;
/** How many deliveries the log shows, newest first. */
const logLength = 50;

type Row = typeof webhooks.$inferSelect;
const toWebhook = (row: Row): Webhook => ({
  id: row.id,
  url: row.url,
  token: row.token,
  event: row.event,
  last_code: row.last_code,
  secret: row.secret,
});

/** A Standard Webhooks signing secret: whsec_ and 24 random bytes in base64. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** spec: "GET /api/organization/{id}/partial/webhooks — webhooks", oldest first. */
export async function listWebhooks(db: Queryable, orgId: number): Promise<WebhookList> {
  const rows = await db
    .select()
    .from(webhooks)
    .where(eq(webhooks.organization_id, orgId))
    .orderBy(asc(webhooks.id));
  return { webhooks: rows.map(toWebhook) };
}

/**
 * spec: "POST /api/organization/{id}/webhook — empty body — webhooks". A new webhook without a
 * URL (nothing is sent until one is set), listening for status changes, with a random bearer
 * token and signing secret.
 */
export async function createWebhook(db: Db, orgId: number, by: AuditBy): Promise<WebhookList> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${0x776862}, ${orgId})`);
    const [existing] = await tx
      .select({ n: count() })
      .from(webhooks)
      .where(eq(webhooks.organization_id, orgId));
    if ((existing?.n ?? 0) >= maxWebhooksPerOrganization)
      throw new HttpError(400, integrationMessages.tooManyWebhooks);
    const [created] = await tx
      .insert(webhooks)
      .values({
        organization_id: orgId,
        token: randomBytes(24).toString('base64url'),
        secret: newSigningSecret(),
      })
      .returning({ id: webhooks.id });
    if (!created) throw new Error('webhook insert returned nothing');
    await recordBy(tx, by, {
      kind: 'webhook.created',
      organizationId: orgId,
      summary: `Created webhook #${created.id}`,
      details: { webhook_id: created.id },
    });
    return listWebhooks(tx, orgId);
  });
}

/** The organization a webhook belongs to (the guard's lookup), or 404. */
export async function webhookOrganization(db: Queryable, webhookId: number): Promise<number> {
  const [row] = await db
    .select({ organization_id: webhooks.organization_id })
    .from(webhooks)
    .where(eq(webhooks.id, webhookId));
  if (!row) throw new HttpError(404, integrationMessages.webhookNotFound);
  return row.organization_id;
}

/** spec: "PUT /api/webhook/{id} — body: the webhook — webhooks". The URL arrives without its scheme. */
export async function updateWebhook(
  db: Queryable,
  webhookId: number,
  body: WebhookUpdate,
): Promise<WebhookList> {
  const [row] = await db
    .update(webhooks)
    .set({ url: body.url, event: body.event, ...(body.token === undefined ? {} : { token: body.token }) })
    .where(eq(webhooks.id, webhookId))
    .returning();
  if (!row) throw new HttpError(404, integrationMessages.webhookNotFound);
  return listWebhooks(db, row.organization_id);
}

/** spec: "DELETE /api/webhook/{id} — webhooks". Its queued deliveries go with it. */
export async function removeWebhook(db: Db, webhookId: number, by: AuditBy): Promise<WebhookList> {
  return db.transaction(async (tx) => {
    const [row] = await tx.delete(webhooks).where(eq(webhooks.id, webhookId)).returning();
    if (!row) throw new HttpError(404, integrationMessages.webhookNotFound);
    // The address (without a query, which may carry a credential) and event, never its token or
    // signing secret.
    const url = row.url.split(/[?#]/)[0] ?? '';
    const target = url ? ` (${url})` : '';
    await recordBy(tx, by, {
      kind: 'webhook.removed',
      organizationId: row.organization_id,
      summary: `Removed webhook #${row.id}${target}`,
      details: { webhook_id: row.id, url, event: row.event },
    });
    return listWebhooks(tx, row.organization_id);
  });
}

/** The webhook's recent deliveries with every attempt: what was sent, what came back, how long it took. */
export async function listDeliveries(db: Queryable, webhookId: number): Promise<WebhookDeliveryList> {
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.webhook_id, webhookId))
    .orderBy(desc(webhookDeliveries.id))
    .limit(logLength);
  const attempts =
    rows.length === 0
      ? []
      : await db
          .select()
          .from(webhookAttempts)
          .where(
            inArray(
              webhookAttempts.delivery_id,
              rows.map((r) => r.id),
            ),
          )
          .orderBy(desc(webhookAttempts.id));
  return {
    deliveries: rows.map((r) => ({
      id: r.id,
      event: r.event,
      donation_id: r.donation_id,
      status: r.status,
      attempts: r.attempts,
      last_code: r.last_code,
      created_at: r.created_at.toISOString(),
      next_attempt_at: r.status === 'pending' ? r.next_attempt_at.toISOString() : null,
      log: attempts
        .filter((a) => a.delivery_id === r.id)
        .map((a) => ({
          at: a.at.toISOString(),
          status_code: a.status_code,
          ok: webhookDelivered(a.status_code),
          error: webhookAttemptError(a.status_code, a.response),
          duration_ms: a.duration_ms,
          response: a.response,
        })),
    })),
  };
}

/** 'Send test event': an example payload queued for this webhook now. */
export async function sendTestEvent(db: Queryable, webhookId: number) {
  const [hook] = await db.select().from(webhooks).where(eq(webhooks.id, webhookId));
  if (!hook) throw new HttpError(404, integrationMessages.webhookNotFound);
  if (hook.url === '') throw new HttpError(400, integrationMessages.noUrl);
  const now = new Date();
  const [row] = await db
    .insert(webhookDeliveries)
    .values({
      webhook_id: webhookId,
      donation_id: null,
      event: 'test',
      message_id: newMessageId(),
      payload: testPayload(now),
      give_up_at: new Date(now.getTime() + deliveryLifetimeMs),
      // Outside a transaction the column's default has no request to read: named here.
      request_id: currentRequestId() ?? null,
    })
    .returning({ id: webhookDeliveries.id });
  return { message: integrationMessages.testQueued, delivery_id: row?.id ?? 0 };
}

/**
 * 'Redeliver': the delivery goes out again now, with the same message id (so a receiver that
 * already has it can tell), retried for another day if it fails.
 */
export async function redeliver(db: Queryable, webhookId: number, deliveryId: number) {
  const now = new Date();
  const [row] = await db
    .update(webhookDeliveries)
    .set({
      status: 'pending',
      next_attempt_at: now,
      give_up_at: new Date(now.getTime() + deliveryLifetimeMs),
    })
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.webhook_id, webhookId)))
    .returning({ id: webhookDeliveries.id });
  if (!row) throw new HttpError(404, integrationMessages.deliveryNotFound);
  return { message: integrationMessages.redeliveryQueued, delivery_id: row.id };
}

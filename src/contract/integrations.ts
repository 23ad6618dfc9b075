import * as z from 'zod/mini';
import { ApiKey, type WebhookEventName, webhookEventNames } from './integration-records.ts';
import { statusIds } from './statuses.ts';

export {
  ApiKey,
  type WebhookEventName,
  webhookEventLabels,
  webhookEventNames,
} from './integration-records.ts';

/**
 * API keys and webhooks (spec part 1, sections 2, 3, 7, 8 and 9), shared by the server and the
 * Integrations and Webhooks screens.
 */

export const ApiKeyList = z.object({ api_keys: z.array(ApiKey) });
export type ApiKeyList = z.infer<typeof ApiKeyList>;

/** The answer that created a key: the whole key, shown once. */
export const ApiKeyCreated = z.object({ api_key: z.extend(ApiKey, { secret: z.string() }) });
export type ApiKeyCreated = z.infer<typeof ApiKeyCreated>;

/**
 * spec: "GET /api/organization/{id}/api-key — creates or returns a key": the existing key's record
 * (no secret: it is stored hashed), or the first key, created now, with its secret shown once.
 */
export const ApiKeyIssued = z.object({ api_key: z.extend(ApiKey, { secret: z.optional(z.string()) }) });
export type ApiKeyIssued = z.infer<typeof ApiKeyIssued>;

export const apiKeyNameMax = 100;
/** spec: "PUT /api/organization/{id}/api-key/{keyId}, body: name". */
export const ApiKeyRename = z.object({
  name: z.string().check(
    z.trim(),
    z.maxLength(apiKeyNameMax, `The name can be at most ${apiKeyNameMax} characters`),
    z.refine((s) => !s.includes('\u0000'), 'Text cannot contain NUL characters'),
  ),
});
export type ApiKeyRename = z.infer<typeof ApiKeyRename>;

/** How many live keys an organization may hold (each creation is a new key). */
export const maxApiKeysPerOrganization = 20;

export const integrationMessages = {
  keyNotFound: 'API key not found',
  tooManyKeys: `An organization can have at most ${maxApiKeysPerOrganization} API keys. Delete one first.`,
  keyDeleted: 'API key deleted',
  webhookNotFound: 'Webhook not found',
  deliveryNotFound: 'Delivery not found',
  tooManyWebhooks: 'An organization can have at most 20 webhooks. Delete one first.',
  noUrl: 'Add the webhook URL first.',
  testQueued: 'Test event queued',
  redeliveryQueued: 'Redelivery queued',
  // The public API's refusals.
  apiKeyMissing: 'Send your API key as Authorization: Bearer <api key>.',
  apiKeyInvalid: 'This API key is not valid.',
  apiKeyRevoked: 'This API key has been revoked.',
  idempotencyMismatch: 'This Idempotency-Key was already used with a different request.',
  idempotencyKeyInvalid: 'The Idempotency-Key header must be 1 to 255 visible characters.',
  cursorInvalid: 'The cursor is not valid. Start again without it.',
} as const;

/** spec (section 9): "API key name save delay: 500 ms. Webhook update delay: 1500 ms." */
export const apiKeyNameSaveDelayMs = 500;
export const webhookUpdateDelayMs = 1500;

/** spec: "The main statuses of a webhook are status ids below 12, plus 20 and 28." */
export function isMainStatus(statusId: number): boolean {
  return statusId < 12 || statusId === 20 || statusId === 28;
}
export const mainStatusIds: readonly number[] = statusIds.filter(isMainStatus);

/** spec: "Webhook url: a pasted leading http:// or https:// is stripped." */
export function stripScheme(url: string): string {
  return url.trim().replace(/^https?:\/\//i, '');
}

/** spec: "Webhook: id, url (stored without the https:// prefix), token, event, last_code." */
export const Webhook = z.object({
  id: z.number(),
  url: z.string(),
  token: z.string(),
  event: z.enum(webhookEventNames as [WebhookEventName, ...WebhookEventName[]]),
  last_code: z.nullable(z.number()),
  /** The Standard Webhooks signing secret (whsec_...) receivers verify deliveries with. */
  secret: z.string(),
});
export type Webhook = z.infer<typeof Webhook>;

export const WebhookList = z.object({ webhooks: z.array(Webhook) });
export type WebhookList = z.infer<typeof WebhookList>;

const hostPattern = /^([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:[0-9]{1,5})?(\/[^\s]*)?$/;
/** spec: "PUT /api/webhook/{id}, body: the webhook". The id, secret and last_code are not changed by it. */
export const WebhookUpdate = z.object({
  url: z
    .pipe(
      z.string().check(z.maxLength(2000, 'The URL can be at most 2000 characters')),
      z.transform(stripScheme),
    )
    .check(z.refine((s) => s === '' || hostPattern.test(s), 'Enter a URL such as hooks.example.org/twofold')),
  token: z.optional(
    z.string().check(
      z.maxLength(500, 'The token can be at most 500 characters'),
      z.refine((s) => /^[\x20-\x7e]*$/.test(s), 'The token can only hold printable ASCII characters'),
    ),
  ),
  event: z.enum(
    webhookEventNames as [WebhookEventName, ...WebhookEventName[]],
    'event must be status, first_open or reminder_sent',
  ),
});
export type WebhookUpdate = z.infer<typeof WebhookUpdate>;

/** spec (section 8): the last_code badge and its hints. */
export function lastCodeHint(code: number): string {
  return code === 200
    ? 'This (200) is the expected/correct response.'
    : 'Any code other than 200 is cause for concern. 5xx codes and 4xx codes both suggest there is an issue with the endpoint this webhook is submitting to.';
}

/** One attempt in a webhook's deliveries log. */
export const WebhookAttempt = z.object({
  id: z.number(),
  delivery_id: z.number(),
  event: z.string(),
  donation_id: z.nullable(z.number()),
  delivery_status: z.enum(['pending', 'delivered', 'failed']),
  at: z.string(),
  status_code: z.nullable(z.number()),
  duration_ms: z.number(),
  response: z.string(),
});
export type WebhookAttempt = z.infer<typeof WebhookAttempt>;

/** A webhook's recent deliveries, each with its attempts (newest first). */
export const WebhookDelivery = z.object({
  id: z.number(),
  event: z.string(),
  donation_id: z.nullable(z.number()),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number(),
  last_code: z.nullable(z.number()),
  created_at: z.string(),
  next_attempt_at: z.nullable(z.string()),
  /**
   * Every attempt, newest first, the failed ones before a success included: when, the HTTP status
   * (null: no answer), whether it counted as delivered, what went wrong (null when it did), how
   * long it took and the start of the answer's body.
   */
  log: z.array(
    z.object({
      at: z.string(),
      status_code: z.nullable(z.number()),
      ok: z.boolean(),
      error: z.nullable(z.string()),
      duration_ms: z.number(),
      response: z.string(),
    }),
  ),
});

/** An answer that delivers a webhook: any 2xx (Standard Webhooks); anything else is retried. */
export const webhookDelivered = (status: number | null): boolean =>
  status !== null && status >= 200 && status < 300;

/** What went wrong with an attempt, in words, or null when it delivered. */
export function webhookAttemptError(status: number | null, response: string): string | null {
  if (webhookDelivered(status)) return null;
  if (status === null) return response.trim() || 'No answer';
  return `HTTP ${status}`;
}
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;
export const WebhookDeliveryList = z.object({ deliveries: z.array(WebhookDelivery) });
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryList>;

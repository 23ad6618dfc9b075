import * as z from 'zod/mini';
import {
  ApiKeyCreated,
  ApiKeyList,
  WebhookDeliveryList,
  WebhookList,
  type WebhookUpdate,
} from '../contract/integrations.ts';
import { request, send } from './client.ts';

/** spec: "GET /api/organization/{id}/partial/api_keys — api_keys". */
export async function listApiKeys(organizationId: number) {
  return (await request(ApiKeyList, `api/organization/${organizationId}/partial/api_keys`)).api_keys;
}

/**
 * The screen's "create a new key": `POST /api/organization/{id}/api-key` answers the whole key,
 * once (the spec's GET returns the existing key's record instead, without its secret).
 */
export async function createApiKey(organizationId: number) {
  // Never retried: each call creates a key.
  return (
    await request(ApiKeyCreated, `api/organization/${organizationId}/api-key`, { method: 'post', retries: 0 })
  ).api_key;
}

/** spec: "PUT /api/organization/{id}/api-key/{keyId} — body: name". */
export async function renameApiKey(organizationId: number, keyId: number, name: string) {
  await send(`api/organization/${organizationId}/api-key/${keyId}`, { method: 'put', json: { name } });
}

/** spec: "DELETE /api/organization/{id}/api-key/{keyId}". */
export async function deleteApiKey(organizationId: number, keyId: number) {
  await send(`api/organization/${organizationId}/api-key/${keyId}`, { method: 'delete' });
}

/** spec: "GET /api/organization/{id}/partial/webhooks — webhooks". */
export async function listWebhooks(organizationId: number) {
  return (await request(WebhookList, `api/organization/${organizationId}/partial/webhooks`)).webhooks;
}

/** spec: "POST /api/organization/{id}/webhook — empty body — webhooks". */
export async function createWebhook(organizationId: number) {
  return (await request(WebhookList, `api/organization/${organizationId}/webhook`, { method: 'post' }))
    .webhooks;
}

/** spec: "PUT /api/webhook/{id} — body: the webhook — webhooks". */
export async function updateWebhook(id: number, webhook: WebhookUpdate) {
  return (await request(WebhookList, `api/webhook/${id}`, { method: 'put', json: webhook })).webhooks;
}

/** spec: "DELETE /api/webhook/{id} — webhooks". */
export async function deleteWebhook(id: number) {
  return (await request(WebhookList, `api/webhook/${id}`, { method: 'delete' })).webhooks;
}

/** The webhook's recent deliveries and their attempts. */
export async function listDeliveries(id: number) {
  return (await request(WebhookDeliveryList, `api/webhook/${id}/deliveries`)).deliveries;
}

const Queued = z.object({ message: z.string(), delivery_id: z.number() });

/** 'Send test event'. */
export function sendTestEvent(id: number) {
  return request(Queued, `api/webhook/${id}/test`, { method: 'post' });
}

/** 'Redeliver'. */
export function redeliver(id: number, deliveryId: number) {
  return request(Queued, `api/webhook/${id}/delivery/${deliveryId}/redeliver`, { method: 'post' });
}

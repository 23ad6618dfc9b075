import * as z from 'zod/mini';

/*
 * The shapes of an API key and a webhook's events, apart from the rest of integrations.ts: the
 * organization record (part of the portal's first load) lists them, and integrations.ts brings
 * the status catalogue with it.
 */

/** spec: "API key: id, name, key, last_used_at, last_ip_address". `key` is only the prefix after creation. */
export const ApiKey = z.object({
  id: z.number(),
  name: z.string(),
  /** The key's first characters (the whole key is only in the answer that created it). */
  key: z.string(),
  last_used_at: z.nullable(z.string()),
  last_ip_address: z.nullable(z.string()),
  created_at: z.string(),
});
export type ApiKey = z.infer<typeof ApiKey>;

/** spec: "Events: status (Status Changes), first_open (Email First Open), reminder_sent (Reminder Sent)." */
export const webhookEventLabels = {
  status: 'Status Changes',
  first_open: 'Email First Open',
  reminder_sent: 'Reminder Sent',
} as const;
export type WebhookEventName = keyof typeof webhookEventLabels;
export const webhookEventNames = Object.keys(webhookEventLabels) as WebhookEventName[];

import * as z from 'zod/mini';

/**
 * What the embedded registration element needs of OAuth (issue #25), kept apart from
 * `oauth.ts` so the public bundle carries only these few schemas.
 */

/** A partner app as anyone may see it: the name the "Connect <partner>" button shows. */
export const PublicPartnerApp = z.object({
  name: z.string(),
  logo_url: z.nullable(z.string()),
  website: z.string(),
});
export type PublicPartnerApp = z.infer<typeof PublicPartnerApp>;

/** The type of the message the consent popup posts to its opener (`response_mode=web_message`). */
export const consentMessageType = 'twofold-oauth-result';

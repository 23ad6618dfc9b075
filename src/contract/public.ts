import * as z from 'zod/mini';
import { OrgRef } from './auth.ts';

/**
 * The anonymous endpoints behind the public elements (registration, contact): their answers, and
 * the rules both sides read.
 */

/** spec (part 1, section 9): "Organization search delay: 300 ms, with a minimum of 2 characters." */
export const organizationSearch = { delay: 300, minLength: 2, maxResults: 10 } as const;

/** GET /api/csrf-token: a signed token the registration form sends as bearer and X-CSRF-Token. */
export const CsrfTokenResponse = z.object({ csrf_token: z.string().check(z.minLength(1)) });
export type CsrfTokenResponse = z.infer<typeof CsrfTokenResponse>;

/** POST /organization/register answers 403 with this when the csrf token is missing, invalid or expired. */
export const csrfExpiredMessage = 'Your form session has expired. Please reload the page and try again.';

/** GET /api/public/organization-search?term= (at least 2 characters, at most 10 results). */
export const PublicOrganizationSearchResponse = z.object({ organizations: z.array(OrgRef) });
export type PublicOrganizationSearchResponse = z.infer<typeof PublicOrganizationSearchResponse>;

/** GET /api/captcha/challenge: an ALTCHA (altcha-lib v1) proof-of-work challenge. */
export const CaptchaChallenge = z.object({
  algorithm: z.enum(['SHA-1', 'SHA-256', 'SHA-512']),
  challenge: z.string(),
  maxnumber: z.optional(z.number()),
  salt: z.string(),
  signature: z.string(),
});
export type CaptchaChallenge = z.infer<typeof CaptchaChallenge>;

/**
 * A solved challenge, sent base64-encoded as the contact form's `recaptchaToken`:
 * `btoa(JSON.stringify({ algorithm, challenge, number, salt, signature }))`.
 */
export const CaptchaPayload = z.object({
  algorithm: z.enum(['SHA-1', 'SHA-256', 'SHA-512']),
  challenge: z.string(),
  number: z.number(),
  salt: z.string(),
  signature: z.string(),
});
export type CaptchaPayload = z.infer<typeof CaptchaPayload>;

/** POST /api/contact-form: the server's confirmation, and its answer to a bad or reused captcha. */
export const contactSentMessage = 'Message sent';
export const captchaFailedMessage = 'Verification failed. Please try again.';

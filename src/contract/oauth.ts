import * as z from 'zod/mini';

/**
 * Partner apps and their OAuth 2.0 grants (issue #25), shared by the server, the consent page,
 * the Connected apps list and the Partner apps screen.
 */

/** Each scope, as the consent screen says it (a sentence finishing "<Partner> will be able to…"). */
export const oauthScopes = {
  'matches:read': 'Read your matches: donors, amounts, employers and statuses',
  'matches:write': 'Create matches for gifts made through it',
  'matches:status': "Update your matches' status",
  'statistics:read': 'Read your matching statistics',
  'webhooks:manage': "Receive your organization's match events at its own webhook",
} as const;
export type OAuthScope = keyof typeof oauthScopes;
export const oauthScopeNames = Object.keys(oauthScopes) as OAuthScope[];
export const isOAuthScope = (value: string): value is OAuthScope => Object.hasOwn(oauthScopes, value);

/** How long each credential lives. */
export const oauthLifetimes = {
  /** RFC 6749 §4.1.2 recommends at most 10 minutes. */
  codeSeconds: 5 * 60,
  accessTokenSeconds: 60 * 60,
  refreshTokenSeconds: 90 * 24 * 60 * 60,
  /** How long a rotated client secret keeps working beside the new one. */
  secretOverlapSeconds: 7 * 24 * 60 * 60,
} as const;

export const oauthMessages = {
  appNotFound: 'Partner app not found',
  grantNotFound: 'Connected app not found',
  disconnected: 'App disconnected',
  notAdmin: 'Only an administrator of the organization can connect apps to it.',
  noOrganizations: 'You are not an administrator of any organization, so you cannot connect apps.',
  redirectUriRules:
    'Each redirect URI must be an absolute https URL (http only on localhost, 127.0.0.1 or [::1]) without a fragment.',
  scopesRequired: 'Choose at least one scope.',
} as const;

/** A registered redirect URI: https, or http on a loopback host (RFC 8252 §7.3); no fragment. */
export function isAllowedRedirectUri(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.hash || value.includes('#') || url.username || url.password) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

const text = (max: number, label: string) =>
  z.string().check(
    z.trim(),
    z.minLength(1, `${label} is required`),
    z.maxLength(max, `${label} can be at most ${max} characters`),
    z.refine((s) => !s.includes('\u0000'), 'Text cannot contain NUL characters'),
  );
const webUrl = (label: string) =>
  z.string().check(
    z.trim(),
    z.maxLength(2000, `${label} can be at most 2000 characters`),
    z.refine(
      (s) => /^https?:\/\/[^\s]+$/i.test(s) && URL.canParse(s),
      `${label} must be an http or https URL`,
    ),
  );

/** What a super user registers (or edits): the client's description and what it may ask for. */
export const PartnerAppInput = z.object({
  name: text(100, 'Name'),
  logo_url: z.optional(z.union([z.literal(''), webUrl('Logo URL')])),
  website: webUrl('Website'),
  redirect_uris: z.array(z.string().check(z.maxLength(2000))).check(
    z.minLength(1, 'Add at least one redirect URI'),
    z.maxLength(10, 'At most 10 redirect URIs'),
    z.refine((uris) => uris.every(isAllowedRedirectUri), oauthMessages.redirectUriRules),
  ),
  scopes: z
    .array(z.enum(oauthScopeNames as [OAuthScope, ...OAuthScope[]]))
    .check(z.minLength(1, oauthMessages.scopesRequired)),
  webhook_url: z.optional(
    z.union([
      z.literal(''),
      z
        .string()
        .check(
          z.trim(),
          z.maxLength(2000, 'Webhook URL can be at most 2000 characters'),
          z.refine(isAllowedRedirectUri, 'The webhook URL must be https (http only on localhost).'),
        ),
    ]),
  ),
});
export type PartnerAppInput = z.infer<typeof PartnerAppInput>;

export const PartnerApp = z.object({
  id: z.number(),
  client_id: z.string(),
  name: z.string(),
  logo_url: z.nullable(z.string()),
  website: z.string(),
  redirect_uris: z.array(z.string()),
  scopes: z.array(z.string()),
  webhook_url: z.nullable(z.string()),
  /** The live client secrets' first characters, newest first, with when each stops working. */
  secrets: z.array(z.object({ prefix: z.string(), expires_at: z.nullable(z.string()) })),
  created_at: z.string(),
});
export type PartnerApp = z.infer<typeof PartnerApp>;

export const PartnerAppList = z.object({ apps: z.array(PartnerApp) });
export type PartnerAppList = z.infer<typeof PartnerAppList>;

/** The answer that made a client secret (registration, rotation): the whole secret, shown once. */
export const PartnerAppSecretIssued = z.object({
  app: PartnerApp,
  client_secret: z.string(),
  /** The webhook signing secret, when this answer made one (shown once too). */
  webhook_secret: z.optional(z.string()),
});
export type PartnerAppSecretIssued = z.infer<typeof PartnerAppSecretIssued>;

/** The authorization request's parameters (RFC 6749 §4.1.1, RFC 7636 §4.3), as the consent page passes them on. */
export const AuthorizationParams = z.object({
  response_type: z.optional(z.string().check(z.maxLength(100))),
  client_id: z.optional(z.string().check(z.maxLength(200))),
  redirect_uri: z.optional(z.string().check(z.maxLength(2000))),
  scope: z.optional(z.string().check(z.maxLength(1000))),
  state: z.optional(z.string().check(z.maxLength(1000))),
  code_challenge: z.optional(z.string().check(z.maxLength(200))),
  code_challenge_method: z.optional(z.string().check(z.maxLength(20))),
  /** 'web_message': the consent popup posts the answer to its opener (the embedded element). */
  response_mode: z.optional(z.string().check(z.maxLength(20))),
});
export type AuthorizationParams = z.infer<typeof AuthorizationParams>;

/** What the consent screen shows. */
export const ConsentInfo = z.object({
  app: z.object({ name: z.string(), logo_url: z.nullable(z.string()), website: z.string() }),
  scopes: z.array(z.object({ scope: z.string(), label: z.string() })),
  /** The organizations the user administers (the picker, when more than one). */
  organizations: z.array(z.object({ id: z.number(), name: z.string() })),
  redirect_origin: z.string(),
});
export type ConsentInfo = z.infer<typeof ConsentInfo>;

export const ConsentDecision = z.extend(AuthorizationParams, {
  decision: z.enum(['allow', 'deny']),
  organization_id: z.optional(z.number().check(z.int(), z.positive(), z.lte(2_147_483_647))),
});
export type ConsentDecision = z.infer<typeof ConsentDecision>;

/** Where the browser goes next: the redirect URI with the code (or the error) and the state. */
export const ConsentAnswer = z.object({
  redirect_to: z.string(),
  /** The same answer as fields, for the popup's postMessage. */
  result: z.record(z.string(), z.string()),
});
export type ConsentAnswer = z.infer<typeof ConsentAnswer>;

export const ConnectedApp = z.object({
  id: z.number(),
  name: z.string(),
  logo_url: z.nullable(z.string()),
  website: z.string(),
  scopes: z.array(z.string()),
  connected_at: z.string(),
  last_used_at: z.nullable(z.string()),
});
export type ConnectedApp = z.infer<typeof ConnectedApp>;
export const ConnectedAppList = z.object({ apps: z.array(ConnectedApp) });
export type ConnectedAppList = z.infer<typeof ConnectedAppList>;

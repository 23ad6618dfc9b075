import * as z from 'zod/mini';
import { permissionLevels } from './access.ts';
import { email, LoginResponse, redirectPath } from './auth.ts';

/**
 * Single sign-on with OpenID Connect (issue #24): an admin connects the organization to a
 * provider (Google Workspace, Microsoft Entra, Okta...) for the email domains it vouches for.
 */

export const ssoMessages = {
  issuerInvalid: 'Enter the provider’s issuer URL (https://...)',
  providerNameRequired: 'Enter the provider’s name, as the sign-in button shows it',
  clientIdRequired: 'Enter the client ID',
  clientSecretRequired: 'Enter the client secret',
  domainsRequired: 'Enter at least one email domain',
  domainInvalid: 'Enter domains like example.org, one per line',
  domainTaken: (domain: string) => `The domain ${domain} already signs in through another organization.`,
  freeMailDomain: (domain: string) =>
    `${domain} is a public email provider; only your own domains can be used.`,
  discoveryFailed:
    'The provider could not be reached at that issuer URL, or it is not an OpenID Connect provider.',
  domainNotYours: (domain: string, own: string) =>
    `You can vouch only for your own email’s domain (${own}), not ${domain}. A Twofold super user can add other domains.`,
  notConfigured: 'Single sign-on is not set up for this organization',
  requestNotFound: 'Request not found',
  noConnection: 'Single sign-on is not set up for this email address.',
  /** Refusing a password or magic link where the organization requires single sign-on. */
  required: (provider: string) =>
    `Your organization requires single sign-on for this email address. Use “Sign in with ${provider}”.`,
  handoffInvalid: 'This sign-in has expired or was already used. Please sign in again.',
} as const;

/** Why a single sign-on came back to the login page without a session (?sso_error=...). */
export const ssoErrors = {
  state: 'This sign-in attempt has expired or did not start in this browser. Please try again.',
  provider: 'The identity provider refused the sign-in or could not be reached. Please try again.',
  unverified: 'Your identity provider has not verified this email address, so Twofold cannot accept it.',
  domain: 'Your identity provider signed you in with an email address this organization does not accept.',
  pending:
    'Thanks! An administrator of the organization must approve your access. You will get an email once they do.',
  unavailable: 'Single sign-on is not set up for this email address.',
  superuser: 'Twofold super users sign in with their password, not through an organization’s provider.',
} as const;
export type SsoErrorCode = keyof typeof ssoErrors;
export const isSsoErrorCode = (value: string): value is SsoErrorCode => Object.hasOwn(ssoErrors, value);

const domainPattern = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
export const ssoDomain = z
  .string()
  .check(z.trim(), z.toLowerCase(), z.regex(domainPattern, ssoMessages.domainInvalid));

export const ssoJoinModes = ['join', 'approve'] as const;

/** Saving a connection. The secret may be left out when editing: the stored one is kept. */
export const SsoConnectionRequest = z.object({
  provider_name: z
    .string(ssoMessages.providerNameRequired)
    .check(z.trim(), z.minLength(1, ssoMessages.providerNameRequired), z.maxLength(60)),
  issuer: z.string(ssoMessages.issuerInvalid).check(
    z.trim(),
    z.maxLength(500),
    z.refine((v) => /^https?:\/\/[^\s/]+/.test(v) && URL.canParse(v), ssoMessages.issuerInvalid),
  ),
  client_id: z
    .string(ssoMessages.clientIdRequired)
    .check(z.trim(), z.minLength(1, ssoMessages.clientIdRequired), z.maxLength(500)),
  client_secret: z.optional(z.string().check(z.maxLength(2000))),
  domains: z.array(ssoDomain).check(z.minLength(1, ssoMessages.domainsRequired), z.maxLength(50)),
  default_level: z.enum(permissionLevels),
  join_mode: z.enum(ssoJoinModes),
  require_sso: z.boolean(),
});
export type SsoConnectionRequest = z.infer<typeof SsoConnectionRequest>;

export const SsoJoinRequest = z.object({
  id: z.number(),
  user_id: z.number(),
  email: z.string(),
  name: z.nullable(z.string()),
  created_at: z.string(),
});
export type SsoJoinRequest = z.infer<typeof SsoJoinRequest>;

/** The connection as admins see it: never the secret, only whether one is stored. */
export const SsoConnection = z.object({
  provider_name: z.string(),
  issuer: z.string(),
  client_id: z.string(),
  has_client_secret: z.boolean(),
  domains: z.array(z.string()),
  default_level: z.enum(permissionLevels),
  join_mode: z.enum(ssoJoinModes),
  require_sso: z.boolean(),
  /** Where the provider must send people back (its "redirect URI"). */
  redirect_uri: z.string(),
});
export type SsoConnection = z.infer<typeof SsoConnection>;

export const SsoSettings = z.object({
  connection: z.nullable(SsoConnection),
  requests: z.array(SsoJoinRequest),
  /** The redirect URI to give the provider, even before a connection exists. */
  redirect_uri: z.string(),
});
export type SsoSettings = z.infer<typeof SsoSettings>;

export const SsoApproveRequest = z.object({ level: z.enum(permissionLevels) });

/** The login page's question: does this email's domain sign in through a provider? Nothing else. */
export const SsoLookupQuery = z.object({ email });
export const SsoLookup = z.object({
  sso: z.nullable(z.object({ provider: z.string(), required: z.boolean() })),
});
export type SsoLookup = z.infer<typeof SsoLookup>;

export const SsoStartQuery = z.object({ email, redirect: z.optional(redirectPath) });
export const SsoCallbackQuery = z.object({
  state: z.optional(z.string().check(z.maxLength(200))),
  code: z.optional(z.string().check(z.maxLength(4000))),
  error: z.optional(z.string().check(z.maxLength(200))),
  error_description: z.optional(z.string().check(z.maxLength(2000))),
  iss: z.optional(z.string().check(z.maxLength(500))),
  session_state: z.optional(z.string().check(z.maxLength(500))),
  scope: z.optional(z.string().check(z.maxLength(2000))),
});
export const SsoCompleteRequest = z.object({ token: z.string().check(z.minLength(16), z.maxLength(200)) });
export const SsoCompleteResponse = z.extend(LoginResponse, {
  redirect: z.string(),
  /** The organization whose provider signed the user in: the portal opens it. */
  organization_id: z.nullable(z.number()),
});
export type SsoCompleteResponse = z.infer<typeof SsoCompleteResponse>;

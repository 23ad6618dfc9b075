import * as z from 'zod/mini';
import { maxInt32, realDay } from './fields.ts';

/**
 * The audit log's kinds of event (issue #24), each with the words the log screen and its CSV
 * show. One list, read by the server's writer (`server/modules/audit/audit.ts`), the screen's kind
 * filter and the CSV. Add a kind here, in its area's block, before recording it.
 */
export const auditKinds = {
  // Signing in
  'auth.sign_in': 'Signed in',
  'auth.sign_in_failed': 'Failed sign-in',
  'auth.session_ended': 'Session ended',
  // Second factors and single sign-on
  'auth.totp_enabled': 'Authenticator app added',
  'auth.totp_disabled': 'Authenticator app removed',
  'auth.recovery_codes_generated': 'Recovery codes generated',
  'auth.recovery_code_used': 'Recovery code used',
  'auth.passkey_added': 'Passkey added',
  'auth.passkey_removed': 'Passkey removed',
  'auth.two_factor_reset': 'Two-factor sign-in reset',
  'organization.two_factor_policy': 'Two-factor requirement changed',
  'organization.sso_configured': 'Single sign-on configured',
  'organization.sso_removed': 'Single sign-on removed',
  'organization.sso_request_declined': 'Single sign-on request declined',
  // People and permissions
  'permission.granted': 'Access granted',
  'permission.changed': 'Access level changed',
  'permission.revoked': 'Access removed',
  'invitation.sent': 'Invitation sent',
  'invitation.revoked': 'Invitation withdrawn',
  // Integrations
  'api_key.created': 'API key created',
  'api_key.revoked': 'API key removed',
  'webhook.created': 'Webhook created',
  'webhook.removed': 'Webhook removed',
  'partner_app.connected': 'App connected',
  'partner_app.disconnected': 'App disconnected',
  // Data leaving Twofold
  'export.donations': 'Matches exported',
  'report.downloaded': 'Report downloaded',
  'export.audit': 'Audit log exported',
  // Settings and content
  'template.changed': 'Email template changed',
  'sending_domain.set': 'Sender address set',
  'sending_domain.verified': 'Sending domain verified',
  'sending_domain.changed': 'Sending domain changed',
  'sending_domain.key_rotation': 'DKIM key rotation started',
  'sending_domain.removed': 'Sender address removed',
  'catalogue.edited': 'Company catalogue edited',
  // Billing (issue #27: from Stripe's webhook events)
  'billing.plan_started': 'Paid plan started',
  'billing.plan_ended': 'Paid plan ended',
  'billing.payment_status': 'Subscription payment status changed',
} as const;

export type AuditKind = keyof typeof auditKinds;

export const isAuditKind = (value: string): value is AuditKind => Object.hasOwn(auditKinds, value);

/**
 * Entries about the shared company catalogue: recorded with no organization (the catalogue is
 * every organization's), they are shown to super users in any organization's log and to no admin.
 */
export const platformAuditKinds = ['catalogue.edited'] as const satisfies readonly AuditKind[];

/** How many entries one page of the log holds by default, and at most. */
export const auditPageSize = 50;
export const auditMaxPageSize = 200;

export const auditMessages = {
  badCursor: 'cursor is not valid; start again from the first page',
  dateOrder: 'from must be on or before to',
  badKind: 'kind must be one of the audit log’s kinds',
} as const;

const day = realDay('Expected a real date (YYYY-MM-DD)');

/**
 * The log's filters (the list, its CSV link): a person (entries they did or that were about them),
 * a kind, and inclusive days (UTC) from and to. The list also takes the cursor of its next page.
 */
export const AuditFilters = z.object({
  person: z.optional(
    z.string().check(
      z.regex(/^[0-9]{1,10}$/, 'person must be a user id'),
      z.refine((s) => Number(s) >= 1 && Number(s) <= maxInt32, 'person must be a user id'),
    ),
  ),
  kind: z.optional(z.string().check(z.refine(isAuditKind, auditMessages.badKind))),
  from: z.optional(day),
  to: z.optional(day),
});
export type AuditFilters = z.infer<typeof AuditFilters>;

export const AuditListQuery = z.extend(AuditFilters, {
  cursor: z.optional(z.string().check(z.maxLength(200, auditMessages.badCursor))),
  limit: z.optional(
    z.string().check(
      z.regex(/^[0-9]{1,3}$/, `limit must be a whole number from 1 to ${auditMaxPageSize}`),
      z.refine(
        (s) => Number(s) >= 1 && Number(s) <= auditMaxPageSize,
        `limit must be a whole number from 1 to ${auditMaxPageSize}`,
      ),
    ),
  ),
});
export type AuditListQuery = z.infer<typeof AuditListQuery>;

/** One entry as the log screen shows it. */
export const AuditEvent = z.object({
  id: z.number(),
  occurred_at: z.string(),
  kind: z.string(),
  /** The organization it was recorded for; null for a member's own account events and catalogue edits. */
  organization_id: z.nullable(z.number()),
  actor: z.object({
    kind: z.enum(['user', 'api', 'system']),
    user_id: z.nullable(z.number()),
    /** The actor's email as it was then (an API key's prefix, a job's name). */
    label: z.nullable(z.string()),
  }),
  /** The person the entry is about, when not the actor: their id and today's email. */
  subject: z.nullable(z.object({ user_id: z.number(), email: z.nullable(z.string()) })),
  summary: z.string(),
  details: z.record(z.string(), z.unknown()),
  ip_address: z.nullable(z.string()),
});
export type AuditEvent = z.infer<typeof AuditEvent>;

export const AuditPage = z.object({
  events: z.array(AuditEvent),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  next_cursor: z.nullable(z.string()),
});
export type AuditPage = z.infer<typeof AuditPage>;

/** The words of a kind; a kind recorded by a later version shows as stored. */
export const auditKindLabel = (kind: string): string => (isAuditKind(kind) ? auditKinds[kind] : kind);

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

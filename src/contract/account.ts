import * as z from 'zod/mini';

/**
 * Issue #24: the user's own account page (its Security section: sessions, the authenticator app,
 * recovery codes), the second step of signing in, and an organization's two-factor policy.
 */

/** Not in the spec: the texts of two-factor sign-in. */
export const twoFactorMessages = {
  invalidCode:
    'That code is not valid. Enter the current 6-digit code from your authenticator app, or one of your recovery codes.',
  challengeExpired: 'Your sign-in took too long. Please sign in again.',
  codeOrRecentSignIn:
    'Enter a current code from your authenticator app, or sign in again and retry within 10 minutes.',
  noPendingEnrolment: 'Start setting up the authenticator app again: this setup is no longer open.',
  alreadyEnrolled: 'An authenticator app is already set up. Remove it first to set up another.',
  notEnrolled: 'No authenticator app is set up.',
  required:
    'Two-factor sign-in is required for your account. Set up an authenticator app in the Security section of your account page.',
  sessionNotFound: 'Session not found',
  userNotFound: 'User not found',
  notAMember: 'That user is not a member of this organization.',
  codeNeeded: 'Enter the code from your authenticator app.',
} as const;

/** A 6-digit code, or a recovery code (letters, digits and dashes), as typed. */
export const SecondFactorCode = z.string().check(z.trim(), z.minLength(6), z.maxLength(32));

/** A right password or magic link of a user with an authenticator app: now the code. */
export const SecondFactorChallenge = z.object({
  /** Five minutes, for POST /api/auth/second-factor only: not a session. */
  second_factor_token: z.string(),
  message: z.string(),
});
export type SecondFactorChallenge = z.infer<typeof SecondFactorChallenge>;

export const SecondFactorRequest = z.object({
  token: z.string().check(z.minLength(16), z.maxLength(2000)),
  code: SecondFactorCode,
  /** A solved proof-of-work challenge, needed after a few wrong codes (as for passwords). */
  captcha: z.optional(z.string().check(z.maxLength(4000))),
});
export type SecondFactorRequest = z.infer<typeof SecondFactorRequest>;

export const sessionMethodLabels = {
  password: 'Password',
  magic_link: 'Magic link',
  passkey: 'Passkey',
  sso: 'Single sign-on',
} as const;

export const AccountSession = z.object({
  id: z.string(),
  device: z.string(),
  ip_address: z.nullable(z.string()),
  created_at: z.string(),
  last_seen_at: z.string(),
  method: z.enum(['password', 'magic_link', 'passkey', 'sso']),
  /** Whether a second factor was passed (an authenticator code, a recovery code, a passkey). */
  two_factor: z.boolean(),
  /** The session making this request ("this device"). */
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof AccountSession>;
export const AccountSessions = z.object({ sessions: z.array(AccountSession) });
export type AccountSessions = z.infer<typeof AccountSessions>;
export const SessionIdParams = z.object({ sessionId: z.string().check(z.minLength(16), z.maxLength(64)) });
export const EndedSessions = z.object({ ended: z.number() });

export const TwoFactorStatus = z.object({
  /** An authenticator app is set up (confirmed). */
  totp: z.boolean(),
  totp_since: z.nullable(z.string()),
  recovery_codes_left: z.number(),
  /**
   * An organization's policy (or the super-user rule) requires a second factor this session has
   * not passed: until the user sets one up, the account page is all it may use.
   */
  required: z.boolean(),
  /** This session passed a second factor. */
  session_two_factor: z.boolean(),
});
export type TwoFactorStatus = z.infer<typeof TwoFactorStatus>;

/** A started enrolment: the secret as a QR code (SVG) and as text. Shown until confirmed, never after. */
export const TotpEnrolment = z.object({ secret: z.string(), otpauth_url: z.string(), qr_svg: z.string() });
export type TotpEnrolment = z.infer<typeof TotpEnrolment>;

export const CodeRequest = z.object({ code: SecondFactorCode });
/** Removing the app or making new recovery codes: a current code, or a sign-in of the last 10 minutes. */
export const OptionalCodeRequest = z.object({ code: z.optional(SecondFactorCode) });

/** Ten single-use codes, shown once. */
export const RecoveryCodes = z.object({ recovery_codes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof RecoveryCodes>;

export const TwoFactorPolicy = z.object({ require_two_factor: z.boolean() });
export type TwoFactorPolicy = z.infer<typeof TwoFactorPolicy>;

/** An organization's policy, and which of its members have an authenticator app (admins). */
export const TwoFactorMembers = z.object({
  require_two_factor: z.boolean(),
  members: z.array(
    z.object({ user_id: z.number(), email: z.string(), name: z.string(), two_factor: z.boolean() }),
  ),
});
export type TwoFactorMembers = z.infer<typeof TwoFactorMembers>;

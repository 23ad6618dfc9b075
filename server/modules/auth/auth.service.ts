import { asc, eq, sql } from 'drizzle-orm';
import {
  type SecondFactorChallenge,
  type SecondFactorRequest,
  twoFactorMessages,
} from '../../../src/contract/account.ts';
import type { LoginRefusal, LoginResponse, Me, OtpVerifyResponse } from '../../../src/contract/auth.ts';
import { authMessages } from '../../../src/contract/auth.ts';
import type { Queryable } from '../../db/client.ts';
import {
  organizations,
  permissions,
  type SessionFactor,
  type SessionMethod,
  users,
} from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { AuthUser, Deps } from '../../http/route.ts';
import { enqueueMail } from '../../jobs/outbox.ts';
import { magicLinkMail, passwordResetMail } from '../../mail/templates.ts';
import { hasTotp, spendRecoveryCode, spendTotpCode } from '../account/totp.ts';
import { recordAudit } from '../audit/audit.ts';
import { refuseWhereSsoRequired } from '../sso/sso-policy.ts';
import { admitAttempt, recordSuccess } from './login-throttle.ts';
import { hashPassword, verifyNothing, verifyPassword } from './passwords.ts';
import {
  type EndReason,
  endUserSessions,
  type LiveSession,
  liveSession,
  openSession,
  type SignIn,
  secondFactorMissing,
} from './sessions.ts';
import {
  accessTokenLifetimeSeconds,
  consumeToken,
  issueToken,
  retireTokens,
  signAccessToken,
  signToken,
  verifyToken,
} from './tokens.ts';

export const authServiceMessages = {
  invalidCredentials: 'Invalid email or password',
  magicLinkSent: 'Magic link sent',
  magicLinkInvalid: 'This sign-in link is invalid or has expired. Please request a new one.',
  forgotSent: 'If an account exists for that email, reset instructions are on their way.',
  resetDone: 'Your password has been reset.',
  resetInvalid: 'This reset link is invalid or has expired. Please request a new password reset link.',
} as const;

export const magicLinkLifetimeMs = 15 * 60 * 1000;
export const resetLifetimeMs = 60 * 60 * 1000;
/** Where a magic link lands when the request names no page. spec: redirect ('/portal'). */
export const defaultRedirect = '/portal';

/** Emails are case-insensitive; we keep and compare them lowercased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** spec: "name (falls back to the part of the email before the at-sign)". */
export function displayName(user: { name: string | null; email: string }): string {
  return user.name?.trim() || user.email.split('@')[0] || user.email;
}

async function findUserByEmail(db: Queryable, email: string) {
  const [user] = await db
    .select()
    .from(users)
    .where(eq(users.email, normalizeEmail(email)));
  return user;
}

/**
 * The signed-in user as the portal sees them, with the organizations they hold a level on, and
 * (given the session) whether it must still set up a second factor before anything else.
 */
export async function loadMe(
  db: Queryable,
  userId: number,
  session?: { live: LiveSession | undefined; exposed: boolean },
): Promise<Me> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new HttpError(401, 'Authentication expired. Please login again.');
  const orgs = await db
    .select({ id: organizations.id, name: organizations.name })
    .from(permissions)
    .innerJoin(organizations, eq(organizations.id, permissions.org_id))
    .where(eq(permissions.user_id, userId))
    .orderBy(asc(sql`lower(${organizations.name})`), asc(organizations.id));
  return {
    id: user.id,
    email: user.email,
    name: displayName(user),
    globalPermission: user.global_permission,
    orgs,
    ...(session?.live ? { twoFactorRequired: secondFactorMissing(session.live, session.exposed) } : {}),
  };
}

/**
 * The one place a staff session begins (issue #24): a `user_sessions` row saying how the user signed
 * in and which factors they passed, its access token, who they are, and the sign-in in the audit
 * log, in one transaction. `how` defaults to a password sign-in; passkeys pass
 * `{ method: 'passkey', factors: ['passkey'] }`, single sign-on `{ method: 'sso', ssoOrganizationId }`,
 * each with the client's `ip` and `userAgent`. It issues no second-factor challenge: callers that
 * checked only a first factor use `signInOrChallenge`.
 */
export async function session(
  deps: Deps,
  userId: number,
  how: SignIn = { method: 'password' },
  options: { audit?: boolean } = {},
): Promise<LoginResponse> {
  const opened = await deps.db.transaction(async (tx) => {
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
    if (!user) throw new HttpError(401, 'Authentication expired. Please login again.');
    const row = await openSession(tx, userId, how, accessTokenLifetimeSeconds);
    if (options.audit !== false) {
      await recordAudit(tx, {
        kind: 'auth.sign_in',
        organizationId: how.ssoOrganizationId ?? null,
        actor: { kind: 'user', userId, email: user.email },
        summary: `Signed in with ${methodWords[how.method]}${secondFactorWords(row.factors)}`,
        details: { method: how.method, factors: row.factors },
        ip: how.ip ?? null,
        userAgent: how.userAgent ?? null,
      });
    }
    return row;
  });
  const live = await liveSession(deps.db, opened.id, userId);
  const me = await loadMe(deps.db, userId, { live, exposed: deps.config.exposed });
  return { access_token: await signAccessToken(deps.config.jwtSecret, userId, opened.id), me };
}

const methodWords: Record<SessionMethod, string> = {
  password: 'a password',
  magic_link: 'a magic link',
  passkey: 'a passkey',
  sso: 'single sign-on',
};
function secondFactorWords(factors: readonly SessionFactor[]): string {
  if (factors.includes('totp')) return ' and an authenticator code';
  if (factors.includes('recovery_code')) return ' and a recovery code';
  return '';
}

/**
 * A fresh token for the session making a change that ended the user's sessions (a demotion they
 * made themselves): the same sign-in method and factors, a new row, no new sign-in in the log.
 */
export async function continueSession(deps: Deps, user: AuthUser): Promise<LoginResponse> {
  const current = user.session;
  return session(
    deps,
    user.id,
    current
      ? { method: current.method, factors: current.factors, ssoOrganizationId: current.ssoOrganizationId }
      : { method: 'password' },
    { audit: false },
  );
}

/**
 * After a first factor (a password, a magic link, an invitation's link): a session, or, for a user
 * with an authenticator app, a five-minute challenge for its code (POST /api/auth/second-factor).
 */
export async function signInOrChallenge(
  deps: Deps,
  userId: number,
  how: SignIn & { method: 'password' | 'magic_link' },
  redirect?: string,
): Promise<LoginResponse | SecondFactorChallenge> {
  if (!(await hasTotp(deps.db, userId))) return session(deps, userId, how);
  const token = await signToken(deps.config.jwtSecret, 'second-factor', userId, {
    data: { method: how.method, ...(redirect ? { redirect } : {}) },
  });
  return { second_factor_token: token, message: twoFactorMessages.codeNeeded };
}

/** A refused code: 401 (wrong) or 428 (a solved challenge is needed first), as for passwords. */
export type SecondFactorOutcome =
  | { ok: true; session: LoginResponse & { redirect?: string } }
  | { ok: false; status: 401 | 428; refusal: LoginRefusal };

/**
 * The second step of signing in: the challenge's token and a code of the user's authenticator app
 * (or one of their recovery codes). Wrong codes are throttled like passwords (login-throttle.ts,
 * counted apart from password failures so a right password does not clear them).
 */
export async function completeSecondFactor(
  deps: Deps,
  input: SecondFactorRequest,
  client: { ip: string; userAgent: string | null },
): Promise<SecondFactorOutcome> {
  const pending = await verifyToken(deps.config.jwtSecret, 'second-factor', input.token);
  const method = pending?.data.method;
  if (!pending || (method !== 'password' && method !== 'magic_link'))
    throw new HttpError(401, twoFactorMessages.challengeExpired);
  const userId = Number(pending.subject);
  const [user] = await deps.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  if (!user) throw new HttpError(401, twoFactorMessages.challengeExpired);
  const attempt = { email: `second-factor ${user.email}`, ip: client.ip, captcha: input.captcha };
  const admission = await admitAttempt(deps, attempt);
  if (!admission.admitted) return { ok: false, status: 428, refusal: admission.refusal };
  const factor = await deps.db.transaction(async (tx): Promise<SessionFactor | null> => {
    if (await spendTotpCode(tx, deps.config.jwtSecret, userId, input.code, true)) return 'totp';
    if (await spendRecoveryCode(tx, userId, input.code)) {
      await recordAudit(tx, {
        kind: 'auth.recovery_code_used',
        organizationId: null,
        actor: { kind: 'user', userId, email: user.email },
        summary: 'Signed in with a recovery code',
        ip: client.ip,
        userAgent: client.userAgent,
      });
      return 'recovery_code';
    }
    return null;
  });
  if (!factor) {
    await recordAudit(deps.db, {
      kind: 'auth.sign_in_failed',
      organizationId: null,
      actor: { kind: 'user', userId, email: user.email },
      summary: `Failed sign-in: a wrong two-factor code after ${methodWords[method]}`,
      details: { method, reason: 'wrong_code' },
      ip: client.ip,
      userAgent: client.userAgent,
    });
    const refusal: LoginRefusal = { message: twoFactorMessages.invalidCode };
    if (admission.captchaNext) refusal.captcha = true;
    return { ok: false, status: 401, refusal };
  }
  await recordSuccess(deps, attempt);
  const issued = await session(deps, userId, {
    method,
    factors: [method, factor],
    ip: client.ip,
    userAgent: client.userAgent,
  });
  const redirect = typeof pending.data.redirect === 'string' ? pending.data.redirect : undefined;
  return { ok: true, session: redirect ? { ...issued, redirect } : issued };
}

/**
 * Ends every session of a user issued so far (their access tokens stop working at once): after a
 * password reset, a removal from an organization or a demotion. Call in the change's transaction.
 */
export async function endSessions(
  tx: Queryable,
  userId: number,
  reason: EndReason = 'access_changed',
): Promise<void> {
  await endUserSessions(tx, userId, reason);
}

/** A refusal is 401 (wrong email or password) or 428 (a solved challenge is needed first). */
export type LoginOutcome =
  | { ok: true; session: LoginResponse | SecondFactorChallenge }
  | { ok: false; status: 401 | 428; refusal: LoginRefusal };

/**
 * Checks a password, behind the sign-in throttle (login-throttle.ts): a refusal says whether the
 * next attempt needs a solved challenge. Unknown emails are counted and answered like known ones.
 */
export async function login(
  deps: Deps,
  input: { email: string; password: string; captcha?: string | undefined },
  ip: string,
  userAgent: string | null = null,
): Promise<LoginOutcome> {
  // Where the organization requires single sign-on, no password is checked at all (issue #24).
  await refuseWhereSsoRequired(deps.db, input.email);
  const attempt = { email: normalizeEmail(input.email), ip, captcha: input.captcha };
  const admission = await admitAttempt(deps, attempt);
  if (!admission.admitted) return { ok: false, status: 428, refusal: admission.refusal };
  const user = await findUserByEmail(deps.db, input.email);
  const ok = user?.password_hash
    ? await verifyPassword(user.password_hash, input.password)
    : await verifyNothing(input.password);
  if (!user || !ok) {
    // Only an account's failures are its to see; guesses at unknown emails concern no one's log.
    if (user)
      await recordAudit(deps.db, {
        kind: 'auth.sign_in_failed',
        organizationId: null,
        actor: { kind: 'user', userId: user.id, email: user.email },
        summary: 'Failed sign-in: a wrong password',
        details: { method: 'password', reason: 'wrong_password' },
        ip,
        userAgent,
      });
    const refusal: LoginRefusal = { message: authServiceMessages.invalidCredentials };
    if (admission.captchaNext) refusal.captcha = true;
    return { ok: false, status: 401, refusal };
  }
  await recordSuccess(deps, attempt);
  return { ok: true, session: await signInOrChallenge(deps, user.id, { method: 'password', ip, userAgent }) };
}

/** Emails a one-time sign-in link. The token and its mail are written in one transaction. */
export async function requestMagicLink(
  deps: Deps,
  email: string,
  redirect: string | undefined,
): Promise<void> {
  const { db, config } = deps;
  await refuseWhereSsoRequired(db, email);
  const user = await findUserByEmail(db, email);
  if (!user) throw new HttpError(404, authMessages.noUserFound);
  await db.transaction(async (tx) => {
    const token = await issueToken(tx, 'magic_link', user.id, magicLinkLifetimeMs, {
      redirect: redirect ?? defaultRedirect,
    });
    await enqueueMail(
      tx,
      await magicLinkMail({
        to: user.email,
        name: displayName(user),
        supportEmail: config.supportEmail,
        url: `${config.publicUrl}/portal/login?magic=${encodeURIComponent(token)}`,
        minutes: magicLinkLifetimeMs / 60_000,
      }),
    );
  });
}

export async function verifyMagicLink(
  deps: Deps,
  token: string,
  client: { ip: string; userAgent: string | null },
): Promise<OtpVerifyResponse | (SecondFactorChallenge & { redirect: string })> {
  const used = await consumeToken(deps.db, 'magic_link', token);
  if (!used) throw new HttpError(400, authServiceMessages.magicLinkInvalid);
  // A link sent before the organization began to require single sign-on no longer signs in.
  const [owner] = await deps.db.select({ email: users.email }).from(users).where(eq(users.id, used.userId));
  if (owner) await refuseWhereSsoRequired(deps.db, owner.email);
  const redirect = typeof used.data.redirect === 'string' ? used.data.redirect : defaultRedirect;
  const answer = await signInOrChallenge(deps, used.userId, { method: 'magic_link', ...client }, redirect);
  return { ...answer, redirect };
}

/** Emails reset instructions when the account exists. The caller's answer is the same either way. */
export async function forgotPassword(deps: Deps, email: string): Promise<void> {
  const { db, config } = deps;
  const user = await findUserByEmail(db, email);
  if (!user) return;
  await db.transaction(async (tx) => {
    const token = await issueToken(tx, 'password_reset', user.id, resetLifetimeMs);
    await enqueueMail(
      tx,
      await passwordResetMail({
        to: user.email,
        name: displayName(user),
        supportEmail: config.supportEmail,
        url: `${config.publicUrl}/portal/reset-password?token=${encodeURIComponent(token)}`,
        minutes: resetLifetimeMs / 60_000,
      }),
    );
  });
}

/**
 * Sets a new password with a reset token or a set-password (invitation) token; the token and the
 * user's other such links die with it.
 */
export async function resetPassword(deps: Deps, token: string, password: string): Promise<void> {
  // Hash before the transaction: it takes tens of milliseconds and needs no lock.
  const passwordHash = await hashPassword(password);
  await deps.db.transaction(async (tx) => {
    // Invitations and registrations send a set_password link to the same reset page.
    const used =
      (await consumeToken(tx, 'password_reset', token)) ?? (await consumeToken(tx, 'set_password', token));
    if (!used) throw new HttpError(400, authServiceMessages.resetInvalid);
    await tx.update(users).set({ password_hash: passwordHash }).where(eq(users.id, used.userId));
    // Whoever knew the old password may hold a session: it ends with the reset.
    await endSessions(tx, used.userId, 'password_reset');
    await retireTokens(tx, 'password_reset', used.userId);
    await retireTokens(tx, 'set_password', used.userId);
  });
}

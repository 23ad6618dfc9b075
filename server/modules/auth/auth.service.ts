import { asc, eq, sql } from 'drizzle-orm';
import type { LoginRefusal, LoginResponse, Me, OtpVerifyResponse } from '../../../src/contract/auth.ts';
import { authMessages } from '../../../src/contract/auth.ts';
import type { Queryable } from '../../db/client.ts';
import { organizations, permissions, users } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { Deps } from '../../http/route.ts';
import { enqueueMail } from '../../jobs/outbox.ts';
import { magicLinkMail, passwordResetMail } from '../../mail/templates.ts';
import { refuseWhereSsoRequired } from '../sso/sso-policy.ts';
import { admitAttempt, recordSuccess } from './login-throttle.ts';
import { hashPassword, verifyNothing, verifyPassword } from './passwords.ts';
import { consumeToken, issueToken, retireTokens, signAccessToken } from './tokens.ts';

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

/** The signed-in user as the portal sees them, with the organizations they hold a level on. */
export async function loadMe(db: Queryable, userId: number): Promise<Me> {
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
  };
}

/** A new session for the user: an access token at their current session version, and who they are. */
export async function session(deps: Deps, userId: number): Promise<LoginResponse> {
  const me = await loadMe(deps.db, userId);
  const [row] = await deps.db
    .select({ version: users.session_version })
    .from(users)
    .where(eq(users.id, userId));
  return { access_token: await signAccessToken(deps.config.jwtSecret, userId, row?.version ?? 0), me };
}

/**
 * Ends every session of a user issued so far (their access tokens stop working at once): after a
 * password reset, a removal from an organization or a demotion. Call in the change's transaction.
 */
export async function endSessions(tx: Queryable, userId: number): Promise<void> {
  await tx
    .update(users)
    .set({ session_version: sql`${users.session_version} + 1` })
    .where(eq(users.id, userId));
}

/** A refusal is 401 (wrong email or password) or 428 (a solved challenge is needed first). */
export type LoginOutcome =
  | { ok: true; session: LoginResponse }
  | { ok: false; status: 401 | 428; refusal: LoginRefusal };

/**
 * Checks a password, behind the sign-in throttle (login-throttle.ts): a refusal says whether the
 * next attempt needs a solved challenge. Unknown emails are counted and answered like known ones.
 */
export async function login(
  deps: Deps,
  input: { email: string; password: string; captcha?: string | undefined },
  ip: string,
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
    const refusal: LoginRefusal = { message: authServiceMessages.invalidCredentials };
    if (admission.captchaNext) refusal.captcha = true;
    return { ok: false, status: 401, refusal };
  }
  await recordSuccess(deps, attempt);
  return { ok: true, session: await session(deps, user.id) };
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

export async function verifyMagicLink(deps: Deps, token: string): Promise<OtpVerifyResponse> {
  const used = await consumeToken(deps.db, 'magic_link', token);
  if (!used) throw new HttpError(400, authServiceMessages.magicLinkInvalid);
  // A link sent before the organization began to require single sign-on no longer signs in.
  const [owner] = await deps.db.select({ email: users.email }).from(users).where(eq(users.id, used.userId));
  if (owner) await refuseWhereSsoRequired(deps.db, owner.email);
  const redirect = typeof used.data.redirect === 'string' ? used.data.redirect : defaultRedirect;
  return { ...(await session(deps, used.userId)), redirect };
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
    await endSessions(tx, used.userId);
    await retireTokens(tx, 'password_reset', used.userId);
    await retireTokens(tx, 'set_password', used.userId);
  });
}

import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import {
  type AccountSessions,
  type RecoveryCodes,
  type TotpEnrolment,
  type TwoFactorMembers,
  type TwoFactorPolicy,
  type TwoFactorStatus,
  twoFactorMessages,
} from '../../../src/contract/account.ts';
import type { LoginRefusal } from '../../../src/contract/auth.ts';
import type { Queryable } from '../../db/client.ts';
import { organizations, passkeys, permissions, recoveryCodes, users, userTotp } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { AuthUser, Deps } from '../../http/route.ts';
import { enqueueMail } from '../../jobs/outbox.ts';
import { twoFactorResetMail } from '../../mail/templates.ts';
import { recordAudit } from '../audit/audit.ts';
import { displayName } from '../auth/auth.service.ts';
import { admitAttempt, recordSuccess } from '../auth/login-throttle.ts';
import {
  addSessionFactor,
  endOneSession,
  endUserSessions,
  hasSecondFactor,
  type LiveSession,
  listLiveSessions,
  secondFactorMissing,
} from '../auth/sessions.ts';
import { descendantIds } from '../permissions/permissions.service.ts';
import {
  enrolmentPicture,
  hasTotp,
  newTotpSecret,
  recoveryCodesLeft,
  replaceRecoveryCodes,
  sealTotpSecret,
  spendRecoveryCode,
  spendTotpCode,
} from './totp.ts';

/**
 * The user's own account (issue #24): their sessions, their authenticator app and recovery codes;
 * and the organization side: its two-factor policy and an admin's reset of a member's factor.
 */

type Client = { ip: string; userAgent: string | null };
const actorOf = (user: AuthUser) => ({ kind: 'user' as const, userId: user.id, email: user.email });

function sessionOf(user: AuthUser): LiveSession {
  // Every account route is a bearer route, whose user always carries its session.
  if (!user.session) throw new HttpError(401, 'Authentication expired. Please login again.');
  return user.session;
}

// ---------------------------------------------------------------------------------------------
// Sessions

export async function listSessions(deps: Deps, user: AuthUser): Promise<AccountSessions> {
  const current = sessionOf(user);
  const rows = await listLiveSessions(deps.db, user.id);
  return {
    sessions: rows.map((row) => ({
      id: row.id,
      device: row.device,
      ip_address: row.ip_address,
      created_at: row.created_at.toISOString(),
      last_seen_at: row.last_seen_at.toISOString(),
      method: row.method,
      two_factor: hasSecondFactor(row.factors),
      current: row.id === current.id,
    })),
  };
}

/** Ends one of the user's sessions (this one too: it is then signed out). */
export async function endSession(deps: Deps, user: AuthUser, sessionId: string, client: Client) {
  await deps.db.transaction(async (tx) => {
    if (!(await endOneSession(tx, user.id, sessionId, 'ended_by_user')))
      throw new HttpError(404, twoFactorMessages.sessionNotFound);
    await recordAudit(tx, {
      kind: 'auth.session_ended',
      organizationId: null,
      actor: actorOf(user),
      summary: 'Ended a signed-in session',
      details: { scope: 'one' },
      ...client,
    });
  });
  return { ended: 1 };
}

/** Ends every session of the user but the one making the call. */
export async function endOtherSessions(deps: Deps, user: AuthUser, client: Client) {
  const current = sessionOf(user);
  return deps.db.transaction(async (tx) => {
    const ended = await endUserSessions(tx, user.id, 'ended_by_user', current.id);
    if (ended > 0)
      await recordAudit(tx, {
        kind: 'auth.session_ended',
        organizationId: null,
        actor: actorOf(user),
        summary: `Ended ${ended} other signed-in session${ended === 1 ? '' : 's'}`,
        details: { scope: 'others', ended },
        ...client,
      });
    return { ended };
  });
}

// ---------------------------------------------------------------------------------------------
// The authenticator app and recovery codes

export async function twoFactorStatus(deps: Deps, user: AuthUser): Promise<TwoFactorStatus> {
  const session = sessionOf(user);
  const since = await hasTotp(deps.db, user.id);
  return {
    totp: since !== null,
    totp_since: since?.toISOString() ?? null,
    recovery_codes_left: since ? await recoveryCodesLeft(deps.db, user.id) : 0,
    required: secondFactorMissing(session, deps.config.exposed),
    session_two_factor: hasSecondFactor(session.factors),
  };
}

/** Starts (or starts again) setting up an authenticator app: a new secret, shown until confirmed. */
export async function startTotp(deps: Deps, user: AuthUser): Promise<TotpEnrolment> {
  if (await hasTotp(deps.db, user.id)) throw new HttpError(409, twoFactorMessages.alreadyEnrolled);
  const secret = newTotpSecret();
  const sealed = sealTotpSecret(deps.config.jwtSecret, user.id, secret);
  await deps.db
    .insert(userTotp)
    .values({ user_id: user.id, secret_sealed: sealed })
    .onConflictDoUpdate({
      target: userTotp.user_id,
      set: { secret_sealed: sealed, last_used_step: null, created_at: sql`now()` },
      // Never over an app already confirmed (a race with another tab's confirmation).
      setWhere: sql`${userTotp.confirmed_at} is null`,
    });
  const { otpauthUrl, qrSvg } = await enrolmentPicture(secret, user.email);
  return { secret, otpauth_url: otpauthUrl, qr_svg: qrSvg };
}

/** A wrong code on an account route: 400 with the throttle's captcha flag, or its 428. */
export class CodeRefused extends HttpError {
  constructor(
    status: 400 | 428,
    readonly refusal: LoginRefusal,
  ) {
    super(status, refusal.message);
  }
}

/** Code guesses on the account page go through the sign-in throttle, counted with the sign-in codes. */
async function throttled<T>(
  deps: Deps,
  user: AuthUser,
  client: Client,
  captcha: string | undefined,
  attempt: () => Promise<T | null>,
): Promise<T> {
  const key = { email: `second-factor ${user.email}`, ip: client.ip, captcha };
  const admission = await admitAttempt(deps, key);
  if (!admission.admitted) throw new CodeRefused(428, admission.refusal);
  const result = await attempt();
  if (result === null) {
    const refusal: LoginRefusal = { message: twoFactorMessages.invalidCode };
    if (admission.captchaNext) refusal.captcha = true;
    throw new CodeRefused(400, refusal);
  }
  await recordSuccess(deps, key);
  return result;
}

/**
 * Confirms the app with its first code: it is on from now, this session counts as having passed
 * it, and ten recovery codes are made (returned once).
 */
export async function confirmTotp(
  deps: Deps,
  user: AuthUser,
  input: { code: string; captcha?: string | undefined },
  client: Client,
): Promise<RecoveryCodes> {
  const session = sessionOf(user);
  const [pending] = await deps.db.select().from(userTotp).where(eq(userTotp.user_id, user.id));
  if (!pending || pending.confirmed_at) throw new HttpError(409, twoFactorMessages.noPendingEnrolment);
  return throttled(deps, user, client, input.captcha, () =>
    deps.db.transaction(async (tx) => {
      if (!(await spendTotpCode(tx, deps.config.jwtSecret, user.id, input.code, false))) return null;
      await tx.update(userTotp).set({ confirmed_at: sql`now()` }).where(eq(userTotp.user_id, user.id));
      const codes = await replaceRecoveryCodes(tx, user.id);
      await addSessionFactor(tx, session.id, 'totp');
      await recordAudit(tx, {
        kind: 'auth.totp_enabled',
        organizationId: null,
        actor: actorOf(user),
        summary: 'Added an authenticator app',
        ...client,
      });
      await recordAudit(tx, {
        kind: 'auth.recovery_codes_generated',
        organizationId: null,
        actor: actorOf(user),
        summary: 'Generated ten recovery codes',
        ...client,
      });
      return { recovery_codes: codes };
    }),
  );
}

/** A sign-in this recent stands in for a code when removing the app or making new recovery codes. */
export const recentSignInMs = 10 * 60 * 1000;

/**
 * Removing the app and new recovery codes need proof beyond the session: a current code of the app
 * (or a recovery code), or a sign-in within the last ten minutes.
 */
async function proveOwner(
  deps: Deps,
  tx: Queryable,
  user: AuthUser,
  code: string | undefined,
): Promise<boolean | null> {
  if (code === undefined) {
    const session = sessionOf(user);
    if (Date.now() - session.createdAt.getTime() > recentSignInMs)
      throw new HttpError(403, twoFactorMessages.codeOrRecentSignIn);
    return true;
  }
  if (await spendTotpCode(tx, deps.config.jwtSecret, user.id, code, true)) return true;
  if (await spendRecoveryCode(tx, user.id, code)) return true;
  return null;
}

async function guarded<T>(
  deps: Deps,
  user: AuthUser,
  input: { code?: string | undefined; captcha?: string | undefined },
  client: Client,
  change: (tx: Queryable) => Promise<T>,
): Promise<T> {
  if (!(await hasTotp(deps.db, user.id))) throw new HttpError(409, twoFactorMessages.notEnrolled);
  const run = () =>
    deps.db.transaction(async (tx) => ((await proveOwner(deps, tx, user, input.code)) ? change(tx) : null));
  if (input.code === undefined) {
    const result = await run();
    if (result === null) throw new HttpError(403, twoFactorMessages.codeOrRecentSignIn);
    return result;
  }
  return throttled(deps, user, client, input.captcha, run);
}

export async function removeTotp(
  deps: Deps,
  user: AuthUser,
  input: { code?: string | undefined; captcha?: string | undefined },
  client: Client,
) {
  return guarded(deps, user, input, client, async (tx) => {
    await tx.delete(userTotp).where(eq(userTotp.user_id, user.id));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.user_id, user.id));
    await recordAudit(tx, {
      kind: 'auth.totp_disabled',
      organizationId: null,
      actor: actorOf(user),
      summary: 'Removed the authenticator app',
      ...client,
    });
    return { message: 'The authenticator app was removed.' };
  });
}

export async function regenerateRecoveryCodes(
  deps: Deps,
  user: AuthUser,
  input: { code?: string | undefined; captcha?: string | undefined },
  client: Client,
): Promise<RecoveryCodes> {
  return guarded(deps, user, input, client, async (tx) => {
    const codes = await replaceRecoveryCodes(tx, user.id);
    await recordAudit(tx, {
      kind: 'auth.recovery_codes_generated',
      organizationId: null,
      actor: actorOf(user),
      summary: 'Generated ten new recovery codes (the old ones no longer work)',
      ...client,
    });
    return { recovery_codes: codes };
  });
}

// ---------------------------------------------------------------------------------------------
// The organization's policy, and resets

/** The policy and who among the organization's members has a second factor (an authenticator app or a passkey). */
export async function organizationTwoFactor(deps: Deps, orgId: number): Promise<TwoFactorMembers> {
  const [org] = await deps.db
    .select({ required: organizations.require_two_factor })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  const rows = await deps.db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      since: userTotp.confirmed_at,
      // A passkey is a second factor too (it is both at once).
      passkeys: sql<number>`(select count(*)::int from ${passkeys} where ${passkeys.user_id} = ${users.id})`,
    })
    .from(permissions)
    .innerJoin(users, eq(users.id, permissions.user_id))
    .leftJoin(userTotp, and(eq(userTotp.user_id, users.id), isNotNull(userTotp.confirmed_at)))
    .where(eq(permissions.org_id, orgId))
    .orderBy(asc(users.email));
  return {
    require_two_factor: org?.required ?? false,
    members: rows.map((r) => ({
      user_id: r.id,
      email: r.email,
      name: displayName(r),
      two_factor: r.since !== null || Number(r.passkeys) > 0,
    })),
  };
}

export const policyMessages = {
  ownFirst: 'Set up two-factor sign-in for your own account first (Security, on your account page).',
} as const;

export async function setTwoFactorPolicy(
  deps: Deps,
  user: AuthUser,
  orgId: number,
  input: TwoFactorPolicy,
  client: Client,
): Promise<TwoFactorMembers> {
  // Requiring it without having it would shut the admin out of the settings they just saved.
  if (input.require_two_factor && !hasSecondFactor(sessionOf(user).factors))
    throw new HttpError(409, policyMessages.ownFirst);
  await deps.db.transaction(async (tx) => {
    const [before] = await tx
      .select({ required: organizations.require_two_factor })
      .from(organizations)
      .where(eq(organizations.id, orgId))
      .for('update');
    if (!before || before.required === input.require_two_factor) return;
    await tx
      .update(organizations)
      .set({ require_two_factor: input.require_two_factor })
      .where(eq(organizations.id, orgId));
    await recordAudit(tx, {
      kind: 'organization.two_factor_policy',
      organizationId: orgId,
      actor: actorOf(user),
      summary: input.require_two_factor
        ? 'Required two-factor sign-in for everyone with access'
        : 'Stopped requiring two-factor sign-in',
      details: { require_two_factor: input.require_two_factor },
      ...client,
    });
  });
  return organizationTwoFactor(deps, orgId);
}

/**
 * Resets a member's second factor: their authenticator app and recovery codes are removed, their
 * sessions end, and they are told by email. `orgId`: an admin of that organization acting on one
 * of its members (or of its chapters'); null: a super user acting on anyone.
 */
export async function resetTwoFactor(
  deps: Deps,
  actor: AuthUser,
  targetId: number,
  orgId: number | null,
  client: Client,
): Promise<{ message: string }> {
  const [target] = await deps.db.select().from(users).where(eq(users.id, targetId));
  if (!target) throw new HttpError(404, twoFactorMessages.userNotFound);
  let organization: string | null = null;
  if (orgId !== null) {
    const orgs = [orgId, ...(await descendantIds(deps.db, orgId))];
    const [member] = await deps.db
      .select({ id: permissions.id })
      .from(permissions)
      .where(and(eq(permissions.user_id, targetId), inArray(permissions.org_id, orgs)))
      .limit(1);
    // As for a missing user: an admin learns nothing of accounts outside their organization.
    if (!member) throw new HttpError(404, twoFactorMessages.userNotFound);
    const [org] = await deps.db
      .select({ name: organizations.name })
      .from(organizations)
      .where(eq(organizations.id, orgId));
    organization = org?.name ?? null;
  }
  await deps.db.transaction(async (tx) => {
    const removed = await tx.delete(userTotp).where(eq(userTotp.user_id, targetId)).returning();
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.user_id, targetId));
    // A passkey is a second factor too: a reset removes them all.
    const passkeysRemoved = await tx
      .delete(passkeys)
      .where(eq(passkeys.user_id, targetId))
      .returning({ id: passkeys.id });
    const ended = await endUserSessions(tx, targetId, 'two_factor_reset');
    await recordAudit(tx, {
      kind: 'auth.two_factor_reset',
      organizationId: orgId,
      actor: actorOf(actor),
      subjectUserId: targetId,
      summary: `Reset the two-factor sign-in of ${target.email}`,
      details: {
        had_authenticator_app: removed.some((r) => r.confirmed_at !== null),
        passkeys_removed: passkeysRemoved.length,
        sessions_ended: ended,
      },
      ...client,
    });
    await enqueueMail(
      tx,
      await twoFactorResetMail({
        to: target.email,
        name: displayName(target),
        supportEmail: deps.config.supportEmail,
        by: displayName(actor),
        organization,
        url: `${deps.config.publicUrl}/portal/login`,
      }),
    );
  });
  return { message: `Two-factor sign-in was reset for ${target.email}.` };
}

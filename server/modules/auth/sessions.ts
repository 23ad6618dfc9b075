import { randomBytes } from 'node:crypto';
import Bowser from 'bowser';
import { and, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { type SessionFactor, type SessionMethod, userSessions, users } from '../../db/schema.ts';

/**
 * Staff sessions as records (issue #24). Every access token carries its session's id (`sid`);
 * `verifyToken` looks the row up, so a session ended here is refused on the next request, on every
 * route. This module is the only writer of `user_sessions`.
 */

/** Why a session ended, as stored in `end_reason`. */
export type EndReason =
  | 'signed_out'
  | 'ended_by_user'
  | 'password_reset'
  | 'access_changed'
  | 'two_factor_reset'
  | 'account_disarmed';

/** What a session proved and where it came from, as the router and the policy read it. */
export type SessionInfo = {
  id: string;
  method: SessionMethod;
  factors: SessionFactor[];
  ssoOrganizationId: number | null;
};

/** How someone signed in, for `session()` in auth.service.ts. */
export type SignIn = {
  method: SessionMethod;
  /** The proofs passed; defaults to the method alone. */
  factors?: SessionFactor[];
  /** 'sso': the organization whose single sign-on vouched for the user. */
  ssoOrganizationId?: number | null;
  /** The client, for the account page's list (omitted by callers without a request). */
  ip?: string | null;
  userAgent?: string | null;
};

/** The factors that count as a second factor (a passkey is both at once). */
export const secondFactors: readonly SessionFactor[] = ['totp', 'recovery_code', 'passkey'];
export const hasSecondFactor = (factors: readonly SessionFactor[]) =>
  factors.some((f) => secondFactors.includes(f));

/**
 * `last_seen_at` is written when the stored one is older than this, or the address changed, so a
 * busy session does not write its row on every request (as API keys' `last_used_at`).
 */
export const lastSeenResolutionMs = 60_000;

/** "Chrome 131 on macOS", or '' when the agent says nothing readable. */
export function describeDevice(userAgent: string | null | undefined): string {
  if (!userAgent) return '';
  const parsed = Bowser.parse(userAgent);
  const browser = [parsed.browser.name, parsed.browser.version?.split('.')[0]].filter(Boolean).join(' ');
  const os = parsed.os.name ?? '';
  if (browser && os) return `${browser} on ${os}`;
  return browser || os;
}

/** Opens a session row and returns its id, for the token's `sid`. */
export async function openSession(
  tx: Queryable,
  userId: number,
  how: SignIn,
  lifetimeSeconds: number,
): Promise<SessionInfo> {
  const id = randomBytes(16).toString('base64url');
  const factors = how.factors ?? [how.method];
  const userAgent = how.userAgent?.slice(0, 400) ?? null;
  await tx.insert(userSessions).values({
    id,
    user_id: userId,
    expires_at: new Date(Date.now() + lifetimeSeconds * 1000),
    ip_address: how.ip ?? null,
    user_agent: userAgent,
    device: describeDevice(userAgent),
    method: how.method,
    factors,
    sso_organization_id: how.ssoOrganizationId ?? null,
  });
  return { id, method: how.method, factors, ssoOrganizationId: how.ssoOrganizationId ?? null };
}

/** A live session and its user, as `verifyToken` needs them; one statement per request. */
export type LiveSession = SessionInfo & {
  userId: number;
  email: string;
  name: string | null;
  globalPermission: boolean;
  createdAt: Date;
  lastSeenAt: Date;
  ipAddress: string | null;
  /**
   * Whether an organization this user holds a permission on requires two-factor sign-in and this
   * session does not satisfy it (no second factor, and not the SSO of that organization).
   */
  policyUnmet: boolean;
};

/**
 * The live (not ended, not expired) session `sid` of user `userId`, or undefined. The organization
 * policy is read in the same statement: every staff request asks this.
 */
export async function liveSession(
  db: Queryable,
  sid: string,
  userId: number,
): Promise<LiveSession | undefined> {
  const [row] = await db
    .select({
      id: userSessions.id,
      method: userSessions.method,
      factors: userSessions.factors,
      ssoOrganizationId: userSessions.sso_organization_id,
      createdAt: userSessions.created_at,
      lastSeenAt: userSessions.last_seen_at,
      ipAddress: userSessions.ip_address,
      userId: users.id,
      email: users.email,
      name: users.name,
      globalPermission: users.global_permission,
      // An organization requires it of everyone with access: its own members and those of the
      // organizations above it (who reach its chapters).
      policyOrgs: sql<number[]>`array(
        with recursive reach(id, depth) as (
          select p.org_id, 0 from permissions p where p.user_id = ${users.id}
          union all
          select o.id, reach.depth + 1 from organizations o join reach on o.parent_id = reach.id
           where reach.depth < 8
        )
        select distinct o.id from reach join organizations o on o.id = reach.id
         where o.require_two_factor)`,
    })
    .from(userSessions)
    .innerJoin(users, eq(users.id, userSessions.user_id))
    .where(
      and(
        eq(userSessions.id, sid),
        eq(userSessions.user_id, userId),
        isNull(userSessions.ended_at),
        gt(userSessions.expires_at, sql`now()`),
      ),
    );
  if (!row) return undefined;
  const { policyOrgs, ...rest } = row;
  const orgs = (policyOrgs ?? []).map(Number);
  const policyUnmet =
    !hasSecondFactor(row.factors) &&
    orgs.some((org) => !(row.method === 'sso' && row.ssoOrganizationId === org));
  return { ...rest, policyUnmet };
}

/**
 * Whether the session must still pass a second factor before anything but the account page: an
 * organization of the user requires it (`policyUnmet`), or the user is a super user on a server
 * other machines can reach (HOST not loopback: config.exposed).
 */
export function secondFactorMissing(session: LiveSession, exposed: boolean): boolean {
  return session.policyUnmet || (session.globalPermission && exposed && !hasSecondFactor(session.factors));
}

/** Records that the session was used, at most once a minute or when its address changes. */
export async function touchSession(db: Queryable, session: LiveSession, ip: string): Promise<void> {
  const stale = Date.now() - session.lastSeenAt.getTime() >= lastSeenResolutionMs;
  if (!stale && session.ipAddress === ip) return;
  await db
    .update(userSessions)
    .set({ last_seen_at: sql`now()`, ip_address: ip })
    .where(eq(userSessions.id, session.id));
}

/** Adds a factor to a live session (a code confirmed while enrolling an authenticator app). */
export async function addSessionFactor(tx: Queryable, sid: string, factor: SessionFactor): Promise<void> {
  await tx
    .update(userSessions)
    .set({
      factors: sql`(select jsonb_agg(distinct f) from jsonb_array_elements(${userSessions.factors} || ${JSON.stringify([factor])}::jsonb) f)`,
    })
    .where(eq(userSessions.id, sid));
}

/**
 * Ends every live session of a user (or all but `except`): a password reset, a removal from an
 * organization, a demotion, a second factor reset. Call it in the change's transaction.
 */
export async function endUserSessions(
  tx: Queryable,
  userId: number,
  reason: EndReason,
  except?: string,
): Promise<number> {
  const ended = await tx
    .update(userSessions)
    .set({ ended_at: sql`now()`, end_reason: reason })
    .where(
      and(
        eq(userSessions.user_id, userId),
        isNull(userSessions.ended_at),
        except ? ne(userSessions.id, except) : undefined,
      ),
    )
    .returning({ id: userSessions.id });
  return ended.length;
}

/** Ends one session of a user; false when it is not theirs or already ended. */
export async function endOneSession(
  tx: Queryable,
  userId: number,
  sid: string,
  reason: EndReason,
): Promise<boolean> {
  const ended = await tx
    .update(userSessions)
    .set({ ended_at: sql`now()`, end_reason: reason })
    .where(and(eq(userSessions.id, sid), eq(userSessions.user_id, userId), isNull(userSessions.ended_at)))
    .returning({ id: userSessions.id });
  return ended.length > 0;
}

/** A user's live sessions, most recently seen first. */
export async function listLiveSessions(db: Queryable, userId: number) {
  return db
    .select()
    .from(userSessions)
    .where(
      and(
        eq(userSessions.user_id, userId),
        isNull(userSessions.ended_at),
        gt(userSessions.expires_at, sql`now()`),
      ),
    )
    .orderBy(desc(userSessions.last_seen_at), desc(userSessions.created_at));
}

import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { errors, jwtVerify, SignJWT } from 'jose';
import * as z from 'zod/mini';
import type { Queryable } from '../../db/client.ts';
import { oneTimeTokens, type TokenPurpose } from '../../db/schema.ts';
import { type LiveSession, liveSession } from './sessions.ts';

/**
 * Every token Twofold hands out, in one place. Each has a purpose, and a token of one purpose is
 * never accepted for another.
 *
 * - Signed tokens (JWT, HS256, nothing stored): 'access' (a staff session, the bearer token),
 *   'donor-session' (a donor's session after their link) and
 *   'csv-link' (a five-minute link to one organization's CSV export). The purpose travels in the
 *   `purpose` claim and is checked by `verifyToken`, the one place a signed token is accepted.
 *   'billing-link' is the same five-minute kind of link for one billing navigation (choose a
 *   plan, open the payment provider's portal), so the session token never travels in a URL.
 *   'esign-link' is a donor's signing link (one match, one link version; used once, see
 *   server/modules/esign/esign.service.ts).
 * - One-time tokens (random, stored as their SHA-256, used once): 'magic_link', 'password_reset',
 *   'set_password' (a staff user's) and 'donor_link' (a donor's, naming one match and the email it
 *   was sent to). `issueToken` and `consumeToken` are the one way to create and use them.
 */

// ---------------------------------------------------------------------------------------------
// Signed tokens

export const signedPurposes = [
  'access',
  'donor-session',
  'csv-link',
  'esign-link',
  'billing-link',
  'second-factor',
] as const;
export type SignedPurpose = (typeof signedPurposes)[number];

/** spec is silent on the lifetime; a working day, so staff sign in about once a day. */
export const accessTokenLifetimeSeconds = 12 * 60 * 60;
/**
 * spec is silent; long enough to read and correct a match request, short because the link that
 * opened it was only proof of the mailbox at that moment.
 */
export const donorTokenLifetimeSeconds = 2 * 60 * 60;
/** A download link is good for five minutes: long enough to open, too short to pass around. */
export const csvTokenLifetimeSeconds = 5 * 60;
/**
 * A donor's signing link ('esign-link', subject: the match, data.v: the link's version). The
 * token stays verifiable this long so an expired or used link can still ask for a new one; the
 * link itself opens the form only while its match's record says it is the current version, unused
 * and within its own expiry (server/modules/esign: 14 days).
 */
export const esignTokenLifetimeSeconds = 180 * 24 * 60 * 60;

const lifetimes: Record<SignedPurpose, number> = {
  access: accessTokenLifetimeSeconds,
  'donor-session': donorTokenLifetimeSeconds,
  'csv-link': csvTokenLifetimeSeconds,
  'esign-link': esignTokenLifetimeSeconds,
  'billing-link': csvTokenLifetimeSeconds,
  'second-factor': 5 * 60,
};

/** Who a signed token is for: a staff user's id ('access', 'csv-link') or a donor's email. */
const subjects: Record<SignedPurpose, z.ZodMiniType<string>> = {
  access: z.string().check(z.regex(/^[1-9][0-9]{0,9}$/)),
  'donor-session': z.string().check(z.minLength(3), z.maxLength(320)),
  'csv-link': z.string().check(z.regex(/^[1-9][0-9]{0,9}$/)),
  'esign-link': z.string().check(z.regex(/^[1-9][0-9]{0,9}$/)),
  'billing-link': z.string().check(z.regex(/^[1-9][0-9]{0,9}$/)),
  'second-factor': z.string().check(z.regex(/^[1-9][0-9]{0,9}$/)),
};

const Claims = z.object({
  purpose: z.enum(signedPurposes),
  sub: z.string(),
  exp: z.number(),
  iat: z.optional(z.number()),
  /** The organization a link is for ('csv-link'): the router refuses it on any other. */
  org: z.optional(z.number()),
  /** What the link stands for beyond its organization (the CSV's list filters). */
  data: z.optional(z.record(z.string(), z.unknown())),
  /** 'access': the session (a `user_sessions` row) the token belongs to. */
  sid: z.optional(z.string().check(z.minLength(16), z.maxLength(64))),
});

/** A signed token that passed every check. */
export type VerifiedToken = {
  purpose: SignedPurpose;
  subject: string;
  /** Issued at (seconds since the epoch). */
  issuedAt: number | undefined;
  expiresAt: number;
  org: number | undefined;
  data: Record<string, unknown>;
  /** 'access': the live session it belongs to, with its user and what it proved. */
  session: LiveSession | undefined;
};

const encoder = new TextEncoder();

/**
 * Signs a token for one purpose. Staff tokens carry the user id as subject, donor sessions the
 * donor's email (lowercased).
 */
export async function signToken(
  secret: string,
  purpose: SignedPurpose,
  subject: string | number,
  extra: { org?: number; data?: Record<string, unknown>; sid?: string } = {},
): Promise<string> {
  const sub = purpose === 'donor-session' ? String(subject).trim().toLowerCase() : String(subject);
  return new SignJWT({ purpose, ...extra })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(sub)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + lifetimes[purpose])
    .sign(encoder.encode(secret));
}

/**
 * A staff session's bearer token, naming its `user_sessions` row (server/modules/auth/sessions.ts):
 * it stays good only while that row is live, so ending the session (signing out, the account
 * page, a password reset, a removal from an organization, a demotion) ends the token at once.
 */
export const signAccessToken = (secret: string, userId: number, sessionId: string) =>
  signToken(secret, 'access', userId, { sid: sessionId });
/** A donor session: opens only donor routes, which show the matches whose donor has that email. */
export const signDonorToken = (secret: string, email: string) => signToken(secret, 'donor-session', email);

/**
 * The one place a signed token is accepted: its signature, expiry, purpose and subject, or null
 * when any is wrong (forged, malformed, expired, or issued for another purpose). A session token
 * ('access') also needs its session live in the database (`db`): one ended since it was issued,
 * or a token naming none, is refused, so every route, bearer or `?token=`, gets that check.
 */
export async function verifyToken(
  secret: string,
  purpose: 'access',
  token: string,
  db: Queryable,
): Promise<VerifiedToken | null>;
export async function verifyToken(
  secret: string,
  purpose: SignedPurpose,
  token: string,
  db?: Queryable,
): Promise<VerifiedToken | null>;
export async function verifyToken(
  secret: string,
  purpose: SignedPurpose,
  token: string,
  db?: Queryable,
): Promise<VerifiedToken | null> {
  let payload: unknown;
  try {
    ({ payload } = await jwtVerify(token, encoder.encode(secret), { algorithms: ['HS256'] }));
  } catch (error) {
    // jose throws its own errors for every kind of bad token; anything else is a real fault.
    if (error instanceof errors.JOSEError || error instanceof TypeError) return null;
    throw error;
  }
  const claims = z.safeParse(Claims, payload);
  if (!claims.success || claims.data.purpose !== purpose) return null;
  if (!z.safeParse(subjects[purpose], claims.data.sub).success) return null;
  let session: LiveSession | undefined;
  if (purpose === 'access') {
    if (!db) throw new Error('verifyToken: a session token is checked against the database');
    if (!claims.data.sid) return null;
    session = await liveSession(db, claims.data.sid, Number(claims.data.sub));
    if (!session) return null;
  }
  return {
    purpose,
    subject: claims.data.sub,
    issuedAt: claims.data.iat,
    expiresAt: claims.data.exp,
    org: claims.data.org,
    data: claims.data.data ?? {},
    session,
  };
}

// ---------------------------------------------------------------------------------------------
// One-time tokens

/** What the database keeps of a one-time token: its SHA-256, never the token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** What a donor link stands for: one match, and the donor email it was sent to (lowercased). */
export type DonorLink = { donationId: number; email: string };

type StaffPurpose = Exclude<TokenPurpose, 'donor_link'>;
/** A staff purpose's token belongs to a user; a donor link to a match and an email. */
type OwnerOf<P extends TokenPurpose> = P extends 'donor_link' ? DonorLink : number;
type UsedToken<P extends TokenPurpose> = P extends 'donor_link'
  ? DonorLink
  : { userId: number; data: Record<string, unknown> };

/**
 * Creates a one-time token (32 random bytes, base64url) for a purpose and stores its hash.
 * Returns the token, which the caller puts in an email in the same transaction.
 */
export async function issueToken<P extends TokenPurpose>(
  tx: Queryable,
  purpose: P,
  owner: OwnerOf<P>,
  lifetimeMs: number,
  data: Record<string, unknown> = {},
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const donor = typeof owner === 'object' ? (owner as DonorLink) : undefined;
  await tx.insert(oneTimeTokens).values({
    purpose,
    user_id: donor ? null : (owner as number),
    token_hash: hashToken(token),
    expires_at: new Date(Date.now() + lifetimeMs),
    data: donor ? { ...data, donation_id: donor.donationId, email: donor.email } : data,
  });
  return token;
}

/**
 * Uses a token of a purpose: marks it used and returns what it stands for, or null when it is
 * unknown, used, expired or for another purpose. One conditional UPDATE, so two concurrent uses
 * cannot both win.
 */
export async function consumeToken<P extends TokenPurpose>(
  tx: Queryable,
  purpose: P,
  token: string,
): Promise<UsedToken<P> | null> {
  const [row] = await tx
    .update(oneTimeTokens)
    .set({ used_at: sql`now()` })
    .where(
      and(
        eq(oneTimeTokens.token_hash, hashToken(token)),
        eq(oneTimeTokens.purpose, purpose),
        isNull(oneTimeTokens.used_at),
        gt(oneTimeTokens.expires_at, sql`now()`),
      ),
    )
    .returning({ userId: oneTimeTokens.user_id, data: oneTimeTokens.data });
  if (!row) return null;
  if (purpose === 'donor_link') {
    const donationId = row.data.donation_id;
    const email = row.data.email;
    if (typeof donationId !== 'number' || typeof email !== 'string') return null;
    return { donationId, email } as UsedToken<P>;
  }
  // Staff purposes always carry a user (a check constraint); a row without one is not theirs.
  return row.userId === null ? null : ({ userId: row.userId, data: row.data } as UsedToken<P>);
}

/** Retires every outstanding token of a purpose for a user (e.g. other reset links after a reset). */
export async function retireTokens(tx: Queryable, purpose: StaffPurpose, userId: number): Promise<void> {
  await tx
    .update(oneTimeTokens)
    .set({ used_at: sql`now()` })
    .where(
      and(
        eq(oneTimeTokens.user_id, userId),
        eq(oneTimeTokens.purpose, purpose),
        isNull(oneTimeTokens.used_at),
      ),
    );
}

import { createHash } from 'node:crypto';
import {
  type AuthenticatorTransport,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { LoginResponse } from '../../../src/contract/auth.ts';
import {
  type Passkey,
  type PasskeyList,
  type PasskeyOptions,
  type PasskeyRegisterRequest,
  type PasskeySignInRequest,
  passkeyMessages,
} from '../../../src/contract/passkeys.ts';
import type { Queryable } from '../../db/client.ts';
import { passkeys, users, webauthnChallenges } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { AuthUser, Deps } from '../../http/route.ts';
import { recordAudit } from '../audit/audit.ts';
import { normalizeEmail, session } from '../auth/auth.service.ts';
import { addSessionFactor } from '../auth/sessions.ts';
import { refuseWhereSsoRequired } from '../sso/sso-policy.ts';

/** spec is silent; long enough to touch a security key or unlock a phone, short enough to be useless later. */
export const challengeLifetimeMs = 5 * 60 * 1000;

/** The relying party: its id is PUBLIC_URL's host name, its one origin PUBLIC_URL's origin. */
export function relyingParty(publicUrl: string) {
  const url = new URL(publicUrl);
  return { id: url.hostname, origin: url.origin, name: 'Twofold' };
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** Where the request came from, for the audit entry. */
export type RequestFacts = { ip: string; userAgent: string | undefined };

async function storeChallenge(
  db: Queryable,
  purpose: 'register' | 'authenticate',
  challenge: string,
  userId: number | null,
) {
  await db.insert(webauthnChallenges).values({
    purpose,
    user_id: userId,
    challenge_hash: sha256(challenge),
    expires_at: new Date(Date.now() + challengeLifetimeMs),
  });
  // Spent and stale challenges of everyone go with each new one: the table stays small.
  await db
    .delete(webauthnChallenges)
    .where(sql`${webauthnChallenges.expires_at} < now() - interval '1 hour'`);
}

/**
 * Uses a challenge once: true when it was handed out for this purpose (and this user, when
 * registering), is unused and unexpired. One conditional UPDATE, so a replay never wins twice.
 */
async function consumeChallenge(
  db: Queryable,
  purpose: 'register' | 'authenticate',
  challenge: string,
  userId: number | null,
): Promise<boolean> {
  const rows = await db
    .update(webauthnChallenges)
    .set({ used_at: sql`now()` })
    .where(
      and(
        eq(webauthnChallenges.challenge_hash, sha256(challenge)),
        eq(webauthnChallenges.purpose, purpose),
        userId === null ? isNull(webauthnChallenges.user_id) : eq(webauthnChallenges.user_id, userId),
        isNull(webauthnChallenges.used_at),
        gt(webauthnChallenges.expires_at, sql`now()`),
      ),
    )
    .returning({ id: webauthnChallenges.id });
  return rows.length === 1;
}

const toPasskey = (row: typeof passkeys.$inferSelect): Passkey => ({
  id: row.id,
  name: row.name,
  synced: row.device_type === 'multiDevice',
  created_at: row.created_at.toISOString(),
  last_used_at: row.last_used_at?.toISOString() ?? null,
});

export async function listPasskeys(db: Queryable, userId: number): Promise<PasskeyList> {
  const rows = await db
    .select()
    .from(passkeys)
    .where(eq(passkeys.user_id, userId))
    .orderBy(asc(passkeys.created_at), asc(passkeys.id));
  return { passkeys: rows.map(toPasskey) };
}

/** Options for adding a passkey: a discoverable credential, never one the user already has. */
export async function registrationOptions(deps: Deps, user: AuthUser): Promise<PasskeyOptions> {
  const rp = relyingParty(deps.config.publicUrl);
  const existing = await deps.db
    .select({ id: passkeys.credential_id, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.user_id, user.id));
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userDisplayName: user.name?.trim() || user.email,
    // The authenticator keeps this handle with the passkey; the user's id, never their email.
    userID: new TextEncoder().encode(`twofold:${user.id}`),
    attestationType: 'none',
    excludeCredentials: existing.map((c) => ({
      id: c.id,
      transports: c.transports as AuthenticatorTransport[],
    })),
    // Discoverable, so the passkey alone signs in (no email typed); verified, so it is both factors.
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  await storeChallenge(deps.db, 'register', options.challenge, user.id);
  return options as unknown as PasskeyOptions;
}

/** Default name of a new passkey, when the user gives none: "Passkey 2". */
async function defaultName(db: Queryable, userId: number): Promise<string> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(passkeys)
    .where(eq(passkeys.user_id, userId));
  return `Passkey ${(row?.n ?? 0) + 1}`;
}

export async function registerPasskey(
  deps: Deps,
  user: AuthUser,
  input: PasskeyRegisterRequest,
  facts: RequestFacts,
): Promise<Passkey> {
  const rp = relyingParty(deps.config.publicUrl);
  const challenge = await spendChallenge(
    deps.db,
    'register',
    input.credential.response.clientDataJSON,
    user.id,
  );
  return deps.db.transaction(async (tx) => {
    let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verification = await verifyRegistrationResponse({
        response: input.credential,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        requireUserVerification: true,
      });
    } catch (error) {
      throw refusal(error, passkeyMessages.registrationFailed);
    }
    const info = verification.registrationInfo;
    if (!verification.verified || !info) throw new HttpError(400, passkeyMessages.registrationFailed);
    const [taken] = await tx
      .select({ id: passkeys.id })
      .from(passkeys)
      .where(eq(passkeys.credential_id, info.credential.id));
    if (taken) throw new HttpError(409, passkeyMessages.alreadyRegistered);
    const [row] = await tx
      .insert(passkeys)
      .values({
        user_id: user.id,
        credential_id: info.credential.id,
        public_key: Buffer.from(info.credential.publicKey).toString('base64url'),
        counter: info.credential.counter,
        transports: input.credential.response.transports ?? [],
        name: input.name ?? (await defaultName(tx, user.id)),
        device_type: info.credentialDeviceType,
        backed_up: info.credentialBackedUp,
      })
      .returning();
    if (!row) throw new Error('insert returned no row');
    await recordAudit(tx, {
      kind: 'auth.passkey_added',
      organizationId: null,
      actor: { kind: 'user', userId: user.id, email: user.email },
      summary: `Added the passkey “${row.name}”`,
      details: { passkey_id: row.id, name: row.name, synced: row.device_type === 'multiDevice' },
      ip: facts.ip,
      userAgent: facts.userAgent ?? null,
    });
    // As a confirmed authenticator app does: the session that added it (user verified) has now
    // shown a second factor, so an organization's two-factor requirement is met from here on.
    if (user.session) await addSessionFactor(tx, user.session.id, 'passkey');
    return toPasskey(row);
  });
}

/** A refusal from the library (bad challenge, origin, signature) as a 400 the user can act on. */
function refusal(error: unknown, fallback: string): HttpError {
  if (error instanceof HttpError) return error;
  const text = error instanceof Error ? error.message : '';
  // The library names a challenge it did not expect; ours are single-use and short-lived.
  if (/challenge/i.test(text)) return new HttpError(400, passkeyMessages.challengeInvalid);
  return new HttpError(400, fallback);
}

export async function renamePasskey(
  db: Queryable,
  userId: number,
  id: number,
  name: string,
): Promise<Passkey> {
  const [row] = await db
    .update(passkeys)
    .set({ name })
    .where(and(eq(passkeys.id, id), eq(passkeys.user_id, userId)))
    .returning();
  if (!row) throw new HttpError(404, passkeyMessages.notFound);
  return toPasskey(row);
}

/** Removes one of the caller's own passkeys; someone else's answers as a missing one does. */
export async function removePasskey(
  deps: Deps,
  user: AuthUser,
  id: number,
  facts: RequestFacts,
): Promise<PasskeyList> {
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(passkeys)
      .where(and(eq(passkeys.id, id), eq(passkeys.user_id, user.id)))
      .returning();
    if (!row) throw new HttpError(404, passkeyMessages.notFound);
    await recordAudit(tx, {
      kind: 'auth.passkey_removed',
      organizationId: null,
      actor: { kind: 'user', userId: user.id, email: user.email },
      summary: `Removed the passkey “${row.name}”`,
      details: { passkey_id: row.id, name: row.name },
      ip: facts.ip,
      userAgent: facts.userAgent ?? null,
    });
  });
  return listPasskeys(deps.db, user.id);
}

/**
 * Options for signing in. With an email, the authenticator is asked for that account's passkeys;
 * without one (or for an address with none), for any passkey it holds for Twofold.
 */
export async function signInOptions(deps: Deps, email: string | undefined): Promise<PasskeyOptions> {
  const rp = relyingParty(deps.config.publicUrl);
  const allow = email
    ? await deps.db
        .select({ id: passkeys.credential_id, transports: passkeys.transports })
        .from(passkeys)
        .innerJoin(users, eq(users.id, passkeys.user_id))
        .where(eq(users.email, normalizeEmail(email)))
    : [];
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: 'required',
    allowCredentials: allow.map((c) => ({ id: c.id, transports: c.transports as AuthenticatorTransport[] })),
  });
  await storeChallenge(deps.db, 'authenticate', options.challenge, null);
  return options as unknown as PasskeyOptions;
}

/**
 * Signs in with a passkey alone: the challenge is used once, the signature checked against the
 * stored public key, the counter must move forward (a cloned authenticator shows an old one), and
 * user verification (PIN, fingerprint) is required, so the passkey is both factors.
 */
export async function signInWithPasskey(
  deps: Deps,
  input: PasskeySignInRequest,
  facts: RequestFacts,
): Promise<LoginResponse> {
  const rp = relyingParty(deps.config.publicUrl);
  const challenge = await spendChallenge(
    deps.db,
    'authenticate',
    input.credential.response.clientDataJSON,
    null,
  );
  const userId = await deps.db.transaction(async (tx) => {
    const [stored] = await tx
      .select({ passkey: passkeys, email: users.email })
      .from(passkeys)
      .innerJoin(users, eq(users.id, passkeys.user_id))
      .where(eq(passkeys.credential_id, input.credential.id));
    if (!stored) throw new HttpError(401, passkeyMessages.signInFailed);
    let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
    try {
      verification = await verifyAuthenticationResponse({
        response: input.credential,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        credential: {
          id: stored.passkey.credential_id,
          publicKey: Buffer.from(stored.passkey.public_key, 'base64url'),
          counter: stored.passkey.counter,
          transports: stored.passkey.transports as AuthenticatorTransport[],
        },
        requireUserVerification: true,
      });
    } catch (error) {
      const refused = refusal(error, passkeyMessages.signInFailed);
      throw refused.message === passkeyMessages.signInFailed ? new HttpError(401, refused.message) : refused;
    }
    if (!verification.verified) throw new HttpError(401, passkeyMessages.signInFailed);
    await refuseWhereSsoRequired(tx, stored.email);
    await tx
      .update(passkeys)
      .set({ counter: verification.authenticationInfo.newCounter, last_used_at: sql`now()` })
      .where(eq(passkeys.id, stored.passkey.id));
    return stored.passkey.user_id;
  });
  // session() records the sign-in, with its method and factor.
  return session(deps, userId, {
    method: 'passkey',
    factors: ['passkey'],
    ip: facts.ip,
    userAgent: facts.userAgent ?? null,
  });
}

/**
 * Spends the challenge the client says it answered (clientDataJSON's), before anything else is
 * checked and in its own statement, so a refused attempt spends it too and it never works twice.
 * The library then checks that the signed data carries exactly this challenge.
 */
async function spendChallenge(
  db: Queryable,
  purpose: 'register' | 'authenticate',
  clientDataJSON: string,
  userId: number | null,
): Promise<string> {
  const challenge = challengeOf(clientDataJSON);
  if (!challenge || !(await consumeChallenge(db, purpose, challenge, userId)))
    throw new HttpError(400, passkeyMessages.challengeInvalid);
  return challenge;
}

/** The challenge a client says it signed (clientDataJSON's `challenge`), or undefined. */
function challengeOf(clientDataJSON: string): string | undefined {
  try {
    const data: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
    return data && typeof data === 'object' && 'challenge' in data && typeof data.challenge === 'string'
      ? data.challenge
      : undefined;
  } catch {
    return undefined;
  }
}

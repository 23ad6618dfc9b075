import { errors, jwtVerify, SignJWT } from 'jose';
import * as z from 'zod/mini';
import { TokenClaims } from '../../src/contract/auth.ts';

/** spec is silent on the lifetime; a working day, so staff sign in about once a day. */
export const accessTokenLifetimeSeconds = 12 * 60 * 60;

const encoder = new TextEncoder();

/**
 * Signs a staff access token (HS256) carrying the user id as `sub`, `exp`, and the user's session
 * version (`ver`), which `isCurrentSession` compares with the stored one.
 */
export async function signAccessToken(secret: string, userId: number, sessionVersion = 0): Promise<string> {
  return new SignJWT({ kind: 'staff', ver: sessionVersion })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(userId))
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + accessTokenLifetimeSeconds)
    .sign(encoder.encode(secret));
}

/**
 * spec is silent; long enough to read and correct a match request, short because the link that
 * opened it was only proof of the mailbox at that moment.
 */
export const donorTokenLifetimeSeconds = 2 * 60 * 60;

/**
 * Signs a donor session token: kind 'donor', the donor's email (lowercased) as `sub`. It opens
 * only donor routes, which show the matches whose donor has that email.
 */
export async function signDonorToken(secret: string, email: string): Promise<string> {
  return new SignJWT({ kind: 'donor' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(email.trim().toLowerCase())
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + donorTokenLifetimeSeconds)
    .sign(encoder.encode(secret));
}

/** The token's claims, or null when it is forged, malformed or expired. */
export async function verifyAccessToken(secret: string, token: string): Promise<TokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, encoder.encode(secret), { algorithms: ['HS256'] });
    const claims = z.safeParse(TokenClaims, payload);
    return claims.success ? claims.data : null;
  } catch (error) {
    // jose throws its own errors for every kind of bad token; anything else is a real fault.
    if (error instanceof errors.JOSEError || error instanceof TypeError) return null;
    throw error;
  }
}

/**
 * A staff token stays good only while its user's session version is the one it was issued at: a
 * password reset, a removal from an organization or a demotion raises the version and so ends
 * every older session at once. Tokens from before versions existed count as version 0.
 */
export function isCurrentSession(claims: TokenClaims, sessionVersion: number): boolean {
  return (claims.ver ?? 0) === sessionVersion;
}

import { hkdfSync } from 'node:crypto';
import { createChallenge, verifySolution } from 'altcha-lib/v1';
import { lt, sql } from 'drizzle-orm';
import * as z from 'zod/mini';
import { type CaptchaChallenge, CaptchaPayload } from '../../../src/contract/public.ts';
import type { Queryable } from '../../db/client.ts';
import { usedCaptchas } from '../../db/schema.ts';

/** A challenge must be solved and sent within this time. */
export const challengeLifetimeMs = 10 * 60 * 1000;
/** Solving tries up to this many hashes: well under a second in a browser, costly in bulk. */
export const challengeMaxNumber = 50_000;

/** ALTCHA's HMAC key, derived from the server secret for this purpose only. */
export function captchaKey(secret: string): string {
  return Buffer.from(hkdfSync('sha256', secret, 'twofold', 'altcha-challenge', 32)).toString('hex');
}

export async function newChallenge(secret: string): Promise<CaptchaChallenge> {
  const challenge = await createChallenge({
    hmacKey: captchaKey(secret),
    maxnumber: challengeMaxNumber,
    expires: new Date(Date.now() + challengeLifetimeMs),
  });
  return {
    algorithm: challenge.algorithm as CaptchaChallenge['algorithm'],
    challenge: challenge.challenge,
    maxnumber: challenge.maxnumber ?? challengeMaxNumber,
    salt: challenge.salt,
    signature: challenge.signature,
  };
}

/** The decoded `recaptchaToken`: base64 of the JSON solution, or undefined when it is not one. */
export function decodeSolution(token: string): CaptchaPayload | undefined {
  try {
    const parsed = z.safeParse(CaptchaPayload, JSON.parse(Buffer.from(token, 'base64').toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Checks a solution (signed by us, solved, not expired) and spends it: a challenge is accepted
 * once. Call inside the transaction of what the captcha protects, so a failure spends nothing.
 */
export async function spendSolution(tx: Queryable, secret: string, token: string): Promise<boolean> {
  const payload = decodeSolution(token);
  if (!payload) return false;
  if (!(await verifySolution(payload, captchaKey(secret), true))) return false;
  // The expiry is part of the signed salt; verifySolution has checked it is in the future.
  const expires = Number(new URLSearchParams(payload.salt.split('?')[1] ?? '').get('expires'));
  if (!Number.isFinite(expires) || expires <= 0) return false;
  await tx.delete(usedCaptchas).where(lt(usedCaptchas.expires_at, sql`now()`));
  const spent = await tx
    .insert(usedCaptchas)
    .values({ signature: payload.signature, expires_at: new Date(expires * 1000) })
    .onConflictDoNothing()
    .returning({ signature: usedCaptchas.signature });
  return spent.length === 1;
}

import { createHash, randomInt } from 'node:crypto';
import { and, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { seal, unseal } from '../../crypto/sealed.ts';
import type { Queryable } from '../../db/client.ts';
import { recoveryCodes, userTotp } from '../../db/schema.ts';

/**
 * Authenticator apps (TOTP, RFC 6238: SHA-1, 6 digits, 30-second steps, the otpauth library) and
 * recovery codes (issue #24). A code is accepted within one step either side of now, and only for a
 * step later than the last one accepted for the user (`user_totp.last_used_step`, moved forward by
 * one conditional UPDATE), so each code works once, whichever server process sees it.
 */

const issuer = 'Twofold';
const period = 30;
const sealPurpose = 'totp';
const sealContext = (userId: number) => `user_totp:${userId}`;

function totpFor(secret: string, label: string): TOTP {
  return new TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period, secret: Secret.fromBase32(secret) });
}

/** A new seed (160 bits, as RFC 4226 recommends), base32 as authenticator apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export const sealTotpSecret = (jwtSecret: string, userId: number, secret: string) =>
  seal(jwtSecret, sealPurpose, sealContext(userId), secret);
export const unsealTotpSecret = (jwtSecret: string, userId: number, sealed: string) =>
  unseal(jwtSecret, sealPurpose, sealContext(userId), sealed);

/** The otpauth:// URI and its QR code (an SVG document) for an authenticator app to scan. */
export async function enrolmentPicture(secret: string, email: string) {
  const otpauthUrl = totpFor(secret, email).toString();
  const qrSvg = await QRCode.toString(otpauthUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { otpauthUrl, qrSvg };
}

/** The time step a 6-digit code is valid for (now ± one step), or null. */
export function matchingStep(secret: string, code: string, now = Date.now()): number | null {
  const token = code.replace(/\s+/g, '');
  if (!/^[0-9]{6}$/.test(token)) return null;
  const delta = totpFor(secret, '').validate({ token, timestamp: now, window: 1 });
  if (delta === null) return null;
  return Math.floor(now / 1000 / period) + delta;
}

/**
 * Spends a code of the user's app: true when it is valid now and of a step later than the last one
 * accepted (which it becomes). `confirmed`: an enrolled app only, or (false) the pending enrolment.
 */
export async function spendTotpCode(
  tx: Queryable,
  jwtSecret: string,
  userId: number,
  code: string,
  confirmed: boolean,
): Promise<boolean> {
  const [row] = await tx
    .select()
    .from(userTotp)
    .where(
      and(
        eq(userTotp.user_id, userId),
        confirmed ? isNotNull(userTotp.confirmed_at) : isNull(userTotp.confirmed_at),
      ),
    );
  if (!row) return false;
  const step = matchingStep(unsealTotpSecret(jwtSecret, userId, row.secret_sealed), code);
  if (step === null) return false;
  const [spent] = await tx
    .update(userTotp)
    .set({ last_used_step: step })
    .where(
      and(
        eq(userTotp.user_id, userId),
        or(isNull(userTotp.last_used_step), lt(userTotp.last_used_step, step)),
      ),
    )
    .returning({ step: userTotp.last_used_step });
  return Boolean(spent);
}

// ---------------------------------------------------------------------------------------------
// Recovery codes

/** Lower-case letters and digits without the easily confused 0, o, 1, l, i. */
const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
export const recoveryCodeCount = 10;

/** xxxxx-xxxxx: ten characters of 31, about 50 bits: never guessed under the sign-in throttle. */
function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 10; i++) code += alphabet[randomInt(alphabet.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** What is compared: the letters and digits, lowercased (dashes and spaces as the user likes). */
function hashRecoveryCode(code: string): string {
  return createHash('sha256')
    .update(code.toLowerCase().replace(/[^a-z0-9]/g, ''))
    .digest('hex');
}

/** Replaces the user's recovery codes with ten new ones and returns them (shown once). */
export async function replaceRecoveryCodes(tx: Queryable, userId: number): Promise<string[]> {
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.user_id, userId));
  const codes = new Set<string>();
  while (codes.size < recoveryCodeCount) codes.add(newRecoveryCode());
  await tx
    .insert(recoveryCodes)
    .values([...codes].map((code) => ({ user_id: userId, code_hash: hashRecoveryCode(code) })));
  return [...codes];
}

/** Uses one recovery code: true once per code (one conditional UPDATE). */
export async function spendRecoveryCode(tx: Queryable, userId: number, code: string): Promise<boolean> {
  if (!/[a-z0-9]{10}/i.test(code.replace(/[^a-z0-9]/gi, ''))) return false;
  const spent = await tx
    .update(recoveryCodes)
    .set({ used_at: sql`now()` })
    .where(
      and(
        eq(recoveryCodes.user_id, userId),
        eq(recoveryCodes.code_hash, hashRecoveryCode(code)),
        isNull(recoveryCodes.used_at),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return spent.length > 0;
}

export async function recoveryCodesLeft(db: Queryable, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.user_id, userId), isNull(recoveryCodes.used_at)));
  return Number(row?.n ?? 0);
}

/** Whether the user has a confirmed authenticator app. */
export async function hasTotp(db: Queryable, userId: number): Promise<Date | null> {
  const [row] = await db
    .select({ since: userTotp.confirmed_at })
    .from(userTotp)
    .where(and(eq(userTotp.user_id, userId), isNotNull(userTotp.confirmed_at)));
  return row?.since ?? null;
}

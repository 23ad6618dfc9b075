import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { oneTimeTokens, type TokenPurpose } from '../../db/schema.ts';

/** What the database keeps of a one-time token: its SHA-256, never the token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Creates a one-time token (32 random bytes, base64url) and stores its hash. Returns the token,
 * which the caller puts in an email in the same transaction.
 */
export async function issueToken(
  tx: Queryable,
  purpose: TokenPurpose,
  userId: number,
  lifetimeMs: number,
  data: Record<string, unknown> = {},
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await tx.insert(oneTimeTokens).values({
    purpose,
    user_id: userId,
    token_hash: hashToken(token),
    expires_at: new Date(Date.now() + lifetimeMs),
    data,
  });
  return token;
}

/**
 * Uses a token: marks it used and returns its user and data, or null when it is unknown, used,
 * expired or for another purpose. One conditional UPDATE, so two concurrent uses cannot both win.
 */
export async function consumeToken(tx: Queryable, purpose: TokenPurpose, token: string) {
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
  // Staff purposes always carry a user (a check constraint); a row without one is not theirs.
  return row && row.userId !== null ? { userId: row.userId, data: row.data } : null;
}

/** What a donor link stands for: one match, and the donor email it was sent to (lowercased). */
export type DonorLink = { donationId: number; email: string };

/**
 * Creates a donor link token: like `issueToken`, but for a donor, who has no user row. The
 * match and the email it was sent to travel in the stored data.
 */
export async function issueDonorToken(tx: Queryable, link: DonorLink, lifetimeMs: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await tx.insert(oneTimeTokens).values({
    purpose: 'donor_link',
    user_id: null,
    token_hash: hashToken(token),
    expires_at: new Date(Date.now() + lifetimeMs),
    data: { donation_id: link.donationId, email: link.email },
  });
  return token;
}

/** Uses a donor link token once: its match and email, or null when unknown, used or expired. */
export async function consumeDonorToken(tx: Queryable, token: string): Promise<DonorLink | null> {
  const [row] = await tx
    .update(oneTimeTokens)
    .set({ used_at: sql`now()` })
    .where(
      and(
        eq(oneTimeTokens.token_hash, hashToken(token)),
        eq(oneTimeTokens.purpose, 'donor_link'),
        isNull(oneTimeTokens.used_at),
        gt(oneTimeTokens.expires_at, sql`now()`),
      ),
    )
    .returning({ data: oneTimeTokens.data });
  const donationId = row?.data.donation_id;
  const email = row?.data.email;
  if (typeof donationId !== 'number' || typeof email !== 'string') return null;
  return { donationId, email };
}

/** Retires every outstanding token of a purpose for a user (e.g. other reset links after a reset). */
export async function retireTokens(tx: Queryable, purpose: TokenPurpose, userId: number): Promise<void> {
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

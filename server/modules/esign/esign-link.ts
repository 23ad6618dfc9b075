import { eq } from 'drizzle-orm';
import { dayMs } from '../../clock.ts';
import type { Queryable } from '../../db/client.ts';
import { donations, esignDocuments } from '../../db/schema.ts';
import { signToken } from '../auth/tokens.ts';

/**
 * The donor's signing link (see esign.service.ts): made when the status's email is rendered
 * (server/modules/templates/donor-mail.ts), so it lives apart from the service that sends mail.
 */

/** spec is silent; two weeks to sign, like a typical e-signature request. */
export const signingLinkDays = 14;

const signPath = (publicUrl: string, token: string) => `${publicUrl}/sign/${token}`;

/** The match's signed-form record, made on first use, locked for the caller's transaction. */
export async function lockedRecord(tx: Queryable, donationId: number, organizationId: number) {
  await tx
    .insert(esignDocuments)
    .values({ donation_id: donationId, organization_id: organizationId })
    .onConflictDoNothing();
  const [record] = await tx
    .select()
    .from(esignDocuments)
    .where(eq(esignDocuments.donation_id, donationId))
    .for('update');
  if (!record) throw new Error('esign record missing after insert');
  return record;
}

/**
 * The signing link for a match's email, in the caller's transaction: the open one again (a
 * reminder repeats it), or a new version (the older one stops working), valid for 14 days.
 */
export async function signingLink(
  tx: Queryable,
  links: { publicUrl: string; jwtSecret: string },
  match: { id: number; organization_id: number },
  now: Date,
  options: { fresh?: boolean } = {},
): Promise<string> {
  const record = await lockedRecord(tx, match.id, match.organization_id);
  const [current] = await tx
    .select({ url: donations.adobe_sign_signing_url })
    .from(donations)
    .where(eq(donations.id, match.id));
  if (
    !options.fresh &&
    current?.url &&
    record.donor_signed_at === null &&
    record.link_expires_at !== null &&
    record.link_expires_at.getTime() > now.getTime()
  )
    return current.url;
  const version = record.link_version + 1;
  const token = await signToken(links.jwtSecret, 'esign-link', match.id, { data: { v: version } });
  const url = signPath(links.publicUrl, token);
  await tx
    .update(esignDocuments)
    .set({
      link_version: version,
      link_sent_at: now,
      link_expires_at: new Date(now.getTime() + signingLinkDays * dayMs),
      // A new request to sign voids an earlier signature (the match was sent back to the donor).
      donor_signed_at: null,
      countersigned_at: null,
      countersigned_by: null,
      file: null,
      file_sha256: null,
      audit: [],
      delivery_outbox_id: null,
      delivery_to: null,
      delivered_at: null,
      updated_at: now,
    })
    .where(eq(esignDocuments.id, record.id));
  await tx.update(donations).set({ adobe_sign_signing_url: url }).where(eq(donations.id, match.id));
  return url;
}

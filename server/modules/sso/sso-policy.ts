import { and, eq } from 'drizzle-orm';
import { ssoMessages } from '../../../src/contract/sso.ts';
import type { Queryable } from '../../db/client.ts';
import { ssoConnections, ssoDomains, users } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';

/** The part of an email address after the at-sign, lowercased. */
export function emailDomain(email: string): string {
  return email.trim().toLowerCase().split('@').pop() ?? '';
}

/** The single sign-on connection that vouches for an email's domain, if any. */
export async function connectionForEmail(db: Queryable, email: string) {
  const [row] = await db
    .select({ connection: ssoConnections })
    .from(ssoDomains)
    .innerJoin(ssoConnections, eq(ssoConnections.id, ssoDomains.connection_id))
    .where(eq(ssoDomains.domain, emailDomain(email)));
  return row?.connection;
}

/**
 * Refuses a password, magic-link or passkey sign-in where the email's domain belongs to a
 * connection that requires single sign-on (403, pointing to the provider's button). Super users
 * are Twofold's own operators, not the organization's staff: the rule never locks them out.
 */
export async function refuseWhereSsoRequired(db: Queryable, email: string): Promise<void> {
  const [row] = await db
    .select({ provider: ssoConnections.provider_name })
    .from(ssoDomains)
    .innerJoin(ssoConnections, eq(ssoConnections.id, ssoDomains.connection_id))
    .where(and(eq(ssoDomains.domain, emailDomain(email)), eq(ssoConnections.require_sso, true)));
  if (!row) return;
  const [user] = await db
    .select({ superUser: users.global_permission })
    .from(users)
    .where(eq(users.email, email.trim().toLowerCase()));
  if (user?.superUser) return;
  throw new HttpError(403, ssoMessages.required(row.provider));
}

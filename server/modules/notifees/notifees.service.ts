import { and, asc, eq } from 'drizzle-orm';
import type { Notifee } from '../../../src/contract/users.ts';
import type { Queryable } from '../../db/client.ts';
import { notifees } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { normalizeEmail } from '../auth/auth.service.ts';

export const notifeeMessages = {
  duplicate: 'That email already receives notifications.',
  notFound: 'Notification email not found',
} as const;

/** spec (part 1, section 3, Notifee): id, email; oldest first. */
export async function listNotifees(db: Queryable, orgId: number): Promise<{ notifees: Notifee[] }> {
  const rows = await db
    .select({ id: notifees.id, email: notifees.email })
    .from(notifees)
    .where(eq(notifees.org_id, orgId))
    .orderBy(asc(notifees.id));
  return { notifees: rows };
}

export async function addNotifee(
  db: Queryable,
  orgId: number,
  email: string,
): Promise<{ notifees: Notifee[] }> {
  const added = await db
    .insert(notifees)
    .values({ org_id: orgId, email: normalizeEmail(email) })
    .onConflictDoNothing()
    .returning({ id: notifees.id });
  if (added.length === 0) throw new HttpError(409, notifeeMessages.duplicate);
  return listNotifees(db, orgId);
}

export async function removeNotifee(
  db: Queryable,
  orgId: number,
  id: number,
): Promise<{ notifees: Notifee[] }> {
  const removed = await db
    .delete(notifees)
    .where(and(eq(notifees.id, id), eq(notifees.org_id, orgId)))
    .returning({ id: notifees.id });
  if (removed.length === 0) throw new HttpError(404, notifeeMessages.notFound);
  return listNotifees(db, orgId);
}

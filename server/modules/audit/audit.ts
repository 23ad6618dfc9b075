import type { AuditKind } from '../../../src/contract/audit.ts';
import type { Queryable } from '../../db/client.ts';
import { auditEvents } from '../../db/schema.ts';

/** Who did what an entry records. */
export type AuditActor =
  | { kind: 'user'; userId: number; email: string }
  | { kind: 'api'; label: string }
  | { kind: 'system'; label?: string };

export type AuditEntry = {
  kind: AuditKind;
  /** The organization it concerns; null for an account's own events (its sign-in factors). */
  organizationId: number | null;
  actor: AuditActor;
  /** One sentence a person reads in the log ("Changed ana@example.org from read to write"). */
  summary: string;
  /** The member the event is about, when not the actor. */
  subjectUserId?: number | null;
  /** Facts for the CSV and detail view; never a secret, token or password. */
  details?: Record<string, unknown>;
  ip?: string | null;
  userAgent?: string | null;
};

/**
 * Records one audit entry. Call it with the transaction that makes the change, so the entry and
 * the change commit or roll back together; the table refuses updates and deletes.
 */
export async function recordAudit(db: Queryable, entry: AuditEntry): Promise<void> {
  const { actor } = entry;
  await db.insert(auditEvents).values({
    kind: entry.kind,
    organization_id: entry.organizationId,
    actor_kind: actor.kind,
    actor_user_id: actor.kind === 'user' ? actor.userId : null,
    actor_label: actor.kind === 'user' ? actor.email : (actor.label ?? null),
    subject_user_id: entry.subjectUserId ?? null,
    summary: entry.summary,
    details: entry.details ?? {},
    ip_address: entry.ip ?? null,
    user_agent: entry.userAgent?.slice(0, 400) ?? null,
  });
}

import { sql } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AuditKind } from '../../../src/contract/audit.ts';
import type { Queryable } from '../../db/client.ts';
import { auditEvents } from '../../db/schema.ts';
import type { AuthUser } from '../../http/route.ts';

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

/** Where a recorded entry sits in the log's order (the list's keyset cursor). */
export type RecordedAudit = { id: number; at: string };

/**
 * Records one audit entry. Call it with the transaction that makes the change, so the entry and
 * the change commit or roll back together; the table refuses updates and deletes.
 */
export async function recordAudit(db: Queryable, entry: AuditEntry): Promise<RecordedAudit> {
  const { actor } = entry;
  const [row] = await db
    .insert(auditEvents)
    .values({
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
    })
    .returning({
      id: auditEvents.id,
      at: sql<string>`to_char(${auditEvents.occurred_at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    });
  if (!row) throw new Error('audit insert returned no row');
  return { id: Number(row.id), at: row.at };
}

/** The staff member behind a request, where they came from and with what: who an entry names. */
export type AuditBy = { actor: AuditActor; ip: string | null; userAgent: string | null };

/** The signed-in staff member of a route call, as the entries their change records name them. */
export function auditBy(ctx: { user: AuthUser; ip: string; c: Context }): AuditBy {
  return {
    actor: { kind: 'user', userId: ctx.user.id, email: ctx.user.email },
    ip: ctx.ip,
    userAgent: ctx.c.req.header('user-agent') ?? null,
  };
}

/** `recordAudit` for a change a staff member made through a route (see `auditBy`). */
export function recordBy(
  db: Queryable,
  by: AuditBy,
  entry: Omit<AuditEntry, 'actor' | 'ip' | 'userAgent'>,
): Promise<RecordedAudit> {
  return recordAudit(db, { ...entry, actor: by.actor, ip: by.ip, userAgent: by.userAgent });
}

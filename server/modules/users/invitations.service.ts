import { randomBytes } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { PermissionLevel } from '../../../src/contract/access.ts';
import type { Organization } from '../../../src/contract/organization.ts';
import {
  type InvitationPreview,
  type InvitationRequest,
  invitationMessages,
} from '../../../src/contract/users.ts';
import type { Tx } from '../../db/client.ts';
import { invitations, organizations, permissions, users } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { AuthUser, Deps } from '../../http/route.ts';
import { enqueueMail } from '../../jobs/outbox.ts';
import { organizationInvitationMail, registrationConfirmMail } from '../../mail/templates.ts';
import { type AuditBy, recordAudit, recordBy } from '../audit/audit.ts';
import { displayName, signInOrChallenge } from '../auth/auth.service.ts';
import { hashToken } from '../auth/tokens.ts';
import { organizationUsers } from '../organization/organization.service.ts';

/** spec is silent; as long as the set-password link a new user gets. */
export const invitationLifetimeDays = 7;
const invitationLifetimeMs = invitationLifetimeDays * 24 * 60 * 60 * 1000;

type UsersResponse = { users: Organization['users'] };
type Invitation = typeof invitations.$inferSelect;
type Request = typeof InvitationRequest._zod.output;

/**
 * A fresh one-time token for the invitation (its SHA-256 replaces the stored one, so an earlier
 * link stops working) and the email that carries it, in the caller's transaction. Without an
 * inviter, the invitation comes from the organization's registration (the account's owner
 * confirms being its administrator).
 */
async function mailInvitation(
  tx: Tx,
  deps: Deps,
  invitation: Invitation,
  inviter: AuthUser | null,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await tx
    .update(invitations)
    .set({ token_hash: hashToken(token), expires_at: new Date(Date.now() + invitationLifetimeMs) })
    .where(eq(invitations.id, invitation.id));
  const [about] = await tx
    .select({ organization: organizations.name, email: users.email, name: users.name })
    .from(invitations)
    .innerJoin(organizations, eq(organizations.id, invitations.org_id))
    .innerJoin(users, eq(users.id, invitations.user_id))
    .where(eq(invitations.id, invitation.id));
  if (!about) throw new HttpError(404, invitationMessages.notFound);
  const common = {
    to: about.email,
    name: displayName(about),
    supportEmail: deps.config.supportEmail,
    url: `${deps.config.publicUrl}/portal/login?invitation=${encodeURIComponent(token)}`,
    organizationName: about.organization,
    days: invitationLifetimeDays,
  };
  await enqueueMail(
    tx,
    inviter
      ? await organizationInvitationMail({
          ...common,
          invitedBy: displayName(inviter),
          level: invitation.level,
        })
      : await registrationConfirmMail(common),
  );
  return about.email;
}

/**
 * A new pending invitation, before its email (which sets the token); undefined when the account
 * is invited to the organization already.
 */
async function pendingRow(
  tx: Tx,
  input: { org_id: number; user_id: number; level: PermissionLevel; invited_by: number | null },
): Promise<Invitation | undefined> {
  const [created] = await tx
    .insert(invitations)
    .values({
      ...input,
      // Replaced by the mailed token's hash at once; random so it can never match a token.
      token_hash: `unsent:${randomBytes(16).toString('hex')}`,
      expires_at: new Date(),
    })
    .onConflictDoNothing()
    .returning();
  return created;
}

/**
 * A registration naming an existing account as the organization's contact: the form is public, so
 * the account becomes the administrator only when its owner confirms (a pending admin invitation
 * with no inviter, and the email that asks).
 */
export async function inviteRegistrant(
  tx: Tx,
  deps: Deps,
  input: { org_id: number; user_id: number },
): Promise<void> {
  const created = await pendingRow(tx, { ...input, level: 'admin', invited_by: null });
  if (!created) throw new Error('invitation insert returned no row');
  await mailInvitation(tx, deps, created, null);
}

/**
 * Invites an existing account to an organization: a pending invitation and an email to its owner,
 * who alone decides whether to join. The caller has checked it is not a member yet.
 */
export async function invite(
  tx: Tx,
  deps: Deps,
  actor: AuthUser,
  by: AuditBy,
  input: { org_id: number; user_id: number; level: PermissionLevel },
): Promise<void> {
  const created = await pendingRow(tx, { ...input, invited_by: actor.id });
  if (!created) throw new HttpError(409, invitationMessages.alreadyInvited);
  const email = await mailInvitation(tx, deps, created, actor);
  await recordBy(tx, by, {
    kind: 'invitation.sent',
    organizationId: input.org_id,
    subjectUserId: input.user_id,
    summary: `Invited ${email} as ${input.level}`,
    details: { email, level: input.level },
  });
}

async function pendingInvitation(tx: Tx, input: Request): Promise<Invitation> {
  const [row] = await tx
    .select()
    .from(invitations)
    .where(and(eq(invitations.org_id, input.org_id), eq(invitations.user_id, input.user_id)))
    .for('update');
  if (!row) throw new HttpError(404, invitationMessages.notFound);
  return row;
}

/** Sends a pending invitation again with a new link (the old one stops working). */
export async function resendInvitation(
  deps: Deps,
  actor: AuthUser,
  by: AuditBy,
  input: Request,
): Promise<UsersResponse> {
  return deps.db.transaction(async (tx) => {
    const invitation = await pendingInvitation(tx, input);
    const email = await mailInvitation(tx, deps, invitation, actor);
    await recordBy(tx, by, {
      kind: 'invitation.sent',
      organizationId: input.org_id,
      subjectUserId: input.user_id,
      summary: `Sent the invitation of ${email} again (${invitation.level})`,
      details: { email, level: invitation.level, again: true },
    });
    return { users: await organizationUsers(tx, input.org_id) };
  });
}

/** Withdraws a pending invitation: its link stops working. */
export async function cancelInvitation(deps: Deps, by: AuditBy, input: Request): Promise<UsersResponse> {
  return deps.db.transaction(async (tx) => {
    const row = await pendingInvitation(tx, input);
    await tx.delete(invitations).where(eq(invitations.id, row.id));
    const [invited] = await tx.select({ email: users.email }).from(users).where(eq(users.id, row.user_id));
    const email = invited?.email ?? `user ${row.user_id}`;
    await recordBy(tx, by, {
      kind: 'invitation.revoked',
      organizationId: input.org_id,
      subjectUserId: input.user_id,
      summary: `Withdrew the invitation of ${email} (${row.level})`,
      details: { email, level: row.level },
    });
    return { users: await organizationUsers(tx, input.org_id) };
  });
}

const live = (token: string) =>
  and(eq(invitations.token_hash, hashToken(token)), gt(invitations.expires_at, sql`now()`));

/** What the link offers, for its owner to decide: the organization, the level, who invited. */
export async function previewInvitation(deps: Deps, token: string): Promise<InvitationPreview> {
  const inviter = alias(users, 'inviter');
  const [row] = await deps.db
    .select({
      organization: organizations.name,
      level: invitations.level,
      email: users.email,
      inviterName: inviter.name,
      inviterEmail: inviter.email,
      // No inviter and the account registered the organization: its registration's confirmation.
      registration: sql<boolean>`(${invitations.invited_by} is null and ${organizations.creator_id} = ${invitations.user_id})`,
    })
    .from(invitations)
    .innerJoin(organizations, eq(organizations.id, invitations.org_id))
    .innerJoin(users, eq(users.id, invitations.user_id))
    .leftJoin(inviter, eq(inviter.id, invitations.invited_by))
    .where(live(token));
  if (!row) throw new HttpError(400, invitationMessages.invalid);
  return {
    organization: row.organization,
    level: row.level,
    email: row.email,
    invited_by: row.inviterEmail
      ? displayName({ name: row.inviterName, email: row.inviterEmail })
      : 'An admin',
    registration: Boolean(row.registration),
  };
}

/**
 * Accepts an invitation: the one-time link (proof of the mailbox, like a magic link) becomes the
 * permission, once, and signs its owner in. One conditional DELETE, so two uses cannot both win.
 */
export async function acceptInvitation(
  deps: Deps,
  token: string,
  client: { ip: string; userAgent: string | null },
) {
  const accepted = await deps.db.transaction(async (tx) => {
    const [row] = await tx.delete(invitations).where(live(token)).returning();
    if (!row) throw new HttpError(400, invitationMessages.invalid);
    const [joined] = await tx
      .insert(permissions)
      .values({ org_id: row.org_id, user_id: row.user_id, level: row.level })
      .onConflictDoNothing()
      .returning({ id: permissions.id });
    if (joined) {
      const [member] = await tx.select({ email: users.email }).from(users).where(eq(users.id, row.user_id));
      const email = member?.email ?? `user ${row.user_id}`;
      await recordAudit(tx, {
        kind: 'permission.granted',
        organizationId: row.org_id,
        actor: { kind: 'user', userId: row.user_id, email },
        summary: `${email} accepted the invitation and joined as ${row.level}`,
        details: { email, level: row.level, invitation: true },
      });
    }
    return row;
  });
  // A user with an authenticator app gives its code next (the link was only the first factor).
  return {
    ...(await signInOrChallenge(deps, accepted.user_id, { method: 'magic_link', ...client })),
    redirect: '/portal',
    organization_id: accepted.org_id,
  };
}

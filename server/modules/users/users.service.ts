import { and, count, eq, ne } from 'drizzle-orm';
import type { PermissionLevel } from '../../../src/contract/access.ts';
import { atLeast } from '../../../src/contract/access.ts';
import type { Organization } from '../../../src/contract/organization.ts';
import { invitationMessages, noName } from '../../../src/contract/users.ts';
import type { Tx } from '../../db/client.ts';
import { organizations, permissions, users } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { AuthUser, Deps } from '../../http/route.ts';
import { enqueueMail } from '../../jobs/outbox.ts';
import { invitationMail } from '../../mail/templates.ts';
import { type AuditBy, recordBy } from '../audit/audit.ts';
import { continueSession, displayName, endSessions, normalizeEmail } from '../auth/auth.service.ts';
import { issueToken } from '../auth/tokens.ts';
import { organizationUsers } from '../organization/organization.service.ts';
import { setPasswordLifetimeDays, setPasswordLifetimeMs } from '../registration/registration.service.ts';
import { invite } from './invitations.service.ts';

export const usersMessages = {
  alreadyMember: 'That user already has access to this organization.',
  lastAdmin: 'An organization needs at least one admin.',
  userNotFound: 'User not found',
  emailTaken: 'Another user already uses that email address.',
  idMismatch: 'user_id: Must be the user of the address',
} as const;

type UsersResponse = { users: Organization['users']; access_token?: string };

/**
 * A change that ended a user's sessions and was made by that user: the session that made it
 * carries on with a fresh token (their other sessions stay ended).
 */
async function keepCallerSignedIn(
  deps: Deps,
  actor: AuthUser,
  userId: number,
  ended: boolean,
  response: UsersResponse,
): Promise<UsersResponse> {
  if (!ended || actor.id !== userId) return response;
  return { ...response, access_token: (await continueSession(deps, actor)).access_token };
}

async function usersOf(tx: Tx, orgId: number): Promise<UsersResponse> {
  return { users: await organizationUsers(tx, orgId) };
}

async function permissionOf(tx: Tx, orgId: number, userId: number) {
  const [row] = await tx
    .select()
    .from(permissions)
    .where(and(eq(permissions.org_id, orgId), eq(permissions.user_id, userId)))
    .for('update');
  if (!row) throw new HttpError(404, usersMessages.userNotFound);
  return row;
}

/** A member's email today, for the audit entry that names them. */
async function emailOf(tx: Tx, userId: number): Promise<string> {
  const [row] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row?.email ?? `user ${userId}`;
}

/** spec is silent; we keep every organization manageable: its last admin cannot go or step down. */
async function keepAnAdmin(tx: Tx, orgId: number, leavingUserId: number): Promise<void> {
  // Lock the organization's permissions so two admins cannot remove each other at once.
  await tx
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, orgId))
    .for('update');
  const [others] = await tx
    .select({ n: count() })
    .from(permissions)
    .where(
      and(
        eq(permissions.org_id, orgId),
        eq(permissions.level, 'admin'),
        ne(permissions.user_id, leavingUserId),
      ),
    );
  if ((others?.n ?? 0) === 0) throw new HttpError(409, usersMessages.lastAdmin);
}

/**
 * Adds a user by email, in one transaction. A new email becomes an account (named as given, or
 * 'No Name') with access at once and an email to create a password. An existing account is never
 * attached without its owner: it gets a pending invitation and an email to accept it.
 */
export async function addPermission(
  deps: Deps,
  actor: AuthUser,
  by: AuditBy,
  input: { org_id: number; email: string; level: PermissionLevel; name?: string | undefined },
): Promise<UsersResponse> {
  const { config } = deps;
  const email = normalizeEmail(input.email);
  return deps.db.transaction(async (tx) => {
    const [organization] = await tx
      .select({ name: organizations.name })
      .from(organizations)
      .where(eq(organizations.id, input.org_id));
    const [created] = await tx
      .insert(users)
      .values({ email, name: input.name || noName })
      .onConflictDoNothing()
      .returning();
    if (!created) {
      const [existing] = await tx.select().from(users).where(eq(users.email, email));
      if (!existing) throw new Error('user upsert returned no row');
      const [member] = await tx
        .select({ id: permissions.id })
        .from(permissions)
        .where(and(eq(permissions.org_id, input.org_id), eq(permissions.user_id, existing.id)));
      if (member) throw new HttpError(409, usersMessages.alreadyMember);
      await invite(tx, deps, actor, by, { org_id: input.org_id, user_id: existing.id, level: input.level });
      return usersOf(tx, input.org_id);
    }
    await tx.insert(permissions).values({ org_id: input.org_id, user_id: created.id, level: input.level });
    await recordBy(tx, by, {
      kind: 'permission.granted',
      organizationId: input.org_id,
      subjectUserId: created.id,
      summary: `Gave ${created.email} ${input.level} access (a new account)`,
      details: { email: created.email, level: input.level, new_account: true },
    });
    const token = await issueToken(tx, 'set_password', created.id, setPasswordLifetimeMs);
    await enqueueMail(
      tx,
      await invitationMail({
        to: created.email,
        name: displayName(created),
        supportEmail: config.supportEmail,
        url: `${config.publicUrl}/portal/reset-password?token=${encodeURIComponent(token)}&purpose=create`,
        organizationName: organization?.name ?? 'an organization',
        invitedBy: displayName(actor),
        days: setPasswordLifetimeDays,
      }),
    );
    return usersOf(tx, input.org_id);
  });
}

export async function updatePermission(
  deps: Deps,
  actor: AuthUser,
  by: AuditBy,
  input: { org_id: number; user_id: number; level: PermissionLevel },
): Promise<UsersResponse> {
  let demoted = false;
  const response = await deps.db.transaction(async (tx) => {
    const current = await permissionOf(tx, input.org_id, input.user_id);
    if (current.level === 'admin' && input.level !== 'admin')
      await keepAnAdmin(tx, input.org_id, input.user_id);
    await tx.update(permissions).set({ level: input.level }).where(eq(permissions.id, current.id));
    if (current.level !== input.level) {
      const email = await emailOf(tx, input.user_id);
      await recordBy(tx, by, {
        kind: 'permission.changed',
        organizationId: input.org_id,
        subjectUserId: input.user_id,
        summary: `Changed ${email} from ${current.level} to ${input.level}`,
        details: { email, from: current.level, to: input.level },
      });
    }
    // A demoted user's open sessions end, so nothing keeps acting with the old level.
    demoted = !atLeast(input.level, current.level);
    if (demoted) await endSessions(tx, input.user_id);
    return usersOf(tx, input.org_id);
  });
  return keepCallerSignedIn(deps, actor, input.user_id, demoted, response);
}

export async function removePermission(
  deps: Deps,
  actor: AuthUser,
  by: AuditBy,
  input: { org_id: number; user_id: number },
): Promise<UsersResponse> {
  const response = await deps.db.transaction(async (tx) => {
    const current = await permissionOf(tx, input.org_id, input.user_id);
    if (current.level === 'admin') await keepAnAdmin(tx, input.org_id, input.user_id);
    await tx.delete(permissions).where(eq(permissions.id, current.id));
    const email = await emailOf(tx, input.user_id);
    await recordBy(tx, by, {
      kind: 'permission.revoked',
      organizationId: input.org_id,
      subjectUserId: input.user_id,
      summary: `Removed ${email}'s ${current.level} access`,
      details: { email, level: current.level },
    });
    await endSessions(tx, input.user_id);
    return usersOf(tx, input.org_id);
  });
  return keepCallerSignedIn(deps, actor, input.user_id, true, response);
}

/**
 * Name and email of a user of the organization. Both identify a person everywhere (and a new email
 * can reset the password), so an admin changes them only for an account that belongs to no other
 * organization and is not a super user's; a super user may change any, and anyone their own.
 */
export async function updateUser(
  deps: Deps,
  actor: AuthUser,
  pathId: number,
  input: { org_id: number; user_id: number; name: string; email: string },
): Promise<UsersResponse> {
  if (pathId !== input.user_id) throw new HttpError(400, usersMessages.idMismatch);
  const email = normalizeEmail(input.email);
  return deps.db.transaction(async (tx) => {
    await permissionOf(tx, input.org_id, input.user_id);
    const [user] = await tx.select().from(users).where(eq(users.id, input.user_id)).for('update');
    if (!user) throw new HttpError(404, usersMessages.userNotFound);
    const changes = email !== user.email || input.name !== user.name;
    if (changes && !actor.globalPermission && actor.id !== user.id) {
      if (user.global_permission) throw new HttpError(403, invitationMessages.superUser);
      const [elsewhere] = await tx
        .select({ id: permissions.id })
        .from(permissions)
        .where(and(eq(permissions.user_id, user.id), ne(permissions.org_id, input.org_id)))
        .limit(1);
      if (elsewhere) throw new HttpError(403, invitationMessages.sharedUser);
    }
    if (email !== user.email) {
      const [taken] = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.email, email), ne(users.id, user.id)));
      if (taken) throw new HttpError(409, usersMessages.emailTaken);
    }
    await tx.update(users).set({ name: input.name, email }).where(eq(users.id, user.id));
    return usersOf(tx, input.org_id);
  });
}

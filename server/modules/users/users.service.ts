import { and, count, eq, ne } from 'drizzle-orm';
import type { PermissionLevel } from '../../../src/contract/access.ts';
import { atLeast } from '../../../src/contract/access.ts';
import type { Organization } from '../../../src/contract/organization.ts';
import { noName } from '../../../src/contract/users.ts';
import type { Tx } from '../../db/client.ts';
import { organizations, permissions, users } from '../../db/schema.ts';
import { HttpError, httpMessages } from '../../http/errors.ts';
import type { AuthUser, Deps } from '../../http/route.ts';
import { enqueueMail } from '../../jobs/outbox.ts';
import { invitationMail } from '../../mail/templates.ts';
import { displayName, endSessions, normalizeEmail } from '../auth/auth.service.ts';
import { issueToken } from '../auth/tokens.ts';
import { organizationUsers } from '../organization/organization.service.ts';
import { effectiveLevel } from '../permissions/permissions.service.ts';
import {
  findOrCreateUser,
  setPasswordLifetimeDays,
  setPasswordLifetimeMs,
} from '../registration/registration.service.ts';

export const usersMessages = {
  alreadyMember: 'That user already has access to this organization.',
  lastAdmin: 'An organization needs at least one admin.',
  userNotFound: 'User not found',
  emailTaken: 'Another user already uses that email address.',
  idMismatch: 'user_id: Must be the user of the address',
  sharedUser:
    'This user also belongs to organizations you do not administer, so only they can change their email address.',
} as const;

type UsersResponse = { users: Organization['users'] };

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
 * Adds a user by email: finds or creates them (a new user is named as given, or 'No Name') and
 * invites a user without a password by email, all in one transaction.
 */
export async function addPermission(
  deps: Deps,
  actor: AuthUser,
  input: { org_id: number; email: string; level: PermissionLevel; name?: string | undefined },
): Promise<UsersResponse> {
  const { config } = deps;
  return deps.db.transaction(async (tx) => {
    const [organization] = await tx
      .select({ name: organizations.name })
      .from(organizations)
      .where(eq(organizations.id, input.org_id));
    const user = await findOrCreateUser(tx, input.email, input.name || noName);
    const added = await tx
      .insert(permissions)
      .values({ org_id: input.org_id, user_id: user.id, level: input.level })
      .onConflictDoNothing()
      .returning({ id: permissions.id });
    if (added.length === 0) throw new HttpError(409, usersMessages.alreadyMember);
    if (!user.password_hash) {
      const token = await issueToken(tx, 'set_password', user.id, setPasswordLifetimeMs);
      await enqueueMail(
        tx,
        invitationMail({
          to: user.email,
          name: displayName(user),
          supportEmail: config.supportEmail,
          url: `${config.publicUrl}/portal/reset-password?token=${encodeURIComponent(token)}`,
          organizationName: organization?.name ?? 'an organization',
          invitedBy: displayName(actor),
          days: setPasswordLifetimeDays,
        }),
      );
    }
    return usersOf(tx, input.org_id);
  });
}

export async function updatePermission(
  deps: Deps,
  input: { org_id: number; user_id: number; level: PermissionLevel },
): Promise<UsersResponse> {
  return deps.db.transaction(async (tx) => {
    const current = await permissionOf(tx, input.org_id, input.user_id);
    if (current.level === 'admin' && input.level !== 'admin')
      await keepAnAdmin(tx, input.org_id, input.user_id);
    await tx.update(permissions).set({ level: input.level }).where(eq(permissions.id, current.id));
    // A demoted user's open sessions end, so nothing keeps acting with the old level.
    if (!atLeast(input.level, current.level)) await endSessions(tx, input.user_id);
    return usersOf(tx, input.org_id);
  });
}

export async function removePermission(
  deps: Deps,
  input: { org_id: number; user_id: number },
): Promise<UsersResponse> {
  return deps.db.transaction(async (tx) => {
    const current = await permissionOf(tx, input.org_id, input.user_id);
    if (current.level === 'admin') await keepAnAdmin(tx, input.org_id, input.user_id);
    await tx.delete(permissions).where(eq(permissions.id, current.id));
    await endSessions(tx, input.user_id);
    return usersOf(tx, input.org_id);
  });
}

/**
 * Name and email of a user of the organization. An email change is an account takeover risk (the
 * new address can reset the password), so an admin may change it only for users whose every
 * organization they administer too, and never a super user's unless they are one.
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
    if (email !== user.email) {
      if (user.global_permission && !actor.globalPermission) throw new HttpError(403, httpMessages.forbidden);
      const held = await tx
        .select({ org_id: permissions.org_id })
        .from(permissions)
        .where(eq(permissions.user_id, user.id));
      for (const { org_id } of held) {
        if (!atLeast(await effectiveLevel(tx, actor, org_id), 'admin'))
          throw new HttpError(403, usersMessages.sharedUser);
      }
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

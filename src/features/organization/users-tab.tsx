import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/client.ts';
import {
  addPermission,
  cancelInvitation,
  type OrganizationUser,
  removePermission,
  resendInvitation,
  updatePermission,
  updateUser,
} from '../../api/organization-changes.ts';
import {
  can,
  type EffectiveLevel,
  noName,
  type Organization,
  type PermissionLevel,
  permissionLevels,
} from '../../contract/index.ts';
import { patchCurrentOrganization } from '../../state/organization.ts';
import { user as signedInUser } from '../../state/session.ts';
import { toast } from '../../state/toasts.ts';
import { Badge, type BadgeVariant } from '../../ui/badge.tsx';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { Section, SelectField, TextField } from './fields.tsx';

/** spec (part 1, section 8), word for word. */
export const usersTexts = {
  added: 'User added successfully',
  addFailed: 'Failed to add user',
  updated: 'User updated successfully',
  updateFailed: 'Failed to update user',
  removed: 'User removed successfully',
  removeFailed: 'Failed to remove user',
} as const;

/** Not in the spec: invitations of existing accounts, and why some names cannot be edited. */
export const invitationTexts = {
  sent: 'Invitation sent',
  resent: 'Invitation sent again',
  resendFailed: 'Failed to resend invitation',
  cancelled: 'Invitation cancelled',
  cancelFailed: 'Failed to cancel invitation',
  pending: 'Pending',
  pendingHint: 'Invited; joins when they accept the emailed invitation.',
  readOnly:
    'This account also belongs to other organizations or is a super user’s, so only its owner can change its name and email.',
} as const;

/** spec (section 6): "shown as badges (admin red, write blue, read green)". */
export const levelBadge: Record<PermissionLevel, BadgeVariant> = {
  admin: 'danger',
  write: 'info',
  read: 'success',
};

const levelOptions = permissionLevels.map((l) => ({ value: l, label: l[0]?.toUpperCase() + l.slice(1) }));

/** The server's own words for a failure worth reading (a last admin, a taken email), else null. */
function serverReason(error: unknown): string | null {
  return error instanceof ApiError && error.fromServer && error.status !== 401 ? error.message : null;
}

export function UsersTab({ organization, level }: { organization: Organization; level: EffectiveLevel }) {
  const manage = can(level, 'users.manage');
  const [problem, setProblem] = useState<string | null>(null);
  const [removing, setRemoving] = useState<OrganizationUser | null>(null);
  const [busy, setBusy] = useState(false);
  // The removed row took the focus with it: the dialog hands it to the table instead.
  const table = useRef<HTMLTableElement>(null);
  const removed = useRef(false);

  const apply = (users: OrganizationUser[]) => patchCurrentOrganization(organization.id, { users });

  // After a removal the dialog closes and its Remove button is gone: focus goes to the table.
  // (An effect of this component runs after the dialog's own, which closes it.)
  useEffect(() => {
    if (removing !== null || !removed.current) return;
    removed.current = false;
    table.current?.focus();
  }, [removing]);

  const remove = async () => {
    if (!removing) return;
    setBusy(true);
    try {
      apply(await removePermission({ org_id: organization.id, user_id: removing.id }));
      setProblem(null);
      removed.current = true;
      toast({ description: usersTexts.removed });
    } catch (error) {
      setProblem(serverReason(error));
      toast({ description: usersTexts.removeFailed, variant: 'destructive' });
    } finally {
      setBusy(false);
      setRemoving(null);
    }
  };

  return (
    <div className="details__stack">
      <Section
        title="Users"
        description={
          manage
            ? 'People who can sign in to work on this organization.'
            : 'People who can sign in to work on this organization. Only admins can change them.'
        }
      >
        {problem ? (
          <p role="alert" className="alert">
            {problem}
          </p>
        ) : null}
        {/* On a phone the table scrolls inside its own box, never the page. */}
        <div className="table-scroll">
          <table className="details__table" ref={table} tabIndex={-1} aria-label="Users">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Level</th>
                {manage ? (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {organization.users.map((u) => (
                <UserRow
                  key={u.id}
                  organizationId={organization.id}
                  user={u}
                  manage={manage}
                  onUsers={apply}
                  onProblem={setProblem}
                  onRemove={() => setRemoving(u)}
                />
              ))}
            </tbody>
          </table>
        </div>
        {organization.users.length === 0 ? <p className="muted">No users yet.</p> : null}
      </Section>
      {organization.shadowedPermissions.length ? (
        <Section
          title="Access through the parent organization"
          description="Users of the parent organization also reach this chapter. Change their access on the parent organization."
        >
          <ul className="details__list" aria-label="Access through the parent organization">
            {organization.shadowedPermissions.map((p) => (
              <li key={`${p.organization_id}-${p.user.id}`} className="details__list-item">
                <span>
                  {p.user.name} <span className="muted">{p.user.email}</span>
                </span>
                <Badge variant={levelBadge[p.level]}>{p.level}</Badge>
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
      {manage ? (
        <AddUserForm organizationId={organization.id} onUsers={apply} onProblem={setProblem} />
      ) : null}
      <ConfirmDialog
        open={removing !== null}
        title="Remove user"
        description={
          removing ? `Remove ${removing.name} (${removing.email}) from ${organization.name}?` : undefined
        }
        confirmLabel="Remove user"
        destructive
        busy={busy}
        onConfirm={() => void remove()}
        onCancel={() => setRemoving(null)}
      />
    </div>
  );
}

function UserRow({
  organizationId,
  user,
  manage,
  onUsers,
  onProblem,
  onRemove,
}: {
  organizationId: number;
  user: OrganizationUser;
  manage: boolean;
  onUsers: (users: OrganizationUser[]) => void;
  onProblem: (message: string | null) => void;
  onRemove: () => void;
}) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(user.name);
  const [email, setEmail] = useState(user.email);
  const [level, setLevel] = useState<PermissionLevel>(user.level);
  const [saving, setSaving] = useState(false);
  // Name and email identify a person everywhere: an admin edits them only on an account that is
  // this organization's alone and not a super user's (the server decides; super users may).
  const me = signedInUser.value;
  const identityEditable = user.editable !== false || me?.globalPermission === true || me?.id === user.id;

  const start = () => {
    setName(user.name);
    setEmail(user.email);
    setLevel(user.level);
    setEditing(true);
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    try {
      let users: OrganizationUser[] | null = null;
      if (identityEditable && (name.trim() !== user.name || email.trim() !== user.email)) {
        users = await updateUser({
          org_id: organizationId,
          user_id: user.id,
          name: name.trim() || noName,
          email: email.trim(),
        });
      }
      if (level !== user.level) {
        users = await updatePermission({ org_id: organizationId, user_id: user.id, level });
      }
      if (users) onUsers(users);
      onProblem(null);
      setEditing(false);
      toast({ description: usersTexts.updated });
    } catch (error) {
      onProblem(serverReason(error));
      toast({ description: usersTexts.updateFailed, variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  };

  if (editing) {
    return (
      <tr className="details__row--editing">
        <td colSpan={4}>
          <form className="details__inline-form" onSubmit={save} aria-label={`Edit ${user.email}`}>
            <TextField
              label="Name"
              name="user_name"
              value={name}
              onChange={setName}
              maxLength={100}
              readOnly={!identityEditable}
              hint={identityEditable ? undefined : invitationTexts.readOnly}
            />
            <TextField
              label="Email"
              name="user_email"
              type="email"
              value={email}
              onChange={setEmail}
              maxLength={255}
              readOnly={!identityEditable}
            />
            <SelectField
              label="Permission Level"
              name="user_level"
              value={level}
              onChange={(v) => setLevel(v as PermissionLevel)}
              options={levelOptions}
            />
            <div className="details__row-actions">
              <Button type="submit" disabled={saving || !email.trim()}>
                {saving ? 'Saving...' : 'Save'}
              </Button>
              <Button variant="secondary" onClick={() => setEditing(false)} disabled={saving}>
                Cancel
              </Button>
            </div>
          </form>
        </td>
      </tr>
    );
  }

  if (user.pending) {
    return (
      <PendingRow
        organizationId={organizationId}
        user={user}
        manage={manage}
        onUsers={onUsers}
        onProblem={onProblem}
      />
    );
  }

  return (
    <tr>
      <td>{user.name}</td>
      <td>{user.email}</td>
      <td>
        <Badge variant={levelBadge[user.level]}>{user.level}</Badge>
      </td>
      {manage ? (
        <td>
          <div className="details__row-actions">
            <Button variant="secondary" onClick={start} aria-label={`Edit ${user.email}`}>
              Edit
            </Button>
            <Button variant="ghost" onClick={onRemove} aria-label={`Remove ${user.email}`}>
              Remove
            </Button>
          </div>
        </td>
      ) : null}
    </tr>
  );
}

/** An invited existing account: no access until its owner accepts; an admin may resend or cancel. */
function PendingRow({
  organizationId,
  user,
  manage,
  onUsers,
  onProblem,
}: {
  organizationId: number;
  user: OrganizationUser;
  manage: boolean;
  onUsers: (users: OrganizationUser[]) => void;
  onProblem: (message: string | null) => void;
}) {
  const [busy, setBusy] = useState(false);
  const act = async (
    call: typeof resendInvitation,
    texts: { done: string; failed: string },
  ): Promise<void> => {
    setBusy(true);
    try {
      onUsers(await call({ org_id: organizationId, user_id: user.id }));
      onProblem(null);
      toast({ description: texts.done });
    } catch (error) {
      onProblem(serverReason(error));
      toast({ description: texts.failed, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <tr className="details__row--pending">
      <td>{user.name}</td>
      <td>{user.email}</td>
      <td>
        <span className="details__badges">
          <Badge variant={levelBadge[user.level]}>{user.level}</Badge>
          <Badge variant="neutral">{invitationTexts.pending}</Badge>
        </span>
        <span className="visually-hidden">{invitationTexts.pendingHint}</span>
      </td>
      {manage ? (
        <td>
          <div className="details__row-actions">
            <Button
              variant="secondary"
              disabled={busy}
              aria-label={`Resend invitation to ${user.email}`}
              onClick={() =>
                void act(resendInvitation, {
                  done: invitationTexts.resent,
                  failed: invitationTexts.resendFailed,
                })
              }
            >
              Resend
            </Button>
            <Button
              variant="ghost"
              disabled={busy}
              aria-label={`Cancel invitation to ${user.email}`}
              onClick={() =>
                void act(cancelInvitation, {
                  done: invitationTexts.cancelled,
                  failed: invitationTexts.cancelFailed,
                })
              }
            >
              Cancel invitation
            </Button>
          </div>
        </td>
      ) : null}
    </tr>
  );
}

function AddUserForm({
  organizationId,
  onUsers,
  onProblem,
}: {
  organizationId: number;
  onUsers: (users: OrganizationUser[]) => void;
  onProblem: (message: string | null) => void;
}) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  // spec (section 9): "The default permission level is read."
  const [level, setLevel] = useState<PermissionLevel>('read');
  const [adding, setAdding] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim()) return;
    setAdding(true);
    try {
      // spec (section 5): "A blank name is sent as 'No Name'."
      const users = await addPermission({
        org_id: organizationId,
        email: email.trim(),
        level,
        name: name.trim() || noName,
      });
      onUsers(users);
      onProblem(null);
      setEmail('');
      setName('');
      setLevel('read');
      // An existing account is invited, not added: say which happened.
      const invited = users.some((u) => u.pending && u.email === email.trim().toLowerCase());
      toast({ description: invited ? invitationTexts.sent : usersTexts.added });
    } catch (error) {
      onProblem(serverReason(error));
      toast({ description: usersTexts.addFailed, variant: 'destructive' });
    } finally {
      setAdding(false);
    }
  };

  return (
    <Section
      title="Add User"
      description="A person without an account gets an email inviting them to set a password. Someone who already has an account is invited by email and joins when they accept."
    >
      <form className="details__inline-form" onSubmit={submit} aria-label="Add User">
        <TextField
          label="Email"
          name="new_user_email"
          type="email"
          required
          value={email}
          onChange={setEmail}
          maxLength={255}
        />
        <SelectField
          label="Permission Level"
          name="new_user_level"
          value={level}
          onChange={(v) => setLevel(v as PermissionLevel)}
          options={levelOptions}
        />
        <TextField
          label="Name (optional)"
          name="new_user_name"
          value={name}
          onChange={setName}
          maxLength={100}
        />
        <div className="details__row-actions">
          <Button type="submit" disabled={!email.trim() || adding}>
            {adding ? 'Adding...' : 'Add User'}
          </Button>
        </div>
      </form>
    </Section>
  );
}

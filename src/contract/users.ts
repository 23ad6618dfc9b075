import * as z from 'zod/mini';
import { permissionLevels } from './access.ts';
import { OtpVerifyResponse, trimmedEmail } from './auth.ts';
import { dbId, safeText } from './fields.ts';

const id = dbId();
const level = z.enum(permissionLevels, 'Choose a permission level');

/** spec: a blank name is sent as 'No Name'. */
export const noName = 'No Name';

/** POST /api/user/permission (add): org_id, email, level, name. */
export const AddPermissionRequest = z.object({
  org_id: id,
  email: trimmedEmail('Please enter a valid email address'),
  level,
  name: z.optional(safeText(z.trim(), z.maxLength(100))),
});
/** POST /api/user/permission (update): org_id, user_id, level. */
export const UpdatePermissionRequest = z.object({ org_id: id, user_id: id, level });
export const PermissionRequest = z.union([AddPermissionRequest, UpdatePermissionRequest]);
/** DELETE /api/user/permission: org_id, user_id. */
export const RemovePermissionRequest = z.object({ org_id: id, user_id: id });
/** PUT /api/user/{id}: org_id, user_id, name, email. */
export const UpdateUserRequest = z.object({
  org_id: id,
  user_id: id,
  name: safeText(z.trim(), z.minLength(1, 'Name is required'), z.maxLength(100)),
  email: trimmedEmail('Please enter a valid email address'),
});

/** Resend or cancel a pending invitation: org_id, user_id (the invited account). */
export const InvitationRequest = z.object({ org_id: id, user_id: id });
/** The invitation link's one-time token. */
export const InvitationTokenRequest = z.object({
  token: z.string().check(z.minLength(16), z.maxLength(200)),
});
/** What the invitation link shows before its owner accepts. */
export const InvitationPreview = z.object({
  organization: z.string(),
  level: z.enum(permissionLevels),
  email: z.string(),
  invited_by: z.string(),
  /** The organization's registration named this account as its contact: confirming makes it the administrator. */
  registration: z.boolean(),
});
export type InvitationPreview = z.infer<typeof InvitationPreview>;

/** An accepted invitation signs its owner in (the link proved the mailbox) and names the organization. */
export const AcceptInvitationResponse = z.extend(OtpVerifyResponse, { organization_id: z.number() });
export type AcceptInvitationResponse = z.infer<typeof AcceptInvitationResponse>;

/** Not in the spec: the texts of invitations to existing accounts. */
export const invitationMessages = {
  alreadyInvited: 'That user has already been invited to this organization. You can resend the invitation.',
  notFound: 'Invitation not found',
  invalid:
    'This invitation is invalid, has expired or was cancelled. Ask an admin of the organization to send a new one.',
  sharedUser:
    'This account also belongs to other organizations, so only its owner can change its name and email.',
  superUser: 'A super user’s name and email can only be changed by a super user.',
} as const;

/** spec (part 1, section 3, Notifee): id, email. */
export const Notifee = z.object({ id: z.number(), email: z.string() });
export const NotifeeRequest = z.object({
  email: trimmedEmail('Please enter a valid email address'),
});
export const NotifeesResponse = z.object({ notifees: z.array(Notifee) });
export type Notifee = z.infer<typeof Notifee>;

/** spec (part 1, section 9): "Documents: at most 5. Logo types: PNG and JPG only." */
export const maxDocuments = 5;
export const logoTypes = ['image/png', 'image/jpeg', 'image/jpg'] as const;
export const logoTypeMessage = 'Please select a PNG or JPG file';

import * as z from 'zod/mini';
import { permissionLevels } from './access.ts';
import { trimmedEmail } from './auth.ts';
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

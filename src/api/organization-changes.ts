/**
 * The calls that change an organization, its files, users and notifees: apart from
 * ./organization.ts (what the shell needs at start-up), so the first page does not carry their
 * schemas; the screens that change things load them.
 */
import * as z from 'zod/mini';
import {
  Document,
  type Notifee,
  NotifeesResponse,
  type OrganizationPatch,
  OrganizationResponse,
  OrgUser,
  type PermissionLevel,
  toPartialQuery,
} from '../contract/index.ts';
import { storeToken } from '../state/token-store.ts';
import { download, request } from './client.ts';

/** PUT /api/organization/{id}/partial: only the changed fields; the private key travels in the body. */
export function updateOrganization(id: number, patch: OrganizationPatch): Promise<OrganizationResponse> {
  return request(OrganizationResponse, `api/organization/${id}/partial`, {
    method: 'put',
    searchParams: toPartialQuery(patch),
    json: patch.private_key === undefined ? undefined : { private_key: patch.private_key },
  });
}

const UploadResponse = z.object({
  documents: z.array(Document),
  file_logo: z.nullable(z.string()),
});
export type UploadResponse = z.infer<typeof UploadResponse>;

export type Upload =
  | { kind: 'logo'; file: File }
  | { kind: 'document'; file: File; name: string; replaces?: number };

/** POST /api/organization/{id}/upload. spec: "multipart: file, name, and type=logo when name is logo, else file_id". */
export function uploadFile(id: number, upload: Upload): Promise<UploadResponse> {
  const body = new FormData();
  body.set('file', upload.file);
  if (upload.kind === 'logo') {
    body.set('name', 'logo');
    body.set('type', 'logo');
  } else {
    body.set('name', upload.name);
    if (upload.replaces !== undefined) body.set('file_id', String(upload.replaces));
  }
  return request(UploadResponse, `api/organization/${id}/upload`, { method: 'post', body });
}

/** DELETE /api/organization/{id}/document/{docId} */
export function deleteDocument(id: number, documentId: number): Promise<OrganizationResponse> {
  return request(OrganizationResponse, `api/organization/${id}/document/${documentId}`, { method: 'delete' });
}

/** A document's file: public paths load as they are; the authenticated URL needs the bearer token. */
export function documentFile(path: string): Promise<Blob> {
  return download(path.replace(/^\/+/, ''));
}

const UsersResponse = z.object({ users: z.array(OrgUser), access_token: z.optional(z.string()) });

/**
 * The users after a level change or a removal. Demoting or removing yourself ends your other
 * sessions; this one carries on with the fresh token the server sends.
 */
function usersKeepingSession(response: z.infer<typeof UsersResponse>): OrganizationUser[] {
  if (response.access_token) storeToken(response.access_token);
  return response.users;
}
export type OrganizationUser = z.infer<typeof OrgUser>;

/** POST /api/user/permission (add): finds or invites the user by email. */
export async function addPermission(input: {
  org_id: number;
  email: string;
  level: PermissionLevel;
  name: string;
}): Promise<OrganizationUser[]> {
  return (await request(UsersResponse, 'api/user/permission', { method: 'post', json: input })).users;
}

/** POST /api/user/permission (update): a new level. */
export async function updatePermission(input: {
  org_id: number;
  user_id: number;
  level: PermissionLevel;
}): Promise<OrganizationUser[]> {
  return usersKeepingSession(
    await request(UsersResponse, 'api/user/permission', { method: 'post', json: input }),
  );
}

/** DELETE /api/user/permission */
export async function removePermission(input: {
  org_id: number;
  user_id: number;
}): Promise<OrganizationUser[]> {
  return usersKeepingSession(
    await request(UsersResponse, 'api/user/permission', { method: 'delete', json: input }),
  );
}

/** PUT /api/user/{id}: name and email of a user of the organization. */
export async function updateUser(input: {
  org_id: number;
  user_id: number;
  name: string;
  email: string;
}): Promise<OrganizationUser[]> {
  return (await request(UsersResponse, `api/user/${input.user_id}`, { method: 'put', json: input })).users;
}

/** POST /api/user/invitation: sends a pending invitation again, with a new link. */
export async function resendInvitation(input: {
  org_id: number;
  user_id: number;
}): Promise<OrganizationUser[]> {
  return (await request(UsersResponse, 'api/user/invitation', { method: 'post', json: input })).users;
}

/** DELETE /api/user/invitation: withdraws a pending invitation. */
export async function cancelInvitation(input: {
  org_id: number;
  user_id: number;
}): Promise<OrganizationUser[]> {
  return (await request(UsersResponse, 'api/user/invitation', { method: 'delete', json: input })).users;
}

/** GET /api/organization/{id}/notifee */
export async function listNotifees(id: number): Promise<Notifee[]> {
  return (await request(NotifeesResponse, `api/organization/${id}/notifee`)).notifees;
}

/** POST /api/organization/{id}/notifee */
export async function addNotifee(id: number, email: string): Promise<Notifee[]> {
  return (
    await request(NotifeesResponse, `api/organization/${id}/notifee`, { method: 'post', json: { email } })
  ).notifees;
}

/** DELETE /api/organization/{id}/notifee/{notifeeId} */
export async function removeNotifee(id: number, notifeeId: number): Promise<Notifee[]> {
  return (
    await request(NotifeesResponse, `api/organization/${id}/notifee/${notifeeId}`, { method: 'delete' })
  ).notifees;
}

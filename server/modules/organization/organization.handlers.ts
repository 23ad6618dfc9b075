import type { PermissionLevel } from '../../../src/contract/access.ts';
import type { OrganizationResponse, OrganizationSearchResponse } from '../../../src/contract/organization.ts';
import type { OrganizationPatch } from '../../../src/contract/organization-update.ts';
import type { AuthUser, Deps } from '../../http/route.ts';
import * as organizations from './organization.service.ts';
import type { UploadForm, UploadResult } from './organization-files.ts';
import * as files from './organization-files.ts';
import { updateOrganization } from './organization-update.ts';

export function get({
  deps,
  params,
  level,
}: {
  deps: Deps;
  params: { id: number };
  level: PermissionLevel;
}): Promise<OrganizationResponse> {
  return organizations.getOrganization(deps.db, params.id, level);
}

export async function search({
  deps,
  user,
  query,
}: {
  deps: Deps;
  user: AuthUser;
  query: { term?: string | undefined };
}): Promise<OrganizationSearchResponse> {
  return { organizations: await organizations.searchOrganizations(deps.db, user, query.term ?? '') };
}

export function update({
  deps,
  params,
  query,
  body,
  level,
  user,
}: {
  deps: Deps;
  params: { id: number };
  query: OrganizationPatch;
  body: { private_key?: string | null | undefined };
  level: PermissionLevel;
  user: AuthUser;
}): Promise<OrganizationResponse> {
  return updateOrganization(deps, params.id, level, query, body.private_key, user.id);
}

export function upload({
  deps,
  params,
  body,
}: {
  deps: Deps;
  params: { id: number };
  body: UploadForm;
}): Promise<UploadResult> {
  return files.upload(deps, params.id, body);
}

type DocumentParams = { id: number; docId: number };

export function removeDocument({
  deps,
  params,
  level,
}: {
  deps: Deps;
  params: DocumentParams;
  level: PermissionLevel;
}): Promise<OrganizationResponse> {
  return files.removeDocument(deps, params.id, params.docId, level);
}

export function documentFile({ deps, params }: { deps: Deps; params: DocumentParams }): Promise<Response> {
  return files.documentFile(deps, params.id, params.docId);
}

export function publicFile({ deps, params }: { deps: Deps; params: { name: string } }): Promise<Response> {
  return files.publicFile(deps, params.name);
}

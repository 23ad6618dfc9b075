import type { PermissionLevel } from '../../../src/contract/access.ts';
import type { OrganizationResponse, OrganizationSearchResponse } from '../../../src/contract/organization.ts';
import type { AuthUser, Deps } from '../../http/route.ts';
import * as organizations from './organization.service.ts';

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

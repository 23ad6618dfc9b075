import type { CsrfTokenResponse, PublicOrganizationSearchResponse } from '../../../src/contract/public.ts';
import type { RegistrationRequest, RegistrationResponse } from '../../../src/contract/registration.ts';
import type { Deps } from '../../http/route.ts';
import { issueCsrfToken } from './csrf.ts';
import * as registration from './registration.service.ts';

export async function csrfToken({ deps }: { deps: Deps }): Promise<CsrfTokenResponse> {
  return { csrf_token: issueCsrfToken(deps.config.jwtSecret) };
}

export function register({
  deps,
  body,
}: {
  deps: Deps;
  body: RegistrationRequest;
}): Promise<RegistrationResponse> {
  return registration.register(deps, body);
}

export async function search({
  deps,
  query,
}: {
  deps: Deps;
  query: { term?: string | undefined };
}): Promise<PublicOrganizationSearchResponse> {
  return { organizations: await registration.publicSearch(deps.db, query.term ?? '') };
}

import {
  type SsoCompleteResponse,
  SsoCompleteResponse as SsoCompleteSchema,
  type SsoConnectionRequest,
  SsoLookup,
  SsoSettings,
} from '../contract/sso.ts';
import { getApiBase, request } from './client.ts';

/** GET /api/auth/sso/lookup: whether the email's domain signs in through a provider. */
export function lookupSso(email: string): Promise<SsoLookup> {
  return request(SsoLookup, 'api/auth/sso/lookup', {
    searchParams: { email },
    authenticated: false,
    retries: 0,
  });
}

/** Where the browser goes to start single sign-on (a navigation: the server redirects to the provider). */
export function ssoStartUrl(email: string, redirect: string): string {
  const params = new URLSearchParams({ email, redirect });
  return `${getApiBase()}/api/auth/sso/start?${params.toString()}`;
}

/** POST /api/auth/sso/complete: the callback's one-time token for a session. */
export function completeSso(token: string): Promise<SsoCompleteResponse> {
  return request(SsoCompleteSchema, 'api/auth/sso/complete', {
    method: 'post',
    json: { token },
    authenticated: false,
  });
}

export function ssoSettings(orgId: number): Promise<SsoSettings> {
  return request(SsoSettings, `api/organization/${orgId}/sso`);
}

export function saveSso(orgId: number, body: SsoConnectionRequest): Promise<SsoSettings> {
  return request(SsoSettings, `api/organization/${orgId}/sso`, { method: 'put', json: body });
}

export function removeSso(orgId: number): Promise<SsoSettings> {
  return request(SsoSettings, `api/organization/${orgId}/sso`, { method: 'delete' });
}

export function approveSsoRequest(orgId: number, requestId: number, level: string): Promise<SsoSettings> {
  return request(SsoSettings, `api/organization/${orgId}/sso/requests/${requestId}/approve`, {
    method: 'post',
    json: { level },
  });
}

export function declineSsoRequest(orgId: number, requestId: number): Promise<SsoSettings> {
  return request(SsoSettings, `api/organization/${orgId}/sso/requests/${requestId}`, { method: 'delete' });
}

import {
  CaptchaChallenge,
  type ContactRequest,
  CsrfTokenResponse,
  MessageResponse,
  type OrgRef,
  PublicOrganizationSearchResponse,
  type RegistrationRequest,
  RegistrationResponse,
} from '../contract/index.ts';
import { PublicPartnerApp } from '../contract/oauth-public.ts';
import { readStored, storageKeys, writeStored } from '../state/storage.ts';
import { ApiError, request } from './client.ts';

/**
 * The anonymous calls of the public elements (registration, contact). None sends the session's
 * bearer token: they work for visitors, and cross-origin from a partner's page (`api-base`).
 */

/** GET /api/csrf-token: a fresh token, stored as csrf_token (spec, part 1, section 3, Local storage keys). */
export async function fetchCsrfToken(): Promise<string> {
  const { csrf_token } = await request(CsrfTokenResponse, 'api/csrf-token', { authenticated: false });
  writeStored(storageKeys.csrf, csrf_token);
  return csrf_token;
}

/** The stored csrf token, or a fresh one when none is stored. */
export async function csrfToken(): Promise<string> {
  return readStored(storageKeys.csrf) ?? fetchCsrfToken();
}

/**
 * POST /organization/register (no /api prefix). spec (part 1, section 7): "registration ... uses
 * the csrf token as bearer and also sends it in an X-CSRF-Token header", with return_json=1.
 * A stored token may have expired (the server answers 403): fetch a new one once and try again.
 */
export async function register(input: RegistrationRequest): Promise<RegistrationResponse> {
  const post = (token: string) =>
    request(RegistrationResponse, 'organization/register', {
      method: 'post',
      json: { return_json: 1, ...input },
      headers: { Authorization: `Bearer ${token}`, 'X-CSRF-Token': token },
      authenticated: false,
    });
  try {
    return await post(await csrfToken());
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 403)) throw error;
    return post(await fetchCsrfToken());
  }
}

/** GET /api/public/organization-search?term=: registered organizations whose name matches (at most 10). */
export async function searchRegisteredOrganizations(term: string): Promise<OrgRef[]> {
  const result = await request(PublicOrganizationSearchResponse, 'api/public/organization-search', {
    searchParams: { term },
    authenticated: false,
  });
  return result.organizations;
}

/** GET /api/captcha/challenge: a proof-of-work challenge for the contact form. */
export function captchaChallenge(): Promise<CaptchaChallenge> {
  return request(CaptchaChallenge, 'api/captcha/challenge', { authenticated: false });
}

/** POST /api/contact-form: `recaptchaToken` carries the solved challenge. */
export function sendContactMessage(input: ContactRequest): Promise<MessageResponse> {
  return request(MessageResponse, 'api/contact-form', { method: 'post', json: input, authenticated: false });
}

/** A partner app's public face (its name for the "Connect <partner>" button), by client id. */
export async function partnerApp(clientId: string): Promise<PublicPartnerApp> {
  return request(PublicPartnerApp, `api/public/partner-apps/${encodeURIComponent(clientId)}`, {
    authenticated: false,
  });
}

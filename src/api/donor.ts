import {
  type DonorMatch,
  DonorMatchResponse,
  type DonorMatchUpdate,
  DonorMatchUpdateResponse,
  DonorSessionResponse,
  donorSessionKey,
  type MatchRequest,
  MatchRequestResponse,
  type PublicMatchOrganization,
  PublicMatchOrganizationResponse,
} from '../contract/donor.ts';
import { request } from './client.ts';

/**
 * The donor's calls (the donor edit element) and the public matching page's. None sends the
 * staff session: donor routes take the donor session token, kept in sessionStorage under its
 * own key (never auth_token), so a staff member's session and a donor's never mix.
 */

const segment = (value: number | string) => encodeURIComponent(String(value));

/** A donor session: its token and the match its link was for. */
export type DonorSession = { token: string; matchId: number };

function sessionStore(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

/** The donor session kept for this tab, if any. */
export function readDonorSession(): string | null {
  try {
    return sessionStore()?.getItem(donorSessionKey) ?? null;
  } catch {
    return null;
  }
}

function writeDonorSession(token: string | null): void {
  try {
    if (token === null) sessionStore()?.removeItem(donorSessionKey);
    else sessionStore()?.setItem(donorSessionKey, token);
  } catch {
    // Storage blocked (sandboxed frame): the session lasts as long as the page.
  }
}

/** Forgets the donor session (it expired or no longer reaches the match). */
export const clearDonorSession = () => writeDonorSession(null);

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** POST /api/donor/session: spends the emailed link's token and keeps the donor session. */
export async function openDonorSession(linkToken: string): Promise<DonorSession> {
  const session = await request(DonorSessionResponse, 'api/donor/session', {
    method: 'post',
    json: { token: linkToken },
    authenticated: false,
  });
  writeDonorSession(session.token);
  return { token: session.token, matchId: session.match_id };
}

/** GET /api/donor/donation/{id} with the donor session. */
export async function getDonorMatch(matchId: number, token: string): Promise<DonorMatch> {
  const { donation } = await request(DonorMatchResponse, `api/donor/donation/${segment(matchId)}`, {
    headers: bearer(token),
    authenticated: false,
  });
  return donation;
}

/** PUT /api/donor/donation/{id}: name, email and company (the amount only as it is). */
export function updateDonorMatch(matchId: number, body: DonorMatchUpdate, token: string) {
  return request(DonorMatchUpdateResponse, `api/donor/donation/${segment(matchId)}`, {
    method: 'put',
    json: body,
    headers: bearer(token),
    authenticated: false,
  });
}

/** GET /api/public/match/{slug}: the organization behind a matching page. */
export async function getMatchOrganization(slug: string): Promise<PublicMatchOrganization> {
  const { organization } = await request(
    PublicMatchOrganizationResponse,
    `api/public/match/${segment(slug)}`,
    {
      authenticated: false,
    },
  );
  return organization;
}

/** POST /api/public/match/{slug}: the match request, with a solved captcha. */
export function requestMatch(slug: string, body: MatchRequest) {
  return request(MatchRequestResponse, `api/public/match/${segment(slug)}`, {
    method: 'post',
    json: body,
    authenticated: false,
  });
}

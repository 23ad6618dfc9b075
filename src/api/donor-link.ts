import { MessageResponse } from '../contract/auth.ts';
import { donorLinkRedirect } from '../contract/donor-paths.ts';
import { request } from './client.ts';

/**
 * spec (part 2, section 7): "GET /api/auth/otp with query email and redirect=/donor-match-update/{di}:
 * emails the donor a login link" (the FAQ and the donor page). Anonymous (no staff token is sent),
 * never retried (each try sends an email), and answered with the same message whether or not the
 * address has a match, so nothing about other people's requests is revealed.
 */
export function requestDonorLink(email: string, matchId: number | string): Promise<MessageResponse> {
  return request(MessageResponse, 'api/auth/otp', {
    searchParams: { email, redirect: donorLinkRedirect(matchId) },
    authenticated: false,
    retries: 0,
  });
}

import {
  type DeclineRequest,
  VerificationQueueResponse,
  VerificationResult,
  verificationPath,
} from '../contract/verification.ts';
import { request } from './client.ts';

/** The verification queue's calls. */

export function fetchVerificationQueue(orgId: number): Promise<VerificationQueueResponse> {
  return request(VerificationQueueResponse, verificationPath(orgId).slice(1));
}

export function verifyMatches(orgId: number, donationIds: number[]): Promise<VerificationResult> {
  return request(VerificationResult, `${verificationPath(orgId).slice(1)}/verify`, {
    method: 'post',
    json: { donation_ids: donationIds },
  });
}

export function declineMatches(
  orgId: number,
  donationIds: number[],
  reason: DeclineRequest['reason'],
): Promise<VerificationResult> {
  return request(VerificationResult, `${verificationPath(orgId).slice(1)}/decline`, {
    method: 'post',
    json: { donation_ids: donationIds, reason },
  });
}

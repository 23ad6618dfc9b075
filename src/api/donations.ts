import * as z from 'zod/mini';
import { MessageResponse } from '../contract/auth.ts';
import {
  type ConfirmStatus,
  type Donation,
  DonationResponse,
  type DonationWrite,
} from '../contract/donations.ts';
import { download, request } from './client.ts';

/** The calls the match detail dialog makes (spec part 2, section 7, Donations). */

const id = (value: number) => encodeURIComponent(String(value));

/** GET /api/donation/{id}. Response: donation. */
export async function getDonation(donationId: number): Promise<Donation> {
  const { donation } = await request(DonationResponse, `api/donation/${id(donationId)}`);
  return donation;
}

/**
 * spec: "POST /api/organization/{id}/donation (create, id 0) or PUT /api/donation/{id}, body
 * donation fields … Response includes donation." A body whose id is 0 (or absent) creates the
 * match in `organizationId`; any other id updates that match.
 */
export async function saveDonation(body: DonationWrite, organizationId?: number): Promise<Donation> {
  const donationId = body.id ?? 0;
  if (donationId === 0) {
    if (organizationId === undefined) throw new Error('A new match needs its organization.');
    const { donation } = await request(DonationResponse, `api/organization/${id(organizationId)}/donation`, {
      method: 'post',
      json: { ...body, id: 0 },
    });
    return donation;
  }
  const { donation } = await request(DonationResponse, `api/donation/${id(donationId)}`, {
    method: 'put',
    json: body,
  });
  return donation;
}

/** DELETE /api/donation/{id}. Response: message. */
export async function deleteDonation(donationId: number): Promise<string> {
  const { message } = await request(MessageResponse, `api/donation/${id(donationId)}`, { method: 'delete' });
  return message;
}

const ConfirmResponse = z.object({ message: z.string() });

/** POST /api/donation/confirm, body donation_ids, status. */
export async function confirmDonations(donationIds: number[], status: ConfirmStatus): Promise<string> {
  const { message } = await request(ConfirmResponse, 'api/donation/confirm', {
    method: 'post',
    json: { donation_ids: donationIds, status },
  });
  return message;
}

/** spec: the packet is "saved as donation-{id}-esign.pdf". */
export const packetFileName = (donationId: number) => `donation-${donationId}-esign.pdf`;

/** GET /api/donation/{id}/esign/download (binary PDF, served only with the bearer token). */
export function downloadPacket(donationId: number): Promise<Blob> {
  return download(`api/donation/${id(donationId)}/esign/download`);
}

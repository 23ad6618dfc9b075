import { MessageResponse } from '../contract/auth.ts';
import {
  BulkCountersignResponse,
  type CountersignRequest,
  EsignFormResponse,
  type EsignSignRequest,
  EsignSignResponse,
  EsignStateResponse,
} from '../contract/esign.ts';
import { request } from './client.ts';

/**
 * Signed forms: the donor's signing page (anonymous: the link's token is the credential) and the
 * staff's calls from the match dialog.
 */

const segment = (value: number | string) => encodeURIComponent(String(value));

/** GET /api/esign/{token}: the prefilled form, or why the link cannot open it. */
export const getSigningForm = (token: string) =>
  request(EsignFormResponse, `api/esign/${segment(token)}`, { authenticated: false });

/** POST /api/esign/{token}: the donor signs. */
export const signForm = (token: string, body: EsignSignRequest) =>
  request(EsignSignResponse, `api/esign/${segment(token)}`, {
    method: 'post',
    json: body,
    authenticated: false,
  });

/** POST /api/esign/{token}/resend: a new link, emailed to the donor's address on file. */
export const resendSigningLink = (token: string) =>
  request(MessageResponse, `api/esign/${segment(token)}/resend`, { method: 'post', authenticated: false });

/** GET /api/donation/{id}/esign: the match's signed form, audit trail and delivery. */
export const getEsignState = (donationId: number) =>
  request(EsignStateResponse, `api/donation/${segment(donationId)}/esign`);

/** POST /api/donation/{id}/esign/countersign. */
export const countersign = (donationId: number, body: CountersignRequest) =>
  request(EsignStateResponse, `api/donation/${segment(donationId)}/esign/countersign`, {
    method: 'post',
    json: body,
  });

/** POST /api/donation/esign/countersign: several matches, typed signature (the verification queue). */
export const countersignMany = (donationIds: number[], name: string) =>
  request(BulkCountersignResponse, 'api/donation/esign/countersign', {
    method: 'post',
    json: { donation_ids: donationIds, name },
  });

/** POST /api/donation/{id}/esign/posted: an original-signature packet was posted. */
export const markPosted = (donationId: number) =>
  request(EsignStateResponse, `api/donation/${segment(donationId)}/esign/posted`, { method: 'post' });

/** POST /api/donation/{id}/esign/deliver: send a countersigned packet to the company again. */
export const deliverAgain = (donationId: number) =>
  request(EsignStateResponse, `api/donation/${segment(donationId)}/esign/deliver`, { method: 'post' });

import {
  PayoutBatchesResponse,
  type PayoutChoice,
  PayoutConfirmResponse,
  type PayoutMap,
  PayoutPreviewResponse,
  payoutsPath,
} from '../contract/payouts.ts';
import { request } from './client.ts';

/** The payouts screen's calls: the reports confirmed, a report's preview, its confirmation. */

export interface PayoutUpload {
  file: File;
  /** The payment day of lines without one (YYYY-MM-DD). */
  paidAt: string;
  map?: PayoutMap | undefined;
}

function form(upload: PayoutUpload, choices?: Record<number, PayoutChoice>): FormData {
  const body = new FormData();
  body.set('report', upload.file);
  body.set('paid_at', upload.paidAt);
  if (upload.map) body.set('map', JSON.stringify(upload.map));
  if (choices) body.set('choices', JSON.stringify(choices));
  return body;
}

export function fetchPayoutBatches(orgId: number): Promise<PayoutBatchesResponse> {
  return request(PayoutBatchesResponse, payoutsPath(orgId).slice(1));
}

export function previewPayouts(orgId: number, upload: PayoutUpload): Promise<PayoutPreviewResponse> {
  return request(PayoutPreviewResponse, `${payoutsPath(orgId).slice(1)}/preview`, {
    method: 'post',
    body: form(upload),
  });
}

export function confirmPayouts(
  orgId: number,
  upload: PayoutUpload,
  choices: Record<number, PayoutChoice>,
): Promise<PayoutConfirmResponse> {
  return request(PayoutConfirmResponse, `${payoutsPath(orgId).slice(1)}/confirm`, {
    method: 'post',
    body: form(upload, choices),
  });
}

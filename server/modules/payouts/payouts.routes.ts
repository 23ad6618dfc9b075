import * as z from 'zod/mini';
import { MessageResponse } from '../../../src/contract/auth.ts';
import { importMessages, maxImportBytes } from '../../../src/contract/donation-import.ts';
import { realDay } from '../../../src/contract/fields.ts';
import {
  PayoutBatchesResponse,
  PayoutConfirmResponse,
  PayoutPreviewResponse,
  payoutMessages,
} from '../../../src/contract/payouts.ts';
import { IdParams, orgFromIdParam } from '../../http/params.ts';
import { defineRoute } from '../../http/route.ts';
import * as payouts from './payouts.service.ts';

const error = (description: string) => ({ description, schema: MessageResponse });
const tags = ['payouts'];

/** The multipart form of both calls: the report, its map, the default payment day, the choices. */
const PayoutForm = z.object({
  report: z.custom<File>((value) => value instanceof File, payoutMessages.missingFile),
  map: z.optional(z.string().check(z.maxLength(100_000))),
  /** The payment day of lines whose report gives none (YYYY-MM-DD; default today). */
  paid_at: z.optional(realDay('paid_at must be a real date (YYYY-MM-DD)')),
  /** JSON: line number → match id, "create" or "skip" (Confirm only). */
  choices: z.optional(z.string().check(z.maxLength(1_000_000))),
});
const bodyLimit = { bytes: maxImportBytes + 1_100_000, message: importMessages.tooLarge };
const today = (now: Date) => now.toISOString().slice(0, 10);

/** Payouts received: disbursement reports matched to match requests. */
export const payoutsRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/organization/:id/payouts',
    access: { level: 'read', capability: 'donations.view', org: orgFromIdParam },
    summary: 'The payout reports confirmed for the organization, newest first',
    tags,
    params: IdParams,
    responses: { 200: { description: 'The reports', schema: PayoutBatchesResponse } },
    handler: ({ deps, params }) => payouts.listBatches(deps.db, params.id),
  }),
  defineRoute({
    method: 'post',
    path: '/api/organization/:id/payouts/preview',
    access: { level: 'write', capability: 'donations.change', org: orgFromIdParam },
    summary:
      'Read a payout report (.csv, .xlsx, .xls) and match each line to a match request with a score: matched, ambiguous, unmatched, or recorded before. Writes nothing',
    tags,
    params: IdParams,
    body: PayoutForm,
    bodyKind: 'multipart',
    bodyLimit,
    responses: {
      200: { description: 'What confirming would do', schema: PayoutPreviewResponse },
      400: error('Unsupported file type, no column names, too many lines, or a bad map'),
      413: error(
        'Over 10 MB, a workbook that unpacks past 100 MB, or a file that needs too much memory or time to read',
      ),
      429: error(importMessages.busy),
    },
    handler: ({ deps, params, body }) =>
      payouts.previewPayouts(
        deps.db,
        params.id,
        body.report,
        body.map,
        body.paid_at ?? today(deps.clock.now()),
      ),
  }),
  defineRoute({
    method: 'post',
    path: '/api/organization/:id/payouts/confirm',
    access: { level: 'write', capability: 'donations.change', org: orgFromIdParam },
    summary:
      'Confirm a payout report: matched and picked lines mark their match Match Completed with the amount and day paid, "create" lines become completed matches; a line confirmed before changes nothing',
    tags,
    params: IdParams,
    body: PayoutForm,
    bodyKind: 'multipart',
    bodyLimit,
    responses: {
      200: { description: 'What changed', schema: PayoutConfirmResponse },
      400: error('A bad map or choices, or two lines paying one match'),
      409: error('A chosen match is already paid'),
      413: error(
        'Over 10 MB, a workbook that unpacks past 100 MB, or a file that needs too much memory or time to read',
      ),
      429: error(importMessages.busy),
    },
    handler: ({ deps, params, body, user }) => {
      const now = deps.clock.now();
      return payouts.confirmPayouts(
        deps.db,
        params.id,
        user.id,
        { file: body.report, map: body.map, paidAt: body.paid_at ?? today(now), choices: body.choices },
        now,
      );
    },
  }),
];

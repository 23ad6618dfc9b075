import * as z from 'zod/mini';
import { normaliseHeader, skipTarget } from './donation-import.ts';

/**
 * Payouts received (/portal/payouts): a disbursement report from a company or its CSR vendor is
 * read, each line matched to a match request with a score, shown before anything changes
 * (preview), then confirmed: the matched requests become Match Completed with the amount and day
 * paid. Amounts are dollars in the API, cents in the database.
 */

/** What a report's column can mean. */
export const payoutTargets = [
  'donor_name',
  'donor_first_name',
  'donor_last_name',
  'donor_email',
  'company',
  'amount',
  'gift_amount',
  'donated_at',
  'paid_at',
  'transaction_id',
] as const;
export type PayoutTarget = (typeof payoutTargets)[number];

export const payoutTargetLabels: Record<PayoutTarget, string> = {
  donor_name: 'Donor name (full)',
  donor_first_name: 'Donor first name',
  donor_last_name: 'Donor last name',
  donor_email: 'Donor email',
  company: 'Company',
  amount: 'Amount paid (match)',
  gift_amount: 'Donor’s gift amount',
  donated_at: 'Donation date',
  paid_at: 'Payment date',
  transaction_id: 'Transaction ID',
};

export { skipTarget };

/**
 * The headers each vendor's disbursement report usually carries (normalised to snake_case, as
 * the donation import does), and what each means. A report is recognised as a vendor's when all
 * of its `required` headers are there; other columns are ignored. These are our reading of the
 * vendors' exports; the test fixtures (server/modules/payouts/fixtures/) hold one report of each.
 */
export const vendorReports = {
  Benevity: {
    required: ['donor_first_name', 'donor_last_name', 'total_donation_to_be_acknowledged', 'match_amount'],
    map: {
      company: 'company',
      donor_first_name: 'donor_first_name',
      donor_last_name: 'donor_last_name',
      email: 'donor_email',
      donation_date: 'donated_at',
      total_donation_to_be_acknowledged: 'gift_amount',
      match_amount: 'amount',
      transaction_id: 'transaction_id',
      disbursement_date: 'paid_at',
    },
  },
  YourCause: {
    required: ['payment_number', 'payment_date', 'match_amount'],
    map: {
      company_name: 'company',
      donor_first_name: 'donor_first_name',
      donor_last_name: 'donor_last_name',
      donor_email: 'donor_email',
      donation_date: 'donated_at',
      donation_amount: 'gift_amount',
      match_amount: 'amount',
      payment_date: 'paid_at',
      transaction_id: 'transaction_id',
    },
  },
  CyberGrants: {
    required: ['matching_gift_amount', 'check_date'],
    map: {
      donor_name: 'donor_name',
      donor_email: 'donor_email',
      company: 'company',
      gift_date: 'donated_at',
      gift_amount: 'gift_amount',
      matching_gift_amount: 'amount',
      check_date: 'paid_at',
      gift_id: 'transaction_id',
    },
  },
  'Bright Funds': {
    required: ['payout_id', 'payout_date', 'match_amount'],
    map: {
      donor_name: 'donor_name',
      donor_email: 'donor_email',
      company: 'company',
      donation_date: 'donated_at',
      donation_amount: 'gift_amount',
      match_amount: 'amount',
      payout_date: 'paid_at',
      donation_id: 'transaction_id',
    },
  },
} as const satisfies Record<string, { required: readonly string[]; map: Record<string, PayoutTarget> }>;
export type PayoutVendor = keyof typeof vendorReports;

/** Other usual spellings, for a report of no known vendor (a company's own spreadsheet). */
const synonyms: Record<string, PayoutTarget> = {
  name: 'donor_name',
  donor: 'donor_name',
  employee_name: 'donor_name',
  full_name: 'donor_name',
  first_name: 'donor_first_name',
  last_name: 'donor_last_name',
  email: 'donor_email',
  email_address: 'donor_email',
  employee_email: 'donor_email',
  employer: 'company',
  company_name: 'company',
  amount_paid: 'amount',
  paid_amount: 'amount',
  match: 'amount',
  matched_amount: 'amount',
  payment_amount: 'amount',
  donation_amount: 'gift_amount',
  gift: 'gift_amount',
  date: 'donated_at',
  gift_date: 'donated_at',
  donated: 'donated_at',
  paid_date: 'paid_at',
  payment_date: 'paid_at',
  date_paid: 'paid_at',
  transaction: 'transaction_id',
};

/** A report's map: each normalised header to a target or 'skip'. */
export const PayoutMap = z.record(z.string(), z.string());
export type PayoutMap = z.infer<typeof PayoutMap>;

/** The vendor whose usual headers the report has, or null. */
export function recogniseVendor(headers: readonly string[]): PayoutVendor | null {
  const present = new Set(headers);
  return (
    (Object.keys(vendorReports) as PayoutVendor[]).find((v) =>
      vendorReports[v].required.every((h) => present.has(h)),
    ) ?? null
  );
}

/** The proposed map: the vendor's, else the usual spellings; anything unknown is skipped. */
export function proposePayoutMap(headers: readonly string[]): PayoutMap {
  const vendor = recogniseVendor(headers);
  const known: Record<string, PayoutTarget> = vendor ? vendorReports[vendor].map : {};
  const taken = new Set<string>();
  const map: PayoutMap = {};
  for (const header of headers) {
    const target =
      known[header] ??
      (vendor
        ? undefined
        : (payoutTargets as readonly string[]).includes(header)
          ? header
          : synonyms[header]);
    if (target && !taken.has(target)) {
      map[header] = target;
      taken.add(target);
    } else map[header] = skipTarget;
  }
  return map;
}

export const payoutMessages = {
  duplicateTarget:
    'Mapping Error: One or more fields are mapped to the same column. Reassign them or choose "Do not use".',
  unknownTarget: 'The map names a field payout reports do not have.',
  amountRequired: 'Choose the column holding the amount paid.',
  donorRequired: 'Choose a column with the donor’s name or email.',
  badChoices: 'choices must be a JSON object of line numbers to a match id, "create" or "skip".',
  badMap: 'map must be a JSON object of column names to fields.',
  samePayment: (a: number, b: number) =>
    `Lines ${a} and ${b} both pay the same match: pick another for one of them.`,
  alreadyPaid: (line: number) => `Line ${line}: that match is already marked paid.`,
  notAMatch: (line: number) => `Line ${line}: the match chosen is not one of this organization's.`,
  missingFile: 'Choose a payout report (.csv, .xlsx or .xls).',
  noOrganization: 'You must select an organization to use this section.',
} as const;

/** Why a map cannot be used, or null. */
export function payoutMapProblem(map: PayoutMap): string | null {
  const targets = Object.values(map).filter((t) => t !== skipTarget);
  if (targets.some((t) => !(payoutTargets as readonly string[]).includes(t)))
    return payoutMessages.unknownTarget;
  if (new Set(targets).size !== targets.length) return payoutMessages.duplicateTarget;
  if (!targets.includes('amount')) return payoutMessages.amountRequired;
  if (!['donor_name', 'donor_first_name', 'donor_last_name', 'donor_email'].some((t) => targets.includes(t)))
    return payoutMessages.donorRequired;
  return null;
}

export { normaliseHeader };

/** A report holds at most this many lines (the benchmark matches one this long). */
export const maxPayoutLines = 20_000;

/** Scores run 0 to 100: a candidate below `candidateScore` is not shown at all. */
export const candidateScore = 50;
/** The best candidate is the match when it scores this much and leads the next by `clearLead`. */
export const matchScore = 60;
export const clearLead = 15;

export const payoutOutcomes = ['matched', 'ambiguous', 'unmatched', 'recorded', 'invalid'] as const;
export type PayoutOutcome = (typeof payoutOutcomes)[number];

export const PayoutCandidate = z.object({
  donation_id: z.number(),
  score: z.number(),
  donor_name: z.nullable(z.string()),
  donor_email: z.nullable(z.string()),
  company_name: z.nullable(z.string()),
  amount: z.number(),
  matched: z.number(),
  donated_at: z.string(),
  status_name: z.string(),
});
export type PayoutCandidate = z.infer<typeof PayoutCandidate>;

export const PayoutPreviewLine = z.object({
  line: z.number(),
  donor_name: z.nullable(z.string()),
  donor_email: z.nullable(z.string()),
  company: z.nullable(z.string()),
  amount: z.nullable(z.number()),
  gift_amount: z.nullable(z.number()),
  donated_at: z.nullable(z.string()),
  paid_at: z.nullable(z.string()),
  transaction_id: z.nullable(z.string()),
  outcome: z.enum(payoutOutcomes),
  /** Why a line is invalid, or which match already recorded it. */
  reason: z.nullable(z.string()),
  /** Best first; the first is the match of a 'matched' line. */
  candidates: z.array(PayoutCandidate),
});
export type PayoutPreviewLine = z.infer<typeof PayoutPreviewLine>;

export const PayoutPreviewResponse = z.object({
  vendor: z.nullable(z.string()),
  headers: z.array(z.object({ header: z.string(), original: z.string() })),
  map: PayoutMap,
  /** Why the map cannot be used yet (the mapper shows it), or null. */
  problem: z.nullable(z.string()),
  /** The report was confirmed before: confirming it again changes nothing. */
  recorded: z.boolean(),
  lines: z.array(PayoutPreviewLine),
  counts: z.object({
    matched: z.number(),
    ambiguous: z.number(),
    unmatched: z.number(),
    recorded: z.number(),
    invalid: z.number(),
  }),
});
export type PayoutPreviewResponse = z.infer<typeof PayoutPreviewResponse>;

/** The choice made for a line on Confirm: a match id, a new completed match, or skip. */
export type PayoutChoice = number | 'create' | 'skip';

export const PayoutConfirmResponse = z.object({
  batch_id: z.number(),
  completed: z.number(),
  created: z.number(),
  skipped: z.number(),
  /** Lines recorded by an earlier confirmation: left as they were. */
  already_recorded: z.number(),
  paid: z.number(),
  message: z.string(),
});
export type PayoutConfirmResponse = z.infer<typeof PayoutConfirmResponse>;

export const PayoutBatch = z.object({
  id: z.number(),
  file_name: z.string(),
  vendor: z.nullable(z.string()),
  lines: z.number(),
  completed: z.number(),
  created: z.number(),
  paid: z.number(),
  created_at: z.string(),
});
export const PayoutBatchesResponse = z.object({ batches: z.array(PayoutBatch) });
export type PayoutBatchesResponse = z.infer<typeof PayoutBatchesResponse>;

export const payoutsPath = (orgId: number) => `/api/organization/${orgId}/payouts`;

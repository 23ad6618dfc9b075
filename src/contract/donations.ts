import * as z from 'zod/mini';
import { MatchCompany } from './companies.ts';
import { isEmailAddress } from './email.ts';
import { dbId, maxDollars, maxInt32, noNul, queryId, realDateTime, safeText } from './fields.ts';
import { billingStatuses, statusGroupIds } from './statuses.ts';

/**
 * The donations calls (spec part 2, sections 3 and 7). Amounts are dollars (numbers with cents)
 * in the API and integer cents in the database; dates are ISO 8601 strings.
 */

/** spec: "status (object with name and billing_status: eligible, processed, otherwise shown as Ineligible)". */
export const DonationStatus = z.object({
  id: z.number(),
  name: z.string(),
  billing_status: z.enum(billingStatuses),
});

export const DonationDonor = z.object({
  id: z.number(),
  name: z.nullable(z.string()),
  email: z.nullable(z.string()),
});
export const DonationOrganization = z.object({
  id: z.number(),
  name: z.string(),
  /** The organization's chapters (on GET /api/donation/{id}; the list leaves them out). */
  children: z.optional(z.array(z.object({ id: z.number(), name: z.string() }))),
});
export const RecurringHistoryRow = z.object({
  id: z.number(),
  created_at: z.string(),
  donated_at: z.string(),
  amount: z.number(),
});
export const DonationNotification = z.object({
  id: z.number(),
  created_at: z.string(),
  subject: z.string(),
  first_open: z.nullable(z.string()),
  /** Beyond the spec: which email of the workflow it was (the initial one, a reminder, ...). */
  kind: z.optional(z.enum(['initial', 'reminder', 'deadline', 'expire', 'link'])),
  /** 1 the initial texts, 2 the 1st reminder's, 3 the 2nd reminder's. */
  stage: z.optional(z.number()),
});

/** How the match dialog names each email of the workflow. */
export function notificationLabel(n: { kind?: string | undefined; stage?: number | undefined }): string {
  if (n.kind === 'reminder') return n.stage === 3 ? '2nd reminder' : '1st reminder';
  if (n.kind === 'deadline') return 'Deadline approaching';
  if (n.kind === 'expire') return 'About to expire';
  if (n.kind === 'link') return 'New signing link';
  return 'Initial email';
}

/** spec (section 3, Donation/match): every field it lists. */
export const Donation = z.object({
  id: z.number(),
  transaction_id: z.nullable(z.string()),
  donated_at: z.string(),
  amount: z.number(),
  /** The estimated match amount, dollars. */
  matched: z.number(),
  status: DonationStatus,
  status_id: z.number(),
  donor: z.nullable(DonationDonor),
  donor_id: z.nullable(z.number()),
  donor_name: z.nullable(z.string()),
  company: z.nullable(MatchCompany),
  company_id: z.nullable(z.number()),
  company_name: z.nullable(z.string()),
  /** Beyond the spec (issue 12): the campaign whose terms made the estimated match. */
  campaign: z.optional(z.nullable(z.object({ id: z.number(), name: z.string() }))),
  organization: DonationOrganization,
  organization_id: z.number(),
  custom: z.record(z.string(), z.unknown()),
  recurring_id: z.nullable(z.string()),
  recurring_history: z.array(RecurringHistoryRow),
  /** spec: "inert (1 = external match)". */
  inert: z.number(),
  silenced: z.boolean(),
  refunded_bill_id: z.nullable(z.number()),
  eligible_bill_id: z.nullable(z.number()),
  processed_bill_id: z.nullable(z.number()),
  adobe_sign_signingUrl: z.nullable(z.string()),
  /**
   * Beyond the spec, on GET /api/donation/{id} only: the share of the estimated match its payer's
   * plan bills per request (0.05 on elig_5), or null when the plan bills nothing per match. The
   * dialog says what Submitted, No Charge and Refund will do to the bill before doing it.
   */
  billing_rate: z.optional(z.nullable(z.number())),
  /** Beyond the spec: what the company paid (dollars) and when (YYYY-MM-DD), from a payout report. */
  paid_amount: z.optional(z.nullable(z.number())),
  paid_at: z.optional(z.nullable(z.string())),
  /**
   * Beyond the spec (issue 31): how the company was found (domain, name, alias, history, person),
   * how sure, and why; null while no company is known or when it was set before this was recorded.
   */
  employer: z.optional(
    z.nullable(
      z.object({ method: z.string(), confidence: z.nullable(z.number()), reason: z.nullable(z.string()) }),
    ),
  ),
  /**
   * Issue 31: the donor's email as given, when the misspelt common domain was corrected on the way
   * in (the latest correction; kept in the employer history). Only GET /api/donation/{id} reads it.
   */
  email_correction: z.optional(z.nullable(z.object({ from: z.string(), to: z.string(), at: z.string() }))),
  notifications: z.array(DonationNotification),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Donation = z.infer<typeof Donation>;

/** spec: custom keys "amply, company, history, recurring_history are hidden from editing". */
export const hiddenCustomKeys = ['amply', 'company', 'history', 'recurring_history'] as const;

/** The columns the list may be sorted by (spec: "default sort donated_at descending"). */
export const donationSortFields = [
  'donated_at',
  'amount',
  'matched',
  'donor_name',
  'company_name',
  'organization_name',
  'status_id',
  'created_at',
  'id',
] as const;
export type DonationSortField = (typeof donationSortFields)[number];
export const defaultDonationSort = { field: 'donated_at', ascending: false } as const;
export const maxDonationsPerPage = 100;
/** spec (part 1, section 3, Listing options): "The default is page 1, per_page 50". */
export const defaultDonationsPerPage = 50;

export { noNul };

// The list's service says which filter date does not exist ('dateFrom is not a valid date').
const day = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates must be YYYY-MM-DD'));
const queryInt = /* @__NO_SIDE_EFFECTS__ */ (message: string) =>
  z.string().check(z.regex(/^\d{1,9}$/, message));

export const paidFilters = ['paid', 'unpaid'] as const;

/**
 * GET /api/organization/{id}/donation: page, per_page, sort_field, ascending and filters[...]
 * (sent as `filters[dateFrom]=2025-01-01` etc.; the server reads them flattened).
 */
export const DonationListQuery = z.object({
  page: z.optional(queryInt('page must be a whole number from 1')),
  per_page: z.optional(queryInt(`per_page must be a whole number from 1 to ${maxDonationsPerPage}`)),
  sort_field: z.optional(
    z.enum(donationSortFields, `sort_field must be one of ${donationSortFields.join(', ')}`),
  ),
  ascending: z.optional(z.enum(['true', 'false', '1', '0'], 'ascending must be true or false')),
  'filters[dateFrom]': z.optional(day),
  'filters[dateTo]': z.optional(day),
  'filters[company]': z.optional(safeText(z.maxLength(200))),
  /** The donor's name or email. */
  'filters[donor]': z.optional(safeText(z.maxLength(200))),
  /** Dollars. */
  'filters[minAmount]': z.optional(
    z.string().check(
      z.regex(/^\d{1,9}(\.\d{1,2})?$/, 'minAmount must be an amount in dollars'),
      // Compared with integer cents: beyond the column's range it would fail in the database.
      z.refine((s) => Number(s) <= maxDollars, `minAmount must be at most ${maxDollars}`),
    ),
  ),
  /** Beyond the spec (issue 12): the matches whose estimate a campaign of the organization made. */
  'filters[campaign]': z.optional(queryId('campaign must be a campaign id')),
  'filters[status_group]': z.optional(
    z.enum(statusGroupIds, `status_group must be one of ${statusGroupIds.join(', ')}`),
  ),
  /** One organization of the family (the organization itself or one of its chapters): its own matches only. */
  'filters[organization]': z.optional(queryId('organization must be an organization id')),
  /**
   * yyyy-MM: the submitted matches awaiting payment whose company is expected to pay them in that
   * month (the dashboard's forecast, same rule).
   */
  'filters[expectedMonth]': z.optional(
    z.string().check(z.regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'expectedMonth must be a month, YYYY-MM')),
  ),
  /**
   * The company exactly as the dashboard's top companies name it: the catalogue company's name, or
   * the trimmed name typed on a match that has no catalogue company ('Acme' does not match 'Acme Biotech').
   */
  'filters[companyName]': z.optional(safeText(z.maxLength(500))),
  /** Beyond the spec: only matches whose payment was received (paid) or not yet (unpaid). */
  'filters[paid]': z.optional(z.enum(paidFilters, 'paid must be paid or unpaid')),
  _token: z.optional(safeText(z.maxLength(4000))),
});
export type DonationListQuery = z.infer<typeof DonationListQuery>;

export const DonationCounts = z.object({
  donor_contacted: z.number(),
  npo_verify: z.number(),
  engaged_submitted: z.number(),
  no_response: z.number(),
});
export type DonationCounts = z.infer<typeof DonationCounts>;

/** The list: one page, the total for the filters, and each tile's count for the same filters minus status_group. */
export const DonationListResponse = z.object({
  donations: z.array(Donation),
  total: z.number(),
  counts: DonationCounts,
});
export type DonationListResponse = z.infer<typeof DonationListResponse>;

export const DonationResponse = z.object({ donation: Donation });
export type DonationResponse = z.infer<typeof DonationResponse>;

const dollars = z
  .number('Amount must be a number')
  .check(z.gte(0, 'Amount cannot be negative'), z.lte(1_000_000, 'Amount is too large'));

/** The donation fields a create or update sends (spec: "dates sent as date plus time"). */
export const DonationWrite = z.object({
  /** 0 or left out when creating. */
  id: z.optional(z.number().check(z.int(), z.gte(0), z.lte(maxInt32))),
  transaction_id: z.optional(z.nullable(safeText(z.trim(), z.maxLength(200)))),
  donated_at: realDateTime('donated_at must be a real date and time'),
  amount: dollars,
  donor: z.object({
    name: safeText(z.trim(), z.minLength(1, 'Donor name is required'), z.maxLength(200)),
    email: z.optional(
      z.nullable(
        z.string().check(
          z.trim(),
          z.maxLength(320),
          z.refine((s) => s === '' || isEmailAddress(s), 'Please enter a valid email address'),
        ),
      ),
    ),
  }),
  /** spec: "company_id null when absent". */
  company_id: z.optional(z.nullable(dbId())),
  company_name: z.optional(z.nullable(safeText(z.trim(), z.maxLength(200)))),
  custom: z.optional(z.record(safeText(z.maxLength(200)), z.unknown())),
  recurring_id: z.optional(z.nullable(safeText(z.trim(), z.maxLength(200)))),
  silenced: z.optional(z.boolean()),
  /** spec: "reprocess true for Save & Re-Email": the status is resolved again as for a new match. */
  reprocess: z.optional(z.boolean()),
});
export type DonationWrite = z.infer<typeof DonationWrite>;

/** spec: "POST /api/donation/confirm, body donation_ids, status." */
export const confirmStatuses = ['submitted', 'no-charge', 'refunded'] as const;
export type ConfirmStatus = (typeof confirmStatuses)[number];
export const ConfirmRequest = z.object({
  donation_ids: z
    .array(dbId())
    .check(
      z.minLength(1, 'Choose at least one donation'),
      z.maxLength(1000, 'At most 1000 donations at once'),
    ),
  status: z.enum(confirmStatuses, `status must be one of ${confirmStatuses.join(', ')}`),
});
export type ConfirmRequest = z.infer<typeof ConfirmRequest>;

export const donationMessages = {
  notFound: 'Donation not found',
  duplicateTransaction: 'A donation with this transaction id already exists for this organization.',
  companyNotFound: 'Company not found',
  deleted: 'Match deleted successfully.',
  confirmed: 'Donation status updated successfully.',
} as const;

/** spec: "Download Packet: for esign, paper or mail companies … at status 1 or 4" (the button and the server's 409 alike). */
export const packetMethods = ['esign', 'paper', 'mail'] as const;
export const packetStatuses: readonly number[] = [1, 4];

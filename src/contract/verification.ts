import * as z from 'zod/mini';
import type { MatchMethod, VerifyMethod } from './companies.ts';
import { dbId, safeText } from './fields.ts';
import { type StatusId, statusGroups, statusIdOf } from './statuses.ts';

/**
 * The verification queue (/portal/verification): every match waiting on the nonprofit, oldest
 * first, grouped by company and CSR vendor, with bulk verify and decline.
 */

/**
 * The statuses that wait on the nonprofit: the dashboard's 'NPO to Verify' group ("steps for the
 * nonprofit, digital signatures"), so the tile that links here counts exactly the queue's matches.
 */
export const verificationStatuses: readonly StatusId[] = statusGroups.npo_verify.statuses;

/** Verify moves a match on as the dialog's Submitted does: the company has what it needs. */
export const verifiedStatus: StatusId = statusIdOf.submitted;
/** Decline: the nonprofit refuses the match (override-declined), with its reason in the history. */
export const declinedStatus: StatusId = statusIdOf.overrideDeclined;

/** The CSR vendors whose nonprofit portals a match may have to be verified in, with their links. */
export const csrVendors = {
  Benevity: 'https://causes.benevity.org',
  YourCause: 'https://nonprofit.yourcause.com',
  CyberGrants: 'https://www.cybergrants.com',
  'Bright Funds': 'https://www.brightfunds.org',
} as const satisfies Record<string, string>;
export type CsrVendor = keyof typeof csrVendors;

/** The vendor a company's csr_vendor names (any spelling: 'brightfunds', 'Your Cause'), or null. */
export function csrVendorOf(name: string | null | undefined): CsrVendor | null {
  if (!name) return null;
  const key = name.toLowerCase().replace(/[^a-z]/g, '');
  return (
    (Object.keys(csrVendors) as CsrVendor[]).find((v) => v.toLowerCase().replace(/[^a-z]/g, '') === key) ??
    null
  );
}

/** What the nonprofit checks before it verifies a match. */
export function whatToCheck(match: {
  status_id: number;
  match_method: MatchMethod | null;
  verify: VerifyMethod | null;
  vendor: CsrVendor | null;
  /** The donor signed the form in Twofold and the nonprofit has not countersigned it yet. */
  awaiting_countersign?: boolean;
}): string {
  if (match.awaiting_countersign)
    return 'The donor signed the company’s form: countersign it, and the packet goes to the company.';
  if (match.status_id === statusIdOf.donorToESign || match.status_id === statusIdOf.waitingOnDonorESign)
    return 'The donor signs the company’s form first: verify once their signature is in.';
  const where = match.vendor
    ? `Find the gift among the pending verifications in the ${match.vendor} portal.`
    : match.match_method === 'form'
      ? 'Fill in and sign the company’s matching form.'
      : 'Answer the company’s verification request.';
  const how =
    match.verify === 'both'
      ? ' The company confirms by email and by phone.'
      : match.verify === 'email'
        ? ' The company confirms by email.'
        : match.verify === 'phone'
          ? ' The company confirms by phone.'
          : '';
  return `Check the gift was received (date, amount, donor), then: ${where}${how}`;
}

export const VerificationItem = z.object({
  id: z.number(),
  donated_at: z.string(),
  amount: z.number(),
  matched: z.number(),
  status: z.object({ id: z.number(), name: z.string() }),
  donor_name: z.nullable(z.string()),
  donor_email: z.nullable(z.string()),
  organization_name: z.string(),
  /** The last day the company accepts the request (YYYY-MM-DD), or null. */
  deadline: z.nullable(z.string()),
  check: z.string(),
  /** The donor signed the form in Twofold; the nonprofit's countersignature is what it waits on. */
  awaiting_countersign: z.boolean(),
});
export type VerificationItem = z.infer<typeof VerificationItem>;

export const VerificationGroup = z.object({
  company_id: z.nullable(z.number()),
  company_name: z.string(),
  vendor: z.nullable(z.string()),
  /** The vendor's nonprofit portal, else the company's own page. */
  portal_url: z.nullable(z.string()),
  /** The earliest deadline of the group's matches. */
  deadline: z.nullable(z.string()),
  items: z.array(VerificationItem),
});
export type VerificationGroup = z.infer<typeof VerificationGroup>;

/** The queue shows at most this many matches (the oldest); total says how many wait. */
export const verificationQueueLimit = 500;

export const VerificationQueueResponse = z.object({
  groups: z.array(VerificationGroup),
  total: z.number(),
});
export type VerificationQueueResponse = z.infer<typeof VerificationQueueResponse>;

const ids = z
  .array(dbId())
  .check(z.minLength(1, 'Choose at least one match'), z.maxLength(1000, 'At most 1000 matches at once'));

export const VerifyRequest = z.object({ donation_ids: ids });
export type VerifyRequest = z.infer<typeof VerifyRequest>;

export const DeclineRequest = z.object({
  donation_ids: ids,
  reason: safeText(
    z.trim(),
    z.minLength(1, 'A reason is required'),
    z.maxLength(500, 'At most 500 characters'),
  ),
});
export type DeclineRequest = z.infer<typeof DeclineRequest>;

export const VerificationResult = z.object({ message: z.string(), donation_ids: z.array(z.number()) });
export type VerificationResult = z.infer<typeof VerificationResult>;

export const verificationMessages = {
  notInQueue: 'Some of these matches are no longer waiting on your organization. Reload the queue.',
  verified: (n: number) => `${n} ${n === 1 ? 'match' : 'matches'} verified.`,
  declined: (n: number) => `${n} ${n === 1 ? 'match' : 'matches'} declined.`,
  noOrganization: 'You must select an organization to use this section.',
  empty: 'Nothing is waiting on your organization.',
  loadFailed: 'Failed to load the verification queue.',
} as const;

export const verificationPath = (orgId: number) => `/api/organization/${orgId}/verification`;

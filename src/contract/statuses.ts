/**
 * The donation/match status catalogue, the dashboard's status groups (tiles) and the billing
 * status: the one table the server and the browser both read.
 *
 * spec (part 2, section 4): "2 Match Request Under Review; 3 NPO to Verify/Sign; 4 Submitted; …
 * In the list UI: 1 is Match Completed; 25 is waiting on donor e-sign."
 */
export const statuses = {
  1: 'Match Completed',
  2: 'Match Request Under Review',
  3: 'NPO to Verify/Sign',
  4: 'Submitted',
  5: 'Donor to E-Sign Form',
  6: 'Original Signature Only',
  7: 'Donor to Submit in Company Portal',
  8: 'Donor to Notify Company',
  9: 'Company Policy Incomplete',
  10: 'Below Company Minimum',
  11: 'Against Company Policy',
  12: 'override-declined (internal)',
  13: 'No Charge (internal)',
  14: 'NPO Disabled',
  15: "Donation Can't Be Matched Outside Company Site",
  16: 'Refunded (internal)',
  17: 'NPO Registration Incomplete',
  19: 'Company Has No Matching Program',
  20: 'Donor No Response',
  21: 'Donor Declined',
  22: 'Recurring Hold',
  23: 'Missing Company Hold',
  24: 'Awaiting Donor Opt-In',
  25: 'Waiting on Donor E-Sign',
  28: 'Donor Engaged',
} as const satisfies Record<number, string>;
export type StatusId = keyof typeof statuses;
// Pure: a bundle that never reads the ids (a public element using only statusIdOf) leaves the catalogue out.
export const statusIds = /* @__PURE__ */ Object.keys(statuses).map(Number) as StatusId[];

export function isStatusId(value: number): value is StatusId {
  return Object.hasOwn(statuses, value);
}

/** The name of a status id; an id outside the catalogue is shown as 'Unknown status {id}'. */
export function statusName(id: number): string {
  return isStatusId(id) ? statuses[id] : `Unknown status ${id}`;
}

/** Names used by the confirm call and the detail dialog's actions. */
export const statusIdOf = {
  matchCompleted: 1,
  underReview: 2,
  npoToVerify: 3,
  submitted: 4,
  donorToESign: 5,
  originalSignatureOnly: 6,
  donorToSubmitInPortal: 7,
  donorToNotifyCompany: 8,
  policyIncomplete: 9,
  overrideDeclined: 12,
  belowMinimum: 10,
  againstPolicy: 11,
  noCharge: 13,
  npoDisabled: 14,
  outsideCompanySite: 15,
  refunded: 16,
  registrationIncomplete: 17,
  noProgram: 19,
  donorNoResponse: 20,
  recurringHold: 22,
  missingCompany: 23,
  waitingOnDonorESign: 25,
  donorEngaged: 28,
} as const satisfies Record<string, StatusId>;

export const statusGroupIds = ['donor_contacted', 'npo_verify', 'engaged_submitted', 'no_response'] as const;
export type StatusGroup = (typeof statusGroupIds)[number];

/**
 * The four tiles. Which statuses each counts is our decision (the spec gives only the meanings):
 *
 * | group             | label                | spec's meaning                                      | statuses                                         |
 * |-------------------|----------------------|-----------------------------------------------------|--------------------------------------------------|
 * | donor_contacted   | Awaiting Submission  | "no action or direction yet"                        | 2 under review, 6 original signature, 7 submit in company portal, 8 notify company, 24 awaiting opt-in: the donor was told what to do and has not done it yet |
 * | npo_verify        | NPO to Verify        | "steps for the nonprofit, digital signatures"       | 3 NPO to verify/sign, 5 donor to e-sign form, 25 waiting on donor e-sign: the e-sign / signature workflow the nonprofit runs |
 * | engaged_submitted | Submitted            | "match submitted; companies pay on their own schedules" | 1 match completed, 4 submitted, 28 donor engaged |
 * | no_response       | No Response          | "no response from the donor"                        | 20 donor no response                             |
 *
 * Holds and ineligible or internal statuses (9–17, 19, 21, 22, 23) are in no tile: nothing is
 * awaited from anyone on them until the match is edited or reprocessed.
 */
export const statusGroups = {
  donor_contacted: { label: 'Awaiting Submission', statuses: [2, 6, 7, 8, 24] },
  npo_verify: { label: 'NPO to Verify', statuses: [3, 5, 25] },
  engaged_submitted: { label: 'Submitted', statuses: [1, 4, 28] },
  no_response: { label: 'No Response', statuses: [20] },
} as const satisfies Record<StatusGroup, { label: string; statuses: readonly StatusId[] }>;

/** The tile a status counts in, if any. */
export function statusGroupOf(id: number): StatusGroup | undefined {
  return statusGroupIds.find((group) => (statusGroups[group].statuses as readonly number[]).includes(id));
}

/** spec: "billing_status: eligible, processed, otherwise shown as Ineligible". */
export const billingStatuses = ['eligible', 'processed', 'ineligible'] as const;
export type BillingStatus = (typeof billingStatuses)[number];
export const billingStatusLabels: Record<BillingStatus, string> = {
  eligible: 'Eligible',
  processed: 'Processed',
  ineligible: 'Ineligible',
};

/**
 * A match is 'processed' once billed (processed bill), 'eligible' once it counts towards the
 * nonprofit's eligible match requests (eligible bill), otherwise ineligible.
 */
export function billingStatusOf(bills: {
  eligible_bill_id: number | null;
  processed_bill_id: number | null;
}): BillingStatus {
  if (bills.processed_bill_id !== null) return 'processed';
  if (bills.eligible_bill_id !== null) return 'eligible';
  return 'ineligible';
}

/**
 * spec: "No Charge: … shown when status is one of 1,3,4,5,6,7,8,20,21,22,25,28 and there is no
 * eligible or processed bill. Refund: … shown for those statuses when a bill exists and no refund."
 */
export const chargeableStatuses: readonly StatusId[] = [1, 3, 4, 5, 6, 7, 8, 20, 21, 22, 25, 28];

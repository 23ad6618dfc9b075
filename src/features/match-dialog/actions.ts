import type { MatchMethod } from '../../contract/companies.ts';
import { type ConfirmStatus, packetMethods, packetStatuses } from '../../contract/donations.ts';
import { chargeableStatuses, statusIdOf } from '../../contract/statuses.ts';

/**
 * Which actions the match detail dialog offers, decided from the match alone (spec part 2,
 * section 4, "Actions on a match (detail dialog)"). Pure, so every rule is tested on its own.
 */

/** What the rules read of a match. */
export interface ActionFacts {
  status_id: number;
  eligible_bill_id: number | null;
  processed_bill_id: number | null;
  refunded_bill_id: number | null;
  recurring_id: string | null;
  silenced: boolean;
  company: { match_method: MatchMethod | null } | null;
}

export interface MatchActions {
  /** Submitted: confirms 'submitted'. Offered at every status except Submitted itself. */
  submitted: boolean;
  /** No Charge: confirms 'no-charge'. */
  noCharge: boolean;
  /** Refund: confirms 'refunded'. */
  refund: boolean;
  /** The disabled Refunded badge. */
  refunded: boolean;
  /** The silence toggle's label. */
  silenceLabel: 'Silence' | 'Un-Silence';
  /** Submit for Match (a recurring gift on hold). */
  submitForMatch: boolean;
  /** Download Packet. */
  downloadPacket: boolean;
}

const chargeable = (statusId: number) => (chargeableStatuses as readonly number[]).includes(statusId);

/** spec: "there is no eligible or processed bill" / "a bill exists". */
export const hasBill = (facts: Pick<ActionFacts, 'eligible_bill_id' | 'processed_bill_id'>) =>
  facts.eligible_bill_id !== null || facts.processed_bill_id !== null;

export function matchActions(facts: ActionFacts): MatchActions {
  const refunded = facts.refunded_bill_id !== null;
  const method = facts.company?.match_method ?? null;
  return {
    // The spec gives Submitted no condition; a match already Submitted has nothing to confirm.
    submitted: facts.status_id !== statusIdOf.submitted,
    // spec: "shown when status is one of 1,3,4,5,6,7,8,20,21,22,25,28 and there is no eligible or processed bill".
    noCharge: chargeable(facts.status_id) && !hasBill(facts),
    // spec: "shown for those statuses when a bill exists and no refund". Beyond it: a match on an
    // issued bill that was re-resolved out of those statuses keeps Refund, so a fee charged can
    // always be credited (server/modules/billing/bills.ts); on an open bill it left the bill.
    refund:
      hasBill(facts) &&
      !refunded &&
      (chargeable(facts.status_id) ||
        (facts.processed_bill_id !== null &&
          facts.status_id !== statusIdOf.noCharge &&
          facts.status_id !== statusIdOf.refunded)),
    // spec: "Refunded: disabled badge once refunded_bill_id is set".
    refunded,
    silenceLabel: facts.silenced ? 'Un-Silence' : 'Silence',
    // spec: "Submit for Match: available at status 22 with a recurring_id".
    submitForMatch: facts.status_id === statusIdOf.recurringHold && Boolean(facts.recurring_id?.trim()),
    downloadPacket:
      method !== null &&
      (packetMethods as readonly MatchMethod[]).includes(method) &&
      packetStatuses.includes(facts.status_id),
  };
}

/** The actions that change what the nonprofit is billed: each asks first, saying what it will do. */
export type BillingAction = 'submitted' | 'noCharge' | 'refund';

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const percent = (rate: number) => `${Math.round(rate * 1000) / 10}%`;

/**
 * The question asked before a billing action, saying what it does to the bill (the rules are in
 * server/modules/billing/bills.ts). `billing_rate` is the payer's per-match rate, null on a plan
 * that bills nothing per match; undefined (an older server) is treated as unknown.
 */
export function billingQuestion(
  action: BillingAction,
  match: { matched: number; billing_rate?: number | null | undefined },
): { question: string; confirm: string } {
  const rate = match.billing_rate;
  const fee =
    typeof rate === 'number'
      ? `${usd.format(match.matched * rate)} (${percent(rate)} of its estimated match of ${usd.format(match.matched)})`
      : null;
  if (action === 'submitted')
    return {
      question: fee
        ? `Mark this match Submitted? It will count on this month’s bill: ${fee}.`
        : rate === null
          ? 'Mark this match Submitted? Your plan bills nothing per match, so no bill changes.'
          : 'Mark this match Submitted? On a per-match plan it counts on this month’s bill.',
      confirm: 'Yes, Mark Submitted',
    };
  if (action === 'noCharge')
    return {
      question: 'Mark this match No Charge? It will not count on any bill.',
      confirm: 'Yes, No Charge',
    };
  return {
    question: fee
      ? `Refund this match? ${fee} is credited on this month’s bill. A refund cannot be undone.`
      : 'Refund this match? Its fee is credited on this month’s bill. A refund cannot be undone.',
    confirm: 'Yes, Refund',
  };
}

/** The confirm call each status action makes. */
export const confirmStatusOf = {
  submitted: 'submitted',
  noCharge: 'no-charge',
  refund: 'refunded',
  // A recurring gift on hold cannot leave the hold by being reprocessed (the resolution puts every
  // gift with a recurring_id back on hold, status-resolution.ts row 9): submitting it for match
  // marks it Submitted, keeping its recurring series.
  submitForMatch: 'submitted',
} as const satisfies Record<string, ConfirmStatus>;

/** spec (section 8), word for word. */
export const matchTexts = {
  loaded: 'Match Data Loaded',
  loadFailed: 'Failed to fetch match data. Please try again later.',
  saved: 'Match saved successfully.',
  saveFailed: 'Failed to save match.',
  reprocessed: 'Match saved and reprocessed successfully.',
  reprocessFailed: 'Failed to save and reprocess match.',
  silenced: 'Match silenced successfully.',
  unsilenced: 'Match un-silenced successfully.',
  silenceFailed: 'Failed to update match silence status.',
  deleted: 'Match deleted successfully.',
  deleteFailed: 'Failed to delete match.',
  statusUpdated: 'Donation status updated successfully.',
  statusFailed: 'Failed to update donation status.',
} as const;

import {
  type BillingStatus,
  billingStatusLabels,
  type StatusGroup,
  statusGroupOf,
  statusName,
} from '../contract/statuses.ts';
import type { BadgeVariant } from './badge.tsx';

/**
 * The colour of each of the dashboard's status groups (the four tiles), so a status reads the
 * same everywhere: blue while the donor is awaited, amber when the nonprofit has a step to take,
 * green once submitted, red when the donor went quiet; grey for holds and internal statuses,
 * which no tile counts.
 */
export const statusGroupVariant: Record<StatusGroup | 'none', BadgeVariant> = {
  donor_contacted: 'info',
  npo_verify: 'warning',
  engaged_submitted: 'success',
  no_response: 'danger',
  none: 'neutral',
};

/** Billing: counted on a bill (eligible), billed (processed), or not billed (ineligible). */
export const billingStatusVariant: Record<BillingStatus, BadgeVariant> = {
  eligible: 'info',
  processed: 'success',
  ineligible: 'neutral',
};

/** A month's bill: still counting (open) or sent (issued). */
export const billStateVariant = { open: 'info', issued: 'success' } as const satisfies Record<
  string,
  BadgeVariant
>;
const billStateLabels = { open: 'Open', issued: 'Issued' } as const;

export type StatusBadgeProps =
  /** A match status, coloured by its status group; `name` defaults to the catalogue's. */
  | { status: number; name?: string }
  /** A match's billing status. */
  | { billing: BillingStatus }
  /** A month's bill. */
  | { bill: keyof typeof billStateLabels };

/**
 * The one way a status is shown: the donations table, the match dialog and the billing screen
 * use it, so a group has one colour across the portal. The text is the status itself, so
 * colour is never the only signal.
 */
export function StatusBadge(props: StatusBadgeProps) {
  if ('billing' in props)
    return (
      <span className={`badge badge--${billingStatusVariant[props.billing]}`} data-billing={props.billing}>
        {billingStatusLabels[props.billing]}
      </span>
    );
  if ('bill' in props)
    return (
      <span className={`badge badge--${billStateVariant[props.bill]}`} data-bill={props.bill}>
        {billStateLabels[props.bill]}
      </span>
    );
  const group = statusGroupOf(props.status) ?? 'none';
  return (
    <span className={`badge badge--${statusGroupVariant[group]}`} data-group={group}>
      {props.name ?? statusName(props.status)}
    </span>
  );
}

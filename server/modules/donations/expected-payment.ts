import { and, inArray, type SQL, sql } from 'drizzle-orm';
import { defaultPayoutDays } from '../../../src/contract/dashboard.ts';
import { donations } from '../../db/schema.ts';

/** The statuses a match waits for its company's payment in: Submitted, and its engaged variant. */
export const awaitingPaymentStatuses = [4, 28] as const;

/**
 * One row per submitted match awaiting payment among `conditions` (WHERE conditions on
 * donations): its id, estimated match (cents) and the month (yyyy-MM, UTC) its company is
 * expected to pay it: the time it was last submitted (else its last update) plus the company's
 * median Submitted-to-Completed days, learned from the company's completed matches of any
 * organization (a company pays everyone on its own schedule; only the median is read), from 3 of
 * them, else the default. An overdue payment counts in the month of `now`.
 *
 * The dashboard's forecast groups these rows by month and the donations list's expectedMonth
 * filter keeps the ids of one month, so the figure and its linked list are the same matches.
 */
export function expectedPayments(conditions: SQL[], now: Date): SQL {
  return sql`with awaiting as (
          select ${donations.id} as id, ${donations.company_id} as company_id,
                 ${donations.matched_cents} as matched_cents, ${donations.updated_at} as updated_at
            from ${donations}
           where ${and(...conditions, inArray(donations.status_id, [...awaitingPaymentStatuses]))}
        ), sent as (
          select h.donation_id, max(h.at) as at
            from donation_status_history h join awaiting a on a.id = h.donation_id
           where h.to_status_id in (4, 28)
           group by h.donation_id
        ), delays as (
          select past.company_id,
                 percentile_cont(0.5) within group (order by extract(epoch from done.at - submitted.at) / 86400) as days
            from donations past
            join donation_status_history submitted on submitted.donation_id = past.id and submitted.to_status_id = 4
            join donation_status_history done on done.donation_id = past.id and done.to_status_id = 1 and done.at >= submitted.at
           where past.company_id in (select distinct company_id from awaiting where company_id is not null)
           group by past.company_id
          having count(*) >= 3
        )
        select a.id, a.matched_cents,
               to_char(greatest(coalesce(sent.at, a.updated_at) + coalesce(delays.days, ${defaultPayoutDays}) * interval '1 day',
                                ${now.toISOString()}::timestamptz) at time zone 'UTC', 'YYYY-MM') as month
          from awaiting a
          left join sent on sent.donation_id = a.id
          left join delays on delays.company_id = a.company_id`;
}

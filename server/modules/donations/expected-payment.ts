import { and, inArray, type SQL, sql } from 'drizzle-orm';
import { defaultPayoutDays } from '../../../src/contract/dashboard.ts';
import { donations } from '../../db/schema.ts';

/** The statuses a match waits for its company's payment in: Submitted, and its engaged variant. */
export const awaitingPaymentStatuses = [4, 28] as const;

/**
 * Each company's median Submitted-to-Completed days, learned from its completed matches of any
 * organization (a company pays everyone on its own schedule; only the median is read), from 3 of
 * them: rows (company_id, days) for the companies `companyIds` (a subquery of ids) selects.
 */
export function payoutDelays(companyIds: SQL): SQL {
  return sql`select past.company_id,
                 percentile_cont(0.5) within group (order by extract(epoch from done.at - submitted.at) / 86400) as days
            from donations past
            join donation_status_history submitted on submitted.donation_id = past.id and submitted.to_status_id = 4
            join donation_status_history done on done.donation_id = past.id and done.to_status_id = 1 and done.at >= submitted.at
           where past.company_id in (${companyIds})
           group by past.company_id
          having count(*) >= 3`;
}

/**
 * The month (yyyy-MM, UTC) a match submitted on the UTC day `sentDay` (a date) is expected to be
 * paid: that day plus its company's delay `days` (null: the default), or the month of `now` when
 * that is past. The one rule of the forecast and of the list's expectedMonth filter.
 */
export function expectedMonth(sentDay: SQL, days: SQL, now: Date): SQL<string> {
  return sql<string>`to_char(greatest((${sentDay})::timestamp + coalesce(${days}, ${defaultPayoutDays}) * interval '1 day',
                                     (${now.toISOString()}::timestamptz at time zone 'UTC')), 'YYYY-MM')`;
}

/**
 * One row per submitted match awaiting payment among `conditions` (WHERE conditions on
 * donations): its id, company (0 for none), estimated match (cents) and the UTC day it was last
 * submitted: its latest move to 4 or 28 in the status history, else its last update. The same
 * day rule as donation_sent_day, which keeps donation_awaiting_payment_stats (migration 0027).
 */
export function awaitingPaymentDays(conditions: SQL[]): SQL {
  return sql`with awaiting as (
          select ${donations.id} as id, coalesce(${donations.company_id}, 0) as company_id,
                 ${donations.matched_cents} as matched_cents, ${donations.updated_at} as updated_at
            from ${donations}
           where ${and(...conditions, inArray(donations.status_id, [...awaitingPaymentStatuses]))}
        ), sent as (
          select h.donation_id, max(h.at) as at
            from donation_status_history h join awaiting a on a.id = h.donation_id
           where h.to_status_id in (4, 28)
           group by h.donation_id
        )
        select a.id, a.company_id, a.matched_cents, (coalesce(sent.at, a.updated_at) at time zone 'UTC')::date as sent_day
          from awaiting a left join sent on sent.donation_id = a.id`;
}

/**
 * awaitingPaymentDays with the month (yyyy-MM) each match's company is expected to pay it
 * (expectedMonth with payoutDelays). The donations list's expectedMonth filter keeps the ids of
 * one month; the dashboard's forecast reads the same days pre-added in
 * donation_awaiting_payment_stats for the whole months of its range (and these rows for the
 * partial months at its edges) with the same expectedMonth, so the figure and its linked list are
 * the same matches.
 */
export function expectedPayments(conditions: SQL[], now: Date): SQL {
  return sql`with days as (${awaitingPaymentDays(conditions)}),
        delays as (${payoutDelays(sql`select distinct company_id from days`)})
        select days.id, days.company_id, days.matched_cents, days.sent_day,
               ${expectedMonth(sql`days.sent_day`, sql`delays.days`, now)} as month
          from days left join delays on delays.company_id = days.company_id`;
}

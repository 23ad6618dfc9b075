/**
 * Per-match plans' usage, as Stripe is told it (issue #27). Every match the ledger (bills.ts) puts
 * on a bill is one charge: a billing meter event whose value is the plan's share of the match's
 * estimated match, in cents. A match taken off a bill again (refunded, or released from an open
 * bill when it stops being a chargeable request) is reported as the charge's correction: a meter
 * event with the negative value, on the bill the refund is credited on.
 *
 * Why a negative event and not a meter event adjustment (cancel): Stripe cancels an event only
 * within 24 hours of receiving it, and never on an invoice already finalized; refunds come days or
 * weeks later. A negative value lowers the usage of the subscription's current period, whenever
 * it comes (Stripe shows a period whose total is negative as 0).
 *
 * Reports are rows of stripe_usage_reports written in the transaction that changes the bill, so a
 * bill and its reports commit together; server/jobs/usage-worker.ts sends them.
 */
import { and, eq, inArray, notExists, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/client.ts';
import { organizations, stripeUsageReports, type UsageReportKind } from '../../db/schema.ts';

/** The cents a match adds to a bill at `rate` (the plan's share of its estimated match). */
export const chargeCents = (rate: number, matchedCents: number) => Math.round(rate * matchedCents);

/** Stripe's meter event identifier of a report: unique, fixed before the first send. */
export const usageIdentifier = (billId: number, reportId: number) =>
  `twofold-bill-${billId}-usage-${reportId}`;

async function insertReport(
  tx: Tx,
  report: {
    organization_id: number;
    bill_id: number;
    donation_id: number | null;
    kind: UsageReportKind;
    corrects_id: number | null;
    value_cents: number;
  },
): Promise<void> {
  // The id is taken first so the identifier can carry it from the start.
  const result = (await tx.execute(
    sql`select nextval(pg_get_serial_sequence('stripe_usage_reports', 'id'))::int as id`,
  )) as unknown as { rows: { id: number }[] };
  const id = result.rows[0]?.id;
  if (id === undefined) throw new Error('no id for a usage report');
  await tx
    .insert(stripeUsageReports)
    .values({ id, identifier: usageIdentifier(report.bill_id, id), ...report });
}

/**
 * Matches just put on `billId` of `payerId` at `rate`: one charge each (none for a zero charge).
 * Only a payer that pays through Stripe (it has a Stripe customer, from its checkout) is reported:
 * a per-match plan arranged otherwise (by staff, invoiced by hand) keeps its bills in the ledger
 * alone, and they are never sent to Stripe later, when a checkout happens, as a surprise.
 */
export async function reportCharges(
  tx: Tx,
  payerId: number,
  billId: number,
  rate: number,
  matches: { id: number; matched_cents: number }[],
): Promise<void> {
  if (matches.length === 0) return;
  const [payer] = await tx
    .select({ customer: organizations.stripe_customer_id })
    .from(organizations)
    .where(eq(organizations.id, payerId));
  if (!payer?.customer) return;
  for (const match of matches) {
    const value = chargeCents(rate, match.matched_cents);
    if (value === 0) continue;
    await insertReport(tx, {
      organization_id: payerId,
      bill_id: billId,
      donation_id: match.id,
      kind: 'charge',
      corrects_id: null,
      value_cents: value,
    });
  }
}

/**
 * Matches taken off their bill: each one's charge not corrected yet gets its correction (the same
 * customer, the negative value), counted on `billId` when given (a refund's credit bill), else on
 * the charge's own bill (a release). A match with no charge reported (billed before reporting
 * existed, or a zero charge) has nothing to correct.
 */
export async function reportCorrections(
  tx: Tx,
  donationIds: number[],
  kind: Exclude<UsageReportKind, 'charge'>,
  billId?: number,
): Promise<void> {
  if (donationIds.length === 0) return;
  const correction = alias(stripeUsageReports, 'correction');
  const open = await tx
    .select({
      id: stripeUsageReports.id,
      organization_id: stripeUsageReports.organization_id,
      bill_id: stripeUsageReports.bill_id,
      donation_id: stripeUsageReports.donation_id,
      value_cents: stripeUsageReports.value_cents,
    })
    .from(stripeUsageReports)
    .where(
      and(
        inArray(stripeUsageReports.donation_id, donationIds),
        eq(stripeUsageReports.kind, 'charge'),
        notExists(
          tx
            .select({ one: sql`1` })
            .from(correction)
            .where(eq(correction.corrects_id, stripeUsageReports.id)),
        ),
      ),
    )
    .orderBy(stripeUsageReports.id);
  for (const charge of open) {
    await insertReport(tx, {
      organization_id: charge.organization_id,
      bill_id: billId ?? charge.bill_id,
      donation_id: charge.donation_id,
      kind,
      corrects_id: charge.id,
      value_cents: -charge.value_cents,
    });
  }
}

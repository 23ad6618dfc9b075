import { candidateScore, clearLead, matchScore, type PayoutOutcome } from '../../../src/contract/payouts.ts';

/**
 * Matching a payout report's line to the match request it pays. Pure: the service fetches the
 * candidates (the donors' unpaid matches, and any with the line's transaction id) and this
 * scores each one from 0 to 100:
 *
 * | evidence                                                     | points |
 * |--------------------------------------------------------------|--------|
 * | the same transaction id                                      | 40     |
 * | the same donor email (else: the same full name 25, the same first and last name 20, the same last name 8) | 35 |
 * | the same company (ignoring Inc, LLC, Corp, Foundation, case and punctuation; or one name within the other) | 15 |
 * | amount paid = the estimated match (else = the gift 15, the report's gift amount = the gift 20, within 2% of the estimate 8) | 20 |
 * | donation date: the same day (else within 3 days 7, within a month 3) | 10 |
 * | paid before the gift was made (cannot be this match)         | −30    |
 *
 * A candidate under 50 is not shown. A line is matched when its best candidate scores 60 or
 * more and leads the next one by 15; ambiguous when other candidates come close or the best
 * scores 50 to 59 (staff pick one); unmatched when no candidate reaches 50.
 */

export type PayoutLineValues = {
  line: number;
  donorName: string | null;
  donorEmail: string | null;
  company: string | null;
  amountCents: number;
  giftCents: number | null;
  /** YYYY-MM-DD */
  donatedAt: string | null;
  paidAt: string;
  transactionId: string | null;
};

export type MatchCandidate = {
  id: number;
  donor_name: string | null;
  donor_email: string | null;
  company_name: string | null;
  amount_cents: number;
  matched_cents: number;
  /** YYYY-MM-DD */
  donated_day: string;
  transaction_id: string | null;
  status_id: number;
};

/** Lowercase letters and digits only, accents dropped, words separated by one space. */
export function normaliseName(text: string | null | undefined): string {
  return (text ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

const companyNoise = new Set([
  'inc',
  'incorporated',
  'llc',
  'ltd',
  'limited',
  'corp',
  'corporation',
  'co',
  'company',
  'the',
  'plc',
  'lp',
  'foundation',
  'group',
]);

export function normaliseCompany(text: string | null | undefined): string {
  return normaliseName(text)
    .split(' ')
    .filter((w) => w && !companyNoise.has(w))
    .join(' ');
}

const dayMs = 86_400_000;
const daysBetween = (a: string, b: string) =>
  Math.round(Math.abs(Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`)) / dayMs);

function donorPoints(line: PayoutLineValues, c: MatchCandidate): number {
  if (line.donorEmail && c.donor_email && line.donorEmail.toLowerCase() === c.donor_email.toLowerCase())
    return 35;
  const a = normaliseName(line.donorName);
  const b = normaliseName(c.donor_name);
  if (!a || !b) return 0;
  if (a === b) return 25;
  const wa = a.split(' ');
  const wb = b.split(' ');
  const lastSame = wa.at(-1) === wb.at(-1);
  if (lastSame && wa[0] === wb[0]) return 20;
  return lastSame ? 8 : 0;
}

function companyPoints(line: PayoutLineValues, c: MatchCandidate): number {
  const a = normaliseCompany(line.company);
  const b = normaliseCompany(c.company_name);
  if (!a || !b) return 0;
  if (a === b) return 15;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return short.length >= 3 && ` ${long} `.includes(` ${short} `) ? 15 : 0;
}

function amountPoints(line: PayoutLineValues, c: MatchCandidate): number {
  let points = 0;
  if (c.matched_cents > 0 && line.amountCents === c.matched_cents) points = 20;
  else if (line.amountCents === c.amount_cents) points = 15;
  if (line.giftCents !== null && line.giftCents === c.amount_cents) points = Math.max(points, 20);
  if (
    points === 0 &&
    c.matched_cents > 0 &&
    Math.abs(line.amountCents - c.matched_cents) <= c.matched_cents * 0.02
  )
    points = 8;
  return points;
}

function datePoints(line: PayoutLineValues, c: MatchCandidate): number {
  let points = 0;
  if (line.donatedAt) {
    const days = daysBetween(line.donatedAt, c.donated_day);
    points = days === 0 ? 10 : days <= 3 ? 7 : days <= 31 ? 3 : 0;
  }
  if (line.paidAt < c.donated_day) points -= 30;
  return points;
}

/** The score of one candidate for one line, 0 to 100 (the table above). */
export function scoreCandidate(line: PayoutLineValues, c: MatchCandidate): number {
  const transaction =
    line.transactionId &&
    c.transaction_id &&
    line.transactionId.trim().toLowerCase() === c.transaction_id.trim().toLowerCase()
      ? 40
      : 0;
  const total =
    transaction + donorPoints(line, c) + companyPoints(line, c) + amountPoints(line, c) + datePoints(line, c);
  return Math.max(0, Math.min(100, total));
}

export type Scored = { candidate: MatchCandidate; score: number };

/** The candidates worth showing, best first (ties: the oldest gift first), at most `limit`. */
export function rankCandidates(
  line: PayoutLineValues,
  candidates: readonly MatchCandidate[],
  limit = 5,
): Scored[] {
  return candidates
    .map((candidate) => ({ candidate, score: scoreCandidate(line, candidate) }))
    .filter((s) => s.score >= candidateScore)
    .sort(
      (a, b) =>
        b.score - a.score ||
        a.candidate.donated_day.localeCompare(b.candidate.donated_day) ||
        a.candidate.id - b.candidate.id,
    )
    .slice(0, limit);
}

/** matched, ambiguous or unmatched, from the ranked candidates. */
export function classify(
  ranked: readonly Scored[],
): Extract<PayoutOutcome, 'matched' | 'ambiguous' | 'unmatched'> {
  const [best, second] = ranked;
  if (!best) return 'unmatched';
  if (best.score >= matchScore && (!second || best.score - second.score >= clearLead)) return 'matched';
  return 'ambiguous';
}

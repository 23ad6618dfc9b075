import { eq } from 'drizzle-orm';
import type { DonationWrite } from '../../../src/contract/donations.ts';
import type { EmailCorrection, EmployerAnswer } from '../../../src/contract/employers.ts';
import type { Tx } from '../../db/client.ts';
import {
  companies,
  donationEmployerEvents,
  employerReviews,
  organizations,
  type StatusChangeSource,
} from '../../db/schema.ts';
import { identifyEmployer } from './identify.ts';

type CompanyRow = typeof companies.$inferSelect;

/** What a new match takes from the employer identification. */
export type MatchEmployer = {
  /** The company applied (at or above the organization's threshold), or null. */
  company: CompanyRow | null;
  answer: EmployerAnswer;
  /** A proposal below the threshold: it goes to the review list. */
  proposal: boolean;
  /** The donor's email as it should be stored, and its correction when one was made. */
  email: string | null;
  correction: EmailCorrection | null;
};

/**
 * The employer of one match being created (staff create, `POST /api/v1/matches`, the public match
 * request), by the identification service and the organization's settings. A catalogue company
 * given by id is taken as it is ('person': the caller chose it); an unknown id is `null` here and
 * the caller's own error.
 */
export async function employerForMatch(
  tx: Tx,
  orgId: number,
  body: Pick<DonationWrite, 'company_id' | 'company_name' | 'donor'>,
): Promise<MatchEmployer | null> {
  const email = body.donor.email?.trim().toLowerCase() || null;
  if (body.company_id) {
    const [company] = await tx.select().from(companies).where(eq(companies.id, body.company_id));
    if (!company) return null;
    return {
      company,
      answer: {
        company_id: company.id,
        company_name: company.name,
        confidence: 100,
        method: 'person',
        reason: `${company.name} chosen from the catalogue`,
        no_employer: false,
      },
      proposal: false,
      email,
      correction: null,
    };
  }
  const [org] = await tx
    .select({ threshold: organizations.employer_threshold, correct: organizations.correct_email_typos })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  const found = await identifyEmployer(
    tx,
    { employer: body.company_name, email },
    { organizationId: orgId, correctEmails: org?.correct ?? true },
  );
  const threshold = org?.threshold ?? 80;
  const applied = found.company_id !== null && found.confidence >= threshold;
  const [company] =
    applied && found.company_id !== null
      ? await tx.select().from(companies).where(eq(companies.id, found.company_id))
      : [];
  const { email: corrected, correction, ...answer } = found;
  return {
    company: company ?? null,
    answer,
    proposal: !applied && found.company_id !== null,
    email: corrected,
    correction,
  };
}

/** The columns a match stores of how its company was found (all null without a company). */
export const employerColumns = (e: MatchEmployer | null) =>
  e?.company
    ? {
        employer_method: e.answer.method,
        employer_confidence: e.answer.confidence,
        employer_reason: e.answer.reason,
      }
    : { employer_method: null, employer_confidence: null, employer_reason: null };

/** Writes a new match's employer history: the company found, the email corrected, the proposal to review. */
export async function recordMatchEmployer(
  tx: Tx,
  orgId: number,
  donationId: number,
  e: MatchEmployer | null,
  userId: number | null,
  source: StatusChangeSource,
): Promise<void> {
  if (!e) return;
  const base = { donation_id: donationId, user_id: userId, source };
  if (e.company)
    await tx.insert(donationEmployerEvents).values({
      ...base,
      kind: 'identified',
      company_id: e.company.id,
      method: e.answer.method,
      confidence: e.answer.confidence,
      reason: e.answer.reason,
    });
  if (e.correction)
    await tx.insert(donationEmployerEvents).values({
      ...base,
      kind: 'email_corrected',
      reason: `the donor's email ${e.correction.from} was corrected to ${e.correction.to}`,
      email_from: e.correction.from,
      email_to: e.correction.to,
    });
  if (e.proposal && e.answer.company_id !== null && e.answer.method)
    await tx.insert(employerReviews).values({
      organization_id: orgId,
      donation_id: donationId,
      company_id: e.answer.company_id,
      method: e.answer.method,
      confidence: e.answer.confidence,
      reason: e.answer.reason,
    });
}

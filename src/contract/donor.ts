import * as z from 'zod/mini';
import { type DeadlineRule, matchMethods, verifyMethods } from './companies.ts';
import { emailFormat } from './email.ts';
import { dbId, isRealDay, noNul, wellFormed } from './fields.ts';

/**
 * What donors reach: the donor edit screen (spec part 2, section 2, "Edit Your Match Request",
 * reached through a one-time link emailed by GET /api/auth/otp) and the organization's public
 * matching page (spec part 1, section 1, /match/{slug}). Amounts are dollars; dates YYYY-MM-DD.
 */

/** spec (part 2, sections 5 and 8), word for word. */
export const donorTexts = {
  required: 'Please fill in all required fields.',
  updated: 'Match information updated successfully.',
} as const;

/** The field messages of the donor and public match forms (the elements show them too). */
export const donorFieldMessages = {
  nameRequired: 'Donor name is required',
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  companyRequired: 'Company is required',
  nameTooLong: 'Donor name must be at most 200 characters',
  companyTooLong: 'Company must be at most 200 characters',
  amountRequired: 'Amount is required',
  amountPositive: 'Amount must be more than $0',
  amountTooLarge: 'Amount must be at most $1,000,000',
  dateRequired: 'Donation date is required',
  dateInvalid: 'Donation date must be a real date (YYYY-MM-DD)',
  dateFuture: 'Donation date cannot be in the future',
  dateTooOld: 'Donation date must be in 1900 or later',
  captchaRequired: 'Please complete the verification.',
} as const;

/**
 * The server's messages for the donor and public match calls. The elements import
 * donorFieldMessages only, so the messages only the server sends stay out of their bundles.
 */
export const donorMessages = {
  ...donorFieldMessages,
  linkInvalid: 'This link is invalid, used or expired. Please request a new one.',
  linkSent: 'If that email address belongs to this match request, a link to edit it is on its way.',
  amountFixed: 'The amount of a gift cannot be changed here. Please contact the nonprofit if it is wrong.',
  transferred:
    'Match information updated successfully. The request now belongs to the new email address, so this page can no longer show it.',
  organizationNotFound: 'Organization not found',
} as const;

/** The redirect GET /api/auth/otp receives for a donor link (spec: "redirect=/donor-match-update/{di}"). */
export const donorRedirectPattern = /^\/(?:portal\/)?donor-match-update\/([1-9][0-9]{0,9})\/?$/;

/** The match id a donor-link redirect names, or undefined when the redirect is a staff one. */
export function donorRedirectMatchId(redirect: string | undefined): number | undefined {
  const found = redirect ? donorRedirectPattern.exec(redirect) : null;
  const id = found?.[1] ? Number(found[1]) : Number.NaN;
  return Number.isSafeInteger(id) && id <= 2_147_483_647 ? id : undefined;
}

export { donorLinkRedirect, donorMatchUpdatePath } from './donor-paths.ts';

/** sessionStorage key of the donor session (never the staff auth_token). */
export const donorSessionKey = 'twofold_donor_session';

const day = /^\d{4}-\d{2}-\d{2}$/;

/** The calendar day `days` after a YYYY-MM-DD day (UTC arithmetic: days, not hours). */
function addDays(date: string, days: number): string {
  const at = new Date(`${date}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

/**
 * The last day a match can be requested, from the company's deadline rule and the gift's date
 * (YYYY-MM-DD), or null when the company sets none.
 */
export function matchDeadline(rule: DeadlineRule, days: number | null, donatedAt: string): string | null {
  const date = donatedAt.slice(0, 10);
  if (!day.test(date)) return null;
  const year = Number(date.slice(0, 4));
  switch (rule) {
    case 'days-after-gift':
      return days === null ? null : addDays(date, days);
    case 'year-end':
      return `${year}-12-31`;
    case 'next-year-end':
      return `${year + 1}-12-31`;
    default:
      return null;
  }
}

/** The company facts a donor needs to know what happens next. Amounts are dollars. */
export const NextStepsCompany = z.object({
  id: z.number(),
  name: z.string(),
  match_method: z.nullable(z.enum(matchMethods)),
  guide: z.nullable(z.string()),
  url: z.nullable(z.string()),
  verify: z.nullable(z.enum(verifyMethods)),
  minimum_match: z.nullable(z.number()),
  maximum_match: z.nullable(z.number()),
  /** Company dollars per donor dollar. */
  match_ratio: z.number(),
  /** The last day to request the match (YYYY-MM-DD), or null. */
  deadline: z.nullable(z.string()),
});
export type NextStepsCompany = z.infer<typeof NextStepsCompany>;

export const MatchStatusRef = z.object({ id: z.number(), name: z.string() });

/** POST /api/donor/session: the donor link's one-time token. */
export const DonorSessionRequest = z.object({ token: z.string().check(z.minLength(16), z.maxLength(200)) });
export type DonorSessionRequest = z.infer<typeof DonorSessionRequest>;
export const DonorSessionResponse = z.object({ token: z.string(), match_id: z.number() });
export type DonorSessionResponse = z.infer<typeof DonorSessionResponse>;

/** GET /api/donor/donation/{id}: the donor's own view of their match. */
export const DonorMatch = z.object({
  id: z.number(),
  donor: z.object({ name: z.nullable(z.string()), email: z.string() }),
  company: z.nullable(NextStepsCompany),
  company_id: z.nullable(z.number()),
  company_name: z.nullable(z.string()),
  amount: z.number(),
  donated_at: z.string(),
  status: MatchStatusRef,
  organization: z.object({ name: z.string(), logo: z.nullable(z.string()) }),
});
export type DonorMatch = z.infer<typeof DonorMatch>;
export const DonorMatchResponse = z.object({ donation: DonorMatch });
export type DonorMatchResponse = z.infer<typeof DonorMatchResponse>;

const personName = z
  .string(donorFieldMessages.nameRequired)
  .check(
    z.trim(),
    z.minLength(1, donorFieldMessages.nameRequired),
    z.maxLength(200, donorFieldMessages.nameTooLong),
    noNul,
    wellFormed,
  );
const personEmail = z
  .string(donorFieldMessages.emailRequired)
  .check(
    z.trim(),
    z.minLength(1, donorFieldMessages.emailRequired),
    z.maxLength(320, donorFieldMessages.emailInvalid),
    emailFormat(donorFieldMessages.emailInvalid),
  );
const companyName = z
  .string(donorFieldMessages.companyRequired)
  .check(
    z.trim(),
    z.minLength(1, donorFieldMessages.companyRequired),
    z.maxLength(200, donorFieldMessages.companyTooLong),
    noNul,
    wellFormed,
  );
const companyId = z.nullable(dbId());

/**
 * PUT /api/donor/donation/{id}. spec: "The donor edits name, email, company; the amount is shown
 * but cannot change." An amount other than the match's own is refused.
 */
export const DonorMatchUpdate = z.object({
  donor: z.object({ name: personName, email: personEmail }),
  /** A catalogue company, or null for 'Other' (company_name is then the typed text). */
  company_id: companyId,
  company_name: companyName,
  amount: z.optional(z.number()),
});
export type DonorMatchUpdate = z.infer<typeof DonorMatchUpdate>;

export const DonorMatchUpdateResponse = z.object({
  message: z.string(),
  donation: DonorMatch,
  /** The email changed: the request now belongs to the new address and this session no longer reaches it. */
  transferred: z.boolean(),
});
export type DonorMatchUpdateResponse = z.infer<typeof DonorMatchUpdateResponse>;

/** GET /api/public/match/{slug}: the organization's public face. */
export const PublicMatchOrganization = z.object({
  id: z.number(),
  name: z.string(),
  logo: z.nullable(z.string()),
  mission: z.nullable(z.string()),
});
export type PublicMatchOrganization = z.infer<typeof PublicMatchOrganization>;
export const PublicMatchOrganizationResponse = z.object({ organization: PublicMatchOrganization });

/** The gift and the donor, as the public matching page's form holds them (checked before sending). */
export const MatchRequestForm = z.object({
  donor: z.object({ name: personName, email: personEmail }),
  company_id: companyId,
  company_name: companyName,
  amount: z
    .number(donorFieldMessages.amountRequired)
    .check(z.gt(0, donorFieldMessages.amountPositive), z.lte(1_000_000, donorFieldMessages.amountTooLarge)),
  donated_at: z.string(donorFieldMessages.dateRequired).check(
    z.minLength(1, donorFieldMessages.dateRequired),
    z.refine(isRealDay, donorFieldMessages.dateInvalid),
    z.refine((s) => s >= '1900-01-01', donorFieldMessages.dateTooOld),
    z.refine((s) => !isFutureDay(s), donorFieldMessages.dateFuture),
  ),
  transaction_id: z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(200), noNul, wellFormed))),
});
export type MatchRequestForm = z.infer<typeof MatchRequestForm>;

/** POST /api/public/match/{slug}: the form and a solved captcha challenge. */
export const MatchRequest = z.extend(MatchRequestForm, {
  captcha: z
    .string(donorFieldMessages.captchaRequired)
    .check(z.minLength(1, donorFieldMessages.captchaRequired), z.maxLength(4000)),
});
export type MatchRequest = z.infer<typeof MatchRequest>;

export const MatchRequestResponse = z.object({
  match_id: z.number(),
  status: MatchStatusRef,
  /** The catalogue company, or null when the donor chose 'Other' and no company matched. */
  company: z.nullable(NextStepsCompany),
  /** The employer as the donor entered it. */
  company_name: z.string(),
});
export type MatchRequestResponse = z.infer<typeof MatchRequestResponse>;

/** How the page's donated_at compares with today (the server's clock, with a day of timezone slack). */
export function isFutureDay(date: string, now = new Date()): boolean {
  return date > new Date(now.getTime() + 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

export type { DeadlineRule };

import * as z from 'zod/mini';
import { categories } from './categories.ts';
import { deadlineRules, matchMethods, programStates, verifyMethods } from './companies.ts';
import { isEmailAddress } from './email.ts';
import { maxInt32, safeText } from './fields.ts';

/**
 * The Companies screen (`/portal/companies`): the catalogue for staff, the super users' edits with
 * their history, and the staff's suggested corrections.
 */

/** Companies per page of the screen's list. */
export const companiesPerPage = 25;

const centsMessage = 'Expected an amount of whole cents, 0 or more';
const cents = z.nullable(
  z.number(centsMessage).check(z.int(centsMessage), z.gte(0, centsMessage), z.lte(maxInt32, centsMessage)),
);
const ratioMessage = 'The match ratio must be a number above 0 and at most 10 (1 is one-to-one)';
const optionalText = /* @__NO_SIDE_EFFECTS__ */ (max: number) =>
  z.nullable(safeText(z.trim(), z.maxLength(max, `At most ${max} characters`)));
const categoryIds = new Set(categories.map((c) => c.id));

const companyDomainMessage = 'A domain is a host name such as acme-analytics.example.com';

/** The programme fields a super user edits (and a suggestion proposes). Amounts are integer cents. */
export const CompanyProgramme = z.object({
  match_method: z.nullable(z.enum(matchMethods)),
  guide: optionalText(4000),
  url: optionalText(500),
  verify: z.nullable(z.enum(verifyMethods)),
  program: z.enum(programStates),
  minimum_match_cents: cents,
  maximum_match_cents: cents,
  match_ratio: z.number(ratioMessage).check(z.gt(0, ratioMessage), z.lte(10, ratioMessage)),
  deadline_rule: z.enum(deadlineRules),
  deadline_days: z.nullable(
    z.number().check(z.int(), z.gte(1, 'At least 1 day'), z.lte(3650, 'At most 3650 days')),
  ),
  csr_vendor: optionalText(100),
  /** Where signed forms are emailed (e-sign companies that take forms by email), or null. */
  forms_email: optionalText(254),
  /** Where original-signature packets are posted (the cover letter's address), or null. */
  forms_address: optionalText(1000),
  categories: z.array(z.number()).check(
    z.maxLength(categories.length),
    z.refine((ids) => ids.every((id) => categoryIds.has(id)), 'Not a category of the catalogue'),
  ),
  /**
   * Issue 31: the email domains the company's staff write from (a subdomain counts too). Left out
   * of a save, they stay as they are.
   */
  domains: z.optional(
    z
      .array(
        z
          .string()
          .check(
            z.trim(),
            z.maxLength(253, 'At most 253 characters'),
            z.regex(/^(www\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+\.?$/, companyDomainMessage),
          ),
      )
      .check(z.maxLength(20, 'At most 20 domains')),
  ),
  /** Other names and abbreviations the company goes by ('AA Bank'). */
  aliases: z.optional(
    z
      .array(
        safeText(
          z.trim(),
          z.minLength(1, 'An alias cannot be empty'),
          z.maxLength(200, 'At most 200 characters'),
        ),
      )
      .check(z.maxLength(50, 'At most 50 aliases')),
  ),
  /** The parent whose program matches this subsidiary's staff, or null. */
  parent_id: z.optional(z.nullable(z.number().check(z.int(), z.positive()))),
});
export type CompanyProgramme = z.infer<typeof CompanyProgramme>;
export type ProgrammeField = keyof CompanyProgramme;
export const programmeFields = Object.keys(CompanyProgramme.shape) as ProgrammeField[];

/** Field names as the screen labels them (history and suggestions name fields this way). */
export const programmeFieldLabels: Record<ProgrammeField, string> = {
  match_method: 'Method',
  guide: 'Guide',
  url: 'URL',
  verify: 'Verify',
  program: 'Program',
  minimum_match_cents: 'Minimum',
  maximum_match_cents: 'Maximum',
  match_ratio: 'Ratio',
  deadline_rule: 'Deadline rule',
  deadline_days: 'Deadline days',
  csr_vendor: 'CSR vendor',
  forms_email: 'Forms email',
  forms_address: 'Forms mailing address',
  categories: 'Categories',
  domains: 'Email domains',
  aliases: 'Aliases',
  parent_id: 'Parent company',
};

export const companyMessages = {
  minAboveMax: 'The minimum cannot be above the maximum.',
  deadlineDays: 'Give the number of days after the gift for this deadline rule.',
  url: 'The URL must start with http:// or https://',
  formsEmail: 'The forms email must be an email address.',
  nothingSuggested: 'Change at least one field to suggest a correction.',
} as const;

/**
 * The rules across fields, for the form and the server alike: the first problem, or undefined.
 * Applied to the programme as it would be after the change.
 */
export function programmeProblem(p: CompanyProgramme): string | undefined {
  if (
    p.minimum_match_cents !== null &&
    p.maximum_match_cents !== null &&
    p.minimum_match_cents > p.maximum_match_cents
  )
    return companyMessages.minAboveMax;
  if (p.deadline_rule === 'days-after-gift' && p.deadline_days === null) return companyMessages.deadlineDays;
  if (p.url && !/^https?:\/\/\S+$/i.test(p.url)) return companyMessages.url;
  if (p.forms_email && !isEmailAddress(p.forms_email)) return companyMessages.formsEmail;
  return undefined;
}

export const CompanyDetail = z.object({
  id: z.number(),
  name: z.string(),
  ...CompanyProgramme.shape,
});
export type CompanyDetail = z.infer<typeof CompanyDetail>;

export const CompanyListQuery = z.object({
  q: z.optional(safeText(z.maxLength(200, 'The search text is too long'))),
  page: z.optional(z.string().check(z.regex(/^[1-9][0-9]{0,5}$/, 'Expected a page number from 1'))),
});
export const CompanyList = z.object({
  companies: z.array(CompanyDetail),
  total: z.number(),
  page: z.number(),
  per_page: z.number(),
});
export type CompanyList = z.infer<typeof CompanyList>;

const Person = z.nullable(z.object({ id: z.number(), name: z.nullable(z.string()), email: z.string() }));

export const CompanyChange = z.object({
  id: z.number(),
  created_at: z.string(),
  user: Person,
  changes: z.array(z.object({ field: z.string(), from: z.unknown(), to: z.unknown() })),
  suggestion_id: z.nullable(z.number()),
});
export type CompanyChange = z.infer<typeof CompanyChange>;

export const CompanyWithHistory = z.object({ company: CompanyDetail, history: z.array(CompanyChange) });
export type CompanyWithHistory = z.infer<typeof CompanyWithHistory>;

/** A suggested correction: only the fields it changes, and why. */
export const CompanySuggestionBody = z.object({
  proposed: z.partial(CompanyProgramme),
  note: z.optional(z.nullable(safeText(z.trim(), z.maxLength(2000, 'At most 2000 characters')))),
});
export type CompanySuggestionBody = z.infer<typeof CompanySuggestionBody>;

export const CompanySuggestion = z.object({
  id: z.number(),
  created_at: z.string(),
  company: z.object({ id: z.number(), name: z.string() }),
  user: Person,
  /** The proposed values, by field. */
  proposed: z.record(z.string(), z.unknown()),
  /** The same fields' values today. */
  current: z.record(z.string(), z.unknown()),
  note: z.nullable(z.string()),
  status: z.enum(['pending', 'accepted', 'rejected']),
});
export type CompanySuggestion = z.infer<typeof CompanySuggestion>;
export const CompanySuggestionList = z.object({ suggestions: z.array(CompanySuggestion) });

export const ReviewBody = z.object({
  note: z.optional(z.nullable(safeText(z.trim(), z.maxLength(2000, 'At most 2000 characters')))),
});
export type ReviewBody = z.infer<typeof ReviewBody>;

import * as z from 'zod/mini';

/** spec (part 2, section 3): "Company match_method values: form, mail, esign, paper, contact, csr." */
export const matchMethods = ['form', 'mail', 'esign', 'paper', 'contact', 'csr'] as const;
export type MatchMethod = (typeof matchMethods)[number];
/** spec: "Company verify: both, email, phone." */
export const verifyMethods = ['both', 'email', 'phone'] as const;
export type VerifyMethod = (typeof verifyMethods)[number];

/**
 * The state of a company's matching program, which decides a match's status with the rules in
 * server/modules/donations/status-resolution.ts:
 * - matching: a program whose policy we know;
 * - none: the company has no matching program (status 19);
 * - incomplete: a program whose policy we do not know well enough yet (status 9);
 * - company-site-only: gifts are matched only when made through the company's own site (status 15).
 */
export const programStates = ['matching', 'none', 'incomplete', 'company-site-only'] as const;
export type ProgramState = (typeof programStates)[number];

/**
 * When a match request must be in by: a number of days after the gift, the end of the gift's
 * calendar year, the end of the following year, or no deadline.
 */
export const deadlineRules = ['none', 'days-after-gift', 'year-end', 'next-year-end'] as const;
export type DeadlineRule = (typeof deadlineRules)[number];

/** A company of the catalogue. Amounts are integer cents. */
export const Company = z.object({
  id: z.number(),
  name: z.string(),
  match_method: z.nullable(z.enum(matchMethods)),
  guide: z.nullable(z.string()),
  url: z.nullable(z.string()),
  verify: z.nullable(z.enum(verifyMethods)),
  program: z.enum(programStates),
  minimum_match_cents: z.nullable(z.number()),
  maximum_match_cents: z.nullable(z.number()),
  /** Company dollars per donor dollar (1 = one-to-one, 2 = two-to-one, 0.5 = half). */
  match_ratio: z.number(),
  deadline_rule: z.enum(deadlineRules),
  deadline_days: z.nullable(z.number()),
  /** The CSR platform a 'csr' company's portal runs on (e.g. Benevity), else null. */
  csr_vendor: z.nullable(z.string()),
  /** Organization types the company's policy does not match. */
  excluded_organization_types: z.array(z.string()),
});
export type Company = z.infer<typeof Company>;

/** The part of a company a match shows (spec: "company (id, name, match_method, guide, url, verify)"). */
export const MatchCompany = z.object({
  id: z.number(),
  name: z.string(),
  match_method: z.nullable(z.enum(matchMethods)),
  guide: z.nullable(z.string()),
  url: z.nullable(z.string()),
  verify: z.nullable(z.enum(verifyMethods)),
});
export type MatchCompany = z.infer<typeof MatchCompany>;

/** spec (section 9): "Company search: 3 characters minimum". */
export const companySearchMinLength = 3;
/** At most this many companies per search. */
export const companySearchLimit = 20;
/** spec: "the 'Other' option uses the typed text". */
export const otherCompanyName = 'Other';

/** spec: "Company search result: names list of entries with name, company (id, name), company_id." */
/** A company by id and name (a search entry's company, the lookup's preselected company). */
export const CompanyRef = z.object({ id: z.number(), name: z.string() });

export const CompanySearchEntry = z.object({
  name: z.string(),
  company: z.nullable(CompanyRef),
  company_id: z.nullable(z.number()),
});
export const CompanySearchResponse = z.object({ names: z.array(CompanySearchEntry) });
export type CompanySearchEntry = z.infer<typeof CompanySearchEntry>;
export type CompanySearchResponse = z.infer<typeof CompanySearchResponse>;

/** GET /search/company-name/{text}?exclude=false&other=true */
export const CompanySearchQuery = z.object({
  exclude: z.optional(z.enum(['true', 'false'])),
  other: z.optional(z.enum(['true', 'false'])),
});

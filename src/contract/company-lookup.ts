import * as z from 'zod/mini';

/**
 * The public employer lookup (`/companies`, `<twofold-company-lookup>`): what anyone may read of a
 * company's matching programme. Its own small module, so the public element's bundle carries no
 * staff schema; the values are the catalogue's (src/contract/companies.ts).
 */

/** At least this many characters before the lookup searches (as the match forms' company search). */
export const companyLookupMinLength = 3;
/** At most this many companies per lookup. */
export const companyLookupLimit = 20;

export const PublicCompany = z.object({
  id: z.number(),
  name: z.string(),
  /** matching, none, incomplete or company-site-only (see programStates). */
  program: z.string(),
  /** form, mail, esign, paper, contact or csr; null when the policy does not say. */
  match_method: z.nullable(z.string()),
  /** Company dollars per donor dollar. */
  match_ratio: z.number(),
  minimum_match_cents: z.nullable(z.number()),
  maximum_match_cents: z.nullable(z.number()),
  /** none, days-after-gift, year-end or next-year-end. */
  deadline_rule: z.string(),
  deadline_days: z.nullable(z.number()),
  guide: z.nullable(z.string()),
  url: z.nullable(z.string()),
});
export type PublicCompany = z.infer<typeof PublicCompany>;

export const PublicCompanySearchResponse = z.object({ companies: z.array(PublicCompany) });
export type PublicCompanySearchResponse = z.infer<typeof PublicCompanySearchResponse>;

/** A ratio as people write it: 1 → '1:1', 2 → '2:1', 0.5 → '0.5:1'. */
export const ratioLabel = (ratio: number) => `${Number(ratio.toFixed(2))}:1`;

/** Whole dollars without cents, cents otherwise: 2500 → '$25', 1050 → '$10.50'. */
export function dollarsLabel(cents: number): string {
  const dollars = cents / 100;
  return `$${dollars.toLocaleString('en-US', {
    minimumFractionDigits: cents % 100 === 0 ? 0 : 2,
    maximumFractionDigits: 2,
  })}`;
}

/** How a match request must be in by, in words. */
export function deadlineLabel(rule: string, days: number | null): string {
  if (rule === 'days-after-gift')
    return days ? `Within ${days} days of the gift` : 'Within a set time after the gift';
  if (rule === 'year-end') return 'By the end of the year of the gift';
  if (rule === 'next-year-end') return 'By the end of the year after the gift';
  return 'No deadline';
}

/** Whether, and how, the company matches gifts, in words. */
export function programLabel(program: string): string {
  if (program === 'matching') return 'Matches gifts';
  if (program === 'company-site-only') return 'Matches gifts made through its own giving site only';
  if (program === 'incomplete') return 'Has a matching program; its policy is being confirmed';
  return 'No matching gift program';
}

/** spec: "Company match_method values: form, mail, esign, paper, contact, csr", as a donor reads them. */
export function methodLabel(method: string | null): string {
  switch (method) {
    case 'form':
      return 'Online form';
    case 'mail':
      return 'Form by mail';
    case 'esign':
      return 'Electronic signature';
    case 'paper':
      return 'Paper form';
    case 'contact':
      return 'Contact the company';
    case 'csr':
      return "The company's giving portal";
    default:
      return 'Not known yet';
  }
}

/** How the company confirms a gift (spec: "verify: both, email, phone"), in words. */
export function verifyLabel(verify: string | null): string {
  if (verify === 'both') return 'By email and phone';
  if (verify === 'email') return 'By email';
  if (verify === 'phone') return 'By phone';
  return 'Not known yet';
}

import * as z from 'zod/mini';

/**
 * Employer identification (issue #31): how a match's company was found. domain: the donor's
 * email domain is one of the company's; name: the typed employer is the company's name (in any
 * spelling); alias: it is one of the company's other names; history: the donor's earlier gift
 * named it; person: someone chose it (staff in the portal or the review list, a catalogue company
 * given directly).
 */
export const employerMethods = ['domain', 'name', 'alias', 'history', 'person'] as const;
export const EmployerMethod = z.enum(employerMethods);
export type EmployerMethod = z.infer<typeof EmployerMethod>;

export const employerMethodLabels: Record<EmployerMethod, string> = {
  domain: 'Email domain',
  name: 'Name',
  alias: 'Alias',
  history: 'Earlier gift',
  person: 'Person',
};

/** The organization's default confidence threshold (percent): at or above it an answer is applied. */
export const defaultEmployerThreshold = 80;

/** One answer of the identification service, as the import, the API and the screens show it. */
export const EmployerAnswer = z.object({
  company_id: z.nullable(z.number()),
  company_name: z.nullable(z.string()),
  /** Percent, 0 when there is no answer. */
  confidence: z.number(),
  method: z.nullable(EmployerMethod),
  /** What a person reads: "email domain acme-analytics.example.com". */
  reason: z.string(),
  /** The record says the donor has no employer ('Retired', 'Student', 'N/A'…). */
  no_employer: z.boolean(),
});
export type EmployerAnswer = z.infer<typeof EmployerAnswer>;

/** A donor email whose misspelt common domain was corrected on the way in. */
export const EmailCorrection = z.object({ from: z.string(), to: z.string() });
export type EmailCorrection = z.infer<typeof EmailCorrection>;

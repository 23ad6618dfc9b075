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

/** A "Find employers" run over the organization's matches at Missing Company Hold (23). */
export const EmployerScreening = z.object({
  id: z.number(),
  /** queued, running, done or failed. */
  status: z.enum(['queued', 'running', 'done', 'failed']),
  total: z.number(),
  processed: z.number(),
  /** Matches given a company (at or above the threshold): they moved on. */
  applied: z.number(),
  /** Answers below the threshold, waiting in the review list. */
  to_review: z.number(),
  error: z.nullable(z.string()),
  created_at: z.string(),
  finished_at: z.nullable(z.string()),
});
export type EmployerScreening = z.infer<typeof EmployerScreening>;

export const EmployerScreeningResponse = z.object({ screening: z.nullable(EmployerScreening) });
export type EmployerScreeningResponse = z.infer<typeof EmployerScreeningResponse>;

/** One answer waiting for a person: the match, what the donor gave, the company proposed and why. */
export const EmployerReview = z.object({
  id: z.number(),
  donation_id: z.number(),
  donor_name: z.nullable(z.string()),
  donor_email: z.nullable(z.string()),
  typed: z.nullable(z.string()),
  amount_cents: z.number(),
  company_id: z.number(),
  company_name: z.string(),
  method: EmployerMethod,
  confidence: z.number(),
  reason: z.string(),
  status: z.enum(['pending', 'accepted', 'corrected', 'rejected']),
});
export type EmployerReview = z.infer<typeof EmployerReview>;

export const EmployerReviewList = z.object({ reviews: z.array(EmployerReview), total: z.number() });
export type EmployerReviewList = z.infer<typeof EmployerReviewList>;

/** The most reviews one decision takes (a page of the list, and more). */
export const maxReviewDecision = 500;

/**
 * Staff decide reviews: accept the proposed company, correct it (another catalogue company), or
 * reject it (the match stays at Missing Company Hold). Several at once for accept and reject.
 */
export const EmployerReviewDecision = z.object({
  ids: z.array(z.number().check(z.int(), z.positive())).check(z.minLength(1), z.maxLength(maxReviewDecision)),
  action: z.enum(['accept', 'correct', 'reject']),
  /** correct: the company it should be. */
  company_id: z.optional(z.number().check(z.int(), z.positive())),
});
export type EmployerReviewDecision = z.infer<typeof EmployerReviewDecision>;

export const EmployerReviewDecisionResponse = z.object({
  accepted: z.number(),
  corrected: z.number(),
  rejected: z.number(),
  /** Reviews no longer pending, or whose match has a company meanwhile: left as they are. */
  skipped: z.number(),
});
export type EmployerReviewDecisionResponse = z.infer<typeof EmployerReviewDecisionResponse>;

const summaryDay = z.string().check(
  z.regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates must be YYYY-MM-DD'),
  z.refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), 'Dates must be YYYY-MM-DD'),
);
/** The summary's optional range of donation days (inclusive), as the dashboard's Matching Overview has it. */
export const EmployerSummaryQuery = z.object({ from: z.optional(summaryDay), to: z.optional(summaryDay) });
export type EmployerSummaryQuery = z.infer<typeof EmployerSummaryQuery>;

/** How many of the organization's matches have a company, by how it was found (dashboard, reports). */
export const EmployerSummary = z.object({
  found: z.object({
    domain: z.number(),
    name: z.number(),
    alias: z.number(),
    history: z.number(),
    person: z.number(),
    /** Companies set before the identification recorded how. */
    unrecorded: z.number(),
  }),
  missing: z.number(),
  to_review: z.number(),
});
export type EmployerSummary = z.infer<typeof EmployerSummary>;

/** The public match request's "Is this your employer?": a suggestion from the donor's email domain only. */
export const EmployerSuggestion = z.object({
  company: z.nullable(z.object({ id: z.number(), name: z.string() })),
  reason: z.nullable(z.string()),
});
export type EmployerSuggestion = z.infer<typeof EmployerSuggestion>;

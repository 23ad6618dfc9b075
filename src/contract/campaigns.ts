import * as z from 'zod/mini';
import { dbId, maxDollars, realDay, safeText } from './fields.ts';

/**
 * Matching campaigns (spec part 2, sections 2, 3, 5 and 9; issue 12): a time-boxed matching offer
 * from one company (a match day, a year-end push). A gift at that company donated within the
 * campaign's days takes its ratio and limits for its estimated match.
 */

/** The screen's and the API's texts. spec (section 2): the table's empty text, word for word. */
export const campaignTexts = {
  heading: 'Campaigns',
  note: 'A campaign is a matching offer from one company for a few days or weeks, such as a match day or a year-end push. Gifts at that company donated between its start and end dates (both included) are estimated with its match ratio, minimum and maximum instead of the company’s usual ones.',
  add: 'Add Campaign',
  empty: 'No campaigns found. Click "Add Campaign" to create one.',
  dialogTitle: 'Match Campaign',
  create: 'Create',
  save: 'Save',
  delete: 'Delete',
  confirmDelete:
    'Are you sure you want to delete this campaign? Gifts already estimated with it keep their estimate.',
  noOrganization: 'You must select an organization to use this section.',
  readOnly: 'You can see this organization’s campaigns; ask a user with write access to change them.',
  notFound: 'Campaign not found',
  deleted: 'Campaign deleted',
  created: 'Campaign created',
  saved: 'Campaign saved',
  loadFailed: 'Failed to load campaigns',
  saveFailed: 'Failed to save campaign',
  deleteFailed: 'Failed to delete campaign',
  nameRequired: 'Campaign name is required',
  companyRequired: 'Choose the company from the catalogue list',
  companyNotFound: 'That company is not in the catalogue',
  startRequired: 'Start date must be a real date (YYYY-MM-DD)',
  endRequired: 'End date must be a real date (YYYY-MM-DD)',
  endBeforeStart: 'End date must be on or after the start date',
  minAboveMax: 'Min cannot be more than Max (set Max to 0 for no maximum)',
  amount: 'Min and Max must be amounts in dollars, 0 or more',
  ratio:
    'Match ratio must look like 1:1, 2:1 or 1.5:1, at most 10:1 (leave it blank for the company’s ratio)',
} as const;

/** The largest ratio a campaign may offer (company dollars per donor dollar). */
export const maxCampaignRatio = 10;

const ratioPattern = /^(\d{1,3}(?:\.\d{1,2})?)(?:\s*:\s*(\d{1,3}(?:\.\d{1,2})?))?$/;

/**
 * spec (section 3): "matchRatio (free text such as 1:1, 2:1, 1.5:1; blank means the company
 * default)". The company dollars per donor dollar a ratio stands for ('2:1' is 2, '1:2' is 0.5; a
 * bare '2' is read as 2:1): null when blank, undefined when it does not parse or is not more than 0
 * and at most 10:1.
 */
export function parseMatchRatio(text: string | null | undefined): number | null | undefined {
  const trimmed = (text ?? '').trim();
  if (trimmed === '') return null;
  const m = ratioPattern.exec(trimmed);
  if (!m) return undefined;
  const company = Number(m[1]);
  const donor = m[2] === undefined ? 1 : Number(m[2]);
  if (!(donor > 0) || !(company > 0)) return undefined;
  const ratio = company / donor;
  return ratio <= maxCampaignRatio ? ratio : undefined;
}

const dollars = z.number(campaignTexts.amount).check(
  z.gte(0, campaignTexts.amount),
  z.lte(maxDollars, `Min and Max must be at most ${maxDollars} dollars`),
  z.refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, 'Min and Max have at most two decimals'),
);

/** The first problem of a campaign's dates and amounts together (the fields alone are fine). */
export function campaignProblem(c: {
  start_date: string;
  end_date: string;
  min_amount: number;
  max_amount: number;
  match_ratio?: string | null | undefined;
}): { field: 'end_date' | 'min_amount' | 'match_ratio'; message: string } | undefined {
  if (c.end_date < c.start_date) return { field: 'end_date', message: campaignTexts.endBeforeStart };
  // spec: "a max of 0 means no maximum".
  if (c.max_amount !== 0 && c.min_amount > c.max_amount)
    return { field: 'min_amount', message: campaignTexts.minAboveMax };
  if (parseMatchRatio(c.match_ratio) === undefined)
    return { field: 'match_ratio', message: campaignTexts.ratio };
  return undefined;
}

/** spec (section 3, Campaign form) as the API takes it: amounts in dollars, dates YYYY-MM-DD. */
export const CampaignWrite = z
  .object({
    name: safeText(z.trim(), z.minLength(1, campaignTexts.nameRequired), z.maxLength(200)),
    company_id: dbId(campaignTexts.companyRequired),
    start_date: realDay(campaignTexts.startRequired),
    end_date: realDay(campaignTexts.endRequired),
    /** spec (section 9): "Campaign min and max default to 0." */
    min_amount: z._default(dollars, 0),
    /** 0 means no maximum. */
    max_amount: z._default(dollars, 0),
    match_ratio: z.optional(z.nullable(safeText(z.trim(), z.maxLength(20)))),
    group_submit: z._default(z.boolean(), false),
    bill_eligible: z._default(z.boolean(), false),
    bill_processed: z._default(z.boolean(), false),
    message: z._default(safeText(z.maxLength(2000)), ''),
  })
  .check(
    z.superRefine((c, ctx) => {
      const problem = campaignProblem(c);
      if (problem)
        ctx.addIssue({ code: 'custom', message: problem.message, path: [problem.field], input: c });
    }),
  );
export type CampaignWrite = z.input<typeof CampaignWrite>;

export const Campaign = z.object({
  id: z.number(),
  organization_id: z.number(),
  name: z.string(),
  company_id: z.number(),
  company_name: z.string(),
  start_date: z.string(),
  end_date: z.string(),
  /** Dollars. */
  min_amount: z.number(),
  /** Dollars; 0 means no maximum. */
  max_amount: z.number(),
  /** As typed; null is the company's own ratio. */
  match_ratio: z.nullable(z.string()),
  group_submit: z.boolean(),
  bill_eligible: z.boolean(),
  bill_processed: z.boolean(),
  message: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Campaign = z.infer<typeof Campaign>;

export const CampaignList = z.object({ campaigns: z.array(Campaign) });
export type CampaignList = z.infer<typeof CampaignList>;
export const CampaignResponse = z.object({ campaign: Campaign });
export type CampaignResponse = z.infer<typeof CampaignResponse>;

export const campaignsPath = (orgId: number) => `/api/organization/${orgId}/campaigns`;
export const campaignPath = (campaignId: number) => `/api/campaigns/${campaignId}`;

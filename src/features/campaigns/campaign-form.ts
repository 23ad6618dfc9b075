import { endOfMonth, format, parseISO, startOfMonth } from 'date-fns';
import {
  type Campaign,
  type CampaignWrite,
  campaignProblem,
  campaignTexts,
} from '../../contract/campaigns.ts';
import { isRealDay } from '../../contract/fields.ts';
import type { CompanyChoice } from '../match-request/company-field.tsx';

/**
 * spec (section 3, Campaign form): "name, company, startDate, endDate, minAmount (default "0"),
 * maxAmount (default "0"; 0 means no maximum), matchRatio (free text such as 1:1, 2:1, 1.5:1;
 * blank means the company default), groupSubmit, billEligible, billProcessed (booleans), message."
 */
export type CampaignDraft = {
  id: number | null;
  name: string;
  company: CompanyChoice;
  start_date: string;
  end_date: string;
  min_amount: string;
  max_amount: string;
  match_ratio: string;
  group_submit: boolean;
  bill_eligible: boolean;
  bill_processed: boolean;
  message: string;
};

export type DraftField =
  | 'name'
  | 'company'
  | 'start_date'
  | 'end_date'
  | 'min_amount'
  | 'max_amount'
  | 'match_ratio';
export type DraftErrors = Partial<Record<DraftField, string>>;

const day = (d: Date) => format(d, 'yyyy-MM-dd');

/** A new campaign: this month, min and max "0" (spec section 9: "Campaign min and max default to 0"). */
export function newDraft(today = new Date()): CampaignDraft {
  return {
    id: null,
    name: '',
    company: { company_id: null, company_name: '' },
    start_date: day(startOfMonth(today)),
    end_date: day(endOfMonth(today)),
    min_amount: '0',
    max_amount: '0',
    match_ratio: '',
    group_submit: false,
    bill_eligible: false,
    bill_processed: false,
    message: '',
  };
}

/** A saved campaign in the form. */
export function draftOf(c: Campaign): CampaignDraft {
  return {
    id: c.id,
    name: c.name,
    company: { company_id: c.company_id, company_name: c.company_name },
    start_date: c.start_date,
    end_date: c.end_date,
    min_amount: String(c.min_amount),
    max_amount: String(c.max_amount),
    match_ratio: c.match_ratio ?? '',
    group_submit: c.group_submit,
    bill_eligible: c.bill_eligible,
    bill_processed: c.bill_processed,
    message: c.message,
  };
}

const amountPattern = /^\d{1,8}(\.\d{1,2})?$/;

/**
 * The body to send, or what is wrong field by field (the same rules the API checks: the
 * contract's `campaignProblem`), so the user reads every problem before anything is sent.
 */
export function checkDraft(draft: CampaignDraft): { body: CampaignWrite } | { errors: DraftErrors } {
  const errors: DraftErrors = {};
  if (!draft.name.trim()) errors.name = campaignTexts.nameRequired;
  if (draft.company.company_id === null) errors.company = campaignTexts.companyRequired;
  if (!isRealDay(draft.start_date)) errors.start_date = campaignTexts.startRequired;
  if (!isRealDay(draft.end_date)) errors.end_date = campaignTexts.endRequired;
  const min = draft.min_amount.trim() === '' ? '0' : draft.min_amount.trim();
  const max = draft.max_amount.trim() === '' ? '0' : draft.max_amount.trim();
  if (!amountPattern.test(min)) errors.min_amount = campaignTexts.amount;
  if (!amountPattern.test(max)) errors.max_amount = campaignTexts.amount;
  const together = {
    start_date: draft.start_date,
    end_date: draft.end_date,
    min_amount: Number(min),
    max_amount: Number(max),
    match_ratio: draft.match_ratio,
  };
  // Dates and amounts are compared only once each is valid on its own.
  const problem = campaignProblem({
    ...together,
    ...(errors.start_date || errors.end_date ? { end_date: '9999-12-31', start_date: '0000-01-01' } : {}),
    ...(errors.min_amount || errors.max_amount ? { min_amount: 0, max_amount: 0 } : {}),
  });
  if (problem) errors[problem.field] = problem.message;
  if (Object.keys(errors).length > 0 || draft.company.company_id === null) return { errors };
  return {
    body: {
      name: draft.name.trim(),
      company_id: draft.company.company_id,
      start_date: draft.start_date,
      end_date: draft.end_date,
      min_amount: together.min_amount,
      max_amount: together.max_amount,
      match_ratio: draft.match_ratio.trim() || null,
      group_submit: draft.group_submit,
      bill_eligible: draft.bill_eligible,
      bill_processed: draft.bill_processed,
      message: draft.message,
    },
  };
}

const wholeDollars = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 0,
});
const withCents = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const usd = (dollars: number) => (Number.isInteger(dollars) ? wholeDollars : withCents).format(dollars);

/** The table's Min/Max cell: "$25 / $500", or "$0 / No max" (spec: "a max of 0 means no maximum"). */
export function minMaxText(c: Pick<Campaign, 'min_amount' | 'max_amount'>): string {
  return `${usd(c.min_amount)} / ${c.max_amount === 0 ? 'No max' : usd(c.max_amount)}`;
}

/** The table's dates: "Nov 1, 2026". */
export const dateText = (isoDay: string) => format(parseISO(isoDay), 'MMM d, yyyy');

/** The table's Match Ratio cell: as typed, or the company's own. */
export const ratioText = (c: Pick<Campaign, 'match_ratio'>) => c.match_ratio ?? 'Company default';

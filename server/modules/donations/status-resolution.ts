import type { MatchMethod, ProgramState } from '../../../src/contract/companies.ts';
import { maxInt32 } from '../../../src/contract/fields.ts';
import { type StatusId, statusIdOf } from '../../../src/contract/statuses.ts';

/** What the resolution reads of the organization a match belongs to. */
export type ResolutionOrganization = {
  /** The organization was deactivated (organizations.rule_deactivated). */
  deactivated: boolean;
  /** Its registration is complete (organizations.complete). */
  complete: boolean;
  type: string;
};

/** What the resolution reads of the match's company (null: no catalogue company). */
export type ResolutionCompany = {
  program: ProgramState;
  match_method: MatchMethod | null;
  minimum_match_cents: number | null;
  excluded_organization_types: readonly string[];
};

export type ResolutionInput = {
  organization: ResolutionOrganization;
  company: ResolutionCompany | null;
  amount_cents: number;
  /** The gift is one of a recurring series (a recurring_id is set). */
  recurring: boolean;
};

/**
 * The status a match gets when it is created, when its company changes, or when it is
 * reprocessed (Save & Re-Email). The first row whose condition holds decides.
 *
 * | # | condition                                              | status                                             |
 * |---|--------------------------------------------------------|----------------------------------------------------|
 * | 1 | the organization is deactivated                        | 14 NPO Disabled                                    |
 * | 2 | the organization's registration is not complete        | 17 NPO Registration Incomplete                     |
 * | 3 | no catalogue company (none entered, or not matched)    | 23 Missing Company Hold                            |
 * | 4 | the company's program is 'none'                        | 19 Company Has No Matching Program                 |
 * | 5 | the gift is below the company's minimum                | 10 Below Company Minimum                           |
 * | 6 | the company excludes the organization's type           | 11 Against Company Policy                          |
 * | 7 | the company matches only gifts made on its own site    | 15 Donation Can't Be Matched Outside Company Site  |
 * | 8 | the program is 'incomplete' or names no match method   | 9 Company Policy Incomplete                        |
 * | 9 | the gift is recurring                                  | 22 Recurring Hold (spec: "Submit for Match: available at status 22 with a recurring_id") |
 * |10 | method form: the nonprofit fills in and signs the form | 3 NPO to Verify/Sign                               |
 * |11 | method esign: the donor signs the company's form online| 5 Donor to E-Sign Form                             |
 * |12 | method paper: the company accepts only a signed paper  | 6 Original Signature Only                          |
 * |13 | method csr: the donor submits in the company's portal  | 7 Donor to Submit in Company Portal                |
 * |14 | method mail or contact: the donor tells the company    | 8 Donor to Notify Company                          |
 *
 * A match already on a bill keeps its bill when it is resolved again, with one exception
 * (server/modules/billing/bills.ts): on a bill still open, a new status outside the chargeable
 * ones (the statuses of rows 1 to 8, e.g. Below Company Minimum) takes it off that bill; on an issued bill it stays
 * processed and can be refunded whatever its status.
 *
 * Organization rules come first: nothing can be matched for a disabled or unregistered
 * nonprofit whatever the company. Company facts come before the gift's own (recurring), so a
 * recurring gift to a company without a program says so rather than waiting on a hold.
 */
export function resolveStatus(input: ResolutionInput): StatusId {
  const { organization, company } = input;
  if (organization.deactivated) return statusIdOf.npoDisabled;
  if (!organization.complete) return statusIdOf.registrationIncomplete;
  if (!company) return statusIdOf.missingCompany;
  if (company.program === 'none') return statusIdOf.noProgram;
  if (company.minimum_match_cents !== null && input.amount_cents < company.minimum_match_cents)
    return statusIdOf.belowMinimum;
  if (company.excluded_organization_types.includes(organization.type)) return statusIdOf.againstPolicy;
  if (company.program === 'company-site-only') return statusIdOf.outsideCompanySite;
  if (company.program === 'incomplete' || company.match_method === null) return statusIdOf.policyIncomplete;
  if (input.recurring) return statusIdOf.recurringHold;
  return methodStatus[company.match_method];
}

/** The donor-action (or nonprofit-action) status of each match method: rows 10 to 14 above. */
export const methodStatus: Record<MatchMethod, StatusId> = {
  form: statusIdOf.npoToVerify,
  esign: statusIdOf.donorToESign,
  paper: statusIdOf.originalSignatureOnly,
  csr: statusIdOf.donorToSubmitInPortal,
  mail: statusIdOf.donorToNotifyCompany,
  contact: statusIdOf.donorToNotifyCompany,
};

/**
 * The terms a campaign sets for the gifts it covers (see `coveringCampaign`): its ratio (null: the
 * company's own) and its maximum (spec: "a max of 0 means no maximum").
 */
export type MatchCampaign = { ratio: number | null; max_cents: number };

/**
 * The estimated match (spec: "matched (estimated match amount)"): the gift times the ratio,
 * capped at the maximum; nothing when the status says the gift will not be matched. The ratio and
 * maximum are the covering campaign's when there is one (a campaign's terms replace the
 * company's: its max of 0 is no maximum even where the company has one), else the company's.
 * Never more than an integer column holds.
 */
export function estimatedMatchCents(
  status: StatusId,
  amountCents: number,
  company: { match_ratio: number; maximum_match_cents: number | null } | null,
  campaign: MatchCampaign | null = null,
): number {
  if (!company || unmatchable.has(status)) return 0;
  const ratio = campaign ? (campaign.ratio ?? company.match_ratio) : company.match_ratio;
  const maximum = campaign
    ? campaign.max_cents === 0
      ? null
      : campaign.max_cents
    : company.maximum_match_cents;
  const estimate = Math.min(Math.round(amountCents * ratio), maxInt32);
  return maximum === null ? estimate : Math.min(estimate, maximum);
}

/** What `coveringCampaign` reads of a campaign. */
export type CampaignTerms = {
  id: number;
  organization_id: number;
  company_id: number;
  /** YYYY-MM-DD, both ends included. */
  start_date: string;
  end_date: string;
  min_cents: number;
  max_cents: number;
  /** Company dollars per donor dollar (parsed), null for the company's own. */
  ratio: number | null;
};

/**
 * The campaign whose terms a gift takes, or null: one of the gift's organization for the gift's
 * company whose days (UTC, both ends included) hold the day it was donated, and whose minimum the
 * gift reaches (a gift below a campaign's minimum is matched on the company's usual terms). Where
 * several overlap, the one that started last (then the newest) wins: a match day inside a
 * month-long push is the more specific offer.
 */
export function coveringCampaign<T extends CampaignTerms>(
  campaigns: readonly T[],
  gift: { organization_id: number; company_id: number | null; donated_at: Date; amount_cents: number },
): T | null {
  if (gift.company_id === null) return null;
  const day = gift.donated_at.toISOString().slice(0, 10);
  let best: T | null = null;
  for (const c of campaigns) {
    if (c.organization_id !== gift.organization_id || c.company_id !== gift.company_id) continue;
    if (day < c.start_date || day > c.end_date || gift.amount_cents < c.min_cents) continue;
    if (!best || c.start_date > best.start_date || (c.start_date === best.start_date && c.id > best.id))
      best = c;
  }
  return best;
}

const unmatchable = new Set<number>([9, 10, 11, 14, 15, 17, 19, 23]);

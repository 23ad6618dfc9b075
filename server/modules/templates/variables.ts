import type { VariableValues } from '../../mail/donor-email.tsx';

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const usd = (cents: number) => money.format(cents / 100);
const longDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** What the variables are made of: the match, its donor, organization, company and campaign. */
export type VariableSource = {
  donorName: string | null;
  transactionId: string | null;
  donatedAt: Date;
  custom: Record<string, unknown>;
  /**
   * The campaign whose terms the match's estimate took (donations.campaign_id), if any. Without
   * one, campaign_name and campaign_msg fall back to what an import or integration put in custom.
   */
  campaign?: { name: string; message: string } | null;
  organization: {
    name: string;
    ein: string | null;
    url: string | null;
    mission: string | null;
    file_logo: string | null;
    notify_contact: { email?: string | undefined };
  };
  /** The employer: the catalogue company's name, else the name the donor typed. */
  companyName: string | null;
  company: {
    match_method: string | null;
    program: string;
    minimum_match_cents: number | null;
    maximum_match_cents: number | null;
    csr_vendor: string | null;
    url: string | null;
    guide: string | null;
  } | null;
};

/**
 * spec (section 3): missing_policy_block "explains what the company's policy lacks", in a
 * sentence or two the donor can act on.
 */
export function missingPolicyBlock(source: VariableSource): string {
  const company = source.companyName ?? 'your employer';
  const c = source.company;
  if (!c) return `We could not find ${company} in our matching gift catalogue yet; it is being reviewed.`;
  const lacking: string[] = [];
  if (!c.match_method) lacking.push('how employees submit a gift for matching');
  if (c.minimum_match_cents === null) lacking.push('the smallest gift it matches');
  if (!c.url && !c.guide) lacking.push('where its matching gift program is explained');
  if (lacking.length === 0 && c.program !== 'incomplete') return '';
  const list = lacking.length > 0 ? lacking.join(', ') : 'the details of its program';
  return `What we are missing about ${company}'s policy: ${list}.`;
}

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/** The variables of one email, as plain text (the renderer escapes them). */
export function variableValues(source: VariableSource): VariableValues {
  const name = source.donorName?.trim() ?? '';
  const words = name.split(/\s+/).filter(Boolean);
  const org = source.organization;
  const c = source.company;
  const campaign = source.custom.campaign;
  const campaignObject =
    campaign && typeof campaign === 'object' ? (campaign as Record<string, unknown>) : {};
  return {
    // A donor without a name is greeted as "there" ("Hi there,") rather than "Hi ,".
    donor_first_name: words[0] ?? 'there',
    donor_last_name: words.length > 1 ? (words.at(-1) ?? '') : '',
    donor_full_name: name,
    donation_transaction_id: source.transactionId ?? '',
    donation_date: longDate.format(source.donatedAt),
    campaign_name: source.campaign
      ? source.campaign.name.trim()
      : text(campaignObject.name) || text(source.custom.campaign_name),
    campaign_msg: source.campaign
      ? source.campaign.message.trim()
      : text(campaignObject.message) || text(source.custom.campaign_msg),
    receiving_org_name: org.name,
    receiving_org_ein: org.ein ?? '',
    receiving_org_email: org.notify_contact.email ?? '',
    receiving_org_website: org.url ?? '',
    receiving_org_mission: org.mission ?? '',
    receiving_org_logo: /^https?:\/\//.test(org.file_logo ?? '') ? (org.file_logo ?? '') : '',
    matching_employer_name: source.companyName ?? 'your employer',
    matching_employer_min_match:
      c?.minimum_match_cents != null ? usd(c.minimum_match_cents) : 'a minimum amount',
    matching_employer_max_match:
      c?.maximum_match_cents != null ? usd(c.maximum_match_cents) : 'no set maximum',
    matching_employer_contact_email: 'your matching gift or HR team',
    matching_employer_vendor: c?.csr_vendor ?? 'its giving portal',
    missing_policy_block: missingPolicyBlock(source),
  };
}

/** The preview's example match: a made-up donor and company, the organization's own details. */
export function sampleValues(org: VariableSource['organization']): VariableValues {
  return variableValues({
    donorName: 'Jordan Example',
    transactionId: 'TX-10042',
    donatedAt: new Date(Date.UTC(2025, 2, 14)),
    custom: { campaign: { name: 'Spring Appeal', message: 'Thank you for standing with us this spring.' } },
    organization: org,
    companyName: 'Example Corp',
    company: {
      match_method: 'csr',
      program: 'matching',
      minimum_match_cents: 2500,
      maximum_match_cents: 1_000_000,
      csr_vendor: 'Benevity',
      url: null,
      guide: null,
    },
  });
}

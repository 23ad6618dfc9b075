import { type ImportTarget, normaliseHeader } from './donation-import.ts';

/**
 * The column names donation platforms and CRMs put in their exports, and the import target each
 * means: the one table the import's automatic mapping reads (and the one place other features,
 * such as employer identification, learn which column holds the employer or the email). Keys are
 * normalised headers (`normaliseHeader`: lower case, runs of anything else as `_`), so
 * "Donor Email Address", "donor-email-address" and "DONOR_EMAIL_ADDRESS" are one entry.
 *
 * Gathered from the export layouts of Blackbaud Raiser's Edge / eTapestry / Luminate Online,
 * Salesforce NPSP, Bloomerang, Classy (GoFundMe Pro), DonorPerfect, Givebutter, Donorbox,
 * Virtuous, Little Green Light, Kindful, Neon CRM, PayPal Giving Fund and Benevity. Columns with
 * no target of their own (Campaign, Fund, Payment Method, Constituent ID, …) are not listed: the
 * import keeps them as custom fields of the match (`custom.{column}`).
 *
 * `donor.first_name` and `donor.last_name` are not targets: the two parts are joined into
 * donor.name (spec: "a full name is one field") unless the file also has a full-name column.
 */
export type HeaderMeaning = ImportTarget | 'donor.first_name' | 'donor.last_name';

export const importHeaderSynonyms: Readonly<Partial<Record<HeaderMeaning, readonly string[]>>> = {
  amount: [
    'amount',
    'gift_amount',
    'donation_amount',
    'total',
    'total_amount',
    'amount_donated',
    'donation_total',
    'gift_total',
    'total_gift',
    'total_donation',
    'payment_amount',
    'transaction_amount',
    'contribution_amount',
    'amount_received',
    'received_amount',
    'gross_amount',
    'gross_transaction_amount',
    'donation_gross_amount',
    'donation_value',
    'gift_value',
  ],
  donated_at: [
    'donated_at',
    'donation_date',
    'gift_date',
    'date',
    'created_at',
    'date_donated',
    'transaction_date',
    'payment_date',
    'received_date',
    'date_received',
    'gift_received_date',
    'date_of_gift',
    'date_of_donation',
    'donation_received_date',
    'close_date',
    'charge_date',
    'date_given',
    'donation_created_date',
    'created_date',
  ],
  'company.name': [
    'employer',
    'company',
    'company_name',
    'employer_name',
    'employer_company',
    'donor_employer',
    'donor_company',
    'employer_organization',
    'employer_organisation',
    'matching_company',
    'matching_company_name',
    'matching_gift_company',
    'matching_gift_employer',
    'donating_company',
    'business',
    'business_name',
    'workplace',
    'employer_or_company',
  ],
  'company.id': ['company_id', 'employer_id'],
  'donor.email': [
    'donor_email',
    'email',
    'email_address',
    'e_mail',
    'e_mail_address',
    'donor_email_address',
    'primary_email',
    'primary_email_address',
    'preferred_email',
    'preferred_email_address',
    'personal_email',
    'home_email',
    'email_1',
    'email1',
    'contact_email',
    'constituent_email',
    'supporter_email',
    'billing_email',
    'donor_e_mail',
  ],
  'donor.name': [
    'donor_name',
    'name',
    'full_name',
    'donor_full_name',
    'constituent_name',
    'contact_name',
    'supporter_name',
    'primary_contact',
    'donor',
  ],
  'donor.first_name': [
    'first_name',
    'donor_first_name',
    'first',
    'firstname',
    'given_name',
    'billing_first_name',
    'constituent_first_name',
    'contact_first_name',
  ],
  'donor.last_name': [
    'last_name',
    'donor_last_name',
    'last',
    'lastname',
    'surname',
    'family_name',
    'billing_last_name',
    'constituent_last_name',
    'contact_last_name',
  ],
  transaction_id: [
    'transaction_id',
    'gift_id',
    'donation_id',
    'reference',
    'reference_number',
    'reference_id',
    'transaction',
    'transaction_number',
    'receipt_number',
    'receipt_id',
    'payment_id',
    'charge_id',
    'txn_id',
    'gift_number',
    'donation_number',
    'opportunity_id',
    'confirmation_number',
  ],
  'donor.phone': [
    'phone',
    'phone_number',
    'donor_phone',
    'mobile',
    'mobile_phone',
    'primary_phone',
    'home_phone',
    'cell_phone',
    'billing_phone',
  ],
  'address.street': [
    'address',
    'street',
    'street_address',
    'address_1',
    'address1',
    'address_line_1',
    'address_line1',
    'street_1',
    'billing_address',
    'billing_address_1',
    'billing_street',
    'mailing_street',
    'mailing_address',
    'home_address',
  ],
  street2: [
    'street2',
    'street_2',
    'address_2',
    'address2',
    'address_line_2',
    'address_line2',
    'billing_address_2',
  ],
  city: ['city', 'town', 'billing_city', 'mailing_city', 'home_city'],
  state: [
    'state',
    'province',
    'region',
    'state_province',
    'state_code',
    'billing_state',
    'mailing_state',
    'mailing_state_province',
  ],
  zip: [
    'zip',
    'zip_code',
    'zipcode',
    'postal_code',
    'postcode',
    'zip_postal_code',
    'billing_zip',
    'billing_postal_code',
    'mailing_zip',
    'mailing_zip_postal_code',
  ],
  country: ['country', 'country_code', 'billing_country', 'mailing_country'],
  // The nonprofit (or chapter) the gift went to. "Organization Name" stays here, not with the
  // employer: it is the portal's own export column, so an exported file imports back unchanged.
  organization_name: [
    'organization',
    'organization_name',
    'organisation',
    'organisation_name',
    'chapter',
    'chapter_name',
    'nonprofit',
    'nonprofit_name',
    'school',
  ],
  organization_id: ['organization_id', 'organisation_id', 'chapter_id'],
  ein: ['ein', 'tax_id', 'organization_ein'],
  status: ['status', 'status_name'],
  status_id: ['status_id'],
  amply_id: ['amply_id'],
  billed_organization_id: ['billed_organization_id'],
};

const meaningOf = new Map<string, HeaderMeaning>(
  Object.entries(importHeaderSynonyms).flatMap(([meaning, headers]) =>
    (headers ?? []).map((h) => [h, meaning as HeaderMeaning] as const),
  ),
);

/**
 * Words exports add around a column name: a unit or date layout ("Gift Amount (USD)",
 * "Gift Date (MM/DD/YYYY)") or which of several ("Email (Primary)"). Dropped, one at a time from
 * either end, only when the name itself is not known.
 */
const trailingQualifiers =
  /_(usd|cad|eur|gbp|aud|in_usd|mm_dd_yyyy|dd_mm_yyyy|yyyy_mm_dd|m_d_yyyy|mm_dd_yy|utc|gmt|primary|preferred|personal|home)$/;
const leadingQualifiers = /^(primary|preferred)_/;

/** What a column holds, from its header (original or normalised), or null when it is not known. */
export function recogniseImportHeader(header: string): HeaderMeaning | null {
  let key = normaliseHeader(header);
  for (let tries = 0; key !== '' && tries < 4; tries++) {
    const meaning = meaningOf.get(key);
    if (meaning) return meaning;
    const shorter = key.replace(trailingQualifiers, '').replace(leadingQualifiers, '');
    if (shorter === key) break;
    key = shorter;
  }
  return null;
}

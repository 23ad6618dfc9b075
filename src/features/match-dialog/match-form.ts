import { isValid, parse } from 'date-fns';
import { type Donation, DonationWrite, hiddenCustomKeys } from '../../contract/donations.ts';
import { fieldErrors, giftDay } from '../common.ts';

/**
 * The Match Details form: what the inputs hold, built from a loaded match, and the PUT body built
 * back from them (spec: "dates sent as date plus time; donor_id filled from donor; company_id null
 * when absent"). Pure, so the conversions are tested without a browser.
 */

export interface CustomRow {
  /** A stable key for React; rows are added and removed. */
  rowId: number;
  key: string;
  value: string;
}

export interface MatchForm {
  donorName: string;
  donorEmail: string;
  /** The company text in the search box. */
  companyName: string;
  /** The catalogue company chosen (or loaded); null once the text is edited or 'Other' is chosen. */
  companyId: number | null;
  /** Dollars, as typed. */
  amount: string;
  /** yyyy-MM-dd in the user's time zone. */
  donatedDate: string;
  transactionId: string;
  custom: CustomRow[];
}

export type FormErrors = Partial<
  Record<
    'donorName' | 'donorEmail' | 'companyName' | 'transactionId' | 'amount' | 'donatedDate' | 'custom',
    string
  >
>;

/** The form field each checked field of the contract's body is typed in. */
const formFieldOf: Record<string, keyof FormErrors> = {
  'donor.name': 'donorName',
  'donor.email': 'donorEmail',
  company_name: 'companyName',
  transaction_id: 'transactionId',
};

const isHidden = (key: string) => (hiddenCustomKeys as readonly string[]).includes(key);

/** A custom value as editable text: strings as they are, anything else as JSON. */
export function customText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  return JSON.stringify(value);
}

let nextRowId = 1;
export const newCustomRow = (key = '', value = ''): CustomRow => ({ rowId: nextRowId++, key, value });

export function formFromDonation(donation: Donation): MatchForm {
  return {
    donorName: donation.donor?.name ?? donation.donor_name ?? '',
    donorEmail: donation.donor?.email ?? '',
    companyName: donation.company?.name ?? donation.company_name ?? '',
    companyId: donation.company_id,
    amount: donation.amount.toFixed(2),
    donatedDate: giftDay(donation.donated_at) ?? '',
    transactionId: donation.transaction_id ?? '',
    custom: Object.entries(donation.custom)
      .filter(([key]) => !isHidden(key))
      .map(([key, value]) => newCustomRow(key, customText(value))),
  };
}

/**
 * The gift's date and time as sent: the date chosen with the time of day the match had, so saving
 * an untouched date sends the match's own timestamp back unchanged.
 */
export function donatedAtFor(date: string, original: string): string | null {
  if (giftDay(original) === date) return original;
  const day = parse(date, 'yyyy-MM-dd', new Date(0));
  if (!isValid(day) || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  // The new UTC day at the original time of day (the server files gifts by UTC day).
  const when = new Date(giftDay(original) === null ? `${date}T12:00:00.000Z` : original);
  when.setUTCFullYear(day.getFullYear(), day.getMonth(), day.getDate());
  return when.toISOString();
}

/**
 * The custom object to send: the editable rows (a value left as loaded keeps its original type),
 * then the hidden keys exactly as loaded (spec: hidden from editing, so never changed).
 */
export function customFor(
  rows: readonly CustomRow[],
  original: Record<string, unknown>,
): Record<string, unknown> {
  const custom: Record<string, unknown> = {};
  for (const row of rows) {
    const key = row.key.trim();
    if (!key) continue;
    const before = original[key];
    custom[key] = Object.hasOwn(original, key) && customText(before) === row.value ? before : row.value;
  }
  for (const [key, value] of Object.entries(original)) if (isHidden(key)) custom[key] = value;
  return custom;
}

/** Problems the user must fix before a save is sent; empty when none. */
export function validateForm(form: MatchForm, original: Donation): FormErrors {
  const errors: FormErrors = {};
  const amount = form.amount.trim();
  if (!amount) errors.amount = 'Amount is required';
  else if (!/^\d+(\.\d{1,2})?$/.test(amount))
    errors.amount = 'Amount must be a number of dollars, such as 25 or 25.50';
  else if (Number(amount) > 1_000_000) errors.amount = 'Amount is too large';
  if (!form.donatedDate) errors.donatedDate = 'Donated date is required';
  else if (donatedAtFor(form.donatedDate, original.donated_at) === null)
    errors.donatedDate = 'Enter a valid date';
  const keys = form.custom.map((row) => row.key.trim()).filter(Boolean);
  const hidden = keys.find(isHidden);
  if (hidden) errors.custom = `"${hidden}" is a reserved field name`;
  else if (new Set(keys).size !== keys.length) errors.custom = 'Each custom field needs its own name';
  else if (form.custom.some((row) => !row.key.trim() && row.value.trim()))
    errors.custom = 'Give each custom field a name';
  // The rest is the contract's: the same checks and messages the server applies.
  const body = bodyFor(form, original, false);
  const parsed = body ? DonationWrite.safeParse(body) : null;
  if (parsed && !parsed.success)
    for (const [path, message] of Object.entries(fieldErrors(parsed.error.issues))) {
      const field = formFieldOf[path];
      if (field && !errors[field]) errors[field] = message;
    }
  return errors;
}

function bodyFor(form: MatchForm, original: Donation, reprocess: boolean) {
  const donatedAt = donatedAtFor(form.donatedDate, original.donated_at);
  if (donatedAt === null) return null;
  const companyName = form.companyName.trim();
  return {
    id: original.id,
    transaction_id: form.transactionId.trim() || null,
    donated_at: donatedAt,
    amount: Number(form.amount.trim()),
    donor: { name: form.donorName.trim(), email: form.donorEmail.trim() || null },
    // spec: "company_id null when absent": a typed name with no catalogue company goes by name.
    company_id: companyName ? form.companyId : null,
    company_name: companyName || null,
    custom: customFor(form.custom, original.custom),
    silenced: original.silenced,
    ...(reprocess ? { reprocess: true } : {}),
  };
}

/** The PUT body for the form, checked with the contract the server uses; null when validateForm would object. */
export function writeFor(form: MatchForm, original: Donation, reprocess: boolean): DonationWrite | null {
  const parsed = DonationWrite.safeParse(bodyFor(form, original, reprocess));
  return parsed.success ? parsed.data : null;
}

/**
 * The body that changes only the silence flag: the match's own saved values, leaving company,
 * custom fields and recurring id out so the server keeps them (unsaved edits stay unsent).
 */
export function silenceWrite(original: Donation, silenced: boolean): DonationWrite | null {
  const parsed = DonationWrite.safeParse({
    id: original.id,
    donated_at: original.donated_at,
    amount: original.amount,
    donor: {
      name: original.donor?.name ?? original.donor_name ?? '',
      email: original.donor?.email ?? null,
    },
    silenced,
  });
  return parsed.success ? parsed.data : null;
}

import * as z from 'zod/mini';
import { DonorMatchUpdate, donorFieldMessages, donorTexts } from '../../contract/donor.ts';

/** What the donor typed: name, email, and the company (a catalogue id, or null for typed text). */
export interface DonorFormValues {
  name: string;
  email: string;
  company: { company_id: number | null; company_name: string };
}

/** The form's fields, by where the DonorMatchUpdate schema reports them. */
export type DonorFormField = 'name' | 'email' | 'company';
const fieldOf: Record<string, DonorFormField> = {
  'donor.name': 'name',
  'donor.email': 'email',
  company_id: 'company',
  company_name: 'company',
};

const requiredMessages: readonly string[] = [
  donorFieldMessages.nameRequired,
  donorFieldMessages.emailRequired,
  donorFieldMessages.companyRequired,
];

export type DonorFormCheck =
  | { ok: true; body: DonorMatchUpdate }
  | { ok: false; errors: Partial<Record<DonorFormField, string>>; formError: string | null };

/**
 * The donor form checked with the same `DonorMatchUpdate` schema the server validates with (so
 * the two never disagree): the body to send (trimmed by the schema), or the first message of
 * each field. spec (section 5): "donor name, email, company and amount required, else 'Please
 * fill in all required fields.'": said above the form when one is missing, not for a bad format.
 */
export function checkDonorForm(values: DonorFormValues, amount: number): DonorFormCheck {
  const parsed = z.safeParse(DonorMatchUpdate, {
    donor: { name: values.name, email: values.email },
    company_id: values.company.company_id,
    company_name: values.company.company_name,
    amount,
  });
  if (parsed.success) return { ok: true, body: parsed.data };
  const errors: Partial<Record<DonorFormField, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = fieldOf[issue.path.join('.')];
    if (field && errors[field] === undefined) errors[field] = issue.message;
  }
  const missing = Object.values(errors).some((message) => requiredMessages.includes(message));
  return { ok: false, errors, formError: missing ? donorTexts.required : null };
}

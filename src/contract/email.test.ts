import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { cleanEmail } from '../features/faq/entries.ts';
import { LoginRequest } from './auth.ts';
import { programmeProblem } from './company-admin.ts';
import { ContactForm } from './contact.ts';
import { DonationWrite } from './donations.ts';
import { DonorMatchUpdate } from './donor.ts';
import { isEmailAddress } from './email.ts';

const accepted = [
  'ann@example.org',
  'Ann.Lee+gala@mail.example.co',
  "o'brien@example.ie",
  'a_b-c@sub.example.travel',
];
// Each of these passed the import's, the donations contract's, the company dialog's and the FAQ's
// old pattern (something@something.something), and was then refused by the donor's own edit form.
const refused = [
  'a@b.c',
  'ann@example.c0m',
  'ann@-example.org',
  'ann.@example.org',
  'ann@example..org',
  '.ann@example.org',
];

/** Whether each path that takes an email address accepts it. */
function paths(email: string): Record<string, boolean> {
  const programme = {
    match_method: null,
    guide: null,
    url: null,
    verify: null,
    program: 'yes',
    minimum_match_cents: null,
    maximum_match_cents: null,
    match_ratio: 1,
    deadline_rule: 'none',
    deadline_days: null,
    csr_vendor: null,
    forms_email: email,
    forms_address: null,
    categories: [],
  } as unknown as Parameters<typeof programmeProblem>[0];
  return {
    donorEdit: z.safeParse(DonorMatchUpdate, {
      donor: { name: 'Ann Lee', email },
      company_id: null,
      company_name: 'Acme',
    }).success,
    staffMatch: z.safeParse(DonationWrite, {
      donated_at: '2025-03-01 12:00:00',
      amount: 10,
      donor: { name: 'Ann Lee', email },
      company_id: null,
    }).success,
    companyFormsEmail: programmeProblem(programme) === undefined,
    faqDonorLink: cleanEmail(email) !== null,
    signIn: z.safeParse(LoginRequest, { email, password: 'secret' }).success,
    contact: z.safeParse(ContactForm, {
      name: 'Ann',
      email,
      organization: 'Org',
      subject: 'Hi',
      message: 'Hello there',
    }).success,
  };
}

describe('one rule for email addresses', () => {
  it('every path accepts what the rule accepts', () => {
    for (const email of accepted) {
      expect(isEmailAddress(email), email).toBe(true);
      expect(paths(email), email).toEqual(
        Object.fromEntries(Object.keys(paths(email)).map((k) => [k, true])),
      );
    }
  });

  it("every path refuses what the donor's own edit form refuses, a@b.c included", () => {
    for (const email of refused) {
      expect(isEmailAddress(email), email).toBe(false);
      expect(paths(email), email).toEqual(
        Object.fromEntries(Object.keys(paths(email)).map((k) => [k, false])),
      );
    }
  });
});

import { describe, expect, it } from 'vitest';
import { donorTexts, donorFieldMessages as m } from '../../contract/donor.ts';
import { checkDonorForm, type DonorFormValues } from './donor-form.ts';

const good: DonorFormValues = {
  name: '  Morgan Donor ',
  email: ' morgan@example.org ',
  company: { company_id: 12, company_name: ' Acme ' },
};

describe('checkDonorForm (the DonorMatchUpdate schema)', () => {
  it('gives the body the server expects, trimmed, with the fixed amount', () => {
    expect(checkDonorForm(good, 250)).toEqual({
      ok: true,
      body: {
        donor: { name: 'Morgan Donor', email: 'morgan@example.org' },
        company_id: 12,
        company_name: 'Acme',
        amount: 250,
      },
    });
  });

  it("names every missing field with the spec's messages and says 'Please fill in all required fields.'", () => {
    expect(
      checkDonorForm({ name: ' ', email: '', company: { company_id: null, company_name: '' } }, 1),
    ).toEqual({
      ok: false,
      errors: { name: m.nameRequired, email: m.emailRequired, company: m.companyRequired },
      formError: donorTexts.required,
    });
  });

  it('a badly written email is a field error only, not the required-fields message', () => {
    expect(checkDonorForm({ ...good, email: 'not-an-email' }, 1)).toEqual({
      ok: false,
      errors: { email: m.emailInvalid },
      formError: null,
    });
  });

  it('refuses what the server would refuse: an over-long name or company, a NUL', () => {
    const long = 'x'.repeat(201);
    const result = checkDonorForm(
      { ...good, name: long, company: { company_id: null, company_name: long } },
      1,
    );
    expect(result).toEqual({
      ok: false,
      errors: { name: m.nameTooLong, company: m.companyTooLong },
      formError: null,
    });
    const nul = checkDonorForm({ ...good, name: 'Mor\u0000gan' }, 1);
    expect(nul.ok).toBe(false);
    expect(nul.ok ? null : Object.keys(nul.errors)).toEqual(['name']);
  });
});

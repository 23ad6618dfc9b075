import { describe, expect, it } from 'vitest';
import type { Donation } from '../../contract/donations.ts';
import {
  customFor,
  donatedAtFor,
  formFromDonation,
  newCustomRow,
  silenceWrite,
  validateForm,
  writeFor,
} from './match-form.ts';
import { testMatch } from './test-match.ts';

const donation = (over: Partial<Donation> = {}): Donation =>
  testMatch({ custom: { team: 'Blue', seats: 4, amply: { id: 'x' }, history: ['a'] }, ...over });

describe('the form built from a match', () => {
  it('holds the donor, company, amount in dollars, the local date and the transaction id', () => {
    const form = formFromDonation(donation());
    expect(form).toMatchObject({
      donorName: 'Dana Donor',
      donorEmail: 'dana@example.org',
      companyName: 'Acme Corp',
      companyId: 3,
      amount: '125.50',
      donatedDate: '2026-03-05',
      transactionId: 'tx-41',
    });
  });

  it('shows the custom fields except the hidden keys (amply, company, history, recurring_history)', () => {
    const form = formFromDonation(
      donation({ custom: { team: 'Blue', amply: 1, company: 2, history: 3, recurring_history: 4 } }),
    );
    expect(form.custom.map((r) => [r.key, r.value])).toEqual([['team', 'Blue']]);
  });

  it('shows a typed company name when no catalogue company is linked', () => {
    const form = formFromDonation(
      donation({ company: null, company_id: null, company_name: 'Tiny Startup' }),
    );
    expect(form.companyName).toBe('Tiny Startup');
    expect(form.companyId).toBeNull();
  });
});

describe('donated_at as sent', () => {
  it('is the original timestamp when the date is unchanged', () => {
    const original = '2026-03-05T15:30:00.000Z';
    expect(donatedAtFor('2026-03-05', original)).toBe(original);
  });

  it('is the new date at the original time of day when the date changes', () => {
    const original = '2026-03-05T15:30:00.000Z';
    // The day is the stored (UTC) day, wherever the browser is: a gift at 23:30 UTC stays on its day.
    expect(donatedAtFor('2026-02-01', original)).toBe('2026-02-01T15:30:00.000Z');
    expect(donatedAtFor('2026-02-01', '2026-03-05T23:30:00.000Z')).toBe('2026-02-01T23:30:00.000Z');
  });

  it('is null for text that is not a date', () => {
    expect(donatedAtFor('2026-02-31', '2026-03-05T15:30:00.000Z')).toBeNull();
    expect(donatedAtFor('soon', '2026-03-05T15:30:00.000Z')).toBeNull();
  });
});

describe('custom fields as sent', () => {
  it('keeps the hidden keys exactly as loaded and the original type of untouched values', () => {
    const original = { team: 'Blue', seats: 4, amply: { id: 'x' }, history: ['a'] };
    const sent = customFor([newCustomRow('team', 'Red'), newCustomRow('seats', '4')], original);
    expect(sent).toEqual({ team: 'Red', seats: 4, amply: { id: 'x' }, history: ['a'] });
  });

  it('drops a removed field and rows without a name, and adds a new field', () => {
    const sent = customFor([newCustomRow('', ''), newCustomRow('shirt', 'L')], { team: 'Blue' });
    expect(sent).toEqual({ shirt: 'L' });
  });
});

describe('validation', () => {
  const valid = () => formFromDonation(donation());

  it('accepts the loaded match as it is', () => {
    expect(validateForm(valid(), donation())).toEqual({});
  });

  it('requires the donor name', () => {
    expect(validateForm({ ...valid(), donorName: '  ' }, donation()).donorName).toBe(
      'Donor name is required',
    );
  });

  it('reports what the contract refuses on its field, so Save never fails silently', () => {
    const long = 'x'.repeat(201);
    const errors = validateForm(
      {
        ...valid(),
        donorName: long,
        companyName: long,
        transactionId: long,
        donorEmail: `${'a'.repeat(320)}@b.org`,
      },
      donation(),
    );
    expect(Object.keys(errors).sort()).toEqual(['companyName', 'donorEmail', 'donorName', 'transactionId']);
    expect(writeFor({ ...valid(), donorName: long }, donation(), false)).toBeNull();
  });

  it('accepts an empty email but not a malformed one', () => {
    expect(validateForm({ ...valid(), donorEmail: '' }, donation()).donorEmail).toBeUndefined();
    expect(validateForm({ ...valid(), donorEmail: 'dana@' }, donation()).donorEmail).toBe(
      'Please enter a valid email address',
    );
  });

  it.each(['', '-5', '12.345', 'ten', '1000000.01'])('refuses the amount %j', (amount) => {
    expect(validateForm({ ...valid(), amount }, donation()).amount).toBeDefined();
  });

  it.each(['0', '25', '25.5', '1000000'])('accepts the amount %j', (amount) => {
    expect(validateForm({ ...valid(), amount }, donation()).amount).toBeUndefined();
  });

  it('requires a real donated date', () => {
    expect(validateForm({ ...valid(), donatedDate: '' }, donation()).donatedDate).toBe(
      'Donated date is required',
    );
    expect(validateForm({ ...valid(), donatedDate: '2026-13-01' }, donation()).donatedDate).toBe(
      'Enter a valid date',
    );
  });

  it('refuses a custom field named like a hidden key, a duplicate name, or a value without a name', () => {
    const withRows = (...rows: [string, string][]) => ({
      ...valid(),
      custom: rows.map(([k, v]) => newCustomRow(k, v)),
    });
    expect(validateForm(withRows(['amply', '1']), donation()).custom).toBe(
      '"amply" is a reserved field name',
    );
    expect(validateForm(withRows(['a', '1'], [' a ', '2']), donation()).custom).toBe(
      'Each custom field needs its own name',
    );
    expect(validateForm(withRows(['', 'orphan']), donation()).custom).toBe('Give each custom field a name');
  });
});

describe('the save body', () => {
  it('sends the edited fields with the donor, the company id, date plus time, and reprocess only when asked', () => {
    const form = {
      ...formFromDonation(donation()),
      donorName: ' Dana D. ',
      amount: '200',
      transactionId: ' ',
    };
    const body = writeFor(form, donation(), false);
    expect(body).toMatchObject({
      id: 41,
      transaction_id: null,
      donated_at: '2026-03-05T15:30:00.000Z',
      amount: 200,
      donor: { name: 'Dana D.', email: 'dana@example.org' },
      company_id: 3,
      company_name: 'Acme Corp',
      silenced: false,
    });
    expect(body).not.toHaveProperty('reprocess');
    expect(writeFor(form, donation(), true)).toMatchObject({ reprocess: true });
  });

  it('sends company_id null with the typed name when no catalogue company was chosen', () => {
    const form = { ...formFromDonation(donation()), companyName: 'Tiny Startup', companyId: null };
    expect(writeFor(form, donation(), false)).toMatchObject({
      company_id: null,
      company_name: 'Tiny Startup',
    });
  });

  it('sends company_id null and no name when the company is cleared', () => {
    const form = { ...formFromDonation(donation()), companyName: '  ', companyId: 3 };
    expect(writeFor(form, donation(), false)).toMatchObject({ company_id: null, company_name: null });
  });
});

describe('the silence body', () => {
  it('carries the saved values and the new flag, and leaves company and custom fields to the server', () => {
    const body = silenceWrite(donation(), true);
    expect(body).toEqual({
      id: 41,
      donated_at: '2026-03-05T15:30:00.000Z',
      amount: 125.5,
      donor: { name: 'Dana Donor', email: 'dana@example.org' },
      silenced: true,
    });
  });
});

import { describe, expect, it } from 'vitest';
import type { CompanyProgramme } from '../../contract/company-admin.ts';
import { fromForm, shownValue, toForm } from './programme-form.ts';

const programme: CompanyProgramme = {
  match_method: 'csr',
  guide: 'Use the portal',
  url: 'https://example.com',
  verify: 'email',
  program: 'matching',
  minimum_match_cents: 2500,
  maximum_match_cents: 1_000_050,
  match_ratio: 2,
  deadline_rule: 'days-after-gift',
  deadline_days: 90,
  csr_vendor: 'Benevity',
  forms_email: 'matching@example.com',
  forms_address: '1 Main St\nSpringfield',
  categories: [44, 1],
  domains: ['acme.example.com', 'acme.example.org'],
  aliases: ['AA Bank', 'Acme Banking'],
  parent_id: 12,
};

describe('the company dialog form', () => {
  it('round-trips a programme through dollars and typed numbers', () => {
    expect(fromForm(toForm(programme)).programme).toEqual({ ...programme, categories: [1, 44] });
  });

  it('reads a ratio written as 2:1, blank amounts as none, and clears the days of another deadline rule', () => {
    const form = {
      ...toForm(programme),
      match_ratio: '1.5:1',
      minimum: '',
      maximum: '$1,000',
      deadline_rule: 'year-end',
    };
    expect(fromForm(form).programme).toMatchObject({
      match_ratio: 1.5,
      minimum_match_cents: null,
      maximum_match_cents: 100_000,
      deadline_days: null,
    });
  });

  it('reads domains and aliases one a line, and names a parent id that is not a number', () => {
    const form = {
      ...toForm(programme),
      domains: ' a.example.com \n\nb.example.com',
      aliases: '',
      parent_id: '',
    };
    expect(fromForm(form).programme).toMatchObject({
      domains: ['a.example.com', 'b.example.com'],
      aliases: [],
      parent_id: null,
    });
    expect(fromForm({ ...form, parent_id: 'Acme' }).errors).toEqual({
      parent_id: "Give the parent company's ID, or leave it blank.",
    });
  });

  it('names each field that is not valid', () => {
    const form = { ...toForm(programme), match_ratio: 'two', minimum: '12.345', deadline_days: '' };
    expect(Object.keys(fromForm(form).errors ?? {}).sort()).toEqual([
      'deadline_days',
      'match_ratio',
      'minimum',
    ]);
  });

  it('shows stored values as people read them', () => {
    expect(shownValue('minimum_match_cents', 2500)).toBe('$25');
    expect(shownValue('match_ratio', 0.5)).toBe('0.5:1');
    expect(shownValue('guide', null)).toBe('(none)');
    // The history and the suggestions queue name codes in the portal's words, not as stored.
    expect(shownValue('match_method', 'esign')).toBe('Electronic signature');
    expect(shownValue('match_method', 'csr')).toBe("The company's giving portal");
    expect(shownValue('verify', 'both')).toBe('By email and phone');
    expect(shownValue('program', 'company-site-only')).toBe(
      'Matches gifts made through its own giving site only',
    );
    expect(shownValue('deadline_rule', 'year-end')).toBe('By the end of the year of the gift');
  });
});

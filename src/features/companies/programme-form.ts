import type { CompanyProgramme } from '../../contract/company-admin.ts';
import { deadlineLabel, methodLabel, programLabel, verifyLabel } from '../../contract/company-lookup.ts';

/** The dialog's form: amounts in dollars and numbers as typed, so a half-typed value is kept. */
export type ProgrammeForm = {
  match_method: string;
  guide: string;
  url: string;
  verify: string;
  program: string;
  minimum: string;
  maximum: string;
  match_ratio: string;
  deadline_rule: string;
  deadline_days: string;
  csr_vendor: string;
  forms_email: string;
  forms_address: string;
  categories: number[];
  /** Issue 31: one email domain, and one alias, a line; the parent company's id. */
  domains: string;
  aliases: string;
  parent_id: string;
};

const lines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);

const dollars = (cents: number | null) => (cents === null ? '' : String(cents / 100));

export function toForm(p: CompanyProgramme): ProgrammeForm {
  return {
    match_method: p.match_method ?? '',
    guide: p.guide ?? '',
    url: p.url ?? '',
    verify: p.verify ?? '',
    program: p.program,
    minimum: dollars(p.minimum_match_cents),
    maximum: dollars(p.maximum_match_cents),
    match_ratio: String(p.match_ratio),
    deadline_rule: p.deadline_rule,
    deadline_days: p.deadline_days === null ? '' : String(p.deadline_days),
    csr_vendor: p.csr_vendor ?? '',
    forms_email: p.forms_email ?? '',
    forms_address: p.forms_address ?? '',
    categories: [...p.categories],
    domains: (p.domains ?? []).join('\n'),
    aliases: (p.aliases ?? []).join('\n'),
    parent_id: p.parent_id === null || p.parent_id === undefined ? '' : String(p.parent_id),
  };
}

/** Dollars as typed → cents; blank is "none". A value that is not an amount is returned as NaN. */
function cents(text: string): number | null {
  const t = text.trim().replace(/^\$/, '').replace(/,/g, '');
  if (!t) return null;
  if (!/^\d+(\.\d{1,2})?$/.test(t)) return Number.NaN;
  return Math.round(Number(t) * 100);
}

/**
 * The form as the API takes it, or the fields that are not valid (by form key). The server checks
 * again with the contract (ranges, the rules across fields).
 */
export function fromForm(
  form: ProgrammeForm,
): { programme: CompanyProgramme; errors?: never } | { programme?: never; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const minimum = cents(form.minimum);
  const maximum = cents(form.maximum);
  if (Number.isNaN(minimum)) errors.minimum = 'Enter an amount in dollars, or leave it blank for none.';
  if (Number.isNaN(maximum)) errors.maximum = 'Enter an amount in dollars, or leave it blank for none.';
  const ratioText = form.match_ratio.trim().replace(/:1$/, '');
  const ratio = Number(ratioText);
  if (!ratioText || !Number.isFinite(ratio) || ratio <= 0 || ratio > 10)
    errors.match_ratio = 'Enter a ratio above 0 and at most 10, such as 1, 2 or 0.5 (or 2:1).';
  const days = form.deadline_days.trim();
  if (form.deadline_rule === 'days-after-gift' && !/^[1-9]\d{0,3}$/.test(days))
    errors.deadline_days = 'Give the number of days after the gift for this deadline rule.';
  const parent = form.parent_id.trim();
  if (parent && !/^[1-9]\d{0,9}$/.test(parent))
    errors.parent_id = "Give the parent company's ID, or leave it blank.";
  if (Object.keys(errors).length) return { errors };
  const text = (value: string) => value.trim() || null;
  return {
    programme: {
      match_method: (text(form.match_method) as CompanyProgramme['match_method']) ?? null,
      guide: text(form.guide),
      url: text(form.url),
      verify: (text(form.verify) as CompanyProgramme['verify']) ?? null,
      program: form.program as CompanyProgramme['program'],
      minimum_match_cents: minimum,
      maximum_match_cents: maximum,
      match_ratio: ratio,
      deadline_rule: form.deadline_rule as CompanyProgramme['deadline_rule'],
      deadline_days: form.deadline_rule === 'days-after-gift' ? Number(days) : null,
      csr_vendor: text(form.csr_vendor),
      forms_email: text(form.forms_email),
      forms_address: text(form.forms_address),
      categories: [...form.categories].sort((a, b) => a - b),
      domains: lines(form.domains),
      aliases: lines(form.aliases),
      parent_id: parent ? Number(parent) : null,
    },
  };
}

/** A stored value as the history and the review queue show it. */
export function shownValue(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '(none)';
  if ((field === 'minimum_match_cents' || field === 'maximum_match_cents') && typeof value === 'number')
    return `$${(value / 100).toLocaleString('en-US', { maximumFractionDigits: 2 })}`;
  if (field === 'match_ratio' && typeof value === 'number') return `${value}:1`;
  // Codes in the words the rest of the portal uses (issue 30: 'esign', 'csr' were shown as is).
  if (typeof value === 'string') {
    if (field === 'match_method') return methodLabel(value);
    if (field === 'verify') return verifyLabel(value);
    if (field === 'program') return programLabel(value);
    if (field === 'deadline_rule') return deadlineLabel(value, null);
  }
  if (Array.isArray(value)) return value.length ? value.join(', ') : '(none)';
  return String(value);
}

import { useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { getCompany, suggestCorrection } from '../../api/company-admin.ts';
import { deadlineRules, matchMethods } from '../../contract/companies.ts';
import type { CompanyProgramme } from '../../contract/company-admin.ts';
import { deadlineLabel, methodLabel } from '../../contract/company-lookup.ts';
import { toast } from '../../state/toasts.ts';
import { Button } from '../../ui/button.tsx';
import { Field, SelectField, TextAreaField } from '../../ui/field.tsx';

/** The programme fields staff most often find wrong, and how the typed value is read. */
const suggestible = [
  { field: 'match_ratio', label: 'Ratio' },
  { field: 'minimum_match_cents', label: 'Minimum (dollars)' },
  { field: 'maximum_match_cents', label: 'Maximum (dollars)' },
  { field: 'match_method', label: 'Method' },
  { field: 'deadline_rule', label: 'Deadline rule' },
  { field: 'url', label: 'URL' },
  { field: 'guide', label: 'Guide' },
  // Issue 31: how the company is written, so the employer identification finds it next time.
  { field: 'domains', label: 'Add an email domain' },
  { field: 'aliases', label: 'Add an alias' },
] as const;
type Suggestible = (typeof suggestible)[number]['field'];

export const suggestTexts = {
  summary: 'Suggest a correction',
  intro:
    "Is this company's matching programme wrong, or does it go by another name or email domain? Tell us: a super user reviews every suggestion.",
  send: 'Send suggestion',
  sent: 'Suggestion sent',
  invalid: 'Enter the correct value.',
  domainHint: 'The domain its staff write from, e.g. acme-analytics.com',
  aliasHint: "Another name the company goes by, e.g. 'AA Bank'",
  alreadyListed: (value: string) => `${value} is already listed for this company.`,
} as const;

/** The lists are suggested whole (the review applies them as they are): today's, plus the new one. */
const listFields = ['domains', 'aliases'] as const;
type ListField = (typeof listFields)[number];
const isList = (field: Suggestible): field is ListField => (listFields as readonly string[]).includes(field);

/** The typed value as the API takes it, or undefined when it cannot be read. */
function proposedValue(
  field: Exclude<Suggestible, ListField>,
  text: string,
): Partial<CompanyProgramme> | undefined {
  const t = text.trim();
  if (field === 'match_ratio') {
    const ratio = Number(t.replace(/:1$/, ''));
    return t && Number.isFinite(ratio) && ratio > 0 && ratio <= 10 ? { match_ratio: ratio } : undefined;
  }
  if (field === 'minimum_match_cents' || field === 'maximum_match_cents') {
    const plain = t.replace(/^\$/, '').replace(/,/g, '');
    if (!plain) return { [field]: null };
    return /^\d+(\.\d{1,2})?$/.test(plain) ? { [field]: Math.round(Number(plain) * 100) } : undefined;
  }
  if (field === 'match_method')
    return (matchMethods as readonly string[]).includes(t)
      ? { match_method: t as CompanyProgramme['match_method'] }
      : undefined;
  if (field === 'deadline_rule')
    return (deadlineRules as readonly string[]).includes(t)
      ? { deadline_rule: t as CompanyProgramme['deadline_rule'] }
      : undefined;
  return t ? { [field]: t } : { [field]: null };
}

/**
 * From the match dialog, staff suggest a correction to the match's company's programme; a super
 * user reviews it on the Companies screen. A disclosure inside the match form, so its button is
 * type=button and never submits the match.
 */
export function SuggestCorrection({ companyId, companyName }: { companyId: number; companyName: string }) {
  const [field, setField] = useState<Suggestible>('match_ratio');
  const [value, setValue] = useState('');
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [sending, setSending] = useState(false);

  /** A domain or alias is added to the company's list as it is today (read when sending). */
  const proposedList = async (list: ListField): Promise<Partial<CompanyProgramme> | string> => {
    const typed =
      list === 'domains'
        ? value
            .trim()
            .toLowerCase()
            .replace(/^www\./, '')
        : value.trim();
    const { company } = await getCompany(companyId);
    const today = company[list] ?? [];
    if (today.some((v) => v.toLowerCase() === typed.toLowerCase())) return suggestTexts.alreadyListed(typed);
    return { [list]: [...today, typed] };
  };

  const send = async () => {
    if (!value.trim() && isList(field)) {
      setError(suggestTexts.invalid);
      return;
    }
    const local = isList(field) ? {} : proposedValue(field, value);
    if (!local) {
      setError(suggestTexts.invalid);
      return;
    }
    setError(undefined);
    setSending(true);
    try {
      const proposed = isList(field) ? await proposedList(field) : local;
      if (typeof proposed === 'string') {
        setError(proposed);
        return;
      }
      const { message } = await suggestCorrection(companyId, { proposed, note: note.trim() || null });
      toast({ title: suggestTexts.sent, description: message });
      setValue('');
      setNote('');
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setSending(false);
    }
  };

  const choices =
    field === 'match_method'
      ? matchMethods.map((m) => ({ value: m, label: methodLabel(m) }))
      : field === 'deadline_rule'
        ? deadlineRules.map((r) => ({ value: r, label: deadlineLabel(r, null) }))
        : null;
  return (
    <details className="match__suggest">
      <summary>{suggestTexts.summary}</summary>
      <div className="match__suggest-body">
        <p className="muted">
          {suggestTexts.intro} ({companyName})
        </p>
        <SelectField
          label="Field"
          value={field}
          options={suggestible.map((s) => ({ value: s.field, label: s.label }))}
          onChange={(e) => {
            setField(e.target.value as Suggestible);
            setValue('');
            setError(undefined);
          }}
        />
        {choices ? (
          <SelectField
            label="Correct value"
            value={value}
            placeholder="Choose"
            options={choices}
            error={error}
            onChange={(e) => setValue(e.target.value)}
          />
        ) : (
          <Field
            label={field === 'domains' ? 'Email domain' : field === 'aliases' ? 'Alias' : 'Correct value'}
            hint={
              field === 'domains'
                ? suggestTexts.domainHint
                : field === 'aliases'
                  ? suggestTexts.aliasHint
                  : undefined
            }
            value={value}
            maxLength={field === 'domains' ? 253 : field === 'aliases' ? 200 : 500}
            error={error}
            onChange={(e) => setValue(e.target.value)}
          />
        )}
        <TextAreaField
          label="Note for the reviewer"
          value={note}
          rows={2}
          maxLength={2000}
          onChange={(e) => setNote(e.target.value)}
        />
        <div>
          <Button variant="secondary" disabled={sending} onClick={() => void send()}>
            {sending ? 'Sending...' : suggestTexts.send}
          </Button>
        </div>
      </div>
    </details>
  );
}

import { useRef } from 'react';
import { searchCompanies } from '../../api/companies.ts';
import {
  type CompanySearchEntry,
  companySearchMinLength,
  otherCompanyName,
} from '../../contract/companies.ts';
import { Field } from '../../ui/field.tsx';
import { useSearchCombobox } from '../../ui/use-search-combobox.ts';

/** spec (part 2, section 9): "Company search: 3 characters minimum, 300 ms debounce." */
export const companySearchDelay = 300;

/** The employer as a match holds it: a catalogue company, or the typed name ('Other'). */
export type CompanyChoice = { company_id: number | null; company_name: string };

const keyOf = (entry: CompanySearchEntry) =>
  entry.company_id === null ? `other:${entry.name}` : entry.company_id;

/**
 * A match's employer, searched in the companies catalogue as the user types (spec: "Company search
 * starts after 3 characters with a 300 ms delay; the 'Other' option uses the typed text"): the
 * donor's forms and the staff match dialog. Choosing a company keeps its id; typing, or choosing
 * Other, keeps the text with no id.
 */
export function CompanyField({
  value,
  onChange,
  error,
  label = 'Employer (company)',
  hint = 'Start typing your employer’s name, then choose it from the list. Not listed? Choose Other.',
  required = true,
  readOnly = false,
}: {
  value: CompanyChoice;
  onChange: (value: CompanyChoice) => void;
  error?: string | undefined;
  label?: string;
  hint?: string;
  required?: boolean;
  readOnly?: boolean;
}) {
  // Only what the user types is searched: not the text a match opened with, nor a chosen entry's.
  const chosen = useRef<string | null>(value.company_name);
  const combo = useSearchCombobox<CompanySearchEntry>({
    term: value.company_name,
    search: searchCompanies,
    minLength: companySearchMinLength,
    delay: companySearchDelay,
    keyOf,
    openWhenEmpty: true,
    // Nor a catalogue company set from outside (the employer lookup, a preselected company-id).
    skip: (term) => term === chosen.current || value.company_id !== null,
    onPick: (entry) => {
      chosen.current = entry.name;
      onChange({ company_id: entry.company_id, company_name: entry.name });
    },
  });
  const { results, showList } = combo;
  const companies = results.filter((entry) => entry.company_id !== null);
  return (
    <div className="match-parts__combobox">
      <Field
        label={label}
        name="company"
        required={required}
        readOnly={readOnly}
        autoComplete="organization"
        spellCheck={false}
        maxLength={200}
        hint={hint}
        error={error}
        {...combo.inputProps}
        value={value.company_name}
        onChange={(event) => {
          chosen.current = null;
          onChange({ company_id: null, company_name: event.target.value });
        }}
      />
      <div className="match-parts__suggestions" hidden={!showList} part="company-suggestions">
        <div id={combo.listId} role="listbox" aria-label="Companies">
          {showList
            ? results.map((entry, index) => (
                <div
                  key={keyOf(entry)}
                  {...combo.optionProps(entry, index)}
                  className={`match-parts__option${index === combo.active ? ' match-parts__option--active' : ''}`}
                >
                  {entry.company_id === null ? (
                    <>
                      <strong>{otherCompanyName}</strong>: “{entry.name}”
                    </>
                  ) : (
                    entry.name
                  )}
                </div>
              ))
            : null}
        </div>
        {showList && companies.length === 0 ? (
          <p className="match-parts__empty">No companies found matching “{value.company_name.trim()}”</p>
        ) : null}
      </div>
      <p className="visually-hidden" aria-live="polite">
        {showList
          ? `${companies.length} ${companies.length === 1 ? 'company matches' : 'companies match'}. Use the arrow keys to choose, or choose Other to keep what you typed.`
          : ''}
      </p>
    </div>
  );
}

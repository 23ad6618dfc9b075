import { useId, useState } from 'react';
import { searchCompanyNames } from '../../api/donations.ts';
import { type CompanySearchEntry, companySearchMinLength } from '../../contract/companies.ts';
import { useSearchCombobox } from '../../ui/use-search-combobox.ts';

/** spec (section 9): "Company search: 3 characters minimum, 300 ms debounce". */
export const companySearchDelay = 300;

export interface CompanyFieldProps {
  name: string;
  companyId: number | null;
  readOnly?: boolean;
  /** The text changed (typing) or an entry was chosen (with its catalogue id, null for 'Other'). */
  onChange: (name: string, companyId: number | null) => void;
}

/**
 * The company of a match: a search box over the company catalogue. Choosing a company links it
 * by id; typing anything else, or choosing 'Other', keeps the typed text as the company name
 * (spec: "the 'Other' option uses the typed text").
 */
export function CompanyField({ name, companyId, readOnly = false, onChange }: CompanyFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  // Search only what the user types: a match opened with an unlinked name must not pop a list.
  const [typed, setTyped] = useState(false);
  const combo = useSearchCombobox<CompanySearchEntry>({
    term: name,
    search: searchCompanyNames,
    minLength: companySearchMinLength,
    delay: companySearchDelay,
    keyOf: (entry) => (entry.company_id === null ? `other-${entry.name}` : entry.company_id),
    openWhenEmpty: true,
    // Not typed yet, or the text shown is the company just chosen: nothing to look up.
    skip: () => !typed || companyId !== null,
    onPick: (entry) => onChange(entry.company?.name ?? entry.name, entry.company_id),
  });
  const found = combo.results.filter((entry) => entry.company_id !== null);

  return (
    <div className="field match__company">
      <label className="field__label" htmlFor={id}>
        Company
      </label>
      <div className="match__company-box">
        <input
          id={id}
          className="field__input"
          type="text"
          autoComplete="off"
          spellCheck={false}
          readOnly={readOnly}
          aria-describedby={hintId}
          {...combo.inputProps}
          value={name}
          onChange={(event) => {
            setTyped(true);
            onChange(event.target.value, null);
          }}
        />
        <div className="match__company-popup" hidden={!combo.showList}>
          {combo.showList && found.length === 0 ? (
            <p className="match__company-empty">No companies found matching "{name.trim()}"</p>
          ) : null}
          <div className="match__company-list" id={combo.listId} role="listbox" aria-label="Companies">
            {combo.showList
              ? combo.results.map((entry, index) => (
                  <div
                    key={combo.optionProps(entry, index).id}
                    {...combo.optionProps(entry, index)}
                    className={`match__company-option${index === combo.active ? ' match__company-option--active' : ''}`}
                  >
                    {entry.company_id === null ? `Other: ${entry.name}` : (entry.company?.name ?? entry.name)}
                  </div>
                ))
              : null}
          </div>
        </div>
      </div>
      <p id={hintId} className="field__hint">
        {companyId === null
          ? name.trim()
            ? 'Not linked to a company in the catalogue: type at least 3 characters to search.'
            : 'Type at least 3 characters to search the company catalogue.'
          : 'Linked to the company catalogue.'}
      </p>
    </div>
  );
}

import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useId, useRef, useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { searchOrganizations } from '../../api/organization.ts';
import type { OrgRef } from '../../contract/index.ts';
import {
  currentOrganization,
  knownOrganizations,
  loadReachableOrganizations,
  type OrganizationChoice,
  selectOrganization,
} from '../../state/organization.ts';
import { user } from '../../state/session.ts';
import { useElement } from '../../ui/element-context.ts';
import { emit } from '../../ui/events.ts';
import { useSearchCombobox } from '../../ui/use-search-combobox.ts';

/** spec (part 1, section 9): "Organization search delay: 300 ms, with a minimum of 2 characters." */
export const searchDelay = 300;
export const searchMinLength = 2;

/** The known organizations whose name contains `term` (case-insensitive): the fallback when search fails. */
export function filterByName(organizations: readonly OrgRef[], term: string): OrgRef[] {
  const needle = term.trim().toLocaleLowerCase();
  return organizations.filter((o) => o.name.toLocaleLowerCase().includes(needle));
}

/**
 * spec: "If the search call fails, a local name filter is used instead." An expired session is
 * not a failed search: the API client is already taking the user to sign in.
 */
export async function searchWithFallback(term: string, known: readonly OrgRef[]): Promise<OrgRef[]> {
  try {
    const found = await searchOrganizations(term.trim());
    return found.map((o) => ({ id: o.id, name: o.name }));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return [];
    return filterByName(known, term);
  }
}

export interface OrgPickerProps {
  /** Hide the picker for a user with exactly one organization (the sidebar already names it). */
  hideSingle?: boolean;
}

/**
 * spec (part 1, section 2, Organization picker): super users search any organization; others
 * with more than one get a dropdown; exactly one is selected automatically (no control).
 */
export function OrgPicker({ hideSingle = false }: OrgPickerProps) {
  useSignals();
  const me = user.value;
  const known = knownOrganizations.value;
  const current = currentOrganization.value;
  // The dropdown lists every organization the member reaches, whichever one is current.
  // (It fetches once per user and does nothing for super users, who search instead.)
  const userId = me?.id;
  useEffect(() => {
    if (userId !== undefined) void loadReachableOrganizations();
  }, [userId]);
  if (!me) return null;
  if (me.globalPermission) return <OrgSearch known={known} />;
  if (known.length > 1) return <OrgSelect known={known} currentId={current?.id ?? null} />;
  if (hideSingle || !current) return null;
  return <p className="picker__single">{current.name}</p>;
}

function useChoose() {
  const { host } = useElement();
  return (org: OrgRef) => {
    emit(host, 'twofold-organization-change', { id: org.id, name: org.name });
    void selectOrganization(org.id, 'user');
  };
}

function OrgSelect({ known, currentId }: { known: OrganizationChoice[]; currentId: number | null }) {
  const id = useId();
  const choose = useChoose();
  return (
    <div className="picker">
      <label className="picker__label" htmlFor={id}>
        Organization
      </label>
      <select
        id={id}
        // One select style everywhere (ui.css select.field__input).
        className="field__input picker__select"
        value={currentId ?? ''}
        onChange={(e) => {
          const org = known.find((o) => o.id === Number(e.target.value));
          if (org) choose(org);
        }}
      >
        {currentId === null ? (
          <option value="" disabled>
            Select an organization
          </option>
        ) : null}
        {known.map((o) => (
          <option key={o.id} value={o.id}>
            {/* A chapter under its parent: <option> takes no styling, so the indent is in the text. */}
            {o.depth > 0 ? `\u00a0\u00a0\u2514\u00a0${o.name}` : o.name}
          </option>
        ))}
      </select>
    </div>
  );
}

function OrgSearch({ known }: { known: OrgRef[] }) {
  const id = useId();
  const choose = useChoose();
  const [term, setTerm] = useState('');
  const knownRef = useRef(known);
  knownRef.current = known;
  const combo = useSearchCombobox<OrgRef>({
    term,
    // spec: "Search suggestions open when the typed text is at least 2 characters. Search is
    // delayed by 300 ms. If the search call fails, a local name filter is used instead."
    search: (query) => searchWithFallback(query, knownRef.current),
    minLength: searchMinLength,
    delay: searchDelay,
    keyOf: (org) => org.id,
    openWhenEmpty: true,
    activateFirst: true,
    onPick: (org) => {
      setTerm('');
      combo.reset();
      choose(org);
    },
  });

  return (
    <div className="picker picker--search">
      <label className="picker__label" htmlFor={id}>
        Search organizations
      </label>
      <input
        id={id}
        className="picker__input"
        type="text"
        autoComplete="off"
        spellCheck={false}
        placeholder="Type at least 2 characters"
        {...combo.inputProps}
        value={term}
        onChange={(e) => setTerm(e.target.value)}
        onKeyDown={(event) => {
          // Escape on a closed list clears the search.
          if (event.key === 'Escape' && !combo.showList && term) {
            event.preventDefault();
            setTerm('');
            return;
          }
          combo.inputProps.onKeyDown(event);
        }}
      />
      <div
        className="picker__list"
        id={combo.listId}
        role="listbox"
        aria-label="Organizations"
        hidden={!combo.showList}
      >
        {combo.showList && combo.results.length === 0 ? (
          <p className="picker__empty">No organizations found</p>
        ) : null}
        {combo.showList
          ? combo.results.map((org, index) => (
              <div
                key={org.id}
                {...combo.optionProps(org, index)}
                className={`picker__option${index === combo.active ? ' picker__option--active' : ''}`}
              >
                {org.name}
              </div>
            ))
          : null}
      </div>
    </div>
  );
}

import { useSignals } from '@preact/signals-react/runtime';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { searchOrganizations } from '../../api/organization.ts';
import type { OrgRef } from '../../contract/index.ts';
import { currentOrganization, knownOrganizations, selectOrganization } from '../../state/organization.ts';
import { user } from '../../state/session.ts';
import { useElement } from '../../ui/element-context.ts';
import { emit } from '../../ui/events.ts';

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

function OrgSelect({ known, currentId }: { known: OrgRef[]; currentId: number | null }) {
  const id = useId();
  const choose = useChoose();
  return (
    <div className="picker">
      <label className="picker__label" htmlFor={id}>
        Organization
      </label>
      <select
        id={id}
        className="picker__select"
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
            {o.name}
          </option>
        ))}
      </select>
    </div>
  );
}

function OrgSearch({ known }: { known: OrgRef[] }) {
  const id = useId();
  const listId = `${id}-list`;
  const choose = useChoose();
  const [term, setTerm] = useState('');
  const [results, setResults] = useState<OrgRef[] | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const knownRef = useRef(known);
  knownRef.current = known;

  useEffect(() => {
    const query = term.trim();
    if (query.length < searchMinLength) {
      setResults(null);
      setOpen(false);
      return;
    }
    let cancelled = false;
    // spec: "Search is delayed by 300 ms."
    const timer = setTimeout(() => {
      void searchWithFallback(query, knownRef.current).then((found) => {
        if (cancelled) return;
        setResults(found);
        setActive(found.length ? 0 : -1);
        setOpen(true);
      });
    }, searchDelay);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [term]);

  const pick = (org: OrgRef) => {
    setTerm('');
    setOpen(false);
    setResults(null);
    choose(org);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const count = results?.length ?? 0;
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      if (!open && results) setOpen(true);
      if (count) setActive((i) => (i + 1) % count);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      if (count) setActive((i) => (i <= 0 ? count - 1 : i - 1));
    } else if (event.key === 'Enter') {
      const org = open ? results?.[active] : undefined;
      if (org) {
        event.preventDefault();
        pick(org);
      }
    } else if (event.key === 'Escape') {
      if (open) {
        event.preventDefault();
        setOpen(false);
      } else if (term) {
        event.preventDefault();
        setTerm('');
      }
    }
  };

  const showList = open && results !== null;
  const activeOrg = showList ? results[active] : undefined;
  return (
    <div className="picker picker--search">
      <label className="picker__label" htmlFor={id}>
        Search organizations
      </label>
      <input
        id={id}
        className="picker__input"
        type="text"
        role="combobox"
        autoComplete="off"
        spellCheck={false}
        placeholder="Type at least 2 characters"
        aria-autocomplete="list"
        aria-expanded={showList}
        aria-controls={listId}
        aria-activedescendant={activeOrg ? `${listId}-${activeOrg.id}` : undefined}
        value={term}
        onChange={(e) => setTerm(e.target.value)}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
        onFocus={() => {
          if (results) setOpen(true);
        }}
      />
      <div className="picker__list" id={listId} role="listbox" aria-label="Organizations" hidden={!showList}>
        {showList && results.length === 0 ? <p className="picker__empty">No organizations found</p> : null}
        {showList
          ? results.map((org, index) => (
              <div
                key={org.id}
                id={`${listId}-${org.id}`}
                role="option"
                aria-selected={index === active}
                className={`picker__option${index === active ? ' picker__option--active' : ''}`}
                // Keep focus in the input; the click still chooses.
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => pick(org)}
                onKeyDown={() => {}}
                tabIndex={-1}
              >
                {org.name}
              </div>
            ))
          : null}
      </div>
    </div>
  );
}

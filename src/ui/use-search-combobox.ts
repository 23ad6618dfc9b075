import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';

export interface SearchComboboxOptions<T> {
  /** The text in the input. */
  term: string;
  /** Looks the term up; a rejection leaves no suggestions (they are a courtesy). */
  search: (term: string) => Promise<T[]>;
  /** Characters needed before searching (spec: 2 for organizations, 3 for companies). */
  minLength: number;
  /** Debounce in milliseconds (spec: 300). */
  delay: number;
  /** A stable key per result, for React and for the option ids. */
  keyOf: (item: T) => string | number;
  onPick: (item: T) => void;
  /** Show the list when a search found nothing (for a "No … found" line). Default: false. */
  openWhenEmpty?: boolean;
  /** Put the first result under the keyboard at once (Enter picks it). Default: false. */
  activateFirst?: boolean;
  /** Terms not to search (e.g. the value just picked). */
  skip?: (term: string) => boolean;
}

/**
 * A debounced search combobox (WAI-ARIA combobox with a listbox popup): the results, whether the
 * list shows, which option is active, the keyboard (arrows, Enter, Escape) and the ARIA wiring of
 * the input and the options. Markup and styles stay with the caller.
 */
export function useSearchCombobox<T>(options: SearchComboboxOptions<T>) {
  const { term, minLength, delay, keyOf, onPick, openWhenEmpty = false, activateFirst = false } = options;
  const listId = `${useId()}-list`;
  const [results, setResults] = useState<T[] | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  // The latest callbacks, without restarting the debounce when the caller re-renders.
  const latest = useRef(options);
  latest.current = options;

  useEffect(() => {
    const query = term.trim();
    if (query.length < minLength || latest.current.skip?.(query)) {
      setResults(null);
      setOpen(false);
      return;
    }
    let cancelled = false;
    const timer = setTimeout(() => {
      latest.current
        .search(query)
        .catch(() => [] as T[])
        .then((found) => {
          if (cancelled) return;
          setResults(found);
          setActive(activateFirst && found.length ? 0 : -1);
          setOpen(found.length > 0 || openWhenEmpty);
        });
    }, delay);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [term, minLength, delay, openWhenEmpty, activateFirst]);

  const showList = open && results !== null && (results.length > 0 || openWhenEmpty);
  const items = results ?? [];
  const optionId = (item: T) => `${listId}-${keyOf(item)}`;

  const pick = (item: T) => {
    setOpen(false);
    onPick(item);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const count = items.length;
    if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && count) {
      event.preventDefault();
      setOpen(true);
      setActive((i) => (event.key === 'ArrowDown' ? (i + 1) % count : i <= 0 ? count - 1 : i - 1));
    } else if (event.key === 'Enter' && showList) {
      const item = items[active];
      if (item) {
        event.preventDefault();
        pick(item);
      }
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      setOpen(false);
    }
  };

  const activeItem = showList ? items[active] : undefined;
  return {
    listId,
    results: items,
    showList,
    active,
    pick,
    /** Clears the results (after a pick that empties the input). */
    reset: () => {
      setResults(null);
      setOpen(false);
    },
    /** Spread on the <input>. */
    inputProps: {
      role: 'combobox' as const,
      'aria-autocomplete': 'list' as const,
      'aria-expanded': showList,
      'aria-controls': listId,
      'aria-activedescendant': activeItem ? optionId(activeItem) : undefined,
      onKeyDown,
      onBlur: () => setOpen(false),
      onFocus: () => {
        if (results && (results.length > 0 || openWhenEmpty)) setOpen(true);
      },
    },
    /** Spread on each option element. */
    optionProps: (item: T, index: number) => ({
      id: optionId(item),
      role: 'option' as const,
      'aria-selected': index === active,
      // Keep focus in the input; the click still chooses.
      onMouseDown: (e: { preventDefault: () => void }) => e.preventDefault(),
      onClick: () => pick(item),
      tabIndex: -1,
    }),
  };
}

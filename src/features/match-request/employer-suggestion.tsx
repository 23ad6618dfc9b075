import { useEffect, useState } from 'react';
import { employerSuggestion } from '../../api/companies.ts';
import { Button } from '../../ui/button.tsx';

type Suggested = { id: number; name: string };

/** An address worth asking about: something@domain.tld (the server decides the rest). */
const looksLikeEmail = (email: string) => /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(email);

/**
 * Issue 31: the catalogue company the email's domain names (never a free-mail domain; the server
 * decides), asked while no company is chosen (`chosenId` null). A company the visitor turned down
 * is not offered again. Shared by `<twofold-match-request>` and `<twofold-company-lookup>`.
 */
export function useEmployerSuggestion(email: string, chosenId: number | null) {
  const [suggested, setSuggested] = useState<Suggested | null>(null);
  const [declined, setDeclined] = useState<ReadonlySet<number>>(new Set());
  const trimmed = email.trim();
  useEffect(() => {
    if (chosenId !== null || !looksLikeEmail(trimmed)) {
      setSuggested(null);
      return;
    }
    let current = true;
    // Asked once the visitor pauses typing, not on every key.
    const timer = setTimeout(() => {
      void employerSuggestion(trimmed).then((s) => {
        if (current) setSuggested(s.company);
      });
    }, 400);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [trimmed, chosenId]);
  return {
    suggestion: suggested && !declined.has(suggested.id) ? suggested : null,
    decline: (id: number) => setDeclined((d) => new Set([...d, id])),
  };
}

/** "Is this your employer? <company> (from your email address)" with Yes and No. */
export function EmployerSuggestionPrompt({
  suggestion,
  onAccept,
  onDecline,
}: {
  suggestion: Suggested;
  onAccept: (company: Suggested) => void;
  onDecline: (id: number) => void;
}) {
  return (
    <section className="employer-suggestion" aria-label="Is this your employer?">
      <p>
        Is this your employer? <strong>{suggestion.name}</strong> (from your email address)
      </p>
      <div className="employer-suggestion__actions">
        <Button type="button" onClick={() => onAccept(suggestion)}>
          Yes, {suggestion.name}
        </Button>
        <Button type="button" variant="secondary" onClick={() => onDecline(suggestion.id)}>
          No
        </Button>
      </div>
    </section>
  );
}

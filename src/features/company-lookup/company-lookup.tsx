import { useEffect, useId, useRef, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { lookupCompanies } from '../../api/company-lookup.ts';
import {
  companyLookupMinLength,
  deadlineLabel,
  dollarsLabel,
  methodLabel,
  type PublicCompany,
  programLabel,
  ratioLabel,
} from '../../contract/company-lookup.ts';
import { useElement } from '../../ui/element-context.ts';
import { emit } from '../../ui/events.ts';
import { Field } from '../../ui/field.tsx';
import { EmployerSuggestionPrompt, useEmployerSuggestion } from '../match-request/employer-suggestion.tsx';

/** spec (part 2, section 9): "Company search: 3 characters minimum, 300 ms debounce." */
export const lookupDelay = 300;

export const lookupTexts = {
  heading: 'Does your employer match gifts?',
  intro: 'Search your employer to see whether it matches your gift, and how.',
  label: 'Employer',
  hint: `Type at least ${companyLookupMinLength} characters of the company's name.`,
  results: 'Companies',
  none: (term: string) => `No companies found matching “${term}”`,
  choose: 'Choose',
  portal: 'Go to its giving portal',
  email: 'Work email (optional)',
  emailHint: 'We can suggest your employer from it. It is not stored.',
} as const;

export interface CompanyLookupProps {
  /** The heading above the search (default 'Does your employer match gifts?'). */
  heading?: string;
  /** The visitor's email, when the page knows it: fills the work email field. */
  email?: string;
}

/**
 * The public employer lookup (`/companies`, and nonprofits' pages through
 * `<twofold-company-lookup>`): anyone searches an employer and sees whether and how it matches
 * gifts. Choosing a company shows its programme and tells the page (`twofold-company-chosen`),
 * so a `<twofold-match-request>` on it takes that company.
 */
export function CompanyLookup({ heading = lookupTexts.heading, email: givenEmail }: CompanyLookupProps) {
  const { host } = useElement();
  const [term, setTerm] = useState('');
  const [results, setResults] = useState<PublicCompany[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<PublicCompany | null>(null);
  const detailRef = useRef<HTMLHeadingElement>(null);
  const headingId = useId();
  const [email, setEmail] = useState(givenEmail ?? '');
  useEffect(() => setEmail(givenEmail ?? ''), [givenEmail]);
  // Issue 31: "Is this your employer?" from the email's domain, as the match request asks it.
  const { suggestion, decline } = useEmployerSuggestion(email, chosen?.id ?? null);

  useEffect(() => {
    const query = term.trim();
    if (query.length < companyLookupMinLength) {
      setResults(null);
      setError(null);
      return;
    }
    let current = true;
    const timer = setTimeout(() => {
      lookupCompanies(query).then(
        (found) => {
          if (!current) return;
          setResults(found);
          setError(null);
        },
        (failure) => current && setError(errorMessage(failure)),
      );
    }, lookupDelay);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [term]);

  useEffect(() => {
    if (chosen) detailRef.current?.focus();
  }, [chosen]);

  const choose = (company: PublicCompany) => {
    setChosen(company);
    emit(host, 'twofold-company-chosen', { companyId: company.id, name: company.name });
  };

  // "Yes": the company's programme is read as a search for its name shows it, and chosen.
  const accept = (company: { id: number; name: string }) => {
    setTerm(company.name);
    lookupCompanies(company.name).then(
      (found) => {
        const match = found.find((c) => c.id === company.id);
        if (match) choose(match);
        else setError(lookupTexts.none(company.name));
      },
      (failure) => setError(errorMessage(failure)),
    );
  };

  return (
    <section className="card company-lookup" part="lookup" aria-labelledby={headingId}>
      <h2 id={headingId} className="company-lookup__heading">
        {heading}
      </h2>
      <p className="muted">{lookupTexts.intro}</p>
      <Field
        label={lookupTexts.label}
        name="employer"
        type="search"
        autoComplete="organization"
        spellCheck={false}
        maxLength={200}
        hint={lookupTexts.hint}
        error={error ?? undefined}
        value={term}
        onChange={(event) => setTerm(event.target.value)}
      />
      <Field
        label={lookupTexts.email}
        name="email"
        type="email"
        autoComplete="email"
        spellCheck={false}
        maxLength={320}
        hint={lookupTexts.emailHint}
        value={email}
        onChange={(event) => setEmail(event.target.value)}
      />
      {suggestion ? (
        <EmployerSuggestionPrompt suggestion={suggestion} onAccept={accept} onDecline={decline} />
      ) : null}
      <p className="visually-hidden" aria-live="polite">
        {results ? `${results.length} ${results.length === 1 ? 'company matches' : 'companies match'}` : ''}
      </p>
      {results && results.length === 0 ? <p className="muted">{lookupTexts.none(term.trim())}</p> : null}
      {results?.length ? (
        <ul className="company-lookup__results" aria-label={lookupTexts.results} part="results">
          {results.map((company) => (
            <li key={company.id}>
              <button
                type="button"
                className="company-lookup__result"
                aria-pressed={chosen?.id === company.id}
                onClick={() => choose(company)}
                part="result"
              >
                <span className="company-lookup__name">{company.name}</span>
                <span className="company-lookup__summary">{summary(company)}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {chosen ? <CompanyProgramme company={chosen} headingRef={detailRef} /> : null}
    </section>
  );
}

/** One line under a result's name: whether it matches, and at what ratio. */
function summary(company: PublicCompany): string {
  if (company.program === 'none') return programLabel('none');
  return `${programLabel(company.program)} · ${ratioLabel(company.match_ratio)}`;
}

function CompanyProgramme({
  company,
  headingRef,
}: {
  company: PublicCompany;
  headingRef: React.RefObject<HTMLHeadingElement | null>;
}) {
  const matches = company.program !== 'none';
  return (
    <article className="company-lookup__detail" part="detail" aria-live="polite">
      <h3 ref={headingRef} tabIndex={-1} className="company-lookup__detail-name">
        {company.name}
      </h3>
      <p
        className={
          matches ? 'company-lookup__verdict' : 'company-lookup__verdict company-lookup__verdict--no'
        }
      >
        {programLabel(company.program)}
      </p>
      {matches ? (
        <dl className="company-lookup__facts">
          <dt>Method</dt>
          <dd>{methodLabel(company.match_method)}</dd>
          <dt>Ratio</dt>
          <dd>{ratioLabel(company.match_ratio)}</dd>
          <dt>Minimum</dt>
          <dd>{company.minimum_match_cents === null ? 'None' : dollarsLabel(company.minimum_match_cents)}</dd>
          <dt>Maximum</dt>
          <dd>{company.maximum_match_cents === null ? 'None' : dollarsLabel(company.maximum_match_cents)}</dd>
          <dt>Deadline</dt>
          <dd>{deadlineLabel(company.deadline_rule, company.deadline_days)}</dd>
        </dl>
      ) : null}
      {matches && company.guide ? <p className="company-lookup__guide">{company.guide}</p> : null}
      {matches && company.url ? (
        <a
          className="company-lookup__portal"
          href={company.url}
          target="_blank"
          rel="noopener noreferrer"
          part="portal-link"
        >
          {lookupTexts.portal}
          <span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      ) : null}
    </article>
  );
}

import type { ReactNode } from 'react';
import type { NextStepsCompany } from '../../contract/donor.ts';
import { statusIdOf } from '../../contract/statuses.ts';

// Intl rather than date-fns here: these elements ship alone to donors' pages, and date-fns'
// format brings its whole English locale (over 5 KB gzipped) for one pattern.
const dayFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: '2-digit',
  year: 'numeric',
  timeZone: 'UTC',
});

/** spec (part 2, section 2): "Dates display as 'MMM dd, yyyy'" (a YYYY-MM-DD day, or the day of an ISO time). */
export const displayDate = (day: string) => dayFormat.format(new Date(`${day.slice(0, 10)}T00:00:00Z`));

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
/** Dollars with thousands separators and cents. */
export const money = (dollars: number) => usd.format(dollars);

/** "1:1", "2:1", "0.5:1": company dollars per donor dollar. */
const ratio = (r: number) => `${Number.isInteger(r) ? r : r.toString()}:1`;

export interface NextStepsProps {
  status: { id: number; name: string };
  /** The catalogue company, or null when the employer is not (yet) known. */
  company: NextStepsCompany | null;
  /** The employer as entered. */
  companyName: string;
  organizationName: string;
  /** The gift, dollars. */
  amount: number;
}

/**
 * What the donor does next, from the match's status (which the server resolved from the
 * company's policy) and the company's facts: where to submit, what to watch for, the deadline and
 * the minimum. One component for the matching page and the donor edit screen.
 */
export function NextSteps({ status, company, companyName, organizationName, amount }: NextStepsProps) {
  const name = company?.name ?? companyName;
  const guideLink = company?.url ? (
    <a className="match-parts__link" href={company.url} target="_blank" rel="noopener noreferrer">
      {status.id === statusIdOf.donorToSubmitInPortal
        ? `Open ${name}’s giving portal`
        : `${name}’s matching gift page`}
      <span className="visually-hidden"> (opens in a new tab)</span>
    </a>
  ) : null;

  let step: ReactNode;
  switch (status.id) {
    case statusIdOf.donorToSubmitInPortal:
      step = (
        <>
          <p>
            Submit your match request in {name}’s employee giving portal: search for {organizationName}, enter
            your gift of {money(amount)} and submit it.
          </p>
          {guideLink}
        </>
      );
      break;
    case statusIdOf.npoToVerify:
      step = (
        <p>
          {name} matches with a form. {organizationName} fills it in and signs it for you; {name} may email
          you to confirm your gift, so keep an eye on your inbox.
        </p>
      );
      break;
    case statusIdOf.donorToESign:
      step = (
        <p>
          Watch your inbox for an email asking you to e-sign {name}’s matching gift form. Signing it sends
          your request to {name}.
        </p>
      );
      break;
    case statusIdOf.originalSignatureOnly:
      step = (
        <p>
          {name} needs a form with your original signature. We prepare the matching packet and mail it to you:
          sign it and send it on as its instructions say.
        </p>
      );
      break;
    case statusIdOf.donorToNotifyCompany:
      step =
        company?.match_method === 'mail' ? (
          <p>
            {name} matches by mail. We prepare the matching packet and mail it; follow the instructions in it
            to complete your request.
          </p>
        ) : (
          <>
            <p>
              Ask {name}’s HR or giving team to match your gift of {money(amount)} to {organizationName}.
            </p>
            {guideLink}
          </>
        );
      break;
    case statusIdOf.belowMinimum:
      step = (
        <p>
          Your gift is below {name}’s minimum for a match
          {company?.minimum_match ? ` (${money(company.minimum_match)})` : ''}. Give again to{' '}
          {organizationName}: gifts below the minimum are combined, so together they can reach it.
        </p>
      );
      break;
    case statusIdOf.noProgram:
      step = (
        <p>
          {name} does not have a matching gift program, so this gift cannot be matched. Thank you for giving!
        </p>
      );
      break;
    case statusIdOf.missingCompany:
      step = (
        <p>
          We do not know {name}’s matching program yet. We will look it up and email you what to do next — no
          need to do anything now.
        </p>
      );
      break;
    case statusIdOf.policyIncomplete:
      step = <p>We are confirming {name}’s matching policy and will email you the next steps.</p>;
      break;
    case statusIdOf.againstPolicy:
      step = (
        <p>
          {name}’s matching policy does not cover gifts to this kind of organization, so it cannot be matched.
        </p>
      );
      break;
    case statusIdOf.outsideCompanySite:
      step = (
        <>
          <p>
            {name} matches only gifts made through its own giving site. Give there next time to be matched.
          </p>
          {guideLink}
        </>
      );
      break;
    case statusIdOf.registrationIncomplete:
      step = (
        <p>
          {organizationName} is finishing its registration for matching gifts. Your request is saved, and you
          will hear what to do next once it is complete.
        </p>
      );
      break;
    case statusIdOf.recurringHold:
      step = <p>Your recurring gift is on hold; {organizationName} will submit it for matching.</p>;
      break;
    default:
      step = <p>{organizationName} will be in touch if anything else is needed.</p>;
  }

  const facts: Array<[string, string]> = [];
  if (company?.deadline) facts.push(['Request the match by', displayDate(company.deadline)]);
  if (company?.minimum_match) facts.push(['Minimum gift matched', money(company.minimum_match)]);
  if (company && company.match_ratio > 0 && status.id !== statusIdOf.noProgram)
    facts.push([
      'Match ratio',
      `${ratio(company.match_ratio)}${company.maximum_match ? `, up to ${money(company.maximum_match)}` : ''}`,
    ]);

  return (
    <section className="match-parts__steps" aria-labelledby="next-steps-title" part="next-steps">
      <h2 id="next-steps-title" className="match-parts__steps-title">
        Next steps
      </h2>
      <p className="match-parts__status">
        Status: <strong>{status.name}</strong>
      </p>
      {step}
      {facts.length ? (
        <dl className="match-parts__facts">
          {facts.map(([term, value]) => (
            <div key={term}>
              <dt>{term}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      {company?.guide && status.id !== statusIdOf.noProgram ? (
        <p className="match-parts__guide muted">{company.guide}</p>
      ) : null}
    </section>
  );
}

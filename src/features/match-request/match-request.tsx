import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ApiError, errorMessage } from '../../api/client.ts';
import { publicCompanyName } from '../../api/companies.ts';
import { getMatchOrganization, requestMatch } from '../../api/donor.ts';
import {
  MatchRequestForm,
  type MatchRequestResponse,
  type PublicMatchOrganization,
} from '../../contract/donor.ts';
import { Button } from '../../ui/button.tsx';
import { useElement } from '../../ui/element-context.ts';
import { emit, type TwofoldEvent } from '../../ui/events.ts';
import { Field } from '../../ui/field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { fieldErrors } from '../common.ts';
import { useCaptcha } from '../contact/use-captcha.ts';
import { type CompanyChoice, CompanyField } from './company-field.tsx';
import { EmployerSuggestionPrompt, useEmployerSuggestion } from './employer-suggestion.tsx';
import { NextSteps } from './next-steps.tsx';

/** What the host page hears when a donor's match request was accepted. */
export interface MatchRequestedDetail {
  matchId: number;
  status: { id: number; name: string };
  companyName: string;
}

declare module '../../ui/events.ts' {
  interface TwofoldEventDetails {
    /** A donor requested a match on the public matching page. */
    'twofold-match-requested': MatchRequestedDetail;
  }
}
declare global {
  interface GlobalEventHandlersEventMap {
    'twofold-match-requested': TwofoldEvent<'twofold-match-requested'>;
  }
}

export const matchRequestTexts = {
  title: 'Double your gift',
  submit: 'Request My Match',
  submitting: 'Sending...',
  notFound: 'We could not find this organization’s matching page. Please check the address.',
  loading: 'Loading the matching page...',
  captcha: 'We could not verify this browser. Please try again.',
  thanks: 'Thank you! Your match request is in.',
  another: 'Request another match',
} as const;

export interface MatchRequestProps {
  /** The organization: its matching-page slug (`hope-harbor foundation`) or its id. */
  organization?: string;
  /** Prefill: the gift, dollars. */
  amount?: number;
  /** Prefill: the gift's date, YYYY-MM-DD. */
  donatedAt?: string;
  /** Prefill: the donation platform's transaction id. */
  transactionId?: string;
  donorName?: string;
  donorEmail?: string;
  /** Prefill: the donor's employer, a company id of the catalogue (e.g. from the employer lookup). */
  companyId?: number;
}

type Values = {
  name: string;
  email: string;
  company: CompanyChoice;
  amount: string;
  donatedAt: string;
  transactionId: string;
};

/** Today in the donor's time zone, YYYY-MM-DD (the date input's maximum). */
const today = () => {
  const now = new Date();
  return new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
};

function initialValues(props: MatchRequestProps): Values {
  return {
    name: props.donorName ?? '',
    email: props.donorEmail ?? '',
    company: { company_id: null, company_name: '' },
    amount: props.amount !== undefined && Number.isFinite(props.amount) ? String(props.amount) : '',
    donatedAt: props.donatedAt?.slice(0, 10) ?? '',
    transactionId: props.transactionId ?? '',
  };
}

/**
 * The public matching page (spec part 1, section 1: "A public matching page exists per
 * organization, at /match/{slug}"): the donor names their employer, the gift and how to reach
 * them; the answer says what to do next for that employer.
 */
export function MatchRequest(props: MatchRequestProps) {
  const { host } = useElement();
  const slug = (props.organization ?? '').trim();
  const [organization, setOrganization] = useState<PublicMatchOrganization | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [values, setValues] = useState<Values>(() => initialValues(props));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<MatchRequestResponse | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const resultRef = useRef<HTMLHeadingElement>(null);
  const captcha = useCaptcha();

  useEffect(() => {
    let current = true;
    setOrganization(null);
    setLoadError(null);
    if (!slug) {
      setLoadError(matchRequestTexts.notFound);
      return;
    }
    getMatchOrganization(slug).then(
      (org) => current && setOrganization(org),
      (error) =>
        current &&
        setLoadError(
          error instanceof ApiError && error.status === 404
            ? matchRequestTexts.notFound
            : errorMessage(error),
        ),
    );
    return () => {
      current = false;
    };
  }, [slug]);

  // The donor's employer from outside the form: a preselected `company-id` (named by the public
  // lookup; an unknown id leaves the field as it is), or the company chosen in a
  // `<twofold-company-lookup>` on the same page.
  const presetCompany = props.companyId;
  useEffect(() => {
    const take = (id: number, name: string) =>
      setValues((v) => ({ ...v, company: { company_id: id, company_name: name } }));
    if (presetCompany)
      publicCompanyName(presetCompany).then(
        (company) => take(company.id, company.name),
        () => undefined,
      );
    const onChosen = ({ detail }: TwofoldEvent<'twofold-company-chosen'>) =>
      take(detail.companyId, detail.name);
    document.addEventListener('twofold-company-chosen', onChosen);
    return () => document.removeEventListener('twofold-company-chosen', onChosen);
  }, [presetCompany]);

  // Issue 31: "Is this your employer?" when the email's domain names a catalogue company.
  const { suggestion, decline } = useEmployerSuggestion(values.email, values.company.company_id);

  useEffect(() => {
    if (Object.keys(errors).length)
      formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  useEffect(() => {
    if (result) resultRef.current?.focus();
  }, [result]);

  const set = <K extends keyof Values>(key: K, value: Values[K]) =>
    setValues((v) => ({ ...v, [key]: value }));

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!organization || sending) return;
    setFormError(null);
    const parsed = MatchRequestForm.safeParse({
      donor: { name: values.name, email: values.email },
      company_id: values.company.company_id,
      company_name: values.company.company_name,
      amount: values.amount.trim() === '' ? undefined : Number(values.amount),
      donated_at: values.donatedAt,
      transaction_id: values.transactionId.trim() || null,
    });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues));
      return;
    }
    setErrors({});
    setSending(true);
    try {
      const token = await captcha.token();
      if (!token) {
        setFormError(matchRequestTexts.captcha);
        return;
      }
      try {
        const answer = await requestMatch(slug, { ...parsed.data, captcha: token });
        setResult(answer);
        emit(host, 'twofold-match-requested', {
          matchId: answer.match_id,
          status: answer.status,
          companyName: answer.company?.name ?? answer.company_name,
        });
      } catch (error) {
        setFormError(errorMessage(error));
      } finally {
        // The server spends a solution on every accepted attempt: solve a fresh one for the next.
        captcha.renew();
      }
    } finally {
      setSending(false);
    }
  };

  if (loadError)
    return (
      <div className="card match-request" part="card">
        <p className="alert" role="alert">
          {loadError}
        </p>
      </div>
    );
  if (!organization)
    return (
      <div className="card match-request match-request--loading" part="card">
        <Spinner label={matchRequestTexts.loading} />
      </div>
    );

  const header = (
    <header className="card__header match-request__header">
      {organization.logo ? (
        <img
          className="match-request__logo"
          src={organization.logo}
          alt={`${organization.name} logo`}
          part="logo"
        />
      ) : null}
      <p className="card__brand">{organization.name}</p>
    </header>
  );

  if (result) {
    const amount = Number(values.amount);
    return (
      <div className="card match-request" part="card">
        {header}
        <h1 className="card__title" tabIndex={-1} ref={resultRef}>
          {matchRequestTexts.thanks}
        </h1>
        <NextSteps
          status={result.status}
          company={result.company}
          companyName={result.company_name}
          organizationName={organization.name}
          amount={amount}
        />
        <Button
          variant="secondary"
          onClick={() => {
            setResult(null);
            setValues(initialValues({}));
          }}
        >
          {matchRequestTexts.another}
        </Button>
      </div>
    );
  }

  return (
    <div className="card match-request" part="card">
      {header}
      <h1 className="card__title">{matchRequestTexts.title}</h1>
      <p className="muted">
        Many employers match their employees’ gifts to {organization.name}. Tell us where you work and about
        your gift, and we will tell you how to get it matched.
      </p>
      {organization.mission ? <p className="match-request__mission">{organization.mission}</p> : null}
      <form
        ref={formRef}
        className="match-request__form"
        noValidate
        onSubmit={submit}
        aria-label={`Request a matching gift for ${organization.name}`}
      >
        <fieldset className="match-request__section">
          <legend>Your employer</legend>
          <CompanyField
            value={values.company}
            onChange={(company) => set('company', company)}
            error={errors.company_name ?? errors.company_id}
          />
          {suggestion ? (
            <EmployerSuggestionPrompt
              suggestion={suggestion}
              onAccept={(c) => set('company', { company_id: c.id, company_name: c.name })}
              onDecline={decline}
            />
          ) : null}
        </fieldset>
        <fieldset className="match-request__section">
          <legend>Your gift</legend>
          <div className="match-request__row">
            <Field
              label="Amount (USD)"
              name="amount"
              type="number"
              inputMode="decimal"
              min="0.01"
              step="0.01"
              required
              value={values.amount}
              error={errors.amount}
              onChange={(e) => set('amount', e.target.value)}
            />
            <Field
              label="Donation date"
              name="donated_at"
              type="date"
              required
              max={today()}
              value={values.donatedAt}
              error={errors.donated_at}
              onChange={(e) => set('donatedAt', e.target.value)}
            />
          </div>
          <Field
            label="Transaction ID (optional)"
            name="transaction_id"
            maxLength={200}
            hint="From your donation receipt, if it shows one."
            value={values.transactionId}
            error={errors.transaction_id}
            onChange={(e) => set('transactionId', e.target.value)}
          />
        </fieldset>
        <fieldset className="match-request__section">
          <legend>Your contact details</legend>
          <div className="match-request__row">
            <Field
              label="Full name"
              name="name"
              autoComplete="name"
              required
              maxLength={200}
              value={values.name}
              error={errors['donor.name']}
              onChange={(e) => set('name', e.target.value)}
            />
            <Field
              label="Email"
              name="email"
              type="email"
              autoComplete="email"
              required
              maxLength={320}
              hint="Where we send the next steps."
              value={values.email}
              error={errors['donor.email']}
              onChange={(e) => set('email', e.target.value)}
            />
          </div>
        </fieldset>
        {formError ? (
          <p className="alert" role="alert">
            {formError}
          </p>
        ) : null}
        <Button type="submit" block disabled={sending} part="submit-button">
          {sending ? matchRequestTexts.submitting : matchRequestTexts.submit}
        </Button>
      </form>
    </div>
  );
}

import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ApiError, errorMessage } from '../../api/client.ts';
import { getSigningForm, resendSigningLink, signForm } from '../../api/esign.ts';
import { type EsignFormResponse, EsignSignRequest, esignMessages } from '../../contract/esign.ts';
import { Button } from '../../ui/button.tsx';
import { useElement } from '../../ui/element-context.ts';
import { emit, type TwofoldEvent } from '../../ui/events.ts';
import { Field } from '../../ui/field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { SignaturePad, type SignaturePadHandle } from './signature-pad.tsx';

/** What the host page hears once the donor has signed. */
export interface EsignSignedDetail {
  matchId: number;
  signedAt: string;
}

declare module '../../ui/events.ts' {
  interface TwofoldEventDetails {
    /** A donor signed their matching gift form. */
    'twofold-esign-signed': EsignSignedDetail;
  }
}
declare global {
  interface GlobalEventHandlersEventMap {
    'twofold-esign-signed': TwofoldEvent<'twofold-esign-signed'>;
  }
}

export const esignTexts = {
  title: 'Sign your matching gift form',
  loading: 'Loading your form...',
  intro: (company: string, nonprofit: string) =>
    `${company} matches your gift to ${nonprofit} once you sign this form. We filled it in from your gift; please check it and sign.`,
  how: 'How would you like to sign?',
  typed: 'Type my name',
  drawn: 'Draw my signature',
  name: 'Full name',
  nameHint: 'Your typed name is your signature; under a drawn one it is printed as your name.',
  pad: 'Signature pad: draw your signature with a mouse, finger or pen',
  padHint: 'Drawing needs a mouse, finger or pen. You can type your name instead.',
  consent: 'I agree to sign electronically',
  submit: 'Sign the form',
  submitting: 'Signing...',
  signed: 'Thank you! Your form is signed.',
  resend: 'Email me a new link',
  resending: 'Sending...',
  noToken: esignMessages.invalidLink,
} as const;

export interface EsignProps {
  /** The signing link's token (default: the last segment of `/sign/{token}` in the page address). */
  token?: string;
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const longDay = (day: string) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(`${day}T12:00:00Z`),
  );

function tokenFromAddress(): string {
  const match = /\/sign\/([^/?#]+)/.exec(globalThis.location?.pathname ?? '');
  return match?.[1] ? decodeURIComponent(match[1]) : '';
}

/**
 * The donor's signing page (issue #16): the matching gift form prefilled with the donor, gift,
 * company and nonprofit, the consent, and a typed or drawn signature. A link that expired or was
 * used offers to email a new one to the donor's address on file.
 */
export function Esign(props: EsignProps) {
  const { host } = useElement();
  const token = (props.token ?? '').trim() || tokenFromAddress();
  const [view, setView] = useState<EsignFormResponse | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [method, setMethod] = useState<'typed' | 'drawn'>('typed');
  const [name, setName] = useState('');
  const [consent, setConsent] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [resent, setResent] = useState<string | null>(null);
  const pad = useRef<SignaturePadHandle>(null);
  const doneRef = useRef<HTMLHeadingElement>(null);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    let current = true;
    setView(null);
    setLoadError(null);
    if (!token) {
      setLoadError(esignTexts.noToken);
      return;
    }
    getSigningForm(token).then(
      (answer) => current && setView(answer),
      (error) =>
        current &&
        setLoadError(
          error instanceof ApiError && error.status === 404 ? esignMessages.invalidLink : errorMessage(error),
        ),
    );
    return () => {
      current = false;
    };
  }, [token]);

  useEffect(() => {
    if (done) doneRef.current?.focus();
  }, [done]);
  useEffect(() => {
    if (Object.keys(errors).length)
      formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || !view?.form) return;
    setFormError(null);
    const drawing = method === 'drawn' ? pad.current?.dataUrl() : undefined;
    const problems: Record<string, string> = {};
    const parsed = EsignSignRequest.safeParse({
      name,
      consent: consent || undefined,
      ...(drawing ? { drawing } : {}),
    });
    if (!parsed.success)
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? 'form');
        problems[key] ??= issue.message;
      }
    if (method === 'drawn' && !drawing) problems.drawing = esignMessages.signatureRequired;
    if (problems.consent) problems.consent = esignMessages.consentRequired;
    setErrors(problems);
    if (!parsed.success || Object.keys(problems).length) return;
    setBusy(true);
    try {
      const answer = await signForm(token, parsed.data);
      setDone(answer.message);
      emit(host, 'twofold-esign-signed', { matchId: view.form.donation_id, signedAt: answer.signed_at });
    } catch (error) {
      setFormError(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  const resend = async () => {
    setBusy(true);
    setFormError(null);
    try {
      setResent((await resendSigningLink(token)).message);
    } catch (error) {
      setFormError(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  if (loadError)
    return (
      <div className="card esign" part="card">
        <h1 className="esign__title">{esignTexts.title}</h1>
        <p className="alert" role="alert">
          {loadError}
        </p>
      </div>
    );
  if (!view)
    return (
      <div className="card esign esign--loading" part="card">
        <Spinner label={esignTexts.loading} />
      </div>
    );
  if (done)
    return (
      <div className="card esign" part="card">
        <h1 className="esign__title" ref={doneRef} tabIndex={-1}>
          {esignTexts.signed}
        </h1>
        <p role="status">{done}</p>
      </div>
    );
  if (view.state !== 'open' || !view.form) {
    const canResend = view.state === 'expired' || view.state === 'used';
    return (
      <div className="card esign" part="card">
        <h1 className="esign__title">{esignTexts.title}</h1>
        <p className={view.state === 'signed' ? '' : 'alert'} role="status">
          {view.message}
        </p>
        {canResend && !resent ? (
          <Button type="button" onClick={resend} disabled={busy} part="resend-button">
            {busy ? esignTexts.resending : esignTexts.resend}
          </Button>
        ) : null}
        {resent ? <p role="status">{resent}</p> : null}
        {formError ? (
          <p className="alert" role="alert">
            {formError}
          </p>
        ) : null}
      </div>
    );
  }

  const { form } = view;
  return (
    <div className="card esign" part="card">
      <header className="esign__header">
        <h1 className="esign__title">{esignTexts.title}</h1>
        <p>{esignTexts.intro(form.company.name, form.nonprofit.name)}</p>
      </header>
      <section className="esign__form" part="form" aria-label="Matching gift form">
        <h2>Matching Gift Request</h2>
        <dl className="esign__facts">
          <div>
            <dt>Donor</dt>
            <dd>
              {form.donor.name ?? '—'}
              {form.donor.email ? <span className="esign__muted"> · {form.donor.email}</span> : null}
            </dd>
          </div>
          <div>
            <dt>Gift</dt>
            <dd>
              {usd.format(form.gift.amount)} on {longDay(form.gift.date)}
              {form.gift.transaction_id ? (
                <span className="esign__muted"> · transaction {form.gift.transaction_id}</span>
              ) : null}
            </dd>
          </div>
          <div>
            <dt>Company</dt>
            <dd>{form.company.name}</dd>
          </div>
          <div>
            <dt>Nonprofit</dt>
            <dd>
              {form.nonprofit.name}
              {form.nonprofit.ein ? <span className="esign__muted"> · EIN {form.nonprofit.ein}</span> : null}
              {form.nonprofit.address.length ? (
                <span className="esign__address">{form.nonprofit.address.join(', ')}</span>
              ) : null}
            </dd>
          </div>
        </dl>
      </section>
      <form ref={formRef} className="esign__sign" onSubmit={submit} noValidate>
        <fieldset className="esign__choice">
          <legend>{esignTexts.how}</legend>
          <label className="esign__option">
            <input
              type="radio"
              name="method"
              checked={method === 'typed'}
              onChange={() => setMethod('typed')}
            />
            {esignTexts.typed}
          </label>
          <label className="esign__option">
            <input
              type="radio"
              name="method"
              checked={method === 'drawn'}
              onChange={() => setMethod('drawn')}
            />
            {esignTexts.drawn}
          </label>
        </fieldset>
        <Field
          label={esignTexts.name}
          required
          autoComplete="name"
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          hint={esignTexts.nameHint}
          error={errors.name}
        />
        {method === 'typed' ? (
          name.trim() ? (
            <p className="esign__typed" aria-hidden="true">
              {name}
            </p>
          ) : null
        ) : (
          <div className="esign__pad">
            <p className="field__hint">{esignTexts.padHint}</p>
            <SignaturePad ref={pad} label={esignTexts.pad} />
            {errors.drawing ? (
              <p className="field__error" role="alert">
                {errors.drawing}
              </p>
            ) : null}
          </div>
        )}
        <div className="esign__consent">
          <label className="esign__option">
            <input
              type="checkbox"
              checked={consent}
              onChange={(e) => {
                const checked = e.currentTarget.checked;
                setConsent(checked);
                if (checked) setErrors(({ consent: _, ...rest }) => rest);
              }}
              aria-invalid={errors.consent ? true : undefined}
              aria-describedby="esign-consent-text"
            />
            {esignTexts.consent}
          </label>
          <p id="esign-consent-text" className="esign__muted">
            {form.consent}
          </p>
          {errors.consent ? (
            <p className="field__error" role="alert">
              {errors.consent}
            </p>
          ) : null}
        </div>
        {formError ? (
          <p className="alert" role="alert">
            {formError}
          </p>
        ) : null}
        <Button type="submit" disabled={busy} part="submit-button">
          {busy ? esignTexts.submitting : esignTexts.submit}
        </Button>
        <p className="esign__muted">
          This link works once, until{' '}
          {new Date(form.expires_at).toLocaleDateString('en-US', { dateStyle: 'long' })}.
        </p>
      </form>
    </div>
  );
}

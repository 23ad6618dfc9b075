import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { getApiBase } from '../../api/client.ts';
import { partnerApp, register, searchRegisteredOrganizations } from '../../api/public.ts';
import {
  categories,
  type OrgRef,
  organizationSearch,
  RegistrationRequest,
  type RegistrationResponse,
} from '../../contract/index.ts';
import { consentMessageType, type PublicPartnerApp } from '../../contract/oauth-public.ts';
import { announceToast as toast } from '../../state/toast-channel.ts';
import { Button } from '../../ui/button.tsx';
import { useElement } from '../../ui/element-context.ts';
import { emit, type TwofoldEvent } from '../../ui/events.ts';
import { Field, SelectField, TextAreaField } from '../../ui/field.tsx';
import { useSearchCombobox } from '../../ui/use-search-combobox.ts';
import { fieldErrors } from '../common.ts';

declare module '../../ui/events.ts' {
  interface TwofoldEventDetails {
    /** The registration form got its answer: a new organization, or one already registered. */
    'twofold-registered': RegistrationResponse;
    /** The organization allowed the partner (issue #25): the authorization code for its server, and the state. */
    'twofold-connected': { code: string; state: string };
    /** The organization denied the partner, or the request failed: the OAuth error, and the state. */
    'twofold-connect-failed': { error: string; state: string };
  }
}
declare global {
  interface GlobalEventHandlersEventMap {
    'twofold-registered': TwofoldEvent<'twofold-registered'>;
    'twofold-connected': TwofoldEvent<'twofold-connected'>;
    'twofold-connect-failed': TwofoldEvent<'twofold-connect-failed'>;
  }
}

/** spec (part 1, sections 2 and 8), word for word. */
export const registrationTexts = {
  submit: 'Complete Registration',
  submitting: 'Registering...',
  complete: 'Registration Complete!',
  already: 'Already Registered!',
  failedTitle: 'Registration Failed',
  failed: 'There was an error registering your nonprofit. Please try again.',
} as const;

/** spec (part 1, section 3): "Types are non-profit and edu-pto (labelled Nonprofit, and Gradeschool or PTA)." */
export const organizationTypes = [
  { value: 'non-profit', label: 'Nonprofit' },
  { value: 'edu-pto', label: 'Gradeschool or PTA' },
] as const;
export const countries = [
  { value: 'US', label: 'United States' },
  { value: 'CA', label: 'Canada' },
] as const;

const defaultSupportEmail = 'support@twofold.test';

export interface RegistrationProps {
  /** Where a visitor who cannot reach the registered administrator writes to. */
  supportEmail?: string;
  /** Where "Go to Sign In" leads (the consent page passes its own sign-in, which comes back to it). */
  signInUrl?: string;
  /** A partner app's client id: after registering, offer "Connect <partner>" (OAuth, in a popup). */
  partner?: string;
  /** The partner's registered redirect URI; the answer is posted to its exact origin only. */
  redirectUri?: string;
  /** The partner's OAuth state, returned with the code. */
  state?: string;
  /** The partner's PKCE S256 code challenge (its server keeps the verifier). */
  codeChallenge?: string;
  /** The scopes to ask for, space-separated (default: all the partner app may ask for). */
  scope?: string;
}

interface Values {
  name: string;
  type: string;
  phone: string;
  fax: string;
  mission: string;
  ein: string;
  url: string;
  street: string;
  street2: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  categoryId: number[];
  contact_name: string;
  contact_email: string;
  contact_phone: string;
}
type TextKey = Exclude<keyof Values, 'categoryId'>;

const empty: Values = {
  name: '',
  type: '',
  phone: '',
  fax: '',
  mission: '',
  ein: '',
  url: '',
  street: '',
  street2: '',
  city: '',
  state: '',
  zip: '',
  country: '',
  categoryId: [],
  contact_name: '',
  contact_email: '',
  contact_phone: '',
};

/** The form's values as the registration payload: trimmed, blank optional fields left out. */
export function toRegistrationInput(values: Values): unknown {
  const optional = (value: string) => value.trim() || undefined;
  return {
    name: values.name.trim(),
    type: values.type,
    phone: values.phone.trim(),
    fax: optional(values.fax),
    mission: values.mission.trim(),
    ein: values.ein.trim(),
    url: values.url.trim(),
    address: {
      street: values.street.trim(),
      street2: optional(values.street2),
      city: values.city.trim(),
      state: optional(values.state),
      zip: optional(values.zip),
      country: values.country,
    },
    categoryId: values.categoryId,
    contact_name: values.contact_name.trim(),
    contact_email: values.contact_email.trim(),
    contact_phone: optional(values.contact_phone),
  };
}

interface Outcome extends RegistrationResponse {
  name: string;
}

/**
 * spec (part 1, section 2, Nonprofit registration screen): Organization Information, Categories
 * and Administrative Contact; then 'Registration Complete!' or 'Already Registered!'.
 */
export function Registration({ supportEmail = defaultSupportEmail, ...connect }: RegistrationProps) {
  const { host } = useElement();
  const [values, setValues] = useState<Values>(empty);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [loading, setLoading] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const categoriesErrorId = useId();

  // An error clears as soon as its field is fixed (checked with the same schema on every change);
  // fields without an error get none until the next submit.
  useEffect(() => {
    setErrors((current) => {
      if (Object.keys(current).length === 0) return current;
      const parsed = RegistrationRequest.safeParse(toRegistrationInput(values));
      const still = parsed.success ? {} : fieldErrors(parsed.error.issues);
      const kept = Object.fromEntries(Object.entries(still).filter(([key]) => key in current));
      return Object.keys(kept).length === Object.keys(current).length ? current : kept;
    });
  }, [values]);

  if (outcome) return <RegistrationOutcome outcome={outcome} supportEmail={supportEmail} {...connect} />;

  const set = (key: TextKey) => (event: { target: { value: string } }) => {
    // Read now, not in the updater, which may run after the event is done.
    const value = event.target.value;
    setValues((v) => ({ ...v, [key]: value }));
  };
  const toggleCategory = (id: number, checked: boolean) =>
    setValues((v) => ({
      ...v,
      categoryId: checked ? [...v.categoryId, id] : v.categoryId.filter((c) => c !== id),
    }));
  const text = (key: TextKey, errorKey: string = key) => ({
    name: key,
    value: values[key],
    error: errors[errorKey],
    onChange: set(key),
  });

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = RegistrationRequest.safeParse(toRegistrationInput(values));
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues));
      // Focus the first invalid field once React has rendered the error state (only on submit:
      // fixing one field must not pull focus to the next).
      queueMicrotask(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    setErrors({});
    setLoading(true);
    try {
      const result = await register(parsed.data);
      emit(host, 'twofold-registered', result);
      setOutcome({ ...result, name: parsed.data.name });
    } catch {
      toast({
        title: registrationTexts.failedTitle,
        description: registrationTexts.failed,
        variant: 'destructive',
      });
      setLoading(false);
    }
  };

  const categoriesError = errors.categoryId;
  return (
    <div className="card registration" part="card">
      <header className="card__header">
        <p className="card__brand">Twofold</p>
        <h1 className="card__title">Register Your Nonprofit</h1>
        <p className="muted">
          Register your organization to start receiving matched gifts. Fields marked optional may be left
          blank.
        </p>
      </header>
      <form
        ref={formRef}
        className="registration__form"
        noValidate
        onSubmit={submit}
        aria-label="Nonprofit registration"
      >
        <section className="registration__section" aria-labelledby="registration-organization" part="section">
          <h2 className="registration__section-title" id="registration-organization">
            Organization Information
          </h2>
          <OrganizationNameField
            value={values.name}
            error={errors.name}
            onChange={(name) => setValues((v) => ({ ...v, name }))}
          />
          <div className="registration__row">
            <SelectField
              label="Organization Type"
              name="type"
              value={values.type}
              error={errors.type}
              onChange={set('type')}
              placeholder="Select a type"
              options={organizationTypes}
            />
            <Field label="EIN" autoComplete="off" {...text('ein')} />
          </div>
          <div className="registration__row">
            <Field label="Phone" type="tel" autoComplete="tel" {...text('phone')} />
            <Field label="Fax (optional)" type="tel" autoComplete="off" {...text('fax')} />
          </div>
          <Field label="Website" type="url" autoComplete="url" placeholder="https://" {...text('url')} />
          <TextAreaField label="Mission Statement" rows={4} maxLength={2000} {...text('mission')} />
          <Field label="Street Address" autoComplete="address-line1" {...text('street', 'address.street')} />
          <Field
            label="Street Address Line 2 (optional)"
            autoComplete="address-line2"
            {...text('street2', 'address.street2')}
          />
          <div className="registration__row registration__row--address">
            <Field label="City" autoComplete="address-level2" {...text('city', 'address.city')} />
            {/* spec: "The state input is limited to 2 characters." */}
            <Field
              label="State (optional)"
              autoComplete="address-level1"
              maxLength={2}
              {...text('state', 'address.state')}
            />
            <Field label="ZIP Code (optional)" autoComplete="postal-code" {...text('zip', 'address.zip')} />
          </div>
          <SelectField
            label="Country"
            name="country"
            autoComplete="country"
            value={values.country}
            error={errors['address.country']}
            onChange={set('country')}
            placeholder="Select a country"
            options={countries}
          />
        </section>

        <section className="registration__section" aria-labelledby="registration-categories" part="section">
          <h2 className="registration__section-title" id="registration-categories">
            Categories
          </h2>
          <fieldset
            className="registration__categories"
            aria-describedby={categoriesError ? categoriesErrorId : undefined}
          >
            <legend className="registration__legend">
              Choose at least one category that describes your work.
            </legend>
            <div className="registration__category-list">
              {categories.map((category) => (
                <label key={category.id} className="registration__category">
                  <input
                    type="checkbox"
                    name="categoryId"
                    value={category.id}
                    checked={values.categoryId.includes(category.id)}
                    aria-invalid={categoriesError ? true : undefined}
                    onChange={(e) => toggleCategory(category.id, e.target.checked)}
                  />
                  <span>{category.name}</span>
                </label>
              ))}
            </div>
            {categoriesError ? (
              <p id={categoriesErrorId} className="field__error">
                {categoriesError}
              </p>
            ) : null}
          </fieldset>
        </section>

        <section className="registration__section" aria-labelledby="registration-contact" part="section">
          <h2 className="registration__section-title" id="registration-contact">
            Administrative Contact
          </h2>
          <p className="muted">
            This person becomes the organization’s administrator and receives the sign-in email.
          </p>
          <Field label="Contact Name" autoComplete="name" {...text('contact_name')} />
          <div className="registration__row">
            <Field label="Contact Email" type="email" autoComplete="email" {...text('contact_email')} />
            <Field
              label="Contact Phone (optional)"
              type="tel"
              autoComplete="tel"
              {...text('contact_phone')}
            />
          </div>
        </section>

        <Button type="submit" block disabled={loading} part="submit-button">
          {loading ? registrationTexts.submitting : registrationTexts.submit}
        </Button>
      </form>
    </div>
  );
}

function RegistrationOutcome({
  outcome,
  supportEmail,
  signInUrl,
  ...connect
}: Omit<RegistrationProps, 'supportEmail'> & { outcome: Outcome; supportEmail: string }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The form the user just submitted is gone: move focus to what replaced it.
  useEffect(() => headingRef.current?.focus(), []);
  const loginUrl = signInUrl ?? `${getApiBase()}/portal/login`;
  const { partner, redirectUri, codeChallenge } = connect;
  const offer =
    partner && redirectUri && codeChallenge ? (
      <ConnectPartner
        {...connect}
        partner={partner}
        redirectUri={redirectUri}
        codeChallenge={codeChallenge}
      />
    ) : null;

  if (outcome.registered) {
    return (
      <div className="registration registration--done" part="card">
        <h1 className="card__title" tabIndex={-1} ref={headingRef}>
          {registrationTexts.complete}
        </h1>
        <p>
          <strong>{outcome.name}</strong> is registered. We sent an email to <strong>{outcome.email}</strong>{' '}
          so you can create a password: follow its link (valid for 7 days), then sign in to finish setting up
          your organization.
        </p>
        <p className="muted">
          If you already have a Twofold account, the email asks you instead to confirm that you are the
          organization's administrator: follow its link (valid for 7 days).
        </p>
        {offer ?? (
          <a className="btn btn--secondary" href={loginUrl}>
            Go to Sign In
          </a>
        )}
      </div>
    );
  }
  return (
    <div className="registration registration--done" part="card">
      <h1 className="card__title" tabIndex={-1} ref={headingRef}>
        {registrationTexts.already}
      </h1>
      <p>
        <strong>{outcome.name}</strong> is already registered. Its administrator is{' '}
        <strong>{outcome.email}</strong>: ask them to add you as a user of the organization.
      </p>
      <p className="muted">
        If they cannot add you, contact support at <a href={`mailto:${supportEmail}`}>{supportEmail}</a>.
      </p>
      {offer ?? (
        <a className="btn btn--secondary" href={loginUrl}>
          Go to Sign In
        </a>
      )}
    </div>
  );
}

type ConnectProps = Required<Pick<RegistrationProps, 'partner' | 'redirectUri' | 'codeChallenge'>> &
  Pick<RegistrationProps, 'state' | 'scope'>;

/**
 * "Connect <partner>" (issue #25): the OAuth consent step in a popup on Twofold's origin, whose
 * answer comes back by postMessage. Only a message from that popup, from Twofold's origin, of the
 * consent's type and with this element's state is taken; the popup itself posts only to the
 * redirect URI's origin.
 */
function ConnectPartner({ partner, redirectUri, codeChallenge, state = '', scope }: ConnectProps) {
  const { host } = useElement();
  const [app, setApp] = useState<PublicPartnerApp | null>(null);
  const [phase, setPhase] = useState<'idle' | 'waiting' | 'blocked' | 'connected' | 'failed'>('idle');
  const popup = useRef<Window | null>(null);

  useEffect(() => {
    let live = true;
    partnerApp(partner).then(
      (found) => live && setApp(found),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [partner]);

  useEffect(() => {
    const twofold = new URL(getApiBase()).origin;
    const onMessage = (event: MessageEvent) => {
      const data = event.data as Record<string, unknown> | null;
      if (event.origin !== twofold || !popup.current || event.source !== popup.current) return;
      if (data?.type !== consentMessageType || (data.state ?? '') !== state) return;
      if (typeof data.code === 'string') {
        setPhase('connected');
        emit(host, 'twofold-connected', { code: data.code, state });
      } else {
        setPhase('failed');
        emit(host, 'twofold-connect-failed', { error: String(data.error ?? 'server_error'), state });
      }
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [host, state]);

  const name = app?.name ?? 'your platform';
  const open = () => {
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: partner,
      redirect_uri: redirectUri,
      code_challenge: codeChallenge,
      code_challenge_method: 'S256',
      response_mode: 'web_message',
    });
    if (state) query.set('state', state);
    if (scope) query.set('scope', scope);
    popup.current = window.open(
      `${getApiBase()}/oauth/authorize?${query}`,
      'twofold-connect',
      'popup,width=560,height=760',
    );
    setPhase(popup.current ? 'waiting' : 'blocked');
  };

  if (phase === 'connected')
    return (
      <p role="status" className="registration__connect">
        <strong>{name}</strong> is connected to your organization.
      </p>
    );
  return (
    <div className="registration__connect">
      <p>
        Once you have followed the email's link, connect <strong>{name}</strong> so it can send your gifts to
        Twofold: you sign in and allow it in a small window.
      </p>
      <button type="button" className="btn btn--primary" onClick={open} part="connect-button">
        Connect {name}
      </button>
      <p role="status" className="muted">
        {phase === 'waiting'
          ? 'Finish in the window that opened.'
          : phase === 'blocked'
            ? 'Your browser blocked the window: allow pop-ups for this page, then try again.'
            : phase === 'failed'
              ? `${name} was not connected. You can try again.`
              : ''}
      </p>
    </div>
  );
}

/**
 * The organization name with suggestions of already registered organizations (spec: the
 * organization-search behaviour, "at least 2 characters", "delayed by 300 ms"), so a visitor
 * notices their nonprofit is already there. An ARIA combobox; choosing a suggestion fills the name.
 */
function OrganizationNameField({
  value,
  error,
  onChange,
}: {
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  // A chosen suggestion is not searched again.
  const chosen = useRef<string | null>(null);
  const combo = useSearchCombobox<OrgRef>({
    term: value,
    // Suggestions are a courtesy: without them (a failed search) the form still works.
    search: searchRegisteredOrganizations,
    minLength: organizationSearch.minLength,
    delay: organizationSearch.delay,
    keyOf: (org) => org.id,
    skip: (term) => term === chosen.current,
    onPick: (org) => {
      chosen.current = org.name;
      onChange(org.name);
    },
  });
  const { results, showList } = combo;
  return (
    <div className="registration__combobox">
      <Field
        label="Organization Name"
        name="name"
        autoComplete="organization"
        spellCheck={false}
        {...combo.inputProps}
        value={value}
        error={error}
        onChange={(e) => {
          chosen.current = null;
          onChange(e.target.value);
        }}
      />
      <div className="registration__suggestions" hidden={!showList} part="suggestions">
        <p className="registration__suggestions-title" aria-hidden="true">
          Already registered
        </p>
        <div id={combo.listId} role="listbox" aria-label="Already registered organizations">
          {showList
            ? results.map((org, index) => (
                <div
                  key={org.id}
                  {...combo.optionProps(org, index)}
                  className={`registration__option${index === combo.active ? ' registration__option--active' : ''}`}
                >
                  {org.name}
                </div>
              ))
            : null}
        </div>
      </div>
      <p className="visually-hidden" aria-live="polite">
        {showList
          ? `${results.length} already registered ${results.length === 1 ? 'organization matches' : 'organizations match'}. Use the arrow keys to review.`
          : ''}
      </p>
    </div>
  );
}

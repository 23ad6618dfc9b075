import { type FormEvent, type ReactNode, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { ApiError, errorMessage } from '../../api/client.ts';
import {
  clearDonorSession,
  getDonorMatch,
  openDonorSession,
  readDonorSession,
  updateDonorMatch,
} from '../../api/donor.ts';
import { requestDonorLink } from '../../api/donor-link.ts';
import { email as emailSchema } from '../../contract/auth.ts';
import { type DonorMatch, donorFieldMessages } from '../../contract/donor.ts';
import { Button } from '../../ui/button.tsx';
import { useElement } from '../../ui/element-context.ts';
import { emit, type TwofoldEvent } from '../../ui/events.ts';
import { Field } from '../../ui/field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { queryParam, stripQueryParams } from '../common.ts';
import { type CompanyChoice, CompanyField } from '../match-request/company-field.tsx';
import { displayDate, money, NextSteps } from '../match-request/next-steps.tsx';
import { checkDonorForm, type DonorFormField } from './donor-form.ts';

/** What the host page hears after the donor saved their match. */
export interface MatchUpdatedDetail {
  matchId: number;
  status: { id: number; name: string };
  /** The email changed: the request now belongs to the new address. */
  transferred: boolean;
}

declare module '../../ui/events.ts' {
  interface TwofoldEventDetails {
    /** The donor saved changes to their match request. */
    'twofold-match-updated': MatchUpdatedDetail;
  }
}
declare global {
  interface GlobalEventHandlersEventMap {
    'twofold-match-updated': TwofoldEvent<'twofold-match-updated'>;
  }
}

export const donorUpdateTexts = {
  title: 'Edit Your Match Request',
  loading: 'Loading your match request...',
  opening: 'Opening your link...',
  needLink:
    'To edit your match request, open the link in the email we sent you. Links work once and expire after a day; ask for a new one below.',
  sessionEnded: 'Your editing session has ended. Ask for a new link to continue.',
  notYours:
    'This match request is not available with your link. Ask for a new link with the email address on the request.',
  sendLink: 'Email me a new link',
  sending: 'Sending...',
  save: 'Save Changes',
  saving: 'Saving...',
  emailWarning:
    'Changing the email transfers this match request to the new address: after you save, only the new address can receive links to edit it, and you will no longer see it here.',
  amountFixed: 'The amount of your gift cannot be changed here.',
} as const;

/** Link exchanges in flight, by token: a link works once, so a second render must not spend it again. */
const exchanges = new Map<string, ReturnType<typeof openDonorSession>>();

type Phase =
  | { kind: 'opening' }
  | { kind: 'no-session'; note: string }
  | { kind: 'loading'; token: string }
  | { kind: 'ready'; token: string; match: DonorMatch }
  | { kind: 'transferred'; match: DonorMatch; message: string };

type Values = { name: string; email: string; company: CompanyChoice };

const valuesOf = (match: DonorMatch): Values => ({
  name: match.donor.name ?? '',
  email: match.donor.email,
  company: { company_id: match.company_id, company_name: match.company?.name ?? match.company_name ?? '' },
});

/**
 * spec (part 2, section 2): "Public route /portal/donor-match-update/{match_id}. The donor edits
 * name, email, company; the amount is shown but cannot change. Editing the email shows a warning
 * that it transfers control of the request." The page is opened from the donor link's email
 * (?token=…), which is exchanged for a donor session kept in this tab.
 */
export function DonorMatchUpdate({ matchId }: { matchId?: number }) {
  const id = Number.isSafeInteger(matchId) && (matchId ?? 0) > 0 ? (matchId as number) : null;
  // The link's token, read once: the address loses it as soon as the page has it.
  const [link] = useState(() => queryParam('token'));
  const [phase, setPhase] = useState<Phase>(() => {
    if (link) return { kind: 'opening' };
    const token = readDonorSession();
    return token ? { kind: 'loading', token } : { kind: 'no-session', note: donorUpdateTexts.needLink };
  });

  // Landing from the email: spend the link for a session, and take the token out of the address.
  useEffect(() => {
    if (!link) return;
    if (queryParam('token')) stripQueryParams('token');
    let exchange = exchanges.get(link);
    if (!exchange) {
      exchange = openDonorSession(link);
      exchanges.set(link, exchange);
    }
    let current = true;
    exchange.then(
      (session) => current && setPhase({ kind: 'loading', token: session.token }),
      (error) => current && setPhase({ kind: 'no-session', note: errorMessage(error) }),
    );
    return () => {
      current = false;
    };
  }, [link]);

  useEffect(() => {
    if (phase.kind !== 'loading' || id === null) return;
    let current = true;
    getDonorMatch(id, phase.token).then(
      (match) => current && setPhase({ kind: 'ready', token: phase.token, match }),
      (error) => {
        if (!current) return;
        if (error instanceof ApiError && error.status === 401) {
          clearDonorSession();
          setPhase({ kind: 'no-session', note: donorUpdateTexts.sessionEnded });
        } else if (error instanceof ApiError && error.status === 404) {
          setPhase({ kind: 'no-session', note: donorUpdateTexts.notYours });
        } else setPhase({ kind: 'no-session', note: errorMessage(error) });
      },
    );
    return () => {
      current = false;
    };
  }, [phase, id]);

  if (id === null)
    return (
      <Frame>
        <p className="alert" role="alert">
          This page needs the number of a match request.
        </p>
      </Frame>
    );
  switch (phase.kind) {
    case 'opening':
      return (
        <Frame>
          <Spinner label={donorUpdateTexts.opening} />
        </Frame>
      );
    case 'loading':
      return (
        <Frame>
          <Spinner label={donorUpdateTexts.loading} />
        </Frame>
      );
    case 'no-session':
      return (
        <Frame>
          <RequestLink matchId={id} note={phase.note} />
        </Frame>
      );
    case 'transferred':
      return (
        <Frame>
          <Outcome match={phase.match} message={phase.message} />
        </Frame>
      );
    case 'ready':
      return (
        <Frame>
          <EditForm
            matchId={id}
            token={phase.token}
            match={phase.match}
            onTransferred={(match, message) => {
              clearDonorSession();
              setPhase({ kind: 'transferred', match, message });
            }}
          />
        </Frame>
      );
  }
}

function Frame({ children }: { children: ReactNode }) {
  return (
    <div className="card donor-update" part="card">
      <header className="card__header">
        <p className="card__brand">Twofold</p>
        <h1 className="card__title">{donorUpdateTexts.title}</h1>
      </header>
      {children}
    </div>
  );
}

/** Without a session: why, and a way to get a new link (GET /api/auth/otp). */
function RequestLink({ matchId, note }: { matchId: number; note: string }) {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [sent, setSent] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = emailSchema.safeParse(email.trim());
    if (!parsed.success) {
      setError(donorFieldMessages.emailInvalid);
      inputRef.current?.focus();
      return;
    }
    setError(undefined);
    setSending(true);
    try {
      const answer = await requestDonorLink(parsed.data, matchId);
      setSent(answer.message);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <p>{note}</p>
      {sent ? (
        <p className="donor-update__success" role="status">
          {sent}
        </p>
      ) : (
        <form className="donor-update__form" noValidate onSubmit={submit} aria-label="Ask for a new link">
          <Field
            ref={inputRef}
            label="Email on your match request"
            type="email"
            name="email"
            autoComplete="email"
            required
            value={email}
            error={error}
            announce
            onChange={(e) => setEmail(e.target.value)}
          />
          <Button type="submit" disabled={sending} part="link-button">
            {sending ? donorUpdateTexts.sending : donorUpdateTexts.sendLink}
          </Button>
        </form>
      )}
    </>
  );
}

function Summary({ match }: { match: DonorMatch }) {
  return (
    <dl className="donor-update__summary">
      <div>
        <dt>Nonprofit</dt>
        <dd>{match.organization.name}</dd>
      </div>
      <div>
        <dt>Donation date</dt>
        <dd>{displayDate(match.donated_at)}</dd>
      </div>
      <div>
        <dt>Amount</dt>
        <dd>
          {money(match.amount)} <span className="muted">— {donorUpdateTexts.amountFixed}</span>
        </dd>
      </div>
    </dl>
  );
}

function Outcome({ match, message }: { match: DonorMatch; message: string }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <>
      <p className="donor-update__success" role="status" tabIndex={-1} ref={ref}>
        {message}
      </p>
      <NextSteps
        status={match.status}
        company={match.company}
        companyName={match.company_name ?? ''}
        organizationName={match.organization.name}
        amount={match.amount}
      />
    </>
  );
}

function EditForm({
  matchId,
  token,
  match,
  onTransferred,
}: {
  matchId: number;
  token: string;
  match: DonorMatch;
  onTransferred: (match: DonorMatch, message: string) => void;
}) {
  const { host } = useElement();
  const [saved, setSaved] = useState<DonorMatch>(match);
  const [values, setValues] = useState<Values>(() => valuesOf(match));
  const [errors, setErrors] = useState<Partial<Record<DonorFormField, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  const emailChanged = values.email.trim().toLowerCase() !== saved.donor.email.toLowerCase();

  // Focus moves to the first invalid field as the errors render (before paint, on React and Preact alike).
  useLayoutEffect(() => {
    if (Object.keys(errors).length)
      formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    setSuccess(null);
    setFormError(null);
    const checked = checkDonorForm(values, saved.amount);
    if (!checked.ok) {
      setFormError(checked.formError);
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      const answer = await updateDonorMatch(matchId, checked.body, token);
      emit(host, 'twofold-match-updated', {
        matchId,
        status: answer.donation.status,
        transferred: answer.transferred,
      });
      if (answer.transferred) {
        onTransferred(answer.donation, answer.message);
        return;
      }
      setSaved(answer.donation);
      setValues(valuesOf(answer.donation));
      setSuccess(answer.message);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        setFormError(donorUpdateTexts.sessionEnded);
        clearDonorSession();
      } else setFormError(errorMessage(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <Summary match={saved} />
      <form
        ref={formRef}
        className="donor-update__form"
        noValidate
        onSubmit={submit}
        aria-label="Your match request"
      >
        <Field
          label="Your name"
          name="name"
          autoComplete="name"
          required
          maxLength={200}
          value={values.name}
          error={errors.name}
          onChange={(e) => {
            // Read now, not in the updater, which may run after the event is done.
            const name = e.target.value;
            setValues((v) => ({ ...v, name }));
          }}
        />
        <Field
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          required
          maxLength={320}
          value={values.email}
          error={errors.email}
          onChange={(e) => {
            const email = e.target.value;
            setValues((v) => ({ ...v, email }));
          }}
        />
        {emailChanged ? (
          <p className="donor-update__warning" role="alert" part="email-warning">
            {donorUpdateTexts.emailWarning}
          </p>
        ) : null}
        <CompanyField
          value={values.company}
          onChange={(company) => setValues((v) => ({ ...v, company }))}
          error={errors.company}
        />
        {formError ? (
          <p className="alert" role="alert">
            {formError}
          </p>
        ) : null}
        <Button type="submit" disabled={saving} part="submit-button">
          {saving ? donorUpdateTexts.saving : donorUpdateTexts.save}
        </Button>
      </form>
      {success ? <Outcome match={saved} message={success} /> : null}
    </>
  );
}

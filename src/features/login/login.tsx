import { type FormEvent, useEffect, useRef, useState } from 'react';
import { secondFactor } from '../../api/account.ts';
import { ApiError, errorMessage, NetworkError } from '../../api/client.ts';
import { signInWithPasskey } from '../../api/passkeys.ts';
import {
  acceptInvitation,
  forgot,
  login,
  noTokenMessage,
  otp,
  otpVerify,
  previewInvitation,
} from '../../api/sign-in.ts';
import { completeSso, lookupSso, ssoStartUrl } from '../../api/sso.ts';
import type { LoginResponse } from '../../contract/index.ts';
import { email as emailSchema, type InvitationPreview, LoginForm } from '../../contract/index.ts';
import { isSsoErrorCode, type SsoLookup, ssoErrors } from '../../contract/sso.ts';
import { login as startSession } from '../../state/session.ts';
import { storageKeys, writeStored } from '../../state/storage.ts';
import { toast } from '../../state/toasts.ts';
import { Button } from '../../ui/button.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { useElement } from '../../ui/element-context.ts';
import { emit } from '../../ui/events.ts';
import { Field } from '../../ui/field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { Tabs } from '../../ui/tabs.tsx';
import { challengeTexts, sendWithChallenge } from '../account/code-retry.ts';
import { fieldErrors, queryParam, safeRedirect, stripQueryParams } from '../common.ts';
import { fetchAndSolve } from '../contact/captcha.ts';

/** spec (part 1, section 8, Access) and section 2 (Login screen), word for word. */
export const loginTexts = {
  loginFailed: 'Login Failed',
  loginFailedFallback: 'Login failed. Please try again.',
  invalidEmailTitle: 'Invalid Email',
  invalidEmail: 'Please enter a valid email address.',
  resetSentTitle: 'Password Reset Email Sent',
  resetSent: 'Reset instructions sent!',
  requestFailedTitle: 'Request Failed',
  requestFailed: 'Unable to process your request. Please try again later.',
  magicCreated: 'Magic Link Created',
  magicSent: 'Magic Link Sent!',
  noUser: 'No User Found',
  supportEmail: 'support@twofold.test',
  // Not in the spec: the sign-in challenge after repeated failures.
  verificationNeeded:
    'After several failed sign-ins, this browser solves a short security check each time you sign in.',
  verifying: 'Running a security check...',
  verificationFailed: 'The security check could not be completed. Please try again.',
  invitationInvalid: 'Invitation Invalid',
  // Not in the spec: passkeys and single sign-on (issue #24).
  passkey: 'Sign in with a passkey',
  passkeyHint: 'Use the passkey on this device, your phone or a security key. No password needed.',
  passkeyCancelled: 'The passkey request was cancelled or timed out. Please try again.',
  passkeyUnsupported: 'This browser cannot use passkeys.',
  ssoProvider: (provider: string) => `Sign in with ${provider}`,
  ssoRequired: (provider: string) => `Your organization signs in with ${provider}.`,
  ssoOffered: 'Your organization also lets you sign in with its own accounts.',
  ssoFailedTitle: 'Single sign-on did not complete',
  ssoSigningIn: 'Finishing single sign-on...',
  or: 'or',
} as const;

export interface LoginProps {
  /** Where to go after signing in; defaults to the page's ?redirect= (a local path), else /portal. */
  redirect?: string;
}

/** The sign-in screen: Password and Magic Link tabs, the Reset Password dialog, the magic link's landing. */
export function Login({ redirect }: LoginProps) {
  const destination = safeRedirect(redirect ?? queryParam('redirect'));
  const [magicToken, setMagicToken] = useState(() => queryParam('magic'));
  const [invitationToken, setInvitationToken] = useState(() => queryParam('invitation'));
  const [ssoToken, setSsoToken] = useState(() => queryParam('sso'));
  const [ssoError] = useState(() => {
    const code = queryParam('sso_error');
    return code && isSsoErrorCode(code) ? ssoErrors[code] : null;
  });
  const [tab, setTab] = useState('password');
  useEffect(() => {
    if (ssoError) stripQueryParams('sso_error');
  }, [ssoError]);
  // Issue #24: a right password or link of a user with an authenticator app; its code comes next.
  const [pending, setPending] = useState<Pending | null>(null);

  if (pending)
    return (
      <SecondFactorForm
        pending={pending}
        onBack={() => {
          setPending(null);
          setMagicToken(null);
          setInvitationToken(null);
        }}
      />
    );
  if (magicToken)
    return <MagicLanding token={magicToken} onBack={() => setMagicToken(null)} onChallenge={setPending} />;
  if (ssoToken) return <SsoLanding token={ssoToken} onBack={() => setSsoToken(null)} />;
  if (invitationToken)
    return (
      <InvitationLanding
        token={invitationToken}
        onBack={() => setInvitationToken(null)}
        onChallenge={setPending}
      />
    );

  return (
    <div className="card login" part="card">
      <header className="card__header">
        <p className="card__brand">Twofold</p>
        <h1 className="card__title">Sign in</h1>
        <p className="muted">Sign in to manage your organization’s matching gifts.</p>
      </header>
      {ssoError ? (
        <div className="login__notice" role="alert">
          <p className="login__state-title">{loginTexts.ssoFailedTitle}</p>
          <p>{ssoError}</p>
        </div>
      ) : null}
      <Tabs
        label="Sign-in method"
        selected={tab}
        onSelect={setTab}
        tabs={[
          {
            id: 'password',
            label: 'Password',
            content: <PasswordForm destination={destination} onChallenge={setPending} />,
          },
          { id: 'magic', label: 'Magic Link', content: <MagicLinkForm destination={destination} /> },
        ]}
      />
    </div>
  );
}

/** The second step of signing in: the challenge's token and where to go after it. */
type Pending = { token: string; destination: string };

/** Not in the spec: the second step's texts (issue #24). */
export const secondFactorTexts = {
  title: 'Two-factor sign-in',
  intro: 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.',
  code: 'Authentication code',
  verify: 'Verify',
  verifying: 'Verifying...',
  back: 'Back to Sign In',
} as const;

/** After a right password or magic link: the authenticator app's code (or a recovery code). */
function SecondFactorForm({ pending, onBack }: { pending: Pending; onBack: () => void }) {
  const { host } = useElement();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [loading, setLoading] = useState(false);
  const [solving, setSolving] = useState(false);
  const [challenge, setChallenge] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    formRef.current?.querySelector('input')?.focus();
  }, []);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = code.trim();
    if (value.length < 6) {
      setError(secondFactorTexts.intro);
      return;
    }
    setError(undefined);
    setLoading(true);
    try {
      const response = await sendWithChallenge(
        challenge,
        (captcha) => secondFactor({ token: pending.token, code: value, ...(captcha ? { captcha } : {}) }),
        setSolving,
      );
      const destination = safeRedirect(response.redirect ?? pending.destination);
      emit(host, 'twofold-signed-in', { user: response.me, redirect: destination });
      startSession(response, destination);
    } catch (failure) {
      if (failure instanceof ApiError && failure.captcha) setChallenge(true);
      setError(errorMessage(failure));
      setLoading(false);
    }
  };

  return (
    <div className="card login" part="card">
      <header className="card__header">
        <p className="card__brand">Twofold</p>
        <h1 className="card__title">{secondFactorTexts.title}</h1>
        <p className="muted">{secondFactorTexts.intro}</p>
      </header>
      <form
        ref={formRef}
        className="login__form"
        noValidate
        onSubmit={submit}
        aria-label={secondFactorTexts.title}
      >
        <Field
          label={secondFactorTexts.code}
          name="code"
          autoComplete="one-time-code"
          inputMode="text"
          value={code}
          error={error}
          announce
          onChange={(e) => setCode(e.target.value)}
        />
        {solving ? (
          <div className="login__verification muted" role="status">
            <span className="spinner__circle" aria-hidden="true" />
            <span>{challengeTexts.solving}</span>
          </div>
        ) : null}
        <Button type="submit" block disabled={loading} part="submit-button">
          {loading ? secondFactorTexts.verifying : secondFactorTexts.verify}
        </Button>
        <Button variant="link" onClick={onBack}>
          {secondFactorTexts.back}
        </Button>
      </form>
    </div>
  );
}

/** A session, or the challenge for the second step. */
function isSession<T extends object>(response: T): response is Extract<T, LoginResponse> {
  return 'access_token' in response;
}

function PasswordForm({
  destination,
  onChallenge,
}: {
  destination: string;
  onChallenge: (pending: Pending) => void;
}) {
  const { host } = useElement();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [loading, setLoading] = useState(false);
  const [forgotOpen, setForgotOpen] = useState(false);
  // After a few failed sign-ins the server asks for a solved proof-of-work challenge each time.
  const [challenge, setChallenge] = useState<'off' | 'needed' | 'solving'>('off');
  const sso = useSsoLookup(email);

  const solveChallenge = async (): Promise<string | null> => {
    setChallenge('solving');
    const token = await fetchAndSolve();
    setChallenge('needed');
    return token;
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = LoginForm.safeParse({ email: email.trim(), password });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues));
      return;
    }
    setErrors({});
    setLoading(true);
    const send = async (captcha?: string) => {
      const response = await login(parsed.data.email, parsed.data.password, captcha);
      if (!isSession(response)) return onChallenge({ token: response.second_factor_token, destination });
      emit(host, 'twofold-signed-in', { user: response.me, redirect: destination });
      startSession(response, destination);
    };
    let failure: unknown;
    try {
      let captcha: string | undefined;
      if (challenge !== 'off') captcha = (await solveChallenge()) ?? undefined;
      if (challenge !== 'off' && !captcha) throw new Error(loginTexts.verificationFailed);
      try {
        return await send(captcha);
      } catch (error) {
        if (!(error instanceof ApiError && error.captcha)) throw error;
        setChallenge('needed');
        // 428: the password was not even checked, for want of a challenge: solve one, send again.
        if (error.status !== 428 || captcha) throw error;
      }
      const solved = await solveChallenge();
      if (!solved) throw new Error(loginTexts.verificationFailed);
      return await send(solved);
    } catch (error) {
      failure = error;
    }
    toast({ title: loginTexts.loginFailed, description: loginFailure(failure), variant: 'destructive' });
    setLoading(false);
  };

  // Focus the first invalid field once React has rendered the error state.
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (Object.keys(errors).length)
      formRef.current?.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  return (
    <>
      <form
        ref={formRef}
        className="login__form"
        noValidate
        onSubmit={submit}
        aria-label="Sign in with password"
      >
        <Field
          label="Email"
          type="email"
          name="email"
          autoComplete="username"
          value={email}
          error={errors.email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <SsoOffer sso={sso} email={email.trim()} destination={destination} />
        {sso?.required ? null : (
          <>
            <Field
              label="Password"
              type="password"
              name="password"
              autoComplete="current-password"
              value={password}
              error={errors.password}
              onChange={(e) => setPassword(e.target.value)}
            />
            <div className="login__row">
              <Button variant="link" onClick={() => setForgotOpen(true)}>
                Forgot password?
              </Button>
            </div>
            {challenge === 'off' ? null : (
              <div className="login__verification muted" role="status" part="verification">
                {challenge === 'solving' ? <span className="spinner__circle" aria-hidden="true" /> : null}
                <span>{challenge === 'solving' ? loginTexts.verifying : loginTexts.verificationNeeded}</span>
              </div>
            )}
            <Button type="submit" block disabled={loading} part="submit-button">
              {loading ? 'Signing in...' : 'Sign in'}
            </Button>
          </>
        )}
      </form>
      {sso?.required ? null : <PasskeySignIn email={email.trim()} destination={destination} />}
      <ForgotPasswordDialog
        open={forgotOpen}
        onClose={() => setForgotOpen(false)}
        initialEmail={email.trim()}
      />
    </>
  );
}

/**
 * Whether the typed email's domain signs in through its organization's provider: asked once the
 * email looks whole and the typing has paused, and forgotten as soon as it changes.
 */
function useSsoLookup(email: string): SsoLookup['sso'] {
  const [found, setFound] = useState<{ email: string; sso: SsoLookup['sso'] } | null>(null);
  const value = email.trim().toLowerCase();
  useEffect(() => {
    if (!emailSchema.safeParse(value).success) return;
    let current = true;
    const timer = setTimeout(() => {
      lookupSso(value)
        .then((answer) => {
          if (current) setFound({ email: value, sso: answer.sso });
        })
        // Without an answer the page offers what it always does: password, link, passkey.
        .catch(() => undefined);
    }, 350);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [value]);
  return found?.email === value ? found.sso : null;
}

/** "Sign in with <provider>": a navigation to the API, which sends the browser to the provider. */
function SsoOffer({
  sso,
  email,
  destination,
}: {
  sso: SsoLookup['sso'];
  email: string;
  destination: string;
}) {
  if (!sso) return null;
  return (
    <div className="login__sso" part="sso">
      <p className="muted">{sso.required ? loginTexts.ssoRequired(sso.provider) : loginTexts.ssoOffered}</p>
      <a className="btn btn--primary btn--block" href={ssoStartUrl(email, destination)} part="sso-button">
        {loginTexts.ssoProvider(sso.provider)}
      </a>
    </div>
  );
}

/** "Sign in with a passkey": usernameless, or limited to the typed email's passkeys. */
function PasskeySignIn({ email, destination }: { email: string; destination: string }) {
  const { host } = useElement();
  const [busy, setBusy] = useState(false);
  if (typeof window === 'undefined' || !window.PublicKeyCredential) return null;
  const start = async () => {
    setBusy(true);
    try {
      const typed = emailSchema.safeParse(email);
      const response = await signInWithPasskey(typed.success ? typed.data : undefined);
      emit(host, 'twofold-signed-in', { user: response.me, redirect: destination });
      startSession(response, destination);
    } catch (error) {
      // The browser's own refusal (the user cancelled, or no passkey answered in time).
      const cancelled =
        error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError');
      toast({
        title: loginTexts.loginFailed,
        description: cancelled ? loginTexts.passkeyCancelled : loginFailure(error),
        variant: 'destructive',
      });
      setBusy(false);
    }
  };
  return (
    <div className="login__passkey">
      <p className="login__or" aria-hidden="true">
        <span>{loginTexts.or}</span>
      </p>
      <Button variant="secondary" block disabled={busy} onClick={() => void start()} part="passkey-button">
        {busy ? 'Waiting for your passkey...' : loginTexts.passkey}
      </Button>
      <p className="muted login__hint">{loginTexts.passkeyHint}</p>
    </div>
  );
}

/** Where single sign-on comes back: exchange the one-time token for a session, open the organization. */
function SsoLanding({ token, onBack }: { token: string; onBack: () => void }) {
  const { host } = useElement();
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // The token works once: keep it out of the address bar, history and bookmarks.
    stripQueryParams('sso');
    completeSso(token)
      .then((response) => {
        if (response.organization_id !== null)
          writeStored(storageKeys.currentOrganizationId, String(response.organization_id));
        const destination = safeRedirect(response.redirect);
        emit(host, 'twofold-signed-in', { user: response.me, redirect: destination });
        startSession(response, destination);
      })
      .catch((error: unknown) => setFailure(errorMessage(error)));
  }, [token, host]);

  if (!failure) {
    return (
      <div className="card login" part="card">
        <Spinner label={loginTexts.ssoSigningIn} />
        <p className="muted">{loginTexts.ssoSigningIn}</p>
      </div>
    );
  }
  return (
    <div className="card login" part="card">
      <div className="login__state" role="alert">
        <h1 className="card__title">{loginTexts.ssoFailedTitle}</h1>
        <p>{failure}</p>
      </div>
      <Button variant="secondary" onClick={onBack}>
        Back to Sign In
      </Button>
    </div>
  );
}

/** The server's own words where it gave some; otherwise the spec's fallback. */
function loginFailure(error: unknown): string {
  if (error instanceof ApiError) return error.fromServer ? error.message : loginTexts.loginFailedFallback;
  if (error instanceof NetworkError) return error.message;
  if (error instanceof Error && error.message === noTokenMessage) return noTokenMessage;
  if (error instanceof Error && error.message === loginTexts.verificationFailed) return error.message;
  return loginTexts.loginFailedFallback;
}

function ForgotPasswordDialog({
  open,
  onClose,
  initialEmail,
}: {
  open: boolean;
  onClose: () => void;
  initialEmail: string;
}) {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    if (open) {
      setEmail(initialEmail);
      setSent(false);
    }
  }, [open, initialEmail]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = email.trim();
    // spec: "the email must be non-empty and contain '@'".
    if (!value.includes('@')) {
      toast({
        title: loginTexts.invalidEmailTitle,
        description: loginTexts.invalidEmail,
        variant: 'destructive',
      });
      return;
    }
    setLoading(true);
    try {
      const result = await forgot(value);
      toast({ title: loginTexts.resetSentTitle, description: result.message });
      setSent(true);
    } catch {
      toast({
        title: loginTexts.requestFailedTitle,
        description: loginTexts.requestFailed,
        variant: 'destructive',
      });
    } finally {
      setLoading(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Reset Password"
      description={
        sent
          ? undefined
          : 'Enter your account’s email address and we will send you a link to reset your password.'
      }
    >
      {sent ? (
        <div className="login__state" role="status">
          <p className="login__state-title">{loginTexts.resetSent}</p>
          <p className="muted">
            Check your inbox for a link to choose a new password. The link works once, for one hour.
          </p>
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
        </div>
      ) : (
        <form className="login__form" noValidate onSubmit={submit} aria-label="Reset password">
          <Field
            label="Email"
            type="email"
            name="email"
            autoComplete="username"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <Button type="submit" block disabled={loading}>
            Send Reset Instructions
          </Button>
        </form>
      )}
    </Dialog>
  );
}

type MagicState = 'form' | 'sent' | 'not-found';

function MagicLinkForm({ destination }: { destination: string }) {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [state, setState] = useState<MagicState>('form');
  const [loading, setLoading] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const inputRef = useRef<HTMLDivElement>(null);

  // Move focus to what replaced the control the user just pressed.
  useEffect(() => {
    if (state === 'form') return;
    headingRef.current?.focus();
  }, [state]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = emailSchema.safeParse(email.trim());
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      inputRef.current?.querySelector('input')?.focus();
      return;
    }
    setError(undefined);
    setLoading(true);
    try {
      await otp({ email: parsed.data, redirect: destination });
      toast({ title: loginTexts.magicCreated, description: 'Check your email for your sign-in link.' });
      setState('sent');
    } catch (error) {
      // Where the organization requires single sign-on the server says so; that is not "no user".
      if (error instanceof ApiError && error.status === 403 && error.fromServer) {
        toast({ title: loginTexts.requestFailedTitle, description: error.message, variant: 'destructive' });
        return;
      }
      // spec: "an error or an unknown user leads to the no-user screen".
      setState('not-found');
    } finally {
      setLoading(false);
    }
  };

  const back = () => setState('form');

  if (state === 'sent') {
    return (
      <div className="login__state">
        <h2 className="login__state-title" tabIndex={-1} ref={headingRef}>
          {loginTexts.magicSent}
        </h2>
        <p className="muted">
          We sent a sign-in link to <strong>{email.trim()}</strong>. It works once and expires in 15 minutes.
        </p>
        <Button variant="secondary" onClick={back}>
          Send New Link
        </Button>
      </div>
    );
  }
  if (state === 'not-found') {
    return (
      <div className="login__state">
        <h2 className="login__state-title" tabIndex={-1} ref={headingRef}>
          {loginTexts.noUser}
        </h2>
        <p className="muted">
          We couldn’t find an account for <strong>{email.trim()}</strong>. If you think this is a mistake,
          contact support at <a href={`mailto:${loginTexts.supportEmail}`}>{loginTexts.supportEmail}</a>.
        </p>
        <Button variant="secondary" onClick={back}>
          Try Again
        </Button>
      </div>
    );
  }
  return (
    <form className="login__form" noValidate onSubmit={submit} aria-label="Sign in with a magic link">
      <p className="muted">We will email you a link that signs you in without a password.</p>
      <div ref={inputRef}>
        <Field
          label="Email"
          type="email"
          name="email"
          autoComplete="username"
          value={email}
          error={error}
          onChange={(e) => setEmail(e.target.value)}
        />
      </div>
      <Button type="submit" block disabled={loading}>
        {loading ? 'Sending...' : 'Send Magic Link'}
      </Button>
    </form>
  );
}

/** Where a magic link lands: exchange its one-time token for a session. */
function MagicLanding({
  token,
  onBack,
  onChallenge,
}: {
  token: string;
  onBack: () => void;
  onChallenge: (pending: Pending) => void;
}) {
  const { host } = useElement();
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // The token works once: keep it out of the address bar, history and bookmarks.
    stripQueryParams('magic');
    otpVerify(token)
      .then((response) => {
        const destination = safeRedirect(response.redirect);
        if (!isSession(response)) return onChallenge({ token: response.second_factor_token, destination });
        emit(host, 'twofold-signed-in', { user: response.me, redirect: destination });
        startSession(response, destination);
      })
      .catch((error: unknown) => setFailure(errorMessage(error)));
  }, [token, host, onChallenge]);

  if (!failure) {
    return (
      <div className="card login" part="card">
        <Spinner label="Signing you in..." />
        <p className="muted">Signing you in...</p>
      </div>
    );
  }
  return (
    <div className="card login" part="card">
      <div className="login__state" role="alert">
        <h1 className="card__title">Sign-in Link Invalid</h1>
        <p>{failure}</p>
      </div>
      <Button variant="secondary" onClick={onBack}>
        Back to Sign In
      </Button>
    </div>
  );
}

/**
 * Where an invitation to an organization lands: what is offered, and the owner's choice. Accepting
 * joins the organization and signs in (the link proved the mailbox); nothing happens otherwise.
 */
function InvitationLanding({
  token,
  onBack,
  onChallenge,
}: {
  token: string;
  onBack: () => void;
  onChallenge: (pending: Pending) => void;
}) {
  const { host } = useElement();
  const [preview, setPreview] = useState<InvitationPreview | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [accepting, setAccepting] = useState(false);
  const started = useRef(false);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // The token works once: keep it out of the address bar, history and bookmarks.
    stripQueryParams('invitation');
    previewInvitation(token)
      .then(setPreview)
      .catch((error: unknown) => setFailure(errorMessage(error)));
  }, [token]);

  useEffect(() => {
    if (preview || failure) heading.current?.focus();
  }, [preview, failure]);

  const accept = async () => {
    setAccepting(true);
    try {
      const response = await acceptInvitation(token);
      // Open the organization just joined, whatever else the user belongs to.
      writeStored(storageKeys.currentOrganizationId, String(response.organization_id));
      const destination = safeRedirect(response.redirect);
      if (!isSession(response)) return onChallenge({ token: response.second_factor_token, destination });
      emit(host, 'twofold-signed-in', { user: response.me, redirect: destination });
      startSession(response, destination);
    } catch (error) {
      setFailure(errorMessage(error));
      setAccepting(false);
    }
  };

  if (failure) {
    return (
      <div className="card login" part="card">
        <div className="login__state" role="alert">
          <h1 className="card__title" tabIndex={-1} ref={heading}>
            {loginTexts.invitationInvalid}
          </h1>
          <p>{failure}</p>
        </div>
        <Button variant="secondary" onClick={onBack}>
          Back to Sign In
        </Button>
      </div>
    );
  }
  if (!preview) {
    return (
      <div className="card login" part="card">
        <Spinner label="Opening your invitation..." />
        <p className="muted">Opening your invitation...</p>
      </div>
    );
  }
  return (
    <div className="card login" part="card">
      <header className="card__header">
        <p className="card__brand">Twofold</p>
        <h1 className="card__title" tabIndex={-1} ref={heading}>
          Join {preview.organization}
        </h1>
      </header>
      {preview.registration ? (
        <p>
          <strong>{preview.organization}</strong> was registered on Twofold with{' '}
          <strong>{preview.email}</strong> as its administrative contact.
        </p>
      ) : (
        <p>
          {preview.invited_by} invited <strong>{preview.email}</strong> to join{' '}
          <strong>{preview.organization}</strong> on Twofold with {preview.level} access.
        </p>
      )}
      <p className="muted">
        {preview.registration
          ? 'You become its administrator only if you accept. Accepting also signs you in.'
          : 'You join only if you accept. Accepting also signs you in.'}
      </p>
      <div className="login__actions">
        <Button onClick={() => void accept()} disabled={accepting} part="submit-button">
          {accepting ? 'Accepting...' : 'Accept invitation'}
        </Button>
        <Button variant="secondary" onClick={onBack} disabled={accepting}>
          Not now
        </Button>
      </div>
    </div>
  );
}

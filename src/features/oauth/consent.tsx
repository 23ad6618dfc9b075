import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useId, useRef, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { consentInfo, decide } from '../../api/oauth.ts';
import type { AuthorizationParams, ConsentInfo } from '../../contract/oauth.ts';
import { consentMessageType } from '../../contract/oauth-public.ts';
import { setNavigate } from '../../state/navigation.ts';
import { initSession, sessionStatus, user } from '../../state/session.ts';
import { Button } from '../../ui/button.tsx';
import { SelectField } from '../../ui/field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { safeRedirect } from '../common.ts';
import { Login } from '../login/login.tsx';
import { Registration } from '../registration/registration.tsx';

/** The consent screen's texts (issue #25). */
export const consentTexts = {
  signInTitle: 'Sign in to connect an app',
  register: 'Register your nonprofit',
  allow: 'Allow',
  deny: 'Deny',
  done: 'Done. You can close this window.',
  notAdmin: 'Only an administrator of an organization can connect apps to it.',
} as const;

const paramNames = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'response_mode',
] as const;

function readParams(): AuthorizationParams {
  const search = new URLSearchParams(location.search);
  const params: Record<string, string> = {};
  for (const name of paramNames) {
    const value = search.get(name);
    if (value !== null) params[name] = value;
  }
  return params;
}

/**
 * The consent page of the OAuth authorization request (`/oauth/authorize`): who asks, for
 * what (each scope in words), for which organization (a picker when the user administers
 * several), Allow / Deny. Signed out, it offers sign-in (coming back here) or the registration
 * form. With `response_mode=web_message` (the embedded registration's popup) the answer is
 * posted to the opener, to the redirect URI's exact origin only, instead of a redirect.
 */
export function OAuthConsent() {
  useSignals();
  const [params] = useState(readParams);
  useEffect(() => {
    void initSession();
  }, []);
  const status = sessionStatus.value;
  if (status === 'anonymous') return <SignInFirst />;
  if (status !== 'authenticated') return <Spinner label="Loading your session..." />;
  return <Consent params={params} />;
}

/**
 * Signed out: the sign-in form right here (the page keeps its address, so the embedded flow's
 * popup keeps its opener), or the registration form for a nonprofit new to Twofold, which then
 * confirms its email and signs in here.
 */
function SignInFirst() {
  const [registering, setRegistering] = useState(false);
  const here = `${location.pathname}${location.search}`;
  // Signing in updates the session, and this page then shows the consent: no navigation.
  useEffect(
    () =>
      setNavigate((to, options) => {
        if (to === here || to === safeRedirect(here)) return;
        if (options?.replace) location.replace(to);
        else location.assign(to);
      }),
    [here],
  );
  if (registering)
    return (
      <div className="consent consent--wide">
        <Registration signInUrl={here} />
        <p className="consent__switch">
          <Button variant="link" onClick={() => setRegistering(false)}>
            Already registered? Sign in
          </Button>
        </p>
      </div>
    );
  return (
    <div className="consent">
      <h1 className="consent__title">{consentTexts.signInTitle}</h1>
      <p>
        A partner platform asks to connect to your organization on Twofold. Sign in to see what it asks for
        and to allow or deny it.
      </p>
      <Login redirect={here} />
      <p className="consent__switch">
        New to Twofold?{' '}
        <Button variant="link" onClick={() => setRegistering(true)}>
          {consentTexts.register}
        </Button>{' '}
        first, confirm your email, then sign in here.
      </p>
    </div>
  );
}

function Consent({ params }: { params: AuthorizationParams }) {
  const [info, setInfo] = useState<ConsentInfo | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [orgId, setOrgId] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const scopesId = useId();

  useEffect(() => {
    let live = true;
    consentInfo(params)
      .then((answer) => {
        if (!live) return;
        setInfo(answer);
        setOrgId(answer.organizations[0] ? String(answer.organizations[0].id) : '');
      })
      .catch((e: unknown) => {
        if (live) setFailure(errorMessage(e));
      });
    return () => {
      live = false;
    };
  }, [params]);
  useEffect(() => {
    if (info || failure || done) headingRef.current?.focus();
  }, [info, failure, done]);

  if (failure)
    return (
      <div className="card consent" part="card" role="alert">
        <h1 className="card__title" tabIndex={-1} ref={headingRef}>
          This connection request cannot be completed
        </h1>
        <p>{failure}</p>
      </div>
    );
  if (!info) return <Spinner label="Loading the request..." />;
  if (done)
    return (
      <div className="card consent" part="card" role="status">
        <h1 className="card__title" tabIndex={-1} ref={headingRef}>
          {consentTexts.done}
        </h1>
      </div>
    );

  const choose = async (decision: 'allow' | 'deny') => {
    setBusy(true);
    try {
      const answer = await decide({
        ...params,
        decision,
        ...(decision === 'allow' && orgId ? { organization_id: Number(orgId) } : {}),
      });
      const opener = window.opener as Window | null;
      if (params.response_mode === 'web_message' && opener) {
        // Only the page at the registered redirect URI's origin may read the answer.
        opener.postMessage({ type: consentMessageType, ...answer.result }, info.redirect_origin);
        setDone(true);
        window.close();
        return;
      }
      location.assign(answer.redirect_to);
    } catch (e) {
      setFailure(errorMessage(e));
      setBusy(false);
    }
  };

  const { app, organizations } = info;
  const only = organizations.length === 1 ? organizations[0] : undefined;
  return (
    <div className="card consent" part="card">
      <header className="consent__header">
        {app.logo_url ? <img className="consent__logo" src={app.logo_url} alt={`${app.name} logo`} /> : null}
        <h1 className="card__title" tabIndex={-1} ref={headingRef}>
          Connect {app.name} to Twofold
        </h1>
      </header>
      <p>
        <a href={app.website} target="_blank" rel="noopener noreferrer">
          {app.name}
        </a>{' '}
        asks for access to your organization.
      </p>
      <p id={scopesId}>{app.name} will be able to:</p>
      <ul className="consent__scopes" aria-labelledby={scopesId}>
        {info.scopes.map((s) => (
          <li key={s.scope}>{s.label}</li>
        ))}
      </ul>
      {organizations.length === 0 ? (
        <p role="alert">{consentTexts.notAdmin}</p>
      ) : only ? (
        <p>
          It will act for <strong>{only.name}</strong>.
        </p>
      ) : (
        <SelectField
          label="Organization"
          name="organization"
          value={orgId}
          onChange={(e) => setOrgId(e.target.value)}
          options={organizations.map((o) => ({ value: String(o.id), label: o.name }))}
        />
      )}
      <p className="muted">
        Signed in as {user.value?.email}. You can disconnect it at any time under Integrations → Connected
        apps.
      </p>
      <div className="consent__actions">
        <Button onClick={() => void choose('allow')} disabled={busy || organizations.length === 0}>
          {consentTexts.allow}
        </Button>
        <Button variant="secondary" onClick={() => void choose('deny')} disabled={busy}>
          {consentTexts.deny}
        </Button>
      </div>
    </div>
  );
}

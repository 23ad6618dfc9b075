import { useSignals } from '@preact/signals-react/runtime';
import { useCallback, useEffect, useId, useState } from 'react';
import { getTwoFactor } from '../../api/account.ts';
import { errorMessage } from '../../api/client.ts';
import type { TwoFactorStatus } from '../../contract/account.ts';
import { initSession, user } from '../../state/session.ts';
import { Skeleton } from '../../ui/skeleton.tsx';
import { Authenticator } from './authenticator.tsx';
import { PasskeysSection } from './passkeys.tsx';
import { Sessions } from './sessions.tsx';

/** Not in the spec: the texts of the account page (issue #24). */
export const accountTexts = {
  title: 'Account',
  security: 'Security',
  loading: 'Loading security settings...',
  required:
    'Two-factor sign-in is required for your account. Set up an authenticator app or add a passkey below to continue using Twofold.',
} as const;

/**
 * The signed-in user's own account page (`/portal/account`): who they are, and the Security
 * section: the authenticator app and recovery codes, and the signed-in sessions. A session that an
 * organization's policy holds until it has a second factor lands here, and can do nothing else.
 */
export function Account() {
  useSignals();
  const titleId = useId();
  const securityId = useId();
  const [status, setStatus] = useState<TwoFactorStatus | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      const next = await getTwoFactor();
      setStatus(next);
      setFailure(null);
      // Once enrolled, the portal's other screens open: the user record says so too.
      if (user.value && user.value.twoFactorRequired !== next.required)
        user.value = { ...user.value, twoFactorRequired: next.required };
    } catch (error) {
      setFailure(errorMessage(error));
    }
  }, []);
  useEffect(() => {
    void initSession();
    void load();
  }, [load]);

  const me = user.value;
  return (
    <section className="page account" aria-labelledby={titleId}>
      <header className="page__header" part="header">
        <div className="page__heading">
          <h1 id={titleId} className="page__title">
            {accountTexts.title}
          </h1>
          {me ? (
            <p className="page__organization">
              {me.name} · {me.email}
            </p>
          ) : null}
        </div>
      </header>
      {status?.required ? (
        <p className="account__required" role="alert" part="required">
          {accountTexts.required}
        </p>
      ) : null}
      <section className="account__security" aria-labelledby={securityId}>
        <h2 id={securityId} className="account__title">
          {accountTexts.security}
        </h2>
        {failure ? <p role="alert">{failure}</p> : null}
        {status ? (
          <Authenticator status={status} onChanged={() => void load()} />
        ) : failure ? null : (
          <Skeleton label={accountTexts.loading} lines={3} />
        )}
        <PasskeysSection />
        <Sessions />
      </section>
    </section>
  );
}

import { useSignals } from '@preact/signals-react/runtime';
import { user } from '../../state/session.ts';
import { PasskeysSection } from './passkeys.tsx';

/**
 * The signed-in user's own account (/portal/account, issue #24) and its Security section. This
 * branch mounts the passkeys; the sessions, authenticator app and recovery codes join it from the
 * two-factor work.
 */
export function Account() {
  useSignals();
  const me = user.value;
  return (
    <div className="account">
      <header className="account__header" part="header">
        <h1 className="account__title">Your account</h1>
        {me ? <p className="muted">{me.email}</p> : null}
      </header>
      <section className="account__security" aria-labelledby="account-security">
        <h2 id="account-security" className="account__group-title">
          Security
        </h2>
        <PasskeysSection />
      </section>
    </div>
  );
}

import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { confirmTotp, newRecoveryCodes, removeTotp, startTotp } from '../../api/account.ts';
import { ApiError, errorMessage } from '../../api/client.ts';
import type { TotpEnrolment, TwoFactorStatus } from '../../contract/account.ts';
import { toast } from '../../state/toasts.ts';
import { Badge } from '../../ui/badge.tsx';
import { Button } from '../../ui/button.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { Field } from '../../ui/field.tsx';
import { challengeTexts, sendWithChallenge } from './code-retry.ts';

/** Not in the spec: the texts of the authenticator app and recovery codes (issue #24). */
export const authenticatorTexts = {
  title: 'Authenticator app',
  off: 'Sign in with a code from an authenticator app (such as Google Authenticator, Microsoft Authenticator or 1Password) after your password or magic link.',
  on: 'On',
  notSetUp: 'Not set up',
  setUp: 'Set up authenticator app',
  scan: 'Scan this QR code with your authenticator app, or enter the key by hand. Then enter the 6-digit code it shows.',
  qrAlt: 'QR code for your authenticator app',
  key: 'Setup key',
  code: 'Code from the app',
  confirm: 'Confirm',
  cancel: 'Cancel',
  codesTitle: 'Your recovery codes',
  codesIntro:
    'Each code signs you in once if you lose your phone. Keep them somewhere safe: they are shown only now.',
  codesSaved: 'I have saved these codes',
  codesLeft: (n: number) => `${n} of 10 recovery codes left.`,
  newCodes: 'Generate new recovery codes',
  remove: 'Remove authenticator app',
  proofHint:
    'Enter a current code from your authenticator app or a recovery code. If you signed in within the last 10 minutes you may leave it empty.',
  enabled: 'Authenticator app added',
  removed: 'Authenticator app removed',
} as const;

type Proof = { action: 'remove' | 'codes' } | null;

/** The authenticator app: set up (QR code, key, first code), recovery codes, remove. */
export function Authenticator({ status, onChanged }: { status: TwoFactorStatus; onChanged: () => void }) {
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [proof, setProof] = useState<Proof>(null);
  const [busy, setBusy] = useState(false);
  const titleId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);

  const start = async () => {
    setBusy(true);
    try {
      setEnrolment(await startTotp());
    } catch (error) {
      toast({ title: 'Could not start', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  const showCodes = (fresh: string[]) => {
    setCodes(fresh);
    setEnrolment(null);
    onChanged();
  };

  const doneWithCodes = () => {
    setCodes(null);
    headingRef.current?.focus();
  };

  return (
    <section className="account__section" aria-labelledby={titleId} part="authenticator">
      <h3 id={titleId} className="account__subtitle" tabIndex={-1} ref={headingRef}>
        {authenticatorTexts.title}{' '}
        <Badge variant={status.totp ? 'success' : 'neutral'}>
          {status.totp ? authenticatorTexts.on : authenticatorTexts.notSetUp}
        </Badge>
      </h3>
      {codes ? (
        <RecoveryCodeList codes={codes} onDone={doneWithCodes} />
      ) : enrolment ? (
        <Enrolment
          enrolment={enrolment}
          onConfirmed={(fresh) => {
            toast({ title: authenticatorTexts.enabled, description: 'Sign-in now asks for a code.' });
            showCodes(fresh);
          }}
          onCancel={() => {
            setEnrolment(null);
            headingRef.current?.focus();
          }}
        />
      ) : status.totp ? (
        <>
          <p className="muted">
            {status.totp_since ? `On since ${new Date(status.totp_since).toLocaleDateString()}. ` : ''}
            {authenticatorTexts.codesLeft(status.recovery_codes_left)}
          </p>
          <div className="account__actions">
            <Button variant="secondary" onClick={() => setProof({ action: 'codes' })}>
              {authenticatorTexts.newCodes}
            </Button>
            <Button variant="destructive" onClick={() => setProof({ action: 'remove' })}>
              {authenticatorTexts.remove}
            </Button>
          </div>
        </>
      ) : (
        <>
          <p className="muted">{authenticatorTexts.off}</p>
          <div className="account__actions">
            <Button disabled={busy} onClick={() => void start()}>
              {authenticatorTexts.setUp}
            </Button>
          </div>
        </>
      )}
      <ProofDialog
        proof={proof}
        onClose={() => setProof(null)}
        onDone={(fresh) => {
          setProof(null);
          if (fresh) showCodes(fresh);
          else {
            toast({ title: authenticatorTexts.removed, description: 'Sign-in no longer asks for a code.' });
            onChanged();
            headingRef.current?.focus();
          }
        }}
      />
    </section>
  );
}

/** The QR code (the server's SVG, as an image: never markup in the page), the key, the first code. */
function Enrolment({
  enrolment,
  onConfirmed,
  onCancel,
}: {
  enrolment: TotpEnrolment;
  onConfirmed: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [solving, setSolving] = useState(false);
  const [challenge, setChallenge] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    formRef.current?.querySelector('input')?.focus();
  }, []);
  const picture = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qr_svg)}`;
  const key = enrolment.secret.replace(/(.{4})/g, '$1 ').trim();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = code.replace(/\s+/g, '');
    if (!/^[0-9]{6}$/.test(value)) {
      setError('Enter the 6-digit code your app shows.');
      return;
    }
    setBusy(true);
    try {
      const { recovery_codes } = await sendWithChallenge(
        challenge,
        (captcha) => confirmTotp({ code: value, ...(captcha ? { captcha } : {}) }),
        setSolving,
      );
      onConfirmed(recovery_codes);
    } catch (failure) {
      if (failure instanceof ApiError && failure.captcha) setChallenge(true);
      setError(errorMessage(failure));
      setBusy(false);
    }
  };

  return (
    <form
      ref={formRef}
      className="account__enrolment"
      noValidate
      onSubmit={submit}
      aria-label="Set up authenticator app"
    >
      <p>{authenticatorTexts.scan}</p>
      <img className="account__qr" src={picture} alt={authenticatorTexts.qrAlt} width={200} height={200} />
      <p>
        {authenticatorTexts.key}:{' '}
        <code className="account__secret" data-secret={enrolment.secret}>
          {key}
        </code>
      </p>
      <Field
        label={authenticatorTexts.code}
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        value={code}
        error={error}
        announce
        onChange={(e) => setCode(e.target.value)}
      />
      {solving ? <p role="status">{challengeTexts.solving}</p> : null}
      <div className="account__actions">
        <Button type="submit" disabled={busy}>
          {authenticatorTexts.confirm}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          {authenticatorTexts.cancel}
        </Button>
      </div>
    </form>
  );
}

/** Ten codes, shown once. */
function RecoveryCodeList({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <section className="account__codes" aria-labelledby="recovery-codes-title">
      <h4 id="recovery-codes-title" tabIndex={-1} ref={headingRef}>
        {authenticatorTexts.codesTitle}
      </h4>
      <p>{authenticatorTexts.codesIntro}</p>
      <ul className="account__code-list">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <Button onClick={onDone}>{authenticatorTexts.codesSaved}</Button>
    </section>
  );
}

/** Removing the app or new recovery codes: a current code, or none after a recent sign-in. */
function ProofDialog({
  proof,
  onClose,
  onDone,
}: {
  proof: Proof;
  onClose: () => void;
  onDone: (codes: string[] | null) => void;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [solving, setSolving] = useState(false);
  const [challenge, setChallenge] = useState(false);
  useEffect(() => {
    if (proof) {
      setCode('');
      setError(undefined);
      setBusy(false);
    }
  }, [proof]);
  const removing = proof?.action === 'remove';

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = code.trim();
    setBusy(true);
    try {
      const result = await sendWithChallenge(
        challenge && value !== '',
        (captcha) => {
          const input = { ...(value ? { code: value } : {}), ...(captcha ? { captcha } : {}) };
          return removing
            ? removeTotp(input).then(() => null)
            : newRecoveryCodes(input).then((r) => r.recovery_codes);
        },
        setSolving,
      );
      onDone(result);
    } catch (failure) {
      if (failure instanceof ApiError && failure.captcha) setChallenge(true);
      setError(errorMessage(failure));
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={proof !== null}
      onClose={onClose}
      title={removing ? 'Remove the authenticator app?' : 'Generate new recovery codes?'}
      description={
        removing
          ? 'Sign-in will no longer ask for a code. Your recovery codes stop working too.'
          : 'Your current recovery codes stop working.'
      }
    >
      <form
        className="account__proof"
        noValidate
        onSubmit={submit}
        aria-label={removing ? authenticatorTexts.remove : authenticatorTexts.newCodes}
      >
        <Field
          label="Code"
          name="code"
          autoComplete="one-time-code"
          hint={authenticatorTexts.proofHint}
          value={code}
          error={error}
          announce
          onChange={(e) => setCode(e.target.value)}
        />
        {solving ? <p role="status">{challengeTexts.solving}</p> : null}
        <div className="confirm-dialog__buttons">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant={removing ? 'destructive' : 'primary'} disabled={busy}>
            {removing ? authenticatorTexts.remove : authenticatorTexts.newCodes}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

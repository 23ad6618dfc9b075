import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ApiError, NetworkError } from '../../api/client.ts';
import { reset } from '../../api/sign-in.ts';
import { ResetForm } from '../../contract/index.ts';
import { navigate } from '../../state/navigation.ts';
import { toast } from '../../state/toasts.ts';
import { Button } from '../../ui/button.tsx';
import { useElement } from '../../ui/element-context.ts';
import { emit } from '../../ui/events.ts';
import { Field } from '../../ui/field.tsx';
import { fieldErrors, queryParam } from '../common.ts';

/** spec (part 1, sections 2, 8 and 9), word for word. */
export const resetTexts = {
  invalidLink: 'Invalid Reset Link',
  missingToken: 'Invalid or missing reset token. Please request a new password reset link.',
  success: 'Password Reset Successful',
  failedTitle: 'Password Reset Failed',
  failedFallback: 'Password reset failed. The link may have expired. Please try again.',
} as const;

/**
 * The same page sets a new account's first password: the 'Create your password' email links here
 * with `purpose=create`, and the page is titled for that (spec silent; the reset texts above are
 * the spec's own for a reset).
 */
export const createTexts = {
  title: 'Create Your Password',
  intro: 'Choose the password you will sign in with, at least 6 characters.',
  submit: 'Create Password',
  busy: 'Creating...',
  success: 'Password Created',
  successDetail: 'You can now sign in with your password.',
  done: 'Your password is set. Taking you to sign in...',
} as const;

/** spec: "Redirect after reset: 3000 ms", to /login. */
export const redirectAfterReset = 3000;

export interface ResetPasswordProps {
  /** The reset token; defaults to the page's ?token=. */
  token?: string;
  /** 'create' for a new account's first password; defaults to the page's ?purpose=, else a reset. */
  purpose?: string;
}

export function ResetPassword({ token: tokenProp, purpose: purposeProp }: ResetPasswordProps) {
  const { host } = useElement();
  const [token] = useState(() => tokenProp ?? queryParam('token'));
  const [creating] = useState(() => (purposeProp ?? queryParam('purpose')) === 'create');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [loading, setLoading] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const doneRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (Object.keys(errors).length)
      formRef.current?.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  useEffect(() => {
    if (!done) return;
    doneRef.current?.focus();
    const timer = setTimeout(() => navigate('/login'), redirectAfterReset);
    return () => clearTimeout(timer);
  }, [done]);

  if (!token) {
    return (
      <div className="card reset" part="card">
        <div className="reset__state" role="alert">
          <h1 className="card__title">{resetTexts.invalidLink}</h1>
          <p>{resetTexts.missingToken}</p>
        </div>
        <Button onClick={() => navigate('/portal/login')}>Back to Login</Button>
      </div>
    );
  }

  if (done) {
    return (
      <div className="card reset" part="card">
        <div className="reset__state">
          <h1 className="card__title" tabIndex={-1} ref={doneRef}>
            {creating ? createTexts.success : resetTexts.success}
          </h1>
          <p className="muted">
            {creating ? createTexts.done : 'Your password has been changed. Taking you to sign in...'}
          </p>
        </div>
        <a className="btn btn--secondary" href="/login">
          Go to Login now
        </a>
      </div>
    );
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = ResetForm.safeParse({ password, confirmPassword });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues));
      return;
    }
    setErrors({});
    setFailure(null);
    setLoading(true);
    try {
      await reset({ token, password: parsed.data.password });
      toast(
        creating
          ? { title: createTexts.success, description: createTexts.successDetail }
          : { title: resetTexts.success, description: 'You can now sign in with your new password.' },
      );
      emit(host, 'twofold-password-reset', {});
      setDone(true);
    } catch (error) {
      const message =
        (error instanceof ApiError && error.fromServer) || error instanceof NetworkError
          ? (error as Error).message
          : resetTexts.failedFallback;
      setFailure(message);
      toast({ title: resetTexts.failedTitle, description: message, variant: 'destructive' });
    } finally {
      setLoading(false);
    }
  };

  return (
    <div className="card reset" part="card">
      <header className="card__header">
        <p className="card__brand">Twofold</p>
        <h1 className="card__title">{creating ? createTexts.title : 'Reset Password'}</h1>
        <p className="muted">
          {creating ? createTexts.intro : 'Choose a new password of at least 6 characters.'}
        </p>
      </header>
      <form
        ref={formRef}
        className="reset__form"
        noValidate
        onSubmit={submit}
        aria-label={creating ? 'Create your password' : 'Reset password'}
      >
        {failure ? (
          <p className="alert" role="alert">
            {failure}
          </p>
        ) : null}
        <Field
          label="New Password"
          type="password"
          name="password"
          autoComplete="new-password"
          value={password}
          error={errors.password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <Field
          label="Confirm New Password"
          type="password"
          name="confirmPassword"
          autoComplete="new-password"
          value={confirmPassword}
          error={errors.confirmPassword}
          onChange={(e) => setConfirmPassword(e.target.value)}
        />
        <Button type="submit" block disabled={loading} part="submit-button">
          {creating
            ? loading
              ? createTexts.busy
              : createTexts.submit
            : loading
              ? 'Resetting...'
              : 'Reset Password'}
        </Button>
        <a className="reset__back" href="/portal/login">
          Back to Login
        </a>
      </form>
    </div>
  );
}

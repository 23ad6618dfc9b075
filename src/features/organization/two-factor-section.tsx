import { useEffect, useState } from 'react';
import { getTwoFactorPolicy, resetMemberTwoFactor, setTwoFactorPolicy } from '../../api/account.ts';
import { errorMessage } from '../../api/client.ts';
import type { TwoFactorMembers } from '../../contract/account.ts';
import { toast } from '../../state/toasts.ts';
import { Badge } from '../../ui/badge.tsx';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { Section } from './fields.tsx';

/** Not in the spec: the texts of the organization's two-factor policy (issue #24). */
export const twoFactorSettingsTexts = {
  title: 'Two-factor sign-in',
  description:
    'Require everyone with access to this organization (and its chapters) to sign in with a second factor: an authenticator app or a passkey. Members without one are taken to set it up at their next sign-in and can do nothing else until they have.',
  require: 'Require two-factor sign-in for everyone with access to this organization',
  saved: 'Two-factor requirement saved',
  members: 'Members',
  on: 'Two-factor on',
  off: 'No second factor',
  reset: 'Reset two-factor',
  resetQuestion: (email: string) => `Reset two-factor sign-in for ${email}?`,
  resetDescription:
    'Their authenticator app and recovery codes are removed and they are signed out everywhere. They are told by email, and set up a new one at their next sign-in.',
} as const;

/** Organization → Settings (admins): the two-factor policy, and each member's reset. */
export function TwoFactorSection({ organizationId }: { organizationId: number }) {
  const [state, setState] = useState<TwoFactorMembers | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [resetting, setResetting] = useState<TwoFactorMembers['members'][number] | null>(null);

  useEffect(() => {
    let live = true;
    getTwoFactorPolicy(organizationId)
      .then((answer) => live && setState(answer))
      .catch((error: unknown) => live && setProblem(errorMessage(error)));
    return () => {
      live = false;
    };
  }, [organizationId]);

  const toggle = async (required: boolean) => {
    setBusy(true);
    // The box shows the choice at once; a refusal puts it back and says why.
    const before = state;
    if (before) setState({ ...before, require_two_factor: required });
    try {
      setState(await setTwoFactorPolicy(organizationId, required));
      setProblem(null);
      toast({ description: twoFactorSettingsTexts.saved });
    } catch (error) {
      setState(before);
      setProblem(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  const reset = async () => {
    if (!resetting) return;
    setBusy(true);
    try {
      const { message } = await resetMemberTwoFactor(organizationId, resetting.user_id);
      toast({ description: message });
      setResetting(null);
      setState(await getTwoFactorPolicy(organizationId));
    } catch (error) {
      toast({ description: errorMessage(error), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section title={twoFactorSettingsTexts.title} description={twoFactorSettingsTexts.description}>
      {problem ? (
        <p className="alert" role="alert">
          {problem}
        </p>
      ) : null}
      {state ? (
        <>
          <label className="details__check">
            <input
              type="checkbox"
              name="require_two_factor"
              checked={state.require_two_factor}
              disabled={busy}
              onChange={(e) => {
                const required = e.currentTarget.checked;
                void toggle(required);
              }}
            />
            <span>{twoFactorSettingsTexts.require}</span>
          </label>
          <ul className="details__list" aria-label={twoFactorSettingsTexts.members}>
            {state.members.map((member) => (
              <li key={member.user_id} className="details__list-item details__list-item--wrap">
                <span className="details__member">
                  {member.name} <span className="muted">{member.email}</span>{' '}
                  <Badge variant={member.two_factor ? 'success' : 'neutral'}>
                    {member.two_factor ? twoFactorSettingsTexts.on : twoFactorSettingsTexts.off}
                  </Badge>
                </span>
                {member.two_factor ? (
                  <Button
                    variant="secondary"
                    disabled={busy}
                    aria-label={`${twoFactorSettingsTexts.reset}: ${member.email}`}
                    onClick={() => setResetting(member)}
                  >
                    {twoFactorSettingsTexts.reset}
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      ) : problem ? null : (
        <p className="muted">Loading...</p>
      )}
      <ConfirmDialog
        open={resetting !== null}
        title={twoFactorSettingsTexts.resetQuestion(resetting?.email ?? '')}
        description={twoFactorSettingsTexts.resetDescription}
        confirmLabel={twoFactorSettingsTexts.reset}
        destructive
        busy={busy}
        onConfirm={() => void reset()}
        onCancel={() => setResetting(null)}
      />
    </Section>
  );
}

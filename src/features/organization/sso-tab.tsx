import { type FormEvent, useEffect, useState } from 'react';
import { ApiError, errorMessage } from '../../api/client.ts';
import { approveSsoRequest, declineSsoRequest, removeSso, saveSso, ssoSettings } from '../../api/sso.ts';
import { type Organization, type PermissionLevel, permissionLevels } from '../../contract/index.ts';
import { type SsoConnectionRequest, type SsoSettings, ssoDomain } from '../../contract/sso.ts';
import { toast } from '../../state/toasts.ts';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';
import { Section, SelectField, TextAreaField, TextField } from './fields.tsx';

/** Not in the spec (issue #24): the organization's single sign-on. */
export const ssoTexts = {
  saved: 'Single sign-on saved',
  saveFailed: 'Single sign-on was not saved',
  removed: 'Single sign-on removed',
  approved: 'Request approved',
  declined: 'Request declined',
  loading: 'Loading single sign-on...',
} as const;

const levelOptions = permissionLevels.map((l) => ({ value: l, label: l[0]?.toUpperCase() + l.slice(1) }));

type Form = {
  provider_name: string;
  issuer: string;
  client_id: string;
  client_secret: string;
  domains: string;
  default_level: PermissionLevel;
  join_mode: 'join' | 'approve';
  require_sso: boolean;
};

const emptyForm: Form = {
  provider_name: '',
  issuer: '',
  client_id: '',
  client_secret: '',
  domains: '',
  default_level: 'read',
  join_mode: 'join',
  require_sso: false,
};

function formOf(settings: SsoSettings): Form {
  const c = settings.connection;
  if (!c) return emptyForm;
  return { ...c, client_secret: '', domains: c.domains.join('\n') };
}

/**
 * Single sign-on (admins only): the OpenID Connect provider's issuer, client id and secret (the
 * secret is write-only: it is kept and never shown again), the domains it vouches for, what a
 * first sign-in gets, "require single sign-on", and the first sign-ins waiting for approval.
 */
export function SsoTab({ organization }: { organization: Organization }) {
  const [settings, setSettings] = useState<SsoSettings | null>(null);
  const [form, setForm] = useState<Form>(emptyForm);
  const [errors, setErrors] = useState<Partial<Record<keyof Form, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [confirmRemove, setConfirmRemove] = useState(false);

  useEffect(() => {
    let current = true;
    ssoSettings(organization.id)
      .then((s) => {
        if (!current) return;
        setSettings(s);
        setForm(formOf(s));
      })
      .catch((error: unknown) => current && setFailure(errorMessage(error)));
    return () => {
      current = false;
    };
  }, [organization.id]);

  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const domains = form.domains
      .split(/[\s,]+/)
      .map((d) => d.trim().replace(/^@/, ''))
      .filter(Boolean);
    const next: typeof errors = {};
    if (!form.provider_name.trim())
      next.provider_name = 'Enter the provider’s name, as the sign-in button shows it';
    if (!/^https?:\/\/\S+$/.test(form.issuer.trim()))
      next.issuer = 'Enter the provider’s issuer URL (https://...)';
    if (!form.client_id.trim()) next.client_id = 'Enter the client ID';
    if (!settings?.connection && !form.client_secret.trim()) next.client_secret = 'Enter the client secret';
    if (domains.length === 0) next.domains = 'Enter at least one email domain';
    else if (domains.some((d) => !ssoDomain.safeParse(d).success))
      next.domains = 'Enter domains like example.org, one per line';
    setErrors(next);
    if (Object.keys(next).length) return;
    const body: SsoConnectionRequest = {
      provider_name: form.provider_name.trim(),
      issuer: form.issuer.trim(),
      client_id: form.client_id.trim(),
      domains,
      default_level: form.default_level,
      join_mode: form.join_mode,
      require_sso: form.require_sso,
      ...(form.client_secret.trim() ? { client_secret: form.client_secret.trim() } : {}),
    };
    setSaving(true);
    setFailure(null);
    try {
      const saved = await saveSso(organization.id, body);
      setSettings(saved);
      setForm(formOf(saved));
      toast({ title: ssoTexts.saved });
    } catch (error) {
      const message = error instanceof ApiError && error.fromServer ? error.message : errorMessage(error);
      setFailure(message);
      toast({ title: ssoTexts.saveFailed, description: message, variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  };

  const remove = async () => {
    setSaving(true);
    try {
      const s = await removeSso(organization.id);
      setSettings(s);
      setForm(formOf(s));
      setConfirmRemove(false);
      toast({ title: ssoTexts.removed });
    } catch (error) {
      toast({ title: ssoTexts.saveFailed, description: errorMessage(error), variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  };

  if (!settings) {
    return failure ? (
      <p role="alert" className="alert">
        {failure}
      </p>
    ) : (
      <Skeleton label={ssoTexts.loading} lines={4} />
    );
  }

  return (
    <div className="details__stack">
      <Section
        title="Single sign-on"
        description="Let your staff sign in with the accounts your organization already runs (Google Workspace, Microsoft Entra, Okta or any OpenID Connect provider)."
      >
        <p className="muted">
          Register Twofold with your provider as a web application and give it this redirect URI:{' '}
          <code className="sso__uri">{settings.redirect_uri}</code>
        </p>
        <form
          className="details__grid sso__form"
          noValidate
          onSubmit={(e) => void save(e)}
          aria-label="Single sign-on"
        >
          <TextField
            label="Provider name"
            hint="The login page’s button says “Sign in with” this name."
            value={form.provider_name}
            error={errors.provider_name}
            onChange={(v) => set('provider_name', v)}
          />
          <TextField
            label="Issuer URL"
            hint="e.g. https://accounts.google.com"
            value={form.issuer}
            error={errors.issuer}
            onChange={(v) => set('issuer', v)}
          />
          <TextField
            label="Client ID"
            value={form.client_id}
            error={errors.client_id}
            onChange={(v) => set('client_id', v)}
          />
          <TextField
            label="Client secret"
            type="password"
            autoComplete="new-password"
            hint={
              settings.connection
                ? 'A secret is stored and never shown. Leave empty to keep it, or enter a new one.'
                : 'Stored encrypted and never shown again.'
            }
            value={form.client_secret}
            error={errors.client_secret}
            onChange={(v) => set('client_secret', v)}
          />
          <TextAreaField
            label="Email domains"
            hint="One per line. People whose verified email is in these domains sign in through this provider."
            value={form.domains}
            error={errors.domains}
            onChange={(v) => set('domains', v)}
          />
          <SelectField
            label="First sign-in"
            value={form.join_mode}
            options={[
              { value: 'join', label: 'Joins the organization at once' },
              { value: 'approve', label: 'Asks an admin to approve' },
            ]}
            onChange={(v) => set('join_mode', v === 'approve' ? 'approve' : 'join')}
          />
          <SelectField
            label="Level for new people"
            value={form.default_level}
            options={levelOptions}
            onChange={(v) =>
              set('default_level', (permissionLevels.find((l) => l === v) ?? 'read') as PermissionLevel)
            }
          />
          <label className="sso__check">
            <input
              type="checkbox"
              checked={form.require_sso}
              onChange={(e) => set('require_sso', e.currentTarget.checked)}
            />
            <span>
              Require single sign-on for these domains (passwords, sign-in links and passkeys are refused)
            </span>
          </label>
          {failure ? (
            <p role="alert" className="alert sso__wide">
              {failure}
            </p>
          ) : null}
          <div className="details__actions sso__wide">
            <Button type="submit" disabled={saving} part="sso-save">
              {saving ? 'Saving...' : settings.connection ? 'Save single sign-on' : 'Connect provider'}
            </Button>
            {settings.connection ? (
              <Button variant="destructive" onClick={() => setConfirmRemove(true)} disabled={saving}>
                Remove single sign-on
              </Button>
            ) : null}
          </div>
        </form>
      </Section>
      <Section
        title="Waiting for approval"
        description="First sign-ins through your provider that need an admin’s approval."
      >
        {settings.requests.length === 0 ? (
          <p className="muted">No one is waiting.</p>
        ) : (
          <ul className="sso__requests">
            {settings.requests.map((r) => (
              <JoinRequest
                key={r.id}
                request={r}
                defaultLevel={settings.connection?.default_level ?? 'read'}
                onApprove={async (level) => {
                  setSettings(await approveSsoRequest(organization.id, r.id, level));
                  toast({ title: ssoTexts.approved, description: r.email });
                }}
                onDecline={async () => {
                  setSettings(await declineSsoRequest(organization.id, r.id));
                  toast({ title: ssoTexts.declined, description: r.email });
                }}
              />
            ))}
          </ul>
        )}
      </Section>
      <ConfirmDialog
        open={confirmRemove}
        title="Remove single sign-on?"
        description="People of these domains sign in with a password, sign-in link or passkey again. Accounts and their access stay."
        confirmLabel="Remove single sign-on"
        destructive
        busy={saving}
        onConfirm={() => void remove()}
        onCancel={() => setConfirmRemove(false)}
      />
    </div>
  );
}

function JoinRequest({
  request,
  defaultLevel,
  onApprove,
  onDecline,
}: {
  request: SsoSettings['requests'][number];
  defaultLevel: PermissionLevel;
  onApprove: (level: PermissionLevel) => Promise<void>;
  onDecline: () => Promise<void>;
}) {
  const [level, setLevel] = useState<PermissionLevel>(defaultLevel);
  const [busy, setBusy] = useState(false);
  const act = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } catch (error) {
      toast({
        title: 'The request was not changed',
        description: errorMessage(error),
        variant: 'destructive',
      });
      setBusy(false);
    }
  };
  return (
    <li className="sso__request">
      <div className="sso__request-who">
        <strong>{request.name ?? request.email}</strong>
        <span className="muted">{request.email}</span>
      </div>
      <SelectField
        label={`Level for ${request.email}`}
        value={level}
        options={levelOptions}
        onChange={(v) => setLevel((permissionLevels.find((l) => l === v) ?? 'read') as PermissionLevel)}
      />
      <div className="details__actions">
        <Button disabled={busy} onClick={() => void act(() => onApprove(level))}>
          Approve
        </Button>
        <Button variant="secondary" disabled={busy} onClick={() => void act(onDecline)}>
          Decline
        </Button>
      </div>
    </li>
  );
}

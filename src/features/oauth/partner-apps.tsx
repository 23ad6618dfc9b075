import { format } from 'date-fns';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { createPartnerApp, listPartnerApps, rotatePartnerSecret } from '../../api/oauth.ts';
import {
  type OAuthScope,
  oauthScopeNames,
  oauthScopes,
  type PartnerApp,
  PartnerAppInput,
} from '../../contract/oauth.ts';
import { toast } from '../../state/toasts.ts';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { Field, TextAreaField } from '../../ui/field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { fieldErrors } from '../common.ts';

type Shown = { name: string; clientId: string; secret: string; webhookSecret?: string | undefined };

/**
 * Partner apps (issue #25), for super users, on the Integrations screen: register an OAuth client
 * (name, logo, website, exact redirect URIs, the scopes it may ask for, its webhook), see its
 * client id, and its secret once; rotate the secret (the old one works 7 more days).
 */
export function PartnerAppsCard() {
  const [open, setOpen] = useState(false);
  return (
    <section className="integrations__card" part="card" aria-labelledby="partner-apps-title">
      <h2 id="partner-apps-title">Partner apps</h2>
      <p>
        Platforms that connect to nonprofits through OAuth 2.0: a nonprofit's admin allows one on the consent
        screen, and it then calls the API for that organization with the scopes allowed. Super users only.
      </p>
      <div className="integrations__actions">
        <Button onClick={() => setOpen(true)}>Manage partner apps</Button>
      </div>
      <Dialog open={open} onClose={() => setOpen(false)} title="Partner apps">
        {open ? <PartnerApps /> : null}
      </Dialog>
    </section>
  );
}

function PartnerApps() {
  const [apps, setApps] = useState<PartnerApp[] | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const [rotating, setRotating] = useState<PartnerApp | null>(null);

  useEffect(() => {
    let live = true;
    listPartnerApps().then(
      (list) => live && setApps(list),
      (e: unknown) => live && toast({ title: 'Error', description: errorMessage(e), variant: 'destructive' }),
    );
    return () => {
      live = false;
    };
  }, []);

  const rotate = async (app: PartnerApp) => {
    setRotating(null);
    try {
      const answer = await rotatePartnerSecret(app.id);
      setApps((list) => (list ?? []).map((a) => (a.id === app.id ? answer.app : a)));
      setShown({ name: app.name, clientId: app.client_id, secret: answer.client_secret });
    } catch (e) {
      toast({ title: 'Error', description: errorMessage(e), variant: 'destructive' });
    }
  };

  return (
    <div className="partner-apps">
      {shown ? (
        <div className="partner-apps__secret" role="status">
          <p>
            <strong>Copy the secret of {shown.name} now.</strong> It will not be shown again.
          </p>
          <p>
            Client id: <code data-testid="client-id">{shown.clientId}</code>
          </p>
          <p>
            Client secret: <code data-testid="client-secret">{shown.secret}</code>
          </p>
          {shown.webhookSecret ? (
            <p>
              Webhook signing secret: <code data-testid="webhook-secret">{shown.webhookSecret}</code>
            </p>
          ) : null}
        </div>
      ) : null}
      <RegisterForm
        onCreated={(app, secret, webhookSecret) => {
          setApps((list) => [...(list ?? []), app]);
          setShown({ name: app.name, clientId: app.client_id, secret, webhookSecret });
        }}
      />
      <h3>Registered apps</h3>
      {apps === null ? (
        <Spinner label="Loading partner apps..." />
      ) : apps.length === 0 ? (
        <p className="muted">No partner apps yet.</p>
      ) : (
        <ul className="partner-apps__list">
          {apps.map((app) => (
            <li key={app.id} className="partner-apps__row">
              <h4>{app.name}</h4>
              <p>
                Client id: <code>{app.client_id}</code>
              </p>
              <p>Redirect URIs: {app.redirect_uris.join(', ')}</p>
              <p>Scopes: {app.scopes.join(', ')}</p>
              {app.webhook_url ? <p>Webhook: {app.webhook_url}</p> : null}
              <p>
                Secrets:{' '}
                {app.secrets
                  .map(
                    (s) =>
                      `${s.prefix}… ${s.expires_at ? `(until ${format(new Date(s.expires_at), 'MMM d, yyyy')})` : '(current)'}`,
                  )
                  .join(', ')}
              </p>
              <Button variant="secondary" onClick={() => setRotating(app)}>
                Rotate secret
              </Button>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={rotating !== null}
        title={`Rotate the secret of ${rotating?.name ?? 'this app'}?`}
        description="A new secret is made and shown once; the current one keeps working for 7 days."
        confirmLabel="Rotate secret"
        onConfirm={() => {
          if (rotating) void rotate(rotating);
        }}
        onCancel={() => setRotating(null)}
      />
    </div>
  );
}

const blank = { name: '', logo_url: '', website: '', redirect_uris: '', webhook_url: '' };

function RegisterForm({
  onCreated,
}: {
  onCreated: (app: PartnerApp, secret: string, webhookSecret: string | undefined) => void;
}) {
  const [values, setValues] = useState(blank);
  const [scopes, setScopes] = useState<OAuthScope[]>(['matches:read', 'matches:write']);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const scopesId = useId();
  const set = (key: keyof typeof blank) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((v) => ({ ...v, [key]: value }));
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = PartnerAppInput.safeParse({
      ...values,
      redirect_uris: values.redirect_uris
        .split(/\s+/)
        .map((s) => s.trim())
        .filter(Boolean),
      scopes,
    });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const answer = await createPartnerApp(parsed.data);
      onCreated(answer.app, answer.client_secret, answer.webhook_secret);
      setValues(blank);
      toast({ description: `${answer.app.name} registered` });
    } catch (e) {
      toast({ title: 'Error', description: errorMessage(e), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="partner-apps__form" noValidate onSubmit={submit} aria-label="Register a partner app">
      <h3>Register a partner app</h3>
      <Field label="Name" name="name" value={values.name} error={errors.name} onChange={set('name')} />
      <Field
        label="Website"
        name="website"
        type="url"
        value={values.website}
        error={errors.website}
        onChange={set('website')}
      />
      <Field
        label="Logo URL (optional)"
        name="logo_url"
        type="url"
        value={values.logo_url}
        error={errors.logo_url}
        onChange={set('logo_url')}
      />
      <TextAreaField
        label="Redirect URIs (one per line)"
        name="redirect_uris"
        rows={3}
        hint="Exact match; https only, except on localhost."
        value={values.redirect_uris}
        error={errors.redirect_uris}
        onChange={set('redirect_uris')}
      />
      <fieldset className="partner-apps__scopes" aria-describedby={errors.scopes ? scopesId : undefined}>
        <legend>Scopes it may ask for</legend>
        {oauthScopeNames.map((scope) => (
          <label key={scope} className="partner-apps__scope">
            <input
              type="checkbox"
              checked={scopes.includes(scope)}
              onChange={(e) => {
                const checked = e.target.checked;
                setScopes((list) => (checked ? [...list, scope] : list.filter((s) => s !== scope)));
              }}
            />
            <span>
              {oauthScopes[scope]} <code>{scope}</code>
            </span>
          </label>
        ))}
        {errors.scopes ? (
          <p id={scopesId} className="field__error">
            {errors.scopes}
          </p>
        ) : null}
      </fieldset>
      <Field
        label="Webhook URL (optional)"
        name="webhook_url"
        type="url"
        hint="Receives the events of every organization that allows 'manage webhooks', signed with its own secret."
        value={values.webhook_url}
        error={errors.webhook_url}
        onChange={set('webhook_url')}
      />
      <div>
        <Button type="submit" disabled={busy}>
          Register app
        </Button>
      </div>
    </form>
  );
}

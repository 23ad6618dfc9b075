import { useSignals } from '@preact/signals-react/runtime';
import { format } from 'date-fns';
import { useEffect, useState } from 'react';
import { createApiKey, deleteApiKey, listApiKeys, renameApiKey } from '../../api/integrations.ts';
import { can } from '../../contract/index.ts';
import { type ApiKey, apiKeyNameMax, apiKeyNameSaveDelayMs } from '../../contract/integrations.ts';
import { currentLevel } from '../../state/organization.ts';
import { isSuperUser } from '../../state/session.ts';
import { toast } from '../../state/toasts.ts';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { OrganizationPage } from '../../ui/organization-page.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { PartnerAppsCard } from '../oauth/partner-apps.tsx';
import { ConnectedApps } from './connected-apps.tsx';
import { copyText, useDebouncedSave } from './debounced.ts';
import { WidgetGuide } from './widget-guide.tsx';

/** spec (part 1, section 8), word for word. */
export const integrationsTexts = {
  heading: 'Integrations',
  created: 'New API key created successfully',
  updated: 'API key updated successfully',
  copied: 'Copied to clipboard',
  fetchFailed: 'Failed to fetch API keys',
  createFailed: 'Failed to create new API key',
  updateFailed: 'Failed to update API key',
  noOrganization: 'You must select an organization to use this section.',
  adminsOnly: 'Only admins of this organization can manage API keys.',
} as const;

const error = (description: string) => toast({ title: 'Error', description, variant: 'destructive' });

export interface IntegrationsProps {
  /** 'cards' (default, /portal/integrations) or 'widget' (the Widget guide, /portal/integrations/widget). */
  view?: string;
}

/** The Integrations screen (spec part 1, section 2): the Widget, API, Webhooks and fundraising platform cards. */
export function Integrations({ view }: IntegrationsProps) {
  useSignals();
  if (view === 'widget')
    return (
      <OrganizationPage title="Widget guide" className="integrations">
        {(organization) => (
          <>
            <p>
              <a href="/portal/integrations">Back to Integrations</a>
            </p>
            <WidgetGuide organizationId={organization.id} />
          </>
        )}
      </OrganizationPage>
    );
  return (
    <>
      <OrganizationPage title={integrationsTexts.heading} className="integrations">
        {(organization) => (
          <div className="integrations__cards">
            <WidgetCard />
            <article className="integrations__card" part="card" aria-labelledby="api-card-title">
              <h2 id="api-card-title">API</h2>
              <p>
                Send match requests from your donation platform or CRM, and read their status, with an API
                key.
              </p>
              <div className="integrations__actions">
                <a className="btn btn--secondary" href="/api/v1/docs" target="_blank" rel="noopener">
                  API documentation
                </a>
                <ManageApiKeys
                  key={organization.id}
                  organizationId={organization.id}
                  admin={can(currentLevel.value ?? 'none', 'keys.manage')}
                />
              </div>
            </article>
            <article className="integrations__card" part="card" aria-labelledby="webhooks-card-title">
              <h2 id="webhooks-card-title">Webhooks</h2>
              <p>
                Have your own systems told when a match’s status changes, a donor opens an email, or a
                reminder goes out.
              </p>
              <div className="integrations__actions">
                <a className="btn btn--secondary" href="/portal/webhooks">
                  Manage webhooks
                </a>
              </div>
            </article>
            <article className="integrations__card" part="card" aria-labelledby="platform-card-title">
              <h2 id="platform-card-title">Fundraising platform</h2>
              <p>
                Your fundraising platform can send each gift here as it happens: it posts the gift to
                <code> POST /api/v1/matches </code>
                with one of your API keys and an Idempotency-Key, and Twofold contacts the donor about their
                employer’s match.
              </p>
              <div className="integrations__actions">
                <a
                  className="btn btn--secondary"
                  href="/api/v1/docs#/matches/post_api_v1_matches"
                  target="_blank"
                  rel="noopener"
                >
                  Platform documentation
                </a>
              </div>
            </article>
            {can(currentLevel.value ?? 'none', 'keys.manage') ? (
              <ConnectedApps key={organization.id} organizationId={organization.id} />
            ) : null}
          </div>
        )}
      </OrganizationPage>
      {/* Not an organization's: super users manage partner apps with or without one chosen. */}
      {isSuperUser.value ? (
        <div className="integrations__cards integrations__partner-apps">
          <PartnerAppsCard />
        </div>
      ) : null}
    </>
  );
}

/** The Widget card: the guide to embedding the public elements on the organization's own site. */
function WidgetCard() {
  return (
    <article className="integrations__card" part="card" aria-labelledby="widget-card-title">
      <h2 id="widget-card-title">Widget</h2>
      <p>
        Put the match request form, the FAQ, the donor’s edit page or the registration form on your own
        website: pick one, set it up, see it live and copy the snippet.
      </p>
      <div className="integrations__actions">
        <a className="btn btn--secondary" href="/portal/integrations/widget">
          Widget guide
        </a>
      </div>
    </article>
  );
}

/** The Manage API Keys button and dialog: create (the whole key shown once), rename, delete. */
function ManageApiKeys({ organizationId, admin }: { organizationId: number; admin: boolean }) {
  const [open, setOpen] = useState(false);
  const [keys, setKeys] = useState<ApiKey[] | null>(null);
  const [fresh, setFresh] = useState<{ id: number; secret: string } | null>(null);
  const [busy, setBusy] = useState(false);
  // The key whose Delete was pressed: the confirmation is open while this is set.
  const [deleting, setDeleting] = useState<ApiKey | null>(null);

  useEffect(() => {
    if (!open || !admin) return;
    let live = true;
    listApiKeys(organizationId)
      .then((list) => {
        if (live) setKeys(list);
      })
      .catch(() => {
        if (!live) return;
        setKeys([]);
        error(integrationsTexts.fetchFailed);
      });
    return () => {
      live = false;
    };
  }, [open, admin, organizationId]);

  const create = async () => {
    setBusy(true);
    try {
      const key = await createApiKey(organizationId);
      setFresh({ id: key.id, secret: key.secret });
      setKeys((list) => [...(list ?? []), key]);
      toast({ description: integrationsTexts.created });
    } catch {
      error(integrationsTexts.createFailed);
    } finally {
      setBusy(false);
    }
  };

  const remove = async (key: ApiKey) => {
    setDeleting(null);
    try {
      await deleteApiKey(organizationId, key.id);
      setKeys((list) => (list ?? []).filter((k) => k.id !== key.id));
      if (fresh?.id === key.id) setFresh(null);
      toast({ description: integrationsTexts.updated });
    } catch {
      error(integrationsTexts.updateFailed);
    }
  };

  return (
    <>
      <Button onClick={() => setOpen(true)}>Manage API Keys</Button>
      <Dialog
        open={open}
        onClose={() => {
          setOpen(false);
          setFresh(null);
        }}
        title="Manage API Keys"
        description="Keys let your other systems use the Twofold API for this organization."
      >
        {!admin ? (
          <p className="muted">{integrationsTexts.adminsOnly}</p>
        ) : keys === null ? (
          <Spinner label="Loading API keys..." />
        ) : (
          <div className="keys">
            {fresh ? (
              <div className="keys__fresh" role="status">
                <p>
                  <strong>Copy this key now.</strong> It will not be shown again.
                </p>
                <code className="keys__secret" data-testid="new-api-key">
                  {fresh.secret}
                </code>
                <Button
                  variant="secondary"
                  onClick={async () => {
                    if (await copyText(fresh.secret)) toast({ description: integrationsTexts.copied });
                  }}
                >
                  Copy key
                </Button>
              </div>
            ) : null}
            {keys.length === 0 ? <p className="muted">No API keys yet.</p> : null}
            <ul className="keys__list">
              {keys.map((key) => (
                <KeyRow
                  key={key.id}
                  organizationId={organizationId}
                  apiKey={key}
                  onDelete={() => setDeleting(key)}
                />
              ))}
            </ul>
            <div className="integrations__actions">
              <Button onClick={() => void create()} disabled={busy}>
                Create new key
              </Button>
            </div>
          </div>
        )}
      </Dialog>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this API key?"
        description={
          deleting
            ? `The key ${deleting.key}… stops working at once for every integration using it.`
            : undefined
        }
        confirmLabel="Delete API key"
        destructive
        onConfirm={() => {
          if (deleting) void remove(deleting);
        }}
        onCancel={() => setDeleting(null)}
      />
    </>
  );
}

function KeyRow({
  organizationId,
  apiKey,
  onDelete,
}: {
  organizationId: number;
  apiKey: ApiKey;
  onDelete: () => void;
}) {
  const [name, setName] = useState(apiKey.name);
  useDebouncedSave(
    name,
    apiKeyNameSaveDelayMs,
    async (value) => {
      try {
        await renameApiKey(organizationId, apiKey.id, value);
        toast({ description: integrationsTexts.updated });
      } catch {
        error(integrationsTexts.updateFailed);
      }
    },
    name !== apiKey.name,
  );
  const inputId = `key-name-${apiKey.id}`;
  return (
    <li className="keys__row">
      <div className="field">
        <label className="field__label" htmlFor={inputId}>
          Name of key {apiKey.key}…
        </label>
        <input
          id={inputId}
          className="field__input"
          value={name}
          maxLength={apiKeyNameMax}
          placeholder="e.g. Donation platform"
          onChange={(event) => setName(event.target.value)}
        />
      </div>
      <p className="keys__meta">
        <code>{apiKey.key}…</code>{' '}
        {apiKey.last_used_at
          ? `Last used ${format(new Date(apiKey.last_used_at), 'MMM d, yyyy h:mm a')} from ${apiKey.last_ip_address ?? 'unknown'}`
          : 'Never used'}
      </p>
      <Button variant="destructive" onClick={onDelete} aria-label={`Delete key ${apiKey.key}`}>
        Delete
      </Button>
    </li>
  );
}

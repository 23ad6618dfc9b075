import { format } from 'date-fns';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { disconnectApp, listConnectedApps } from '../../api/oauth.ts';
import { type ConnectedApp, isOAuthScope, oauthScopes } from '../../contract/oauth.ts';
import { toast } from '../../state/toasts.ts';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { Spinner } from '../../ui/spinner.tsx';

const when = (iso: string) => format(new Date(iso), 'MMM d, yyyy h:mm a');

/**
 * Connected apps (issue #25): the partner apps this organization's admins allowed, with what
 * they may do, since when and when last used; Disconnect revokes their tokens at once.
 */
export function ConnectedApps({ organizationId }: { organizationId: number }) {
  const [apps, setApps] = useState<ConnectedApp[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [leaving, setLeaving] = useState<ConnectedApp | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    listConnectedApps(organizationId).then(
      (list) => live && setApps(list),
      (e: unknown) => live && setFailure(errorMessage(e)),
    );
    return () => {
      live = false;
    };
  }, [organizationId]);

  const disconnect = async (app: ConnectedApp) => {
    setBusy(true);
    try {
      await disconnectApp(organizationId, app.id);
      setApps((list) => (list ?? []).filter((a) => a.id !== app.id));
      toast({ description: `${app.name} disconnected` });
    } catch (e) {
      toast({ title: 'Error', description: errorMessage(e), variant: 'destructive' });
    } finally {
      setBusy(false);
      setLeaving(null);
    }
  };

  return (
    <section className="integrations__card connected-apps" part="card" aria-labelledby="connected-apps-title">
      <h2 id="connected-apps-title">Connected apps</h2>
      <p>Partner platforms you allowed to work with this organization through Twofold.</p>
      {failure ? (
        <p role="alert">{failure}</p>
      ) : apps === null ? (
        <Spinner label="Loading connected apps..." />
      ) : apps.length === 0 ? (
        <p className="muted">No apps are connected.</p>
      ) : (
        <ul className="connected-apps__list">
          {apps.map((app) => (
            <li key={app.id} className="connected-apps__row">
              <div className="connected-apps__head">
                {app.logo_url ? <img className="connected-apps__logo" src={app.logo_url} alt="" /> : null}
                <h3>
                  <a href={app.website} target="_blank" rel="noopener noreferrer">
                    {app.name}
                  </a>
                </h3>
              </div>
              <ul className="connected-apps__scopes" aria-label={`What ${app.name} may do`}>
                {app.scopes.map((scope) => (
                  <li key={scope}>{isOAuthScope(scope) ? oauthScopes[scope] : scope}</li>
                ))}
              </ul>
              <p className="muted">
                Connected {when(app.connected_at)} ·{' '}
                {app.last_used_at ? `Last used ${when(app.last_used_at)}` : 'Never used'}
              </p>
              <Button
                variant="destructive"
                onClick={() => setLeaving(app)}
                aria-label={`Disconnect ${app.name}`}
              >
                Disconnect
              </Button>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={leaving !== null}
        title={`Disconnect ${leaving?.name ?? 'this app'}?`}
        description="It stops working with your organization at once: its access is revoked."
        confirmLabel="Disconnect app"
        destructive
        busy={busy}
        onConfirm={() => {
          if (leaving) void disconnect(leaving);
        }}
        onCancel={() => setLeaving(null)}
      />
    </section>
  );
}

import { useSignals } from '@preact/signals-react/runtime';
import { format } from 'date-fns';
import { useEffect, useState } from 'react';
import { ApiError } from '../../api/client.ts';
import {
  createWebhook,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  redeliver,
  sendTestEvent,
  updateWebhook,
} from '../../api/integrations.ts';
import { can } from '../../contract/index.ts';
import {
  lastCodeHint,
  stripScheme,
  type Webhook,
  type WebhookDelivery,
  type WebhookEventName,
  webhookEventLabels,
  webhookEventNames,
  webhookUpdateDelayMs,
} from '../../contract/integrations.ts';
import {
  currentLevel,
  currentOrganization,
  organizationLoading,
  startOrganization,
} from '../../state/organization.ts';
import { initSession } from '../../state/session.ts';
import { toast } from '../../state/toasts.ts';
import { Badge } from '../../ui/badge.tsx';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { Field, SelectField } from '../../ui/field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { copyText, useDebouncedSave } from '../integrations/debounced.ts';

/** spec (part 1, sections 2 and 8), word for word. */
export const webhooksTexts = {
  heading: 'Webhooks',
  noOrganization: 'You must select an organization to use this section.',
  loadFailed: 'Failed to load webhooks',
  createFailed: 'Failed to create webhook',
  updateFailed: 'Failed to update webhook',
  deleteFailed: 'Failed to delete webhook',
  created: 'Webhook created',
  updated: 'Webhook updated',
  deleted: 'Webhook deleted',
  // spec's success toasts list both 'Copied to clipboard' (the API key's, beside the other API key
  // toasts) and 'Copied!': the other copy buttons (this secret, the widget snippet) say the short one.
  copied: 'Copied!',
  adminsOnly: 'Only admins of this organization can manage webhooks.',
} as const;

const error = (description: string) => toast({ title: 'Error', description, variant: 'destructive' });

/** The Webhooks screen (spec part 1, section 2): the organization's webhooks, each saved as it is edited. */
export function Webhooks() {
  useSignals();
  useEffect(() => {
    void initSession().then(() => startOrganization());
  }, []);
  const organization = currentOrganization.value;
  return (
    <section className="webhooks" aria-labelledby="webhooks-title" part="base">
      <h1 id="webhooks-title" className="webhooks__title">
        {webhooksTexts.heading}
      </h1>
      {!organization ? (
        organizationLoading.value ? (
          <Spinner label="Loading organization..." />
        ) : (
          <p className="muted">{webhooksTexts.noOrganization}</p>
        )
      ) : can(currentLevel.value ?? 'none', 'webhooks.manage') ? (
        <WebhookList key={organization.id} organizationId={organization.id} />
      ) : (
        <p className="muted">{webhooksTexts.adminsOnly}</p>
      )}
    </section>
  );
}

function WebhookList({ organizationId }: { organizationId: number }) {
  const [hooks, setHooks] = useState<Webhook[] | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    listWebhooks(organizationId)
      .then((list) => {
        if (live) setHooks(list);
      })
      .catch(() => {
        if (!live) return;
        setHooks([]);
        error(webhooksTexts.loadFailed);
      });
    return () => {
      live = false;
    };
  }, [organizationId]);

  const add = async () => {
    setBusy(true);
    try {
      setHooks(await createWebhook(organizationId));
      toast({ description: webhooksTexts.created });
    } catch {
      error(webhooksTexts.createFailed);
    } finally {
      setBusy(false);
    }
  };

  if (hooks === null) return <Spinner label="Loading webhooks..." />;
  return (
    <div className="webhooks__body">
      <p className="muted">
        Each webhook receives a POST of the event’s data with its bearer token, signed the Standard Webhooks
        way (webhook-id, webhook-timestamp and webhook-signature headers) with its signing secret.
      </p>
      {hooks.length === 0 ? <p className="muted">No webhooks yet.</p> : null}
      <ul className="webhooks__list">
        {hooks.map((hook, index) => (
          <WebhookRow key={hook.id} hook={hook} number={index + 1} onRemoved={(list) => setHooks(list)} />
        ))}
      </ul>
      <div className="webhooks__actions">
        <Button onClick={() => void add()} disabled={busy}>
          Add Webhook
        </Button>
      </div>
    </div>
  );
}

type Draft = { url: string; token: string; event: WebhookEventName };

function WebhookRow({
  hook,
  number,
  onRemoved,
}: {
  hook: Webhook;
  number: number;
  onRemoved: (list: Webhook[]) => void;
}) {
  const [draft, setDraft] = useState<Draft>({ url: hook.url, token: hook.token, event: hook.event });
  const [saved, setSaved] = useState<Draft>(draft);
  const [lastCode, setLastCode] = useState(hook.last_code);
  const [problem, setProblem] = useState<string | undefined>();
  const [showLog, setShowLog] = useState(false);
  const [showSecret, setShowSecret] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const changed = draft.url !== saved.url || draft.token !== saved.token || draft.event !== saved.event;

  useDebouncedSave(
    draft,
    webhookUpdateDelayMs,
    async (value) => {
      try {
        const list = await updateWebhook(hook.id, value);
        setSaved(value);
        setProblem(undefined);
        setLastCode(list.find((w) => w.id === hook.id)?.last_code ?? null);
        toast({ description: webhooksTexts.updated });
      } catch (failure) {
        setProblem(failure instanceof ApiError && failure.fromServer ? failure.message : undefined);
        error(webhooksTexts.updateFailed);
      }
    },
    changed,
  );

  const remove = async () => {
    setConfirmingDelete(false);
    try {
      onRemoved(await deleteWebhook(hook.id));
      toast({ description: webhooksTexts.deleted });
    } catch {
      error(webhooksTexts.deleteFailed);
    }
  };

  const test = async () => {
    try {
      const queued = await sendTestEvent(hook.id);
      toast({ description: queued.message });
      setShowLog(true);
    } catch (failure) {
      error(failure instanceof ApiError && failure.fromServer ? failure.message : webhooksTexts.updateFailed);
    }
  };

  return (
    <li className="webhooks__item" aria-labelledby={`webhook-${hook.id}-title`}>
      <div className="webhooks__item-header">
        <h2 id={`webhook-${hook.id}-title`}>Webhook {number}</h2>
        {lastCode !== null ? (
          <span className="webhooks__code" title={lastCodeHint(lastCode)}>
            <Badge variant={lastCode === 200 ? 'neutral' : 'danger'}>{lastCode}</Badge>
            <span className="webhooks__hint">{lastCodeHint(lastCode)}</span>
          </span>
        ) : (
          <span className="muted">Nothing sent yet</span>
        )}
      </div>
      <div className="webhooks__fields">
        <div className="webhooks__url">
          <span className="webhooks__prefix" aria-hidden="true">
            https://
          </span>
          <Field
            label="URL"
            value={draft.url}
            placeholder="hooks.example.org/twofold"
            hint="Without https:// (a pasted one is removed)"
            error={problem}
            onChange={(event) => setDraft({ ...draft, url: stripScheme(event.target.value) })}
          />
        </div>
        <Field
          label="Bearer token"
          value={draft.token}
          hint="Sent in each payload as bearer_token"
          onChange={(event) => setDraft({ ...draft, token: event.target.value })}
        />
        <SelectField
          label="Event"
          value={draft.event}
          options={webhookEventNames.map((name) => ({ value: name, label: webhookEventLabels[name] }))}
          onChange={(event) => setDraft({ ...draft, event: event.target.value as WebhookEventName })}
        />
      </div>
      <div className="webhooks__actions">
        <Button variant="secondary" onClick={() => void test()} disabled={saved.url === '' || changed}>
          Send test event
        </Button>
        <Button variant="secondary" aria-expanded={showLog} onClick={() => setShowLog(!showLog)}>
          {showLog ? 'Hide deliveries' : 'Deliveries'}
        </Button>
        <Button variant="secondary" aria-expanded={showSecret} onClick={() => setShowSecret(!showSecret)}>
          Signing secret
        </Button>
        <Button variant="destructive" onClick={() => setConfirmingDelete(true)}>
          Delete
        </Button>
      </div>
      {showSecret ? (
        <div className="webhooks__secret">
          <code>{hook.secret}</code>
          <Button
            variant="secondary"
            onClick={async () => {
              if (await copyText(hook.secret)) toast({ description: webhooksTexts.copied });
            }}
          >
            Copy
          </Button>
        </div>
      ) : null}
      {showLog ? <DeliveryLog webhookId={hook.id} /> : null}
      <ConfirmDialog
        open={confirmingDelete}
        title={`Delete Webhook ${number}?`}
        description={`Events stop going to ${hook.url}, and deliveries not yet sent are dropped.`}
        confirmLabel="Delete webhook"
        destructive
        onConfirm={() => void remove()}
        onCancel={() => setConfirmingDelete(false)}
      />
    </li>
  );
}

function DeliveryLog({ webhookId }: { webhookId: number }) {
  const [deliveries, setDeliveries] = useState<WebhookDelivery[] | null>(null);
  const [round, setRound] = useState(0);
  useEffect(() => {
    // `round` restarts the polling (and loads at once) after a Redeliver.
    void round;
    let live = true;
    const load = () =>
      listDeliveries(webhookId)
        .then((list) => {
          if (live) setDeliveries(list);
        })
        .catch(() => {
          if (live) setDeliveries([]);
        });
    void load();
    // Deliveries go out in the background: look again every few seconds while the log is open.
    const timer = setInterval(() => void load(), 3000);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [webhookId, round]);

  if (deliveries === null) return <Spinner label="Loading deliveries..." />;
  if (deliveries.length === 0) return <p className="muted">No deliveries yet.</p>;
  return (
    <div className="webhooks__log">
      <table className="webhooks__table">
        <caption className="webhooks__caption">Recent deliveries</caption>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((delivery) => {
            // The server lists attempts newest first; read in the order they happened, so a
            // failure before a success is seen (issue 30: only the last attempt was shown).
            const attempts = [...delivery.log].reverse();
            return (
              <tr key={delivery.id}>
                <td>
                  {delivery.event}
                  {delivery.donation_id ? ` · match ${delivery.donation_id}` : ''}
                </td>
                <td>
                  {delivery.status}
                  {delivery.attempts > 1 ? ` (${delivery.attempts} attempts)` : ''}
                </td>
                <td>
                  {attempts.length === 0 ? (
                    'waiting'
                  ) : (
                    <ol className="webhooks__attempts" aria-label={`Attempts of delivery ${delivery.id}`}>
                      {attempts.map((attempt, i) => (
                        <li
                          key={attempt.at}
                          className={
                            attempt.ok ? 'webhooks__attempt' : 'webhooks__attempt webhooks__attempt--failed'
                          }
                        >
                          <span>
                            {`Attempt ${i + 1}: ${format(new Date(attempt.at), 'MMM d, h:mm:ss a')} · ${attempt.status_code ?? 'no answer'} · ${attempt.duration_ms} ms · `}
                            <strong>{attempt.ok ? 'delivered' : `failed: ${attempt.error ?? ''}`}</strong>
                          </span>
                          {attempt.response && attempt.response !== attempt.error ? (
                            <span className="webhooks__response">{attempt.response.slice(0, 120)}</span>
                          ) : null}
                        </li>
                      ))}
                    </ol>
                  )}
                </td>
                <td>
                  <Button
                    variant="link"
                    onClick={async () => {
                      try {
                        const queued = await redeliver(webhookId, delivery.id);
                        toast({ description: queued.message });
                        setRound((n) => n + 1);
                      } catch {
                        error(webhooksTexts.updateFailed);
                      }
                    }}
                  >
                    Redeliver
                  </Button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

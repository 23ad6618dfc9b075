import { useSignals } from '@preact/signals-react/runtime';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { listTemplates, previewTemplate, saveTemplate } from '../../api/templates.ts';
import { can } from '../../contract/access.ts';
import {
  type EmailTemplate,
  maxTemplateVersions,
  percent,
  reminderTemplateIds,
  type TemplateStage,
  type TemplateTextField,
  type TemplateTexts,
  templateCards,
  templateTexts,
  templateVariables,
  type VersionComparison,
} from '../../contract/email-templates.ts';
import {
  currentLevel,
  currentOrganization,
  organizationLoading,
  startOrganization,
} from '../../state/organization.ts';
import { initSession } from '../../state/session.ts';
import { toast } from '../../state/toasts.ts';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { Tabs } from '../../ui/tabs.tsx';
import { NotifeesSection } from '../organization/notifees-section.tsx';
import { SendingDomainSection } from './sending-domain-section.tsx';
import { fieldLabels, fieldsOfStage, insertVariable, singleLine, textsOf } from './template-editor.ts';

export interface TemplateEditorProps {
  /** The template type (status id); absent or 0: the ten template cards. */
  template?: string;
}

const error = (description: string) => toast({ title: 'Error', description, variant: 'destructive' });

/**
 * Email template selection and customization (spec section 2): without a template, the ten cards
 * (each goes to /portal/email-customization?template={status_id}); with one, its versions, tabs,
 * fields, stats, preview and live toggle (section 4).
 */
export function TemplateEditor({ template }: TemplateEditorProps) {
  useSignals();
  useEffect(() => {
    void initSession().then(() => startOrganization());
  }, []);
  const statusId = Number(template ?? 0);
  const organization = currentOrganization.value;
  if (!organization) {
    if (organizationLoading.value) return <Spinner label="Loading organization..." />;
    return <p className="templates__empty">{templateTexts.noOrganization}</p>;
  }
  if (!statusId)
    return (
      <>
        <TemplateCards />
        {/* The notification emails (spec section 8's toasts) stay on Organization → Settings and
            work here too: they receive the weekly email of what needs the nonprofit's action. */}
        <div className="templates__notifees">
          <SendingDomainSection
            key={`sender-${organization.id}`}
            organizationId={organization.id}
            admin={can(currentLevel.value ?? 'none', 'settings.manage')}
          />
        </div>
        <div className="templates__notifees">
          <NotifeesSection
            key={organization.id}
            organizationId={organization.id}
            admin={can(currentLevel.value ?? 'none', 'settings.manage')}
          />
        </div>
      </>
    );
  return (
    <Editor
      key={`${organization.id}:${statusId}`}
      orgId={organization.id}
      statusId={statusId}
      canEdit={can(currentLevel.value ?? 'none', 'templates.change')}
    />
  );
}

function TemplateCards() {
  return (
    <section className="templates" aria-labelledby="templates-title">
      <h1 id="templates-title" className="templates__title">
        Email Templates
      </h1>
      <p className="templates__muted">Choose the email you want to customise.</p>
      <ul className="templates__cards">
        {templateCards.map((card) => (
          <li key={card.status_id}>
            <a
              className="templates__card"
              part="card"
              href={`/portal/email-customization?template=${card.status_id}`}
            >
              <span className="templates__card-name">{card.name}</span>
              <span className="templates__muted">Template {card.status_id}</span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

type EditorProps = { orgId: number; statusId: number; canEdit: boolean };

function Editor({ orgId, statusId, canEdit }: EditorProps) {
  const [versions, setVersions] = useState<EmailTemplate[] | null>(null);
  const [comparisons, setComparisons] = useState<VersionComparison[]>([]);
  const [index, setIndex] = useState(0);
  const [draft, setDraft] = useState<TemplateTexts | null>(null);
  const [stage, setStage] = useState<TemplateStage>(1);
  const [busy, setBusy] = useState(false);
  const lastField = useRef<{ field: TemplateTextField; el: HTMLInputElement | HTMLTextAreaElement } | null>(
    null,
  );
  const card = templateCards.find((c) => c.status_id === statusId);
  const ids = useId();

  const load = useCallback(
    async (select?: number) => {
      try {
        const res = await listTemplates(orgId, statusId);
        setVersions(res.templates);
        setComparisons(res.comparisons);
        const at =
          select === undefined
            ? 0
            : Math.max(
                0,
                res.templates.findIndex((t) => t.id === select),
              );
        setIndex(at);
        const chosen = res.templates[at];
        setDraft(chosen ? textsOf(chosen) : null);
      } catch (e) {
        setVersions([]);
        error(`${templateTexts.loadFailed}: ${errorMessage(e)}`);
      }
    },
    [orgId, statusId],
  );
  useEffect(() => {
    void load();
  }, [load]);

  if (versions === null) return <Spinner label="Loading email templates..." />;
  const selected = versions[index];
  if (!selected || !draft)
    return (
      <p role="alert" className="templates__empty">
        {templateTexts.loadFailed}
      </p>
    );
  // spec: "The default version's fields are read-only when the selected version index is 0."
  const readOnly = index === 0 || !canEdit;
  const body = (change: Partial<EmailTemplate> = {}) => ({
    ...draft,
    live: selected.live,
    status_id: statusId,
    organization_id: orgId,
    ...change,
  });

  const choose = (i: number) => {
    const v = versions[i];
    if (!v) return;
    setIndex(i);
    setDraft(textsOf(v));
  };

  const createVersion = async () => {
    setBusy(true);
    try {
      // spec: a new version is a copy "with live false", posted to template/0.
      const made = await saveTemplate(orgId, 0, { ...body(), live: false });
      await load(made.id);
      toast({ title: templateTexts.created });
    } catch (e) {
      error(`${templateTexts.createFailed}: ${errorMessage(e)}`);
    } finally {
      setBusy(false);
    }
  };

  const toggleLive = async () => {
    setBusy(true);
    try {
      const saved = await saveTemplate(orgId, selected.id, {
        ...body(textsOf(selected)),
        live: !selected.live,
      });
      await load(saved.id);
      toast({ title: saved.live ? templateTexts.enabled : templateTexts.disabled });
    } catch (e) {
      error(`${templateTexts.updateFailed}: ${errorMessage(e)}`);
    } finally {
      setBusy(false);
    }
  };

  const save = async () => {
    setBusy(true);
    try {
      const saved = await saveTemplate(orgId, selected.id, body());
      await load(saved.id);
      toast({ title: templateTexts.saved });
    } catch (e) {
      error(`${templateTexts.saveFailed}: ${errorMessage(e)}`);
    } finally {
      setBusy(false);
    }
  };

  const preview = async () => {
    // Opened before the request, so the browser treats it as the click's own window.
    const win = window.open('', '_blank');
    try {
      const html = await previewTemplate(orgId, { ...draft, status_id: statusId, stage });
      const url = URL.createObjectURL(new Blob([await html.text()], { type: 'text/html' }));
      if (win) win.location.href = url;
      else window.open(url, '_blank');
    } catch (e) {
      win?.close();
      error(`${templateTexts.previewFailed}: ${errorMessage(e)}`);
    }
  };

  const insert = (name: string) => {
    const target = lastField.current;
    if (!target || readOnly || !name) return;
    const { value, caret } = insertVariable(
      draft[target.field],
      name,
      target.el.selectionStart,
      target.el.selectionEnd,
    );
    setDraft({ ...draft, [target.field]: value });
    requestAnimationFrame(() => {
      target.el.focus();
      target.el.setSelectionRange(caret, caret);
    });
  };

  const fields = (s: TemplateStage) => (
    <div className="templates__fields">
      {fieldsOfStage(s).map((field) => {
        const id = `${ids}-${field}`;
        const common = {
          id,
          value: draft[field],
          readOnly,
          className: 'field__input',
          onFocus: (e: { currentTarget: HTMLInputElement | HTMLTextAreaElement }) => {
            lastField.current = { field, el: e.currentTarget };
          },
          onChange: (e: { currentTarget: HTMLInputElement | HTMLTextAreaElement }) =>
            setDraft({ ...draft, [field]: e.currentTarget.value }),
        };
        return (
          <div className="field" key={field}>
            <label className="field__label" htmlFor={id}>
              {fieldLabels[field]}
            </label>
            {singleLine(field) ? (
              <input type="text" {...common} />
            ) : (
              <textarea rows={3} {...common} className="field__input field__input--textarea" />
            )}
          </div>
        );
      })}
    </div>
  );

  const hasReminders = reminderTemplateIds.has(statusId);
  const labelOf = (id: number) => versions.find((v) => v.id === id)?.label ?? String(id);

  return (
    <section className="templates" aria-labelledby={`${ids}-title`}>
      <header className="templates__header">
        <h1 id={`${ids}-title`} className="templates__title">
          {card?.name ?? `Template ${statusId}`}
        </h1>
        <a className="templates__back" href="/portal/email-templates">
          All templates
        </a>
      </header>

      <div className="templates__toolbar">
        <div role="radiogroup" aria-label="Version" className="templates__versions">
          {versions.map((v, i) => (
            // biome-ignore lint/a11y/useSemanticElements: a row of toggle buttons acting as a radio group
            <button
              key={v.id}
              type="button"
              role="radio"
              aria-checked={i === index}
              className={`templates__version${i === index ? ' templates__version--selected' : ''}`}
              onClick={() => choose(i)}
            >
              {v.label}
              {v.live ? (
                <>
                  <span className="templates__live-dot" aria-hidden="true" />
                  <span className="templates__sr">(live)</span>
                </>
              ) : null}
            </button>
          ))}
          {/* spec: "the + button is hidden once there are 5" */}
          {canEdit && versions.length < maxTemplateVersions ? (
            <button
              type="button"
              className="templates__version"
              aria-label="New version"
              disabled={busy}
              onClick={() => void createVersion()}
            >
              +
            </button>
          ) : null}
        </div>
        <label className="templates__live">
          <input
            type="checkbox"
            role="switch"
            aria-checked={selected.live}
            checked={selected.live}
            disabled={index === 0 || !canEdit || busy}
            onChange={() => void toggleLive()}
          />
          Live
        </label>
        <div className="templates__insert">
          <label className="field__label" htmlFor={`${ids}-insert`}>
            Insert variable
          </label>
          <select
            id={`${ids}-insert`}
            className="field__input"
            value=""
            disabled={readOnly}
            onChange={(e) => insert(e.currentTarget.value)}
          >
            <option value="">Choose…</option>
            {templateVariables.map((v) => (
              <option key={v} value={v}>
                {v}
              </option>
            ))}
          </select>
        </div>
      </div>

      {index === 0 ? (
        <p className="templates__muted">
          The Default version is read-only. Create a version with + to customise it.
        </p>
      ) : null}

      {hasReminders ? (
        <Tabs
          label="Email"
          selected={String(stage)}
          onSelect={(id) => setStage(Number(id) as TemplateStage)}
          tabs={[
            { id: '1', label: 'Initial Email', content: fields(1) },
            { id: '2', label: '1st Reminder', content: fields(2) },
            { id: '3', label: '2nd Reminder', content: fields(3) },
          ]}
        />
      ) : (
        fields(1)
      )}

      <div className="templates__actions">
        {readOnly ? null : (
          <Button type="button" disabled={busy} onClick={() => void save()}>
            Save
          </Button>
        )}
        <Button type="button" variant="secondary" onClick={() => void preview()}>
          Preview
        </Button>
      </div>

      <Stats template={selected} hasReminders={hasReminders} />
      {comparisons.length > 0 ? (
        <section className="templates__stats" aria-label="Version comparison">
          <h2 className="templates__subtitle">Confirm rate: versions compared</h2>
          <ul>
            {comparisons.map((c) => (
              <li key={`${c.a}-${c.b}`}>
                {labelOf(c.a)} vs {labelOf(c.b)}: {c.message}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </section>
  );
}

function Stats({ template, hasReminders }: { template: EmailTemplate; hasReminders: boolean }) {
  const s = template.stats;
  const rows: Array<[string, number, number, number]> = [
    ['Initial email', s.sent, s.opened, s.confirm_clicked],
  ];
  if (hasReminders)
    rows.push(
      ['1st reminder', s.r1_sent, s.r1_opened, s.r1_confirm_clicked],
      ['2nd reminder', s.r2_sent, s.r2_opened, s.r2_confirm_clicked],
    );
  return (
    <section className="templates__stats" aria-label="Statistics">
      <h2 className="templates__subtitle">Statistics: {template.label}</h2>
      <table className="templates__table">
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Sent</th>
            <th scope="col">Opened</th>
            <th scope="col">Confirmed</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([name, sent, opened, confirmed]) => (
            <tr key={name}>
              <th scope="row">{name}</th>
              <td>{sent}</td>
              <td>
                {opened} ({percent(opened, sent)})
              </td>
              <td>
                {confirmed} ({percent(confirmed, sent)})
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="templates__muted">
        Declined: {s.decline_clicked} ({percent(s.decline_clicked, s.sent)})
      </p>
    </section>
  );
}

import { type KeyboardEvent, useId, useState } from 'react';
import { can } from '../../contract/index.ts';
import { Button } from '../../ui/button.tsx';
import { Section, TextField } from './fields.tsx';
import { NotifeesSection, notifeeTexts } from './notifees-section.tsx';
import type { FormTabProps } from './organization-details.tsx';
import { addDonationField, canEdit } from './organization-form.ts';
import { TwoFactorSection } from './two-factor-section.tsx';

/** spec (part 1, section 8), word for word. */
export const settingsTexts = {
  ...notifeeTexts,
  privateKeyStored: 'A private key is stored',
} as const;

export function SettingsTab(props: FormTabProps) {
  return (
    <div className="details__stack">
      <NotifeesSection organizationId={props.organization.id} admin={can(props.level, 'settings.manage')} />
      {can(props.level, 'settings.manage') ? (
        <TwoFactorSection organizationId={props.organization.id} />
      ) : null}
      <KeysSection {...props} />
      <DonationFieldsSection {...props} />
      <EmailSection {...props} />
    </div>
  );
}

function KeysSection({ organization, form, setForm, errors, level }: FormTabProps) {
  const disabled = !canEdit(level, 'private_key');
  const stored = organization.has_private_key;
  return (
    <Section
      title="Payment provider keys"
      description="The public and private key of your card payment provider account. The private key cannot be viewed after saving."
    >
      <TextField
        label="Public key"
        name="public_key"
        value={form.public_key}
        onChange={(value) => setForm((f) => ({ ...f, public_key: value }))}
        error={errors.public_key}
        disabled={disabled}
        maxLength={500}
      />
      {stored && !form.delete_private_key ? (
        <div className="details__key">
          <p>{settingsTexts.privateKeyStored}</p>
          {disabled ? null : (
            <Button variant="secondary" onClick={() => setForm((f) => ({ ...f, delete_private_key: true }))}>
              Delete private key
            </Button>
          )}
        </div>
      ) : stored ? (
        <div className="details__key">
          <p>The stored private key will be deleted when you save. You can then enter a new one.</p>
          <Button variant="secondary" onClick={() => setForm((f) => ({ ...f, delete_private_key: false }))}>
            Keep the stored key
          </Button>
        </div>
      ) : (
        <TextField
          label="Private key"
          name="private_key"
          type="password"
          autoComplete="new-password"
          hint="Write-only: once saved it is stored encrypted and never shown again."
          value={form.private_key}
          onChange={(value) => setForm((f) => ({ ...f, private_key: value }))}
          error={errors.private_key}
          disabled={disabled}
          maxLength={500}
        />
      )}
    </Section>
  );
}

function DonationFieldsSection({ form, setForm, level }: FormTabProps) {
  const disabled = !canEdit(level, 'custom');
  const [entry, setEntry] = useState('');
  const add = () => {
    setForm((f) => ({ ...f, donation_fields: addDonationField(f.donation_fields, entry) }));
    setEntry('');
  };
  // spec (section 5): "Enter also adds it."
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Enter' && event.target instanceof HTMLInputElement) {
      event.preventDefault();
      add();
    }
  };
  return (
    <Section
      title="Custom donation fields"
      description="Extra questions donors answer with their match request."
    >
      {form.donation_fields.length ? (
        <ul className="details__list" aria-label="Custom donation fields">
          {form.donation_fields.map((field) => (
            <li key={field} className="details__list-item">
              <span>{field}</span>
              {disabled ? null : (
                <Button
                  variant="ghost"
                  aria-label={`Remove ${field}`}
                  onClick={() =>
                    setForm((f) => ({ ...f, donation_fields: f.donation_fields.filter((d) => d !== field) }))
                  }
                >
                  Remove
                </Button>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No custom donation fields.</p>
      )}
      {disabled ? null : (
        // biome-ignore lint/a11y/noStaticElementInteractions: catches Enter from the input inside.
        <div className="details__inline-form" onKeyDown={onKeyDown}>
          <TextField
            label="New donation field"
            name="donation_field"
            value={entry}
            onChange={setEntry}
            maxLength={100}
          />
          <div className="details__row-actions">
            <Button variant="secondary" onClick={add} disabled={!entry.trim()}>
              Add Field
            </Button>
          </div>
        </div>
      )}
    </Section>
  );
}

function EmailSection({ form, setForm, errors, level }: FormTabProps) {
  const disabled = !canEdit(level, 'email_who');
  const name = useId();
  return (
    <Section title="Donor emails">
      <fieldset className="details__fieldset" disabled={disabled}>
        <legend className="field__label">Who is emailed</legend>
        <label className="details__check">
          <input
            type="radio"
            name={name}
            value="all"
            checked={form.email_who === 'all'}
            onChange={() => setForm((f) => ({ ...f, email_who: 'all' }))}
          />
          Every donor
        </label>
        <label className="details__check">
          <input
            type="radio"
            name={name}
            value="company"
            checked={form.email_who === 'company'}
            onChange={() => setForm((f) => ({ ...f, email_who: 'company' }))}
          />
          Only donors who entered an employer
        </label>
      </fieldset>
      <TextField
        label="Minimum donation amount to email"
        name="email_min"
        type="number"
        min={0}
        step={1}
        value={form.email_min}
        onChange={(value) => setForm((f) => ({ ...f, email_min: value }))}
        error={errors.email_min}
        disabled={disabled}
      />
    </Section>
  );
}

import { useSignals } from '@preact/signals-react/runtime';
import { type Dispatch, type ReactNode, type SetStateAction, useEffect, useRef, useState } from 'react';
import { ApiError, errorMessage } from '../../api/client.ts';
import { updateOrganization } from '../../api/organization-changes.ts';
import {
  atLeast,
  can,
  categories,
  countries,
  type EffectiveLevel,
  type Organization,
  organizationTypes,
} from '../../contract/index.ts';
import {
  currentLevel,
  currentOrganization,
  organizationLoading,
  replaceCurrentOrganization,
  startOrganization,
} from '../../state/organization.ts';
import { initSession, isSuperUser } from '../../state/session.ts';
import { toast } from '../../state/toasts.ts';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { Tabs } from '../../ui/tabs.tsx';
import { queryParam } from '../common.ts';
import { AuditTab } from './audit-tab.tsx';
import { Section, SelectField, TextAreaField, TextField } from './fields.tsx';
import { FilesTab } from './files-tab.tsx';
import {
  canEdit,
  diffForm,
  type FormErrors,
  formFromOrganization,
  type OrganizationForm,
  type OrganizationTab,
  organizationTabs,
  tabFromQuery,
  validatePatch,
} from './organization-form.ts';
import { SettingsTab } from './settings-tab.tsx';
import { SsoTab } from './sso-tab.tsx';
import { UsersTab } from './users-tab.tsx';

/** spec (part 1, section 8, Organization, users, integrations), word for word. */
export const detailsTexts = {
  updated: (name: string) => `Organization "${name}" updated successfully`,
  updatedInline: 'Organization updated successfully!',
  errorTitle: 'Error',
  updateFailed: 'Failed to update organization',
} as const;

/** Which tab shows a field, so a validation error can bring its tab forward. */
function tabOfError(key: string): OrganizationTab {
  const field = key.split('.')[0] ?? '';
  if (field === 'notify_contact') return 'contact';
  if (field === 'address' || field === 'country') return 'address';
  if (field === 'category_id_array') return 'categories';
  if (['public_key', 'private_key', 'custom', 'email_who', 'email_min'].includes(field)) return 'settings';
  return 'basic';
}

export interface OrganizationDetailsProps {
  /** The tab to show (the host passes its router's `tab` query value); defaults to the page's ?tab=. */
  tab?: string;
}

/** The Organization Details screen: the organization's tabs, Cancel and Save Changes. */
export function OrganizationDetails({ tab }: OrganizationDetailsProps) {
  useSignals();
  // The portal starts the session and the organization; a page embedding only this element
  // needs it to do so itself (both calls do nothing when already done).
  useEffect(() => {
    void initSession().then(() => startOrganization());
  }, []);
  const organization = currentOrganization.value;
  const level: EffectiveLevel = currentLevel.value ?? 'none';

  if (!organization) {
    return (
      <section className="details" aria-labelledby="details-title">
        <h1 id="details-title" className="details__title">
          Organization Details
        </h1>
        {organizationLoading.value ? (
          <Spinner label="Loading organization..." />
        ) : (
          <p className="muted">
            No organization selected. {isSuperUser.value ? 'Search for an organization to work on it.' : ''}
          </p>
        )}
      </section>
    );
  }
  // A fresh form for each organization: switching organizations never carries edits across.
  return <DetailsForm key={organization.id} organization={organization} level={level} tab={tab} />;
}

function DetailsForm({
  organization,
  level,
  tab,
}: {
  organization: Organization;
  level: EffectiveLevel;
  tab: string | undefined;
}) {
  const [chosen, setSelected] = useState<OrganizationTab>(() => tabFromQuery(tab ?? queryParam('tab')));
  // The audit log is the admins' (the server refuses anyone else): others never see its tab.
  const mayAudit = atLeast(level, 'admin');
  const selected: OrganizationTab = chosen === 'audit' && !mayAudit ? 'basic' : chosen;
  // The audit log and single sign-on are for admins only (the server refuses the rest).
  const tabs = organizationTabs.filter(
    (t) => (t.id !== 'audit' || mayAudit) && (t.id !== 'sso' || can(level, 'users.manage')),
  );
  const [form, setForm] = useState(() => formFromOrganization(organization));
  const [errors, setErrors] = useState<FormErrors>({});
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const rootRef = useRef<HTMLDivElement>(null);

  // The host's router changed the tab (a Configure link, the sidebar).
  useEffect(() => {
    if (tab !== undefined) setSelected(tabFromQuery(tab));
  }, [tab]);

  const select = (id: string) => {
    const next = tabFromQuery(id);
    setSelected(next);
    // spec: "The tab query parameter selects a tab": keep it in the address, without a navigation.
    const url = new URL(location.href);
    url.searchParams.set('tab', next);
    history.replaceState(history.state, '', `${url.pathname}${url.search}${url.hash}`);
  };

  const patch = diffForm(organization, form);
  const dirty = Object.keys(patch).length > 0;
  const mayUpdate = can(level, 'organization.update');

  const update: Dispatch<SetStateAction<OrganizationForm>> = (next) => {
    setSaved(false);
    setForm(next);
  };

  const cancel = () => {
    setForm(formFromOrganization(organization));
    setErrors({});
    setFailure(null);
    setSaved(false);
  };

  const save = async () => {
    const checked = validatePatch(patch);
    if (!checked.ok) {
      setErrors(checked.errors);
      const first = Object.keys(checked.errors)[0];
      if (first) {
        const errorTab = tabOfError(first);
        if (errorTab !== selected) select(errorTab);
      }
      return;
    }
    setErrors({});
    setFailure(null);
    setSaving(true);
    try {
      const answer = await updateOrganization(organization.id, checked.patch);
      replaceCurrentOrganization(answer);
      setForm(formFromOrganization(answer.organization));
      setSaved(true);
      toast({ description: detailsTexts.updated(answer.organization.name) });
    } catch (error) {
      if (error instanceof ApiError && error.fromServer && error.status !== 401) setFailure(error.message);
      else if (!(error instanceof ApiError)) setFailure(errorMessage(error));
      toast({
        title: detailsTexts.errorTitle,
        description: detailsTexts.updateFailed,
        variant: 'destructive',
      });
    } finally {
      setSaving(false);
    }
  };

  // Focus the first invalid field once its tab shows it.
  useEffect(() => {
    if (Object.keys(errors).length === 0) return;
    rootRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  const tabProps = { organization, form, setForm: update, errors, level };
  const content: Record<OrganizationTab, ReactNode> = {
    basic: <BasicTab {...tabProps} />,
    contact: <ContactTab {...tabProps} />,
    address: <AddressTab {...tabProps} />,
    categories: <CategoriesTab {...tabProps} />,
    users: <UsersTab organization={organization} level={level} />,
    sso: <SsoTab organization={organization} />,
    files: <FilesTab organization={organization} level={level} />,
    settings: <SettingsTab {...tabProps} />,
    audit: mayAudit ? <AuditTab organization={organization} /> : null,
  };

  return (
    <div className="details" ref={rootRef}>
      <header className="details__header" part="header">
        <div>
          <h1 className="details__title">Organization Details</h1>
          <p className="muted">{organization.name}</p>
        </div>
        {mayUpdate ? (
          <div className="details__actions">
            <Button variant="secondary" onClick={cancel} disabled={saving || !dirty} part="cancel-button">
              Cancel
            </Button>
            <Button onClick={() => void save()} disabled={!dirty || saving} part="save-button">
              {saving ? 'Saving...' : 'Save Changes'}
            </Button>
          </div>
        ) : null}
      </header>
      <div role="status" className="details__status">
        {saved && !dirty ? <p className="details__saved">{detailsTexts.updatedInline}</p> : null}
      </div>
      {failure ? (
        <p role="alert" className="alert">
          {failure}
        </p>
      ) : null}
      {!mayUpdate ? (
        <p className="muted">
          You have read access to this organization: you can see its details but not change them.
        </p>
      ) : null}
      <Tabs
        label="Organization details"
        selected={selected === 'sso' && !can(level, 'users.manage') ? 'basic' : selected}
        onSelect={select}
        tabs={tabs.map((t) => ({ id: t.id, label: t.label, content: content[t.id] }))}
      />
    </div>
  );
}

export interface FormTabProps {
  organization: Organization;
  form: OrganizationForm;
  setForm: Dispatch<SetStateAction<OrganizationForm>>;
  errors: FormErrors;
  level: EffectiveLevel;
}

function BasicTab({ organization, form, setForm, errors, level }: FormTabProps) {
  const disabled = !canEdit(level, 'name');
  const set =
    (key: 'name' | 'type' | 'ein' | 'url' | 'phone' | 'fax' | 'mission' | 'donate_url') => (value: string) =>
      setForm((f) => ({ ...f, [key]: value }));
  const types: { value: string; label: string }[] = organizationTypes.map((t) => ({ ...t }));
  if (organization.type === 'chapter') types.push({ value: 'chapter', label: 'Chapter' });
  return (
    <Section title="Basic information">
      <div className="details__grid">
        <TextField
          label="Organization Name"
          name="name"
          required
          value={form.name}
          onChange={set('name')}
          error={errors.name}
          disabled={disabled}
          maxLength={200}
        />
        <SelectField
          label="Organization Type"
          name="type"
          required
          value={form.type}
          onChange={set('type')}
          options={types}
          placeholder="Select a type"
          error={errors.type}
          disabled={disabled}
        />
        <TextField
          label="EIN"
          name="ein"
          value={form.ein}
          onChange={set('ein')}
          error={errors.ein}
          disabled={disabled}
          maxLength={20}
        />
        <TextField
          label="Website"
          name="url"
          type="url"
          value={form.url}
          onChange={set('url')}
          error={errors.url}
          disabled={disabled}
          maxLength={255}
        />
        <TextField
          label="Phone"
          name="phone"
          type="tel"
          value={form.phone}
          onChange={set('phone')}
          error={errors.phone}
          disabled={disabled}
          maxLength={40}
        />
        <TextField
          label="Fax"
          name="fax"
          type="tel"
          value={form.fax}
          onChange={set('fax')}
          error={errors.fax}
          disabled={disabled}
          maxLength={40}
        />
        <TextField
          label="Donate URL"
          name="donate_url"
          type="url"
          value={form.donate_url}
          onChange={set('donate_url')}
          error={errors.donate_url}
          disabled={disabled}
          maxLength={500}
        />
      </div>
      <TextAreaField
        label="Mission"
        name="mission"
        value={form.mission}
        onChange={set('mission')}
        error={errors.mission}
        disabled={disabled}
        maxLength={2000}
      />
    </Section>
  );
}

function ContactTab({ form, setForm, errors, level }: FormTabProps) {
  const disabled = !canEdit(level, 'notify_contact');
  const set = (key: 'name' | 'email' | 'phone') => (value: string) =>
    setForm((f) => ({ ...f, contact: { ...f.contact, [key]: value } }));
  return (
    <Section title="Primary contact" description="The primary contact also receives the notification emails.">
      <div className="details__grid">
        <TextField
          label="Contact Name"
          name="contact_name"
          value={form.contact.name}
          onChange={set('name')}
          error={errors['notify_contact.name']}
          disabled={disabled}
          maxLength={100}
        />
        <TextField
          label="Contact Email"
          name="contact_email"
          type="email"
          value={form.contact.email}
          onChange={set('email')}
          error={errors['notify_contact.email']}
          disabled={disabled}
          maxLength={255}
        />
        <TextField
          label="Contact Phone"
          name="contact_phone"
          type="tel"
          value={form.contact.phone}
          onChange={set('phone')}
          error={errors['notify_contact.phone']}
          disabled={disabled}
          maxLength={40}
        />
      </div>
    </Section>
  );
}

const countryLabels: Record<(typeof countries)[number], string> = { US: 'United States', CA: 'Canada' };

function AddressTab({ form, setForm, errors, level }: FormTabProps) {
  const disabled = !canEdit(level, 'address');
  const set = (key: keyof OrganizationForm['address']) => (value: string) =>
    setForm((f) => ({ ...f, address: { ...f.address, [key]: value } }));
  return (
    <Section title="Address">
      <div className="details__grid">
        <TextField
          label="Street"
          name="street"
          value={form.address.street}
          onChange={set('street')}
          error={errors['address.street']}
          disabled={disabled}
          maxLength={255}
        />
        <TextField
          label="Street 2"
          name="street2"
          value={form.address.street2}
          onChange={set('street2')}
          error={errors['address.street2']}
          disabled={disabled}
          maxLength={255}
        />
        <TextField
          label="City"
          name="city"
          value={form.address.city}
          onChange={set('city')}
          error={errors['address.city']}
          disabled={disabled}
          maxLength={100}
        />
        {/* spec (section 9): "State field: 2 characters." */}
        <TextField
          label="State"
          name="state"
          value={form.address.state}
          onChange={set('state')}
          error={errors['address.state']}
          disabled={disabled}
          maxLength={2}
        />
        <TextField
          label="ZIP"
          name="zip"
          value={form.address.zip}
          onChange={set('zip')}
          error={errors['address.zip']}
          disabled={disabled}
          maxLength={20}
        />
        <SelectField
          label="Country"
          name="country"
          value={form.address.country}
          onChange={set('country')}
          options={countries.map((c) => ({ value: c, label: countryLabels[c] }))}
          placeholder="Select a country"
          error={errors['address.country'] ?? errors.country}
          disabled={disabled}
        />
      </div>
    </Section>
  );
}

function CategoriesTab({ form, setForm, errors, level }: FormTabProps) {
  const disabled = !canEdit(level, 'category_id_array');
  const toggle = (id: number, on: boolean) =>
    setForm((f) => ({
      ...f,
      category_id_array: on
        ? [...new Set([...f.category_id_array, id])].sort((a, b) => a - b)
        : f.category_id_array.filter((c) => c !== id),
    }));
  return (
    <fieldset className="details__fieldset" disabled={disabled}>
      <legend className="details__section-title">Categories</legend>
      <p className="muted">Choose every category that describes your organization’s work.</p>
      {errors.category_id_array ? <p className="field__error">{errors.category_id_array}</p> : null}
      <ul className="details__checklist">
        {categories.map((c) => (
          <li key={c.id}>
            <label className="details__check">
              <input
                type="checkbox"
                checked={form.category_id_array.includes(c.id)}
                onChange={(e) => toggle(c.id, e.target.checked)}
              />
              {c.name}
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

import {
  can,
  type EffectiveLevel,
  type Organization,
  OrganizationPatch,
  type PatchField,
  patchFieldCapability,
} from '../../contract/index.ts';

/** The tabs, in order. spec: "basic, contact, address, categories, users, files, settings". */
export const organizationTabs = [
  { id: 'basic', label: 'Basic' },
  { id: 'contact', label: 'Contact' },
  { id: 'address', label: 'Address' },
  { id: 'categories', label: 'Categories' },
  { id: 'users', label: 'Users' },
  { id: 'sso', label: 'Single sign-on' },
  { id: 'files', label: 'Files' },
  { id: 'settings', label: 'Settings' },
  // Admins only (issue #24): not offered to others, and ?tab=audit shows them the basic tab.
  { id: 'audit', label: 'Audit log' },
] as const;
export type OrganizationTab = (typeof organizationTabs)[number]['id'];

/** The `tab` query value as a tab; anything unknown is the basic tab. */
export function tabFromQuery(value: string | null | undefined): OrganizationTab {
  return organizationTabs.find((t) => t.id === value)?.id ?? 'basic';
}

/** What the Save Changes form edits: every value as its input holds it. */
export interface OrganizationForm {
  name: string;
  type: string;
  ein: string;
  url: string;
  phone: string;
  fax: string;
  mission: string;
  donate_url: string;
  contact: { name: string; email: string; phone: string };
  address: { street: string; street2: string; city: string; state: string; zip: string; country: string };
  category_id_array: number[];
  public_key: string;
  /** A new private key typed in (only offered when none is stored). */
  private_key: string;
  /** The stored private key is to be deleted on save. */
  delete_private_key: boolean;
  donation_fields: string[];
  email_who: 'all' | 'company';
  /** As typed in its number input. */
  email_min: string;
}

function addressOf(organization: Organization): Record<string, unknown> {
  return organization.address as Record<string, unknown>;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** spec (section 3): custom.donation_fields is a list of strings. */
export function donationFields(custom: Record<string, unknown>): string[] {
  const fields = custom.donation_fields;
  return Array.isArray(fields) ? fields.filter((f): f is string => typeof f === 'string') : [];
}

/** The form as the loaded organization fills it. */
export function formFromOrganization(organization: Organization): OrganizationForm {
  const address = addressOf(organization);
  return {
    name: organization.name,
    type: organization.type,
    ein: organization.ein,
    url: organization.url,
    phone: organization.phone,
    fax: organization.fax,
    mission: organization.mission ?? '',
    donate_url: organization.donate_url ?? '',
    contact: {
      name: organization.notify_contact.name ?? '',
      email: organization.notify_contact.email ?? '',
      phone: organization.notify_contact.phone ?? '',
    },
    address: {
      street: text(address.street),
      street2: text(address.street2),
      city: text(address.city),
      state: text(address.state),
      zip: text(address.zip),
      country: text(address.country) || organization.country || '',
    },
    category_id_array: [...organization.category_id_array].sort((a, b) => a - b),
    public_key: organization.public_key,
    private_key: '',
    delete_private_key: false,
    donation_fields: donationFields(organization.custom),
    email_who: organization.email_who,
    email_min: String(organization.email_min),
  };
}

const sameList = <T>(a: readonly T[], b: readonly T[]) =>
  a.length === b.length && a.every((v, i) => v === b[i]);
const sameObject = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).every((k) => a[k] === b[k]);

const scalarFields = ['name', 'type', 'ein', 'url', 'phone', 'fax', 'mission', 'donate_url'] as const;

/**
 * The patch for PUT /api/organization/{id}/partial: only what differs from the loaded
 * organization. spec (section 7): "category_id_array sent whole; custom sent if changed". The
 * whole custom object is sent (its other keys kept), and the whole address.
 */
export function diffForm(organization: Organization, form: OrganizationForm): Record<string, unknown> {
  const loaded = formFromOrganization(organization);
  const patch: Record<string, unknown> = {};
  for (const field of scalarFields) if (form[field] !== loaded[field]) patch[field] = form[field];
  if (!sameObject(form.contact, loaded.contact)) {
    patch.notify_contact = { ...form.contact };
  }
  if (!sameObject(form.address, loaded.address)) {
    const a = form.address;
    patch.address = {
      street: a.street,
      street2: a.street2.trim() ? a.street2 : null,
      city: a.city,
      state: a.state.trim() ? a.state.toUpperCase() : null,
      zip: a.zip.trim() ? a.zip : null,
      country: a.country,
    };
    if (a.country && a.country !== organization.country) patch.country = a.country;
  }
  const categories = [...form.category_id_array].sort((a, b) => a - b);
  if (!sameList(categories, loaded.category_id_array)) patch.category_id_array = categories;
  if (form.public_key !== loaded.public_key) patch.public_key = form.public_key;
  if (form.delete_private_key) patch.private_key = null;
  else if (form.private_key.trim()) patch.private_key = form.private_key;
  if (!sameList(form.donation_fields, loaded.donation_fields)) {
    patch.custom = { ...organization.custom, donation_fields: [...form.donation_fields] };
  }
  if (form.email_who !== loaded.email_who) patch.email_who = form.email_who;
  if (form.email_min.trim() !== loaded.email_min) {
    const value = form.email_min.trim();
    patch.email_min = value === '' ? Number.NaN : Number(value);
  }
  return patch;
}

/** Is the form any different from the loaded organization? (Save Changes is disabled otherwise.) */
export function isDirty(organization: Organization, form: OrganizationForm): boolean {
  return Object.keys(diffForm(organization, form)).length > 0;
}

/** spec is silent: a readable message for the minimum donation amount. */
export const emailMinMessage = 'Enter a whole number of 0 or more.';

export type FormErrors = Record<string, string>;

/**
 * Validate a patch with the contract's schema; errors are keyed by their path ('name',
 * 'address.city'), so each shows on its own field.
 */
export function validatePatch(
  patch: Record<string, unknown>,
): { ok: true; patch: OrganizationPatch } | { ok: false; errors: FormErrors } {
  const errors: FormErrors = {};
  if ('email_min' in patch) {
    const value = patch.email_min;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
      errors.email_min = emailMinMessage;
  }
  const parsed = OrganizationPatch.safeParse(patch);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = issue.path.map(String).join('.');
      if (!(key in errors)) errors[key] = issue.message;
    }
  }
  if (Object.keys(errors).length || !parsed.success) return { ok: false, errors };
  return { ok: true, patch: parsed.data };
}

/** May this level change this field? (UI disables what the server would refuse.) */
export function canEdit(level: EffectiveLevel, field: PatchField): boolean {
  return can(level, patchFieldCapability[field]);
}

/** spec (section 5): "Custom donation field: trimmed, empty entries ignored". Duplicates are ignored too. */
export function addDonationField(fields: readonly string[], value: string): string[] {
  const trimmed = value.trim();
  if (!trimmed || fields.includes(trimmed)) return [...fields];
  return [...fields, trimmed];
}

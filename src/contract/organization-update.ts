import * as z from 'zod/mini';
import type { Capability } from './access.ts';
import { dbId, safeText } from './fields.ts';

/**
 * PUT /api/organization/{id}/partial. spec (part 1, section 7): "query params: only the changed
 * fields (category_id_array sent whole; custom sent if changed)". Scalars travel as plain query
 * values; arrays and objects as JSON in their query value. The write-only private key travels in
 * the JSON body instead, so that it never sits in a URL (and so in no log).
 */
export const OrganizationPatch = z.partial(
  z.object({
    name: safeText(z.trim(), z.minLength(1, 'Organization name is required'), z.maxLength(200)),
    type: z.enum(['non-profit', 'edu-pto', 'chapter'], 'Organization type is required'),
    ein: safeText(z.trim(), z.maxLength(20)),
    url: safeText(z.trim(), z.maxLength(255)),
    phone: safeText(z.trim(), z.maxLength(40)),
    fax: safeText(z.trim(), z.maxLength(40)),
    mission: safeText(z.trim(), z.maxLength(2000)),
    donate_url: safeText(z.trim(), z.maxLength(500)),
    country: z.enum(['US', 'CA', '']),
    email_who: z.enum(['all', 'company']),
    email_min: z.number().check(z.int(), z.minimum(0), z.maximum(100_000_000)),
    /** Issue 31: employer answers at or above this confidence (percent) are applied by themselves. */
    employer_threshold: z
      .number()
      .check(
        z.int('The confidence threshold is a whole percent'),
        z.minimum(50, 'The confidence threshold is at least 50'),
        z.maximum(100, 'The confidence threshold is at most 100'),
      ),
    /** Issue 31: correct plainly misspelt common donor email domains (gmial.com) on the way in. */
    correct_email_typos: z.boolean(),
    category_id_array: z.array(dbId()),
    custom: z.record(safeText(z.maxLength(100)), z.unknown()),
    notify_contact: z.object({
      name: z.optional(safeText(z.trim(), z.maxLength(100))),
      email: z.optional(safeText(z.trim(), z.maxLength(255))),
      phone: z.optional(safeText(z.trim(), z.maxLength(40))),
    }),
    address: z.object({
      street: safeText(z.trim(), z.minLength(1, 'Street address is required'), z.maxLength(255)),
      street2: z.optional(z.nullable(safeText(z.trim(), z.maxLength(255)))),
      city: safeText(z.trim(), z.minLength(1, 'City is required'), z.maxLength(100)),
      state: z.optional(z.nullable(safeText(z.trim(), z.maxLength(2, 'State must be 2 characters')))),
      zip: z.optional(z.nullable(safeText(z.trim(), z.maxLength(20)))),
      country: z.enum(['US', 'CA'], 'Country is required'),
    }),
    public_key: safeText(z.trim(), z.maxLength(500)),
    /** A new key (only when none is stored), or null to delete the stored one. */
    private_key: z.nullable(safeText(z.trim(), z.minLength(1), z.maxLength(500))),
    complete: z.boolean(),
  }),
);
export type OrganizationPatch = z.infer<typeof OrganizationPatch>;
export type PatchField = keyof OrganizationPatch;

/** Which capability each field needs: details need write, settings need admin (see access.ts). */
export const patchFieldCapability: Record<PatchField, Capability> = {
  name: 'organization.update',
  type: 'organization.update',
  ein: 'organization.update',
  url: 'organization.update',
  phone: 'organization.update',
  fax: 'organization.update',
  mission: 'organization.update',
  donate_url: 'organization.update',
  country: 'organization.update',
  category_id_array: 'organization.update',
  notify_contact: 'organization.update',
  address: 'organization.update',
  complete: 'organization.update',
  email_who: 'settings.manage',
  email_min: 'settings.manage',
  employer_threshold: 'settings.manage',
  correct_email_typos: 'settings.manage',
  custom: 'settings.manage',
  public_key: 'keys.manage',
  private_key: 'keys.manage',
};

const jsonFields = new Set<PatchField>(['category_id_array', 'custom', 'notify_contact', 'address']);
const numberFields = new Set<PatchField>(['email_min', 'employer_threshold']);
const booleanFields = new Set<PatchField>(['complete', 'correct_email_typos']);

/** Encodes the changed fields as the spec's query parameters (private_key excluded: body only). */
export function toPartialQuery(patch: OrganizationPatch): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(patch) as [PatchField, unknown][]) {
    if (value === undefined || key === 'private_key') continue;
    params.set(key, jsonFields.has(key) ? JSON.stringify(value) : String(value));
  }
  return params;
}

/** Decodes query parameters back into a patch candidate (validated afterwards with OrganizationPatch). */
export function fromPartialQuery(params: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, raw] of params) {
    const field = key as PatchField;
    if (field === 'private_key') continue;
    if (jsonFields.has(field)) {
      try {
        out[key] = JSON.parse(raw);
      } catch {
        out[key] = raw;
      }
    } else if (numberFields.has(field)) {
      out[key] = raw.trim() === '' ? raw : Number(raw);
    } else if (booleanFields.has(field)) {
      out[key] = raw === 'true' ? true : raw === 'false' ? false : raw;
    } else {
      out[key] = raw;
    }
  }
  return out;
}

import { eq, sql } from 'drizzle-orm';
import * as z from 'zod/mini';
import { can, type EffectiveLevel, type PermissionLevel } from '../../../src/contract/access.ts';
import { emailFormat } from '../../../src/contract/email.ts';
import { type OrganizationResponse, organizationNotFound } from '../../../src/contract/organization.ts';
import {
  fromPartialQuery,
  OrganizationPatch,
  type PatchField,
  patchFieldCapability,
} from '../../../src/contract/organization-update.ts';
import { addresses, organizationCategories, organizations } from '../../db/schema.ts';
import { HttpError, httpMessages } from '../../http/errors.ts';
import type { Deps } from '../../http/route.ts';
import { resolveHeldMatches } from '../donations/donations.service.ts';
import { matchNotifier } from '../notifications/notifications.service.ts';
import { checkCategories, getOrganization } from './organization.service.ts';
import { encryptPrivateKey } from './private-key.ts';

export const updateMessages = {
  deleteKeyFirst: 'Delete the existing private key before entering a new one.',
} as const;

/**
 * spec: "query params: only the changed fields". The query, decoded as the contract encodes it,
 * then checked with the contract's schema (unknown parameters are dropped).
 */
export const PartialQuery = z.pipe(
  z.pipe(
    // As sent: each field a text (JSON for lists and objects); the OpenAPI document lists them.
    z.object(
      Object.fromEntries(
        (Object.keys(patchFieldCapability) as PatchField[])
          .filter((field) => field !== 'private_key')
          .map((field) => [field, z.optional(z.string())]),
      ),
    ),
    z.transform((query: Record<string, string | undefined>) =>
      fromPartialQuery(
        new URLSearchParams(
          Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined),
        ),
      ),
    ),
  ),
  OrganizationPatch,
);

/** The write-only private key travels in the (optional) JSON body, never in the URL. */
export const PartialBody = z.object({ private_key: z.optional(OrganizationPatch.shape.private_key) });

const emailCheck = z.string().check(emailFormat('Please enter a valid email address'));

/** spec: custom donation fields are trimmed and empty ones ignored. */
function cleanCustom(custom: Record<string, unknown>): Record<string, unknown> {
  if (!('donation_fields' in custom)) return custom;
  const fields = custom.donation_fields;
  if (!Array.isArray(fields) || fields.some((f) => typeof f !== 'string' || f.length > 200))
    throw new HttpError(
      400,
      'custom.donation_fields: Expected a list of texts (at most 200 characters each)',
    );
  const cleaned = [...new Set(fields.map((f: string) => f.trim()).filter((f) => f !== ''))];
  return { ...custom, donation_fields: cleaned };
}

/** Every changed field needs its capability (details: write; settings and keys: admin). */
function checkCapabilities(level: EffectiveLevel, fields: PatchField[]): void {
  const refused = fields.find((field) => !can(level, patchFieldCapability[field]));
  if (refused) throw new HttpError(403, httpMessages.forbidden);
}

/**
 * PUT /api/organization/{id}/partial: applies the changed fields in one transaction and returns
 * the organization as GET does.
 */
export async function updateOrganization(
  deps: Deps,
  id: number,
  level: PermissionLevel,
  patch: OrganizationPatch,
  privateKey: string | null | undefined,
  /** Who saves: recorded on the status history of matches the save moves on. */
  userId: number | null = null,
): Promise<OrganizationResponse> {
  const fields = (Object.keys(patch) as PatchField[]).filter(
    (k) => patch[k] !== undefined && k !== 'private_key',
  );
  if (privateKey !== undefined) fields.push('private_key');
  checkCapabilities(level, fields);
  if (patch.notify_contact?.email && !z.safeParse(emailCheck, patch.notify_contact.email).success)
    throw new HttpError(400, 'notify_contact.email: Please enter a valid email address');
  const custom = patch.custom ? cleanCustom(patch.custom) : undefined;
  const categoryIds = patch.category_id_array
    ? await checkCategories(deps.db, 'category_id_array', patch.category_id_array)
    : undefined;

  return deps.db.transaction(async (tx) => {
    const [row] = await tx.select().from(organizations).where(eq(organizations.id, id)).for('update');
    if (!row) throw new HttpError(404, organizationNotFound(id));
    const changes: Partial<typeof organizations.$inferInsert> = {};
    for (const field of [
      'name',
      'type',
      'ein',
      'url',
      'phone',
      'fax',
      'mission',
      'donate_url',
      'country',
      'email_who',
      'email_min',
      'employer_threshold',
      'correct_email_typos',
      'public_key',
    ] as const) {
      const value = patch[field];
      if (value !== undefined) Object.assign(changes, { [field]: value });
    }
    if (patch.notify_contact) {
      changes.notify_contact = patch.notify_contact;
      // The setup card's communication step shows while `needed` asks for a billing or donor
      // contact; the primary contact (name and email) is who we reach for both, so saving one
      // settles them.
      if (patch.notify_contact.name && patch.notify_contact.email) {
        const needed = Array.isArray(row.needed) ? row.needed : [];
        changes.needed = needed.filter((n) => n !== 'billing_contact' && n !== 'donor_contact');
      }
    }
    if (custom) changes.custom = custom;
    if (patch.complete !== undefined) {
      changes.complete = patch.complete;
      // spec: onboarded is the date setup was first marked complete.
      if (patch.complete && !row.onboarded) changes.onboarded = new Date();
    }
    if (privateKey === null) changes.private_key_encrypted = null;
    if (typeof privateKey === 'string') {
      if (row.private_key_encrypted !== null) throw new HttpError(409, updateMessages.deleteKeyFirst);
      changes.private_key_encrypted = encryptPrivateKey(deps.config.jwtSecret, id, privateKey);
    }
    if (patch.address) {
      const address = {
        street: patch.address.street,
        street2: patch.address.street2 || null,
        city: patch.address.city,
        state: patch.address.state ? patch.address.state.toUpperCase() : null,
        zip: patch.address.zip || null,
        country: patch.address.country,
      };
      const [existing] =
        row.address_id === null
          ? []
          : await tx
              .update(addresses)
              .set(address)
              .where(eq(addresses.id, row.address_id))
              .returning({ id: addresses.id });
      if (!existing) {
        const [created] = await tx.insert(addresses).values(address).returning({ id: addresses.id });
        changes.address_id = created?.id ?? null;
      }
    }
    if (categoryIds) {
      await tx.delete(organizationCategories).where(eq(organizationCategories.organization_id, id));
      if (categoryIds.length > 0)
        await tx
          .insert(organizationCategories)
          .values(categoryIds.map((category_id) => ({ organization_id: id, category_id })));
    }
    if (Object.keys(changes).length > 0) {
      await tx.update(organizations).set(changes).where(eq(organizations.id, id));
      // Matches that waited at NPO Registration Incomplete move on once setup is complete.
      if (changes.complete === true && !row.complete)
        await resolveHeldMatches(tx, id, userId, matchNotifier(deps.config));
    } else {
      // Still touch updated_at: the caller saved something (categories or the address row).
      await tx.update(organizations).set({ updated_at: sql`now()` }).where(eq(organizations.id, id));
    }
    return getOrganization(tx, id, level);
  });
}

import { and, asc, eq, ilike, sql } from 'drizzle-orm';
import type { OrgRef } from '../../../src/contract/auth.ts';
import { organizationSearch } from '../../../src/contract/public.ts';
import type { RegistrationRequest, RegistrationResponse } from '../../../src/contract/registration.ts';
import type { Queryable, Tx } from '../../db/client.ts';
import { addresses, organizationCategories, organizations, permissions, users } from '../../db/schema.ts';
import type { Deps } from '../../http/route.ts';
import { enqueueMail } from '../../jobs/outbox.ts';
import { registrationMail } from '../../mail/templates.ts';
import { displayName, normalizeEmail } from '../auth/auth.service.ts';
import { issueToken } from '../auth/tokens.ts';
import { checkCategories, containsPattern } from '../organization/organization.service.ts';
import { organizationChain } from '../permissions/permissions.service.ts';
import { inviteRegistrant } from '../users/invitations.service.ts';

/** How long the emailed set-password link of a registration or invitation works. */
export const setPasswordLifetimeDays = 7;
export const setPasswordLifetimeMs = setPasswordLifetimeDays * 24 * 60 * 60 * 1000;

/** Registrations run one at a time, so two submissions of one nonprofit cannot both create it. */
const registrationLock = 727275;

/** The digits of an EIN: '12-3456789' and '123456789' are the same number. */
export function einDigits(ein: string): string {
  return ein.replace(/[^0-9]/g, '');
}

/**
 * What counts as already registered (the issue asks us to decide): an organization with the same
 * EIN, digits compared; or, when no EIN matches, one with the same name (any case, surrounding
 * spaces ignored) in the same country. Top-level organizations win over chapters sharing an EIN.
 */
export async function findRegistered(
  db: Queryable,
  input: { ein: string; name: string; country: string },
): Promise<{ id: number; notify_contact: { email?: string } } | undefined> {
  const digits = einDigits(input.ein);
  const columns = { id: organizations.id, notify_contact: organizations.notify_contact };
  const order = [asc(sql`${organizations.parent_id} is not null`), asc(organizations.id)];
  if (digits) {
    const [byEin] = await db
      .select(columns)
      .from(organizations)
      .where(sql`regexp_replace(coalesce(${organizations.ein}, ''), '[^0-9]', '', 'g') = ${digits}`)
      .orderBy(...order)
      .limit(1);
    if (byEin) return byEin;
  }
  const [byName] = await db
    .select(columns)
    .from(organizations)
    .where(
      and(
        sql`lower(trim(${organizations.name})) = ${input.name.trim().toLowerCase()}`,
        eq(organizations.country, input.country),
      ),
    )
    .orderBy(...order)
    .limit(1);
  return byName;
}

/**
 * spec: 'Already Registered!' names "the registered administrator": the first admin of the
 * organization (or of its parent, for a chapter), else its notification contact.
 */
async function registeredAdministrator(
  db: Queryable,
  found: { id: number; notify_contact: { email?: string } },
): Promise<string> {
  for (const orgId of await organizationChain(db, found.id)) {
    const [admin] = await db
      .select({ email: users.email })
      .from(permissions)
      .innerJoin(users, eq(users.id, permissions.user_id))
      .where(and(eq(permissions.org_id, orgId), eq(permissions.level, 'admin')))
      .orderBy(asc(permissions.id))
      .limit(1);
    if (admin) return admin.email;
  }
  return found.notify_contact.email ?? '';
}

/** The user for an email: the existing one, or a new one without a password (`created`). */
async function findOrCreateUser(tx: Tx, email: string, name: string) {
  const normalized = normalizeEmail(email);
  const [inserted] = await tx
    .insert(users)
    .values({ email: normalized, name })
    .onConflictDoNothing()
    .returning();
  if (inserted) return { user: inserted, created: true };
  const [user] = await tx.select().from(users).where(eq(users.email, normalized));
  if (!user) throw new Error('user upsert returned no row');
  return { user, created: false };
}

/**
 * Registers a nonprofit: the organization, its address and categories, the contact as its admin
 * (a new user when the email is new), the notification contact, and the email to the contact, all
 * in one transaction. Already registered: nothing is written. The form is public, so an existing
 * account named as the contact is not made an administrator by it: its owner gets an email to
 * confirm (a pending invitation) and becomes the administrator only by following it.
 */
export async function register(deps: Deps, input: RegistrationRequest): Promise<RegistrationResponse> {
  const { config } = deps;
  const categoryIds = await checkCategories(deps.db, 'categoryId', input.categoryId);
  return deps.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${registrationLock})`);
    const found = await findRegistered(tx, {
      ein: input.ein,
      name: input.name,
      country: input.address.country,
    });
    if (found) {
      return { registered: false, already_registered: true, email: await registeredAdministrator(tx, found) };
    }
    const { address } = input;
    const [addressRow] = await tx
      .insert(addresses)
      .values({
        street: address.street,
        street2: address.street2 || null,
        city: address.city,
        state: address.state ? address.state.toUpperCase() : null,
        zip: address.zip || null,
        country: address.country,
      })
      .returning({ id: addresses.id });
    const { user: contact, created } = await findOrCreateUser(tx, input.contact_email, input.contact_name);
    const [organization] = await tx
      .insert(organizations)
      .values({
        name: input.name,
        type: input.type,
        ein: input.ein,
        url: input.url,
        phone: input.phone,
        fax: input.fax || null,
        mission: input.mission,
        country: address.country,
        address_id: addressRow?.id ?? null,
        creator_id: contact.id,
        notify_contact: {
          name: input.contact_name,
          email: contact.email,
          ...(input.contact_phone ? { phone: input.contact_phone } : {}),
        },
      })
      .returning({ id: organizations.id, name: organizations.name });
    if (!organization) throw new Error('organization insert returned no row');
    await tx
      .insert(organizationCategories)
      .values(categoryIds.map((category_id) => ({ organization_id: organization.id, category_id })));
    if (!created) {
      await inviteRegistrant(tx, deps, { org_id: organization.id, user_id: contact.id });
    } else {
      await tx.insert(permissions).values({ org_id: organization.id, user_id: contact.id, level: 'admin' });
      const recipient = { to: contact.email, name: displayName(contact), supportEmail: config.supportEmail };
      const token = await issueToken(tx, 'set_password', contact.id, setPasswordLifetimeMs);
      await enqueueMail(
        tx,
        await registrationMail({
          ...recipient,
          organizationName: organization.name,
          url: `${config.publicUrl}/portal/reset-password?token=${encodeURIComponent(token)}&purpose=create`,
          days: setPasswordLifetimeDays,
        }),
      );
    }
    return { registered: true, already_registered: false, email: contact.email };
  });
}

/**
 * spec: the registration form's organization-name search (at least 2 characters, at most 10
 * results), so a visitor notices their nonprofit is registered already. Names only.
 */
export async function publicSearch(db: Queryable, term: string): Promise<OrgRef[]> {
  const trimmed = term.trim();
  if (trimmed.length < organizationSearch.minLength) return [];
  return db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizations)
    .where(ilike(organizations.name, containsPattern(trimmed)))
    .orderBy(asc(sql`lower(${organizations.name})`), asc(organizations.id))
    .limit(organizationSearch.maxResults);
}

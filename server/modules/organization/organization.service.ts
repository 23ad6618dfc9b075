import { and, asc, eq, ilike, inArray, sql } from 'drizzle-orm';
import { can, type PermissionLevel } from '../../../src/contract/access.ts';
import {
  type Organization,
  type OrganizationResponse,
  type OrganizationSummary,
  organizationNotFound,
} from '../../../src/contract/organization.ts';
import type { Queryable } from '../../db/client.ts';
import {
  addresses,
  categories,
  documents,
  invitations,
  organizationCategories,
  organizations,
  permissions,
  users,
  webhooks,
} from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { displayName } from '../auth/auth.service.ts';
import { listApiKeys } from '../integrations/api-keys.service.ts';
import {
  type Actor,
  descendantIds,
  organizationChain,
  reachableOrganizationIds,
} from '../permissions/permissions.service.ts';

/** spec is silent on the size of a search page; a picker shows a short list. */
export const searchLimit = 20;

type OrganizationRow = typeof organizations.$inferSelect;

const summaryColumns = {
  id: organizations.id,
  name: organizations.name,
  parent_id: organizations.parent_id,
  file_logo: organizations.file_logo,
};

const byName = [asc(sql`lower(${organizations.name})`), asc(organizations.id)];

function isPremium(value: string): Organization['is_premium'] {
  return value === 'parent' ? 'parent' : value === 'true';
}

function notifyContact(value: unknown): Organization['notify_contact'] {
  const contact: Organization['notify_contact'] = {};
  if (value && typeof value === 'object') {
    for (const key of ['name', 'email', 'phone'] as const) {
      const field = (value as Record<string, unknown>)[key];
      if (typeof field === 'string') contact[key] = field;
    }
  }
  return contact;
}

/** The authenticated URL of a document's file (documents are never public). */
export function documentFileUrl(orgId: number, documentId: number): string {
  return `/api/organization/${orgId}/document/${documentId}/file`;
}

/** spec: documents (id, name, file, uploaded_date), oldest first. */
export async function organizationDocuments(
  db: Queryable,
  orgId: number,
): Promise<Organization['documents']> {
  const rows = await db
    .select()
    .from(documents)
    .where(eq(documents.org_id, orgId))
    .orderBy(asc(documents.created_at), asc(documents.id));
  return rows.map((d) => ({
    id: d.id,
    name: d.name,
    file: documentFileUrl(orgId, d.id),
    uploaded_date: d.created_at.toISOString(),
  }));
}

/** The users holding a level on the organization itself (Organization.users), by email. */
/**
 * The organization's users by email: its members, each marked whether an admin may change their
 * name and email (no other organization, not a super user), and the pending invitations.
 */
export async function organizationUsers(db: Queryable, orgId: number): Promise<Organization['users']> {
  const members = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      level: permissions.level,
      editable: sql<boolean>`not ${users.global_permission} and not exists (
        select 1 from ${permissions} as other
        where other.user_id = ${users.id} and other.org_id <> ${orgId})`,
    })
    .from(permissions)
    .innerJoin(users, eq(users.id, permissions.user_id))
    .where(eq(permissions.org_id, orgId));
  const invited = await db
    .select({ id: users.id, name: users.name, email: users.email, level: invitations.level })
    .from(invitations)
    .innerJoin(users, eq(users.id, invitations.user_id))
    .where(eq(invitations.org_id, orgId));
  return [
    ...members.map((u) => ({
      id: u.id,
      name: displayName(u),
      email: u.email,
      level: u.level,
      editable: u.editable,
    })),
    ...invited.map((u) => ({
      id: u.id,
      name: displayName(u),
      email: u.email,
      level: u.level,
      pending: true,
      editable: false,
    })),
  ].sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
}

/** The category ids, each once; an id outside the catalogue is a 400 naming it. */
export async function checkCategories(db: Queryable, field: string, ids: number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const known = new Set(
    (await db.select({ id: categories.id }).from(categories).where(inArray(categories.id, unique))).map(
      (c) => c.id,
    ),
  );
  const unknown = unique.find((id) => !known.has(id));
  if (unknown !== undefined) throw new HttpError(400, `${field}: Unknown category ${unknown}`);
  return unique;
}

/** The portal-side record (spec part 1, section 3) from the stored row and its relations. */
async function organizationRecord(db: Queryable, row: OrganizationRow): Promise<Organization> {
  const [categoryRows, addressRows, userList, childRows, chain, documentList] = await Promise.all([
    db
      .select({ id: organizationCategories.category_id })
      .from(organizationCategories)
      .where(eq(organizationCategories.organization_id, row.id))
      .orderBy(asc(organizationCategories.category_id)),
    row.address_id === null
      ? Promise.resolve([])
      : db.select().from(addresses).where(eq(addresses.id, row.address_id)),
    organizationUsers(db, row.id),
    db
      .select({ id: organizations.id, name: organizations.name })
      .from(organizations)
      .where(eq(organizations.parent_id, row.id))
      .orderBy(...byName),
    organizationChain(db, row.id),
    organizationDocuments(db, row.id),
  ]);
  const ancestors = chain.slice(1);
  const shadowRows =
    ancestors.length === 0
      ? []
      : await db
          .select({
            id: users.id,
            name: users.name,
            email: users.email,
            level: permissions.level,
            organization_id: permissions.org_id,
          })
          .from(permissions)
          .innerJoin(users, eq(users.id, permissions.user_id))
          .where(inArray(permissions.org_id, ancestors))
          .orderBy(asc(users.email));
  const address = addressRows[0];
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    ein: row.ein ?? '',
    url: row.url ?? '',
    phone: row.phone ?? '',
    fax: row.fax ?? '',
    stripe_customer_id: row.stripe_customer_id ?? '',
    cancelled_at: row.cancelled_at?.toISOString() ?? '',
    cancel_reason: row.cancel_reason ?? '',
    public_key: row.public_key ?? '',
    country: row.country ?? '',
    plan: row.plan ?? '',
    is_premium: isPremium(row.is_premium),
    is_twofold_client: row.is_twofold_client,
    rule_show_billing: row.rule_show_billing,
    rule_deactivated: row.rule_deactivated,
    rule_invoiced: row.rule_invoiced,
    complete: row.complete,
    default_contract: row.default_contract,
    fetched_details: row.fetched_details,
    address_id: row.address_id,
    creator_id: row.creator_id,
    client_id: row.client_id,
    parent_id: row.parent_id,
    mission: row.mission,
    // Write-only: stored encrypted, never sent back.
    private_key: null,
    has_private_key: row.private_key_encrypted !== null,
    file_w9: row.file_w9,
    file_irs: row.file_irs,
    file_logo: row.file_logo,
    api_keys: [],
    documents: documentList,
    category_id_array: categoryRows.map((c) => c.id),
    user_permissions: [],
    webhooks: [],
    active_integrations: [],
    users: userList,
    address: address
      ? {
          id: address.id,
          street: address.street,
          street2: address.street2,
          city: address.city,
          state: address.state,
          zip: address.zip,
          country: address.country,
        }
      : {},
    notify_contact: notifyContact(row.notify_contact),
    children: Object.fromEntries(childRows.map((c) => [String(c.id), { id: c.id, name: c.name }])),
    email_who: row.email_who === 'company' ? 'company' : 'all',
    email_min: row.email_min,
    employer_threshold: row.employer_threshold,
    correct_email_typos: row.correct_email_typos,
    donate_url: row.donate_url,
    custom: row.custom ?? {},
    onboarded: row.onboarded?.toISOString() ?? null,
    needed: Array.isArray(row.needed) ? row.needed.filter((n): n is string => typeof n === 'string') : [],
    shadowedPermissions: shadowRows.map((p) => ({
      user: { id: p.id, name: displayName(p), email: p.email },
      level: p.level,
      organization_id: p.organization_id,
    })),
  };
}

/**
 * One organization with everything the portal shows, and the organizations reachable from it
 * (itself and its chapters). The route's guard has already checked the caller's level.
 */
export async function getOrganization(
  db: Queryable,
  id: number,
  level: PermissionLevel,
): Promise<OrganizationResponse> {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, id));
  if (!row) throw new HttpError(404, organizationNotFound(id));
  const descendants = await descendantIds(db, id);
  const [organization, integrations, chapters] = await Promise.all([
    organizationRecord(db, row),
    organizationIntegrations(db, id, level),
    descendants.length === 0
      ? Promise.resolve([])
      : db
          .select(summaryColumns)
          .from(organizations)
          .where(inArray(organizations.id, descendants))
          .orderBy(...byName),
  ]);
  const self: OrganizationSummary = {
    id: row.id,
    name: row.name,
    parent_id: row.parent_id,
    file_logo: row.file_logo,
  };
  return {
    organization: { ...organization, ...integrations },
    accessibleOrganizations: [self, ...chapters],
    level,
  };
}

/**
 * The record's integration parts. Keys and webhooks are for admins (their screens' level): a key
 * shows only its first characters and a webhook neither its bearer token nor its signing secret.
 * Which integrations are in use, and who holds which level, every member may see.
 */
async function organizationIntegrations(
  db: Queryable,
  orgId: number,
  level: PermissionLevel,
): Promise<Pick<Organization, 'api_keys' | 'webhooks' | 'user_permissions' | 'active_integrations'>> {
  const [keyList, hooks, held] = await Promise.all([
    listApiKeys(db, orgId),
    db
      .select({ id: webhooks.id, url: webhooks.url, event: webhooks.event, last_code: webhooks.last_code })
      .from(webhooks)
      .where(eq(webhooks.organization_id, orgId))
      .orderBy(asc(webhooks.id)),
    db
      .select({ user_id: permissions.user_id, org_id: permissions.org_id, level: permissions.level })
      .from(permissions)
      .where(eq(permissions.org_id, orgId))
      .orderBy(asc(permissions.user_id)),
  ]);
  const liveHooks = hooks.filter((h) => h.url !== '');
  const active: Organization['active_integrations'] = [];
  if (keyList.api_keys.length > 0) active.push({ name: 'api', count: keyList.api_keys.length });
  if (liveHooks.length > 0) active.push({ name: 'webhooks', count: liveHooks.length });
  return {
    api_keys: can(level, 'keys.manage') ? keyList.api_keys : [],
    webhooks: can(level, 'webhooks.manage') ? hooks : [],
    user_permissions: held,
    active_integrations: active,
  };
}

/** `%`, `_` and `\` typed by a person are literal characters, not LIKE wildcards. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/**
 * Organizations whose name contains the term (any case), by name. Super users search all
 * organizations, at most `searchLimit` a search; everyone else gets every one they can reach that
 * matches (their memberships bound the list), so the portal's dropdown can show all of them.
 */
export async function searchOrganizations(
  db: Queryable,
  actor: Actor,
  term: string,
): Promise<OrganizationSummary[]> {
  const reachable = await reachableOrganizationIds(db, actor);
  if (reachable !== 'all' && reachable.length === 0) return [];
  const trimmed = term.trim();
  const conditions = [
    trimmed ? ilike(organizations.name, containsPattern(trimmed)) : undefined,
    reachable === 'all' ? undefined : inArray(organizations.id, reachable),
  ];
  return db
    .select(summaryColumns)
    .from(organizations)
    .where(and(...conditions))
    .orderBy(...byName)
    .limit(reachable === 'all' ? searchLimit : Math.max(reachable.length, 1));
}

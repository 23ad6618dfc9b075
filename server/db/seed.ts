import { and, eq, isNull, sql } from 'drizzle-orm';
import type { PermissionLevel } from '../../src/contract/access.ts';
import { categories as catalogue } from '../../src/contract/categories.ts';
import { recordAudit } from '../modules/audit/audit.ts';
import { hashPassword } from '../modules/auth/passwords.ts';
import type { Db, Tx } from './client.ts';
import {
  addresses,
  categories,
  organizationCategories,
  organizations,
  permissions,
  users,
} from './schema.ts';
import { seedCompanies } from './seed-companies.ts';

/** The demo sign-ins printed at start. Demo data only: never seed these in production. */
export const demoPassword = 'twofold-demo';
export const demoUsers = [
  { email: 'super@twofold.test', name: 'Sasha Patel', super: true, role: 'super user' },
  {
    email: 'admin@twofold.test',
    name: 'Alex Morgan',
    super: false,
    role: 'admin of Hope Harbor and Maple Street',
  },
  { email: 'writer@twofold.test', name: 'Wren Castillo', super: false, role: 'write on Hope Harbor' },
  { email: 'reader@twofold.test', name: 'Riley Chen', super: false, role: 'read on Hope Harbor' },
] as const;

export const demoOrganizationNames = {
  hopeHarbor: 'Hope Harbor Foundation',
  northShore: 'Hope Harbor Foundation – North Shore Chapter',
  riverside: 'Hope Harbor Foundation – Riverside Chapter',
  mapleStreet: 'Maple Street PTA',
} as const;

type Address = typeof addresses.$inferInsert;
type OrganizationSeed = Omit<typeof organizations.$inferInsert, 'parent_id' | 'address_id'> & {
  name: string;
  parent?: string;
  address: Address;
  categoryIds: number[];
};

const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 60 * 60 * 1000);

const demoOrganizations: OrganizationSeed[] = [
  {
    name: demoOrganizationNames.hopeHarbor,
    type: 'non-profit',
    ein: '84-2917365',
    url: 'https://hopeharbor.example.org',
    phone: '(617) 555-0142',
    mission:
      'Hope Harbor Foundation gives families facing homelessness along the Massachusetts coast emergency shelter, warm meals and the job training to find a home of their own.',
    country: 'US',
    // Per-match billing (5% of eligible match requests): Submitted matches show its ledger.
    plan: 'elig_5',
    is_premium: 'true',
    is_twofold_client: true,
    complete: true,
    onboarded: daysAgo(120),
    donate_url: 'https://hopeharbor.example.org/donate',
    notify_contact: { name: 'Dana Whitfield', email: 'dana@hopeharbor.example.org', phone: '(617) 555-0143' },
    custom: { donation_fields: ['In honor of', 'Campaign'] },
    address: {
      street: '120 Atlantic Avenue',
      street2: 'Suite 400',
      city: 'Boston',
      state: 'MA',
      zip: '02110',
      country: 'US',
    },
    categoryIds: [1, 14, 33],
  },
  {
    name: demoOrganizationNames.northShore,
    parent: demoOrganizationNames.hopeHarbor,
    type: 'chapter',
    ein: '84-2917365',
    url: 'https://hopeharbor.example.org/north-shore',
    phone: '(978) 555-0117',
    mission: 'Shelter beds, a weekly food pantry and tenancy coaching for families on the North Shore.',
    country: 'US',
    plan: 'premium',
    is_premium: 'parent',
    complete: true,
    address: {
      street: '45 Derby Street',
      street2: null,
      city: 'Salem',
      state: 'MA',
      zip: '01970',
      country: 'US',
    },
    categoryIds: [1, 14],
  },
  {
    name: demoOrganizationNames.riverside,
    parent: demoOrganizationNames.hopeHarbor,
    type: 'chapter',
    ein: '84-2917365',
    url: 'https://hopeharbor.example.org/riverside',
    phone: '(617) 555-0188',
    mission: 'Transitional housing and job-readiness workshops for families along the Charles River.',
    country: 'US',
    plan: 'premium',
    is_premium: 'parent',
    address: {
      street: '300 Riverside Drive',
      street2: null,
      city: 'Cambridge',
      state: 'MA',
      zip: '02139',
      country: 'US',
    },
    categoryIds: [1, 33],
  },
  {
    name: demoOrganizationNames.mapleStreet,
    type: 'edu-pto',
    ein: '46-3358120',
    url: 'https://maplestreetpta.example.org',
    phone: '(503) 555-0199',
    mission:
      'The Maple Street PTA funds field trips, classroom supplies and after-school clubs for the 420 students of Maple Street Elementary.',
    country: 'US',
    plan: '',
    is_premium: 'false',
    needed: ['billing_contact'],
    address: {
      street: '1800 Maple Street',
      street2: null,
      city: 'Portland',
      state: 'OR',
      zip: '97205',
      country: 'US',
    },
    categoryIds: [10, 30, 38],
  },
];

const demoPermissions: Array<{ email: string; organization: string; level: PermissionLevel }> = [
  { email: 'admin@twofold.test', organization: demoOrganizationNames.hopeHarbor, level: 'admin' },
  { email: 'admin@twofold.test', organization: demoOrganizationNames.mapleStreet, level: 'admin' },
  { email: 'writer@twofold.test', organization: demoOrganizationNames.hopeHarbor, level: 'write' },
  { email: 'reader@twofold.test', organization: demoOrganizationNames.hopeHarbor, level: 'read' },
];

/** The category catalogue of the spec. Existing rows are left as they are. */
export async function seedCategories(db: Db | Tx): Promise<void> {
  await db
    .insert(categories)
    .values([...catalogue])
    .onConflictDoNothing();
}

async function ensureOrganization(tx: Tx, seed: OrganizationSeed, ids: Map<string, number>): Promise<void> {
  const parentId = seed.parent ? ids.get(seed.parent) : undefined;
  const [existing] = await tx
    .select({ id: organizations.id })
    .from(organizations)
    .where(
      and(
        eq(organizations.name, seed.name),
        parentId === undefined ? isNull(organizations.parent_id) : eq(organizations.parent_id, parentId),
      ),
    );
  if (existing) {
    ids.set(seed.name, existing.id);
    return;
  }
  const { parent: _, address, categoryIds, ...fields } = seed;
  const [addressRow] = await tx.insert(addresses).values(address).returning({ id: addresses.id });
  const [row] = await tx
    .insert(organizations)
    .values({ ...fields, parent_id: parentId ?? null, address_id: addressRow?.id ?? null })
    .returning({ id: organizations.id });
  if (!row) throw new Error(`seeding ${seed.name} returned no row`);
  ids.set(seed.name, row.id);
  await tx
    .insert(organizationCategories)
    .values(categoryIds.map((category_id) => ({ organization_id: row.id, category_id })))
    .onConflictDoNothing();
}

/**
 * The demo organizations, users and levels (see the README). Idempotent: what exists is left
 * alone (a changed demo password stays changed), nothing is duplicated.
 */
export async function seedDemo(db: Db): Promise<void> {
  // Hash outside the transaction; only users that do not exist yet need one.
  const existingEmails = new Set((await db.select({ email: users.email }).from(users)).map((u) => u.email));
  const hashes = new Map<string, string>();
  for (const user of demoUsers) {
    if (!existingEmails.has(user.email)) hashes.set(user.email, await hashPassword(demoPassword));
  }
  await db.transaction(async (tx) => {
    // Two processes starting at once seed one after the other.
    await tx.execute(sql`select pg_advisory_xact_lock(727274)`);
    await seedCategories(tx);
    await seedCompanies(tx);
    const ids = new Map<string, number>();
    for (const organization of demoOrganizations) await ensureOrganization(tx, organization, ids);
    for (const user of demoUsers) {
      const hash = hashes.get(user.email);
      if (!hash) continue;
      await tx
        .insert(users)
        .values({ email: user.email, name: user.name, password_hash: hash, global_permission: user.super })
        .onConflictDoNothing();
    }
    const userIds = new Map(
      (await tx.select({ id: users.id, email: users.email }).from(users)).map((u) => [u.email, u.id]),
    );
    for (const grant of demoPermissions) {
      const userId = userIds.get(grant.email);
      const orgId = ids.get(grant.organization);
      if (userId === undefined || orgId === undefined)
        throw new Error(`demo grant ${grant.email} has no target`);
      const [granted] = await tx
        .insert(permissions)
        .values({ org_id: orgId, user_id: userId, level: grant.level })
        .onConflictDoNothing()
        .returning({ id: permissions.id });
      // The demo's first audit entries: each access it grants, so the log is not empty in a demo.
      if (granted)
        await recordAudit(tx, {
          kind: 'permission.granted',
          organizationId: orgId,
          actor: { kind: 'system', label: 'Demo data' },
          subjectUserId: userId,
          summary: `Gave ${grant.email} ${grant.level} access`,
          details: { email: grant.email, level: grant.level, demo: true },
        });
    }
  });
}

import { describe, expect, it } from 'vitest';
import { categories as catalogue } from '../../src/contract/categories.ts';
import { createTestDatabase } from '../testing.ts';
import {
  auditEvents,
  categories,
  organizationCategories,
  organizations,
  permissions,
  users,
} from './schema.ts';
import { seedDemo } from './seed.ts';

describe('seedDemo', () => {
  it('is idempotent: running it again changes and duplicates nothing', async () => {
    const testDatabase = await createTestDatabase({ empty: true });
    const database = await testDatabase.open();
    try {
      await database.migrate();
      await seedDemo(database.db);
      const snapshot = async () => ({
        categories: await database.db.select().from(categories).orderBy(categories.id),
        organizations: await database.db.select().from(organizations).orderBy(organizations.id),
        users: await database.db.select().from(users).orderBy(users.id),
        permissions: await database.db.select().from(permissions).orderBy(permissions.id),
        organizationCategories: await database.db.select().from(organizationCategories),
        // Each demo grant is recorded once, when it is made.
        auditEvents: await database.db.select().from(auditEvents).orderBy(auditEvents.id),
      });
      const before = await snapshot();
      await seedDemo(database.db);
      await database.migrate();
      const after = await snapshot();
      expect(after).toEqual(before);

      expect(after.categories.map((c) => ({ id: c.id, name: c.name }))).toEqual([...catalogue]);
      expect(after.organizations.map((o) => o.name).sort()).toEqual([
        'Hope Harbor Foundation',
        'Hope Harbor Foundation – North Shore Chapter',
        'Hope Harbor Foundation – Riverside Chapter',
        'Maple Street PTA',
      ]);
      const hope = after.organizations.find((o) => o.name === 'Hope Harbor Foundation');
      expect(after.organizations.filter((o) => o.parent_id === hope?.id)).toHaveLength(2);
      expect(after.users.map((u) => u.email).sort()).toEqual([
        'admin@twofold.test',
        'reader@twofold.test',
        'super@twofold.test',
        'writer@twofold.test',
      ]);
      expect(after.users.every((u) => u.password_hash?.startsWith('$argon2id$'))).toBe(true);
      expect(after.users.filter((u) => u.global_permission).map((u) => u.email)).toEqual([
        'super@twofold.test',
      ]);
      expect(after.permissions).toHaveLength(4);
    } finally {
      await database.close();
      await testDatabase.drop();
    }
  });
});

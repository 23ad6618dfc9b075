import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../db/schema.ts';
import { demoOrganizationIds } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import { recordAudit } from './audit.ts';

let t: TestContext;
let hope = 0;

beforeAll(async () => {
  t = await createTestContext();
  hope = (await demoOrganizationIds(t.db)).hopeHarbor;
});
afterAll(() => t.close());

describe('the audit log', () => {
  it('records an entry with its actor, organization and details', async () => {
    await recordAudit(t.db, {
      kind: 'api_key.created',
      organizationId: hope,
      actor: { kind: 'user', userId: 1, email: 'admin@twofold.test' },
      summary: 'Created API key tf_abcd1234',
      details: { key: 'tf_abcd1234' },
      ip: '192.0.2.7',
      userAgent: 'x'.repeat(1000),
    });
    const [row] = await t.db.select().from(auditEvents).where(eq(auditEvents.organization_id, hope));
    expect(row).toMatchObject({
      kind: 'api_key.created',
      actor_kind: 'user',
      actor_user_id: 1,
      actor_label: 'admin@twofold.test',
      details: { key: 'tf_abcd1234' },
      ip_address: '192.0.2.7',
    });
    expect(row?.user_agent).toHaveLength(400);
  });

  it('is written with the change it records: a rolled-back transaction leaves no entry', async () => {
    await expect(
      t.db.transaction(async (tx) => {
        await recordAudit(tx, {
          kind: 'webhook.created',
          organizationId: hope,
          actor: { kind: 'system' },
          summary: 'rolled back',
        });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const rows = await t.db.select().from(auditEvents).where(eq(auditEvents.summary, 'rolled back'));
    expect(rows).toEqual([]);
  });

  it('refuses to change or delete an entry, even from SQL', async () => {
    await expect(t.db.update(auditEvents).set({ summary: 'rewritten' })).rejects.toThrow();
    await expect(t.db.delete(auditEvents)).rejects.toThrow();
    await expect(t.db.execute(sql`truncate audit_events`)).rejects.toThrow();
    const rows = await t.db.select().from(auditEvents);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.summary !== 'rewritten')).toBe(true);
  });
});

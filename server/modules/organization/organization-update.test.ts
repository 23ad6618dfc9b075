import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { OrganizationResponse } from '../../../src/contract/organization.ts';
import { type OrganizationPatch, toPartialQuery } from '../../../src/contract/organization-update.ts';
import { remainingSetupSteps } from '../../../src/contract/setup.ts';
import {
  addresses,
  companies,
  donationStatusHistory,
  donations,
  organizationCategories,
  organizations,
  outbox,
} from '../../db/schema.ts';
import { call, demoOrganizationIds, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import { decryptPrivateKey } from './private-key.ts';

let t: TestContext;
let hope = 0;
let maple = 0;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestContext();
  const demo = await demoOrganizationIds(t.db);
  hope = demo.hopeHarbor;
  maple = demo.mapleStreet;
  for (const who of ['super', 'admin', 'writer', 'reader'])
    tokens[who] = await signIn(t.app, `${who}@twofold.test`);
});
afterAll(() => t.close());

/** What the browser sends: the changed fields as query parameters, the private key in the body. */
function patch(id: number, who: string, fields: OrganizationPatch, rawQuery?: string) {
  const { private_key, ...rest } = fields;
  const query = rawQuery ?? toPartialQuery(rest).toString();
  return call(t.app, 'PUT', `/api/organization/${id}/partial?${query}`, {
    token: tokens[who],
    ...(private_key === undefined ? {} : { body: { private_key } }),
  });
}

const row = async (id: number) =>
  (await t.db.select().from(organizations).where(eq(organizations.id, id)))[0];

describe('PUT /api/organization/{id}/partial', () => {
  it('changes only the fields sent and answers with the organization as GET does', async () => {
    const res = await patch(hope, 'writer', {
      phone: '(617) 555-0199',
      mission: '  Shelter for every family. ',
    });
    expect(res.status).toBe(200);
    const body = z.parse(OrganizationResponse, res.json);
    expect(body.level).toBe('write');
    expect(body.organization).toMatchObject({
      phone: '(617) 555-0199',
      mission: 'Shelter for every family.',
    });
    expect(body.organization.url).toBe('https://hopeharbor.example.org');
    expect(body.organization.category_id_array).toEqual([1, 14, 33]);
  });

  it("settles the setup card's communication step once a primary contact is saved", async () => {
    // The demo data leaves Maple Street needing a billing contact.
    expect((await row(maple))?.needed).toEqual(['billing_contact']);
    const nameOnly = await patch(maple, 'admin', { notify_contact: { name: 'Kim' } });
    expect(nameOnly.json.organization.needed).toEqual(['billing_contact']);
    const res = await patch(maple, 'admin', { notify_contact: { name: 'Kim', email: 'kim@maple.example' } });
    expect(res.status).toBe(200);
    expect(res.json.organization.needed).toEqual([]);
    expect(remainingSetupSteps(z.parse(OrganizationResponse, res.json).organization)).not.toContain(
      'communication',
    );
  });

  it('replaces the categories, the notification contact and the address row', async () => {
    const res = await patch(maple, 'admin', {
      category_id_array: [30, 10, 30],
      notify_contact: { name: 'Kim', email: 'kim@maple.example', phone: '1' },
      address: { street: '2 Oak Road', city: 'Salem', state: 'or', country: 'US' },
    });
    expect(res.status).toBe(200);
    const org = res.json.organization;
    expect(org.category_id_array).toEqual([10, 30]);
    expect(org.notify_contact).toEqual({ name: 'Kim', email: 'kim@maple.example', phone: '1' });
    expect(org.address).toMatchObject({ street: '2 Oak Road', street2: null, city: 'Salem', state: 'OR' });
    const before = await row(maple);
    await patch(maple, 'admin', { address: { street: '3 Oak Road', city: 'Salem', country: 'US' } });
    expect((await row(maple))?.address_id).toBe(before?.address_id);
  });

  it('creates the address row when the organization has none', async () => {
    await t.db.update(organizations).set({ address_id: null }).where(eq(organizations.id, maple));
    const res = await patch(maple, 'admin', { address: { street: '9 Elm', city: 'Bend', country: 'US' } });
    expect(res.json.organization.address_id).toEqual(expect.any(Number));
    const [address] = await t.db
      .select()
      .from(addresses)
      .where(eq(addresses.id, res.json.organization.address_id));
    expect(address?.street).toBe('9 Elm');
  });

  it('needs admin for settings and keys, write for details, and changes nothing when refused', async () => {
    const before = await row(hope);
    for (const fields of [
      { email_who: 'company' },
      { email_min: 5 },
      { employer_threshold: 90 },
      { correct_email_typos: false },
      { custom: {} },
      { public_key: 'pk' },
      { private_key: 'sk' },
    ] as OrganizationPatch[]) {
      const res = await patch(hope, 'writer', { phone: '000', ...fields });
      expect(res.status).toBe(403);
      expect(res.json).toEqual({ message: 'You do not have permission to do that.' });
    }
    const reader = await patch(hope, 'reader', { phone: '000' });
    expect(reader.status).toBe(403);
    expect((await row(hope))?.phone).toBe(before?.phone);
    const admin = await patch(hope, 'admin', {
      email_who: 'company',
      email_min: 25,
      public_key: 'pk_live_1',
      employer_threshold: 90,
      correct_email_typos: false,
    });
    expect(admin.json.organization).toMatchObject({
      email_who: 'company',
      email_min: 25,
      public_key: 'pk_live_1',
      employer_threshold: 90,
      correct_email_typos: false,
    });
  });

  it('keeps custom donation fields trimmed, without empties or repeats', async () => {
    const res = await patch(hope, 'admin', {
      custom: { donation_fields: [' In honor of ', '', 'Campaign', 'Campaign'] },
    });
    expect(res.json.organization.custom).toEqual({ donation_fields: ['In honor of', 'Campaign'] });
    const bad = await patch(hope, 'admin', { custom: { donation_fields: 'nope' } });
    expect(bad.status).toBe(400);
  });

  it('stores the private key encrypted, never returns it, and wants it deleted before a new one', async () => {
    const first = await patch(maple, 'admin', { private_key: 'sk_live_secret_1' });
    expect(first.status).toBe(200);
    expect(first.json.organization).toMatchObject({ private_key: null, has_private_key: true });
    expect(first.text).not.toContain('sk_live_secret_1');
    const stored = (await row(maple))?.private_key_encrypted ?? '';
    expect(stored).not.toContain('sk_live_secret_1');
    expect(decryptPrivateKey(t.config.jwtSecret, maple, stored)).toBe('sk_live_secret_1');
    expect(() => decryptPrivateKey(t.config.jwtSecret, hope, stored)).toThrow();

    const second = await patch(maple, 'admin', { private_key: 'sk_live_secret_2' });
    expect(second.status).toBe(409);
    expect(second.json).toEqual({ message: 'Delete the existing private key before entering a new one.' });
    expect((await row(maple))?.private_key_encrypted).toBe(stored);

    const removed = await patch(maple, 'admin', { private_key: null });
    expect(removed.json.organization.has_private_key).toBe(false);
    expect((await patch(maple, 'admin', { private_key: 'sk_live_secret_2' })).status).toBe(200);
    expect(t.logger.lines.join('\n')).not.toContain('sk_live_secret');
  });

  it('marks setup complete, setting onboarded only the first time', async () => {
    await t.db
      .update(organizations)
      .set({ complete: false, onboarded: null })
      .where(eq(organizations.id, maple));
    const res = await patch(maple, 'admin', { complete: true });
    expect(res.json.organization.complete).toBe(true);
    const onboarded = res.json.organization.onboarded;
    expect(Date.now() - Date.parse(onboarded)).toBeLessThan(60_000);
    await patch(maple, 'admin', { complete: false });
    const again = await patch(maple, 'admin', { complete: true });
    expect(again.json.organization.onboarded).toBe(onboarded);
  });

  it('moves matches held at NPO Registration Incomplete on once setup is marked complete, and emails their donors', async () => {
    await t.db
      .update(organizations)
      .set({ complete: false, type: 'non-profit', rule_deactivated: false })
      .where(eq(organizations.id, maple));
    const [company] = await t.db
      .insert(companies)
      .values({ name: 'Held Portal Co', match_method: 'csr', match_ratio: '1' })
      .returning({ id: companies.id });
    const created = await call(t.app, 'POST', `/api/organization/${maple}/donation`, {
      token: tokens.admin,
      body: {
        id: 0,
        donated_at: '2026-11-02 12:00:00',
        amount: 120,
        donor: { name: 'Hollis Held', email: 'hollis-held@example.org' },
        company_id: company?.id,
      },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.json.donation.id as number;
    expect(created.json.donation.status_id).toBe(17);
    const mailsBefore = (await t.db.select().from(outbox).where(eq(outbox.to, 'hollis-held@example.org')))
      .length;

    expect((await patch(maple, 'admin', { complete: true })).status).toBe(200);
    const [moved] = await t.db.select().from(donations).where(eq(donations.id, id));
    expect(moved?.status_id).toBe(7);
    expect(moved?.matched_cents).toBe(12_000);
    const history = await t.db
      .select()
      .from(donationStatusHistory)
      .where(eq(donationStatusHistory.donation_id, id));
    expect(history.at(-1)).toMatchObject({ from_status_id: 17, to_status_id: 7 });
    expect(history.at(-1)?.user_id).toEqual(expect.any(Number));
    const mails = await t.db.select().from(outbox).where(eq(outbox.to, 'hollis-held@example.org'));
    expect(mails.length).toBe(mailsBefore + 1);
    // Marking it complete again moves nothing twice.
    await patch(maple, 'admin', { complete: true });
    expect((await t.db.select().from(outbox).where(eq(outbox.to, 'hollis-held@example.org'))).length).toBe(
      mailsBefore + 1,
    );
  });

  it('answers bad values with 400 naming the field, ignores unknown parameters, writes nothing', async () => {
    const before = await row(hope);
    const cases: Array<[string, RegExp]> = [
      ['name=%20', /^name: Organization name is required$/],
      ['email_min=abc', /^email_min: /],
      ['employer_threshold=40', /^employer_threshold: The confidence threshold is at least 50$/],
      ['correct_email_typos=maybe', /^correct_email_typos: /],
      ['email_who=some', /^email_who: /],
      ['category_id_array=%5B999%5D', /^category_id_array: Unknown category 999$/],
      ['category_id_array=nope', /^category_id_array: /],
      ['complete=yes', /^complete: /],
      [
        'notify_contact=%7B%22email%22%3A%22x%22%7D',
        /^notify_contact.email: Please enter a valid email address$/,
      ],
      [
        'address=%7B%22street%22%3A%22%22%2C%22city%22%3A%22B%22%2C%22country%22%3A%22US%22%7D',
        /^address.street: Street address is required$/,
      ],
    ];
    for (const [query, message] of cases) {
      const res = await patch(hope, 'admin', {}, `phone=1&${query}`);
      expect(res.status, query).toBe(400);
      expect(res.json.message).toMatch(message);
    }
    expect((await row(hope))?.phone).toBe(before?.phone);
    const unknown = await patch(hope, 'admin', {}, 'fax=55&private_key_encrypted=x&is_premium=false&id=9');
    expect(unknown.status).toBe(200);
    expect(unknown.json.organization).toMatchObject({ id: hope, fax: '55', is_premium: true });
    // The private key never travels in the URL.
    const inUrl = await patch(hope, 'admin', {}, 'private_key=sk_in_url');
    expect(inUrl.json.organization.has_private_key).toBe(false);
  });

  it('keeps categories in one transaction with the rest', async () => {
    const before = await t.db
      .select()
      .from(organizationCategories)
      .where(eq(organizationCategories.organization_id, hope));
    await patch(hope, 'admin', {}, 'category_id_array=%5B2%5D&email_min=-1');
    const after = await t.db
      .select()
      .from(organizationCategories)
      .where(eq(organizationCategories.organization_id, hope));
    expect(after).toEqual(before);
  });
});

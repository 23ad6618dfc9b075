import { createRequire } from 'node:module';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addresses, companies, donations, donors, organizations } from '../../db/schema.ts';
import { demoOrganizationNames as names } from '../../db/seed.ts';
import { call, demoOrganizationIds, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import { packetFields, packetMessages } from './packet.ts';

let t: TestContext;
const token: Record<string, string> = {};
const org = { parent: 0, other: 0 };
const company: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestContext({ config: { logRequests: false } });
  const demo = await demoOrganizationIds(t.db);
  org.parent = demo.hopeHarbor;
  org.other = demo.mapleStreet;
  const [address] = await t.db
    .insert(addresses)
    .values({ street: '12 Harbor Way', city: 'Portland', state: 'ME', zip: '04101', country: 'US' })
    .returning();
  await t.db
    .update(organizations)
    .set({
      ein: '12-3456789',
      address_id: address?.id ?? null,
      notify_contact: { email: 'gifts@hopeharbor.org' },
    })
    .where(eq(organizations.id, org.parent));
  const made = await t.db
    .insert(companies)
    .values([
      { name: 'Packet Esign Co', match_method: 'esign', guide: 'Sign the form in the e-sign portal.' },
      { name: 'Packet Paper Co', match_method: 'paper' },
      { name: 'Packet Portal Co', match_method: 'csr' },
    ])
    .returning();
  for (const c of made) company[c.name] = c.id;
  token.reader = await signIn(t.app, 'reader@twofold.test');
});
afterAll(() => t.close());

let made = 0;
async function match(orgId: number, companyName: string, statusId: number) {
  const [donor] = await t.db
    .insert(donors)
    .values({ organization_id: orgId, name: 'Dana Donor', email: 'dana@example.org' })
    .returning();
  const [row] = await t.db
    .insert(donations)
    .values({
      organization_id: orgId,
      donor_id: donor?.id ?? null,
      company_id: company[companyName] ?? null,
      company_name: companyName,
      amount_cents: 125_000,
      matched_cents: 125_000,
      donated_at: new Date('2025-03-01T12:00:00Z'),
      transaction_id: `TX-PACKET-${++made}`,
      status_id: statusId,
    })
    .returning();
  return row?.id ?? 0;
}

/** pdfjs reads the standard 14 fonts' metrics from its own package. */
const standardFontDataUrl = `${path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'))}/standard_fonts/`;

async function pdfOf(bytes: ArrayBuffer) {
  const doc = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, standardFontDataUrl })
    .promise;
  const page = await doc.getPage(1);
  const content = await page.getTextContent();
  const text = content.items.map((item) => ('str' in item ? item.str : '')).join(' ');
  const fields = (await doc.getFieldObjects()) ?? {};
  return { text, fields, pages: doc.numPages };
}

describe('e-sign packet', () => {
  it('is a PDF naming the nonprofit, donor, gift and company, with fillable signature and date fields', async () => {
    const id = await match(org.parent, 'Packet Esign Co', 4);
    for (const path of [`/api/donation/${id}/esign/download`, `/donation/${id}/esign/download`]) {
      const response = await t.app.request(path, { headers: { authorization: `Bearer ${token.reader}` } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/pdf');
      expect(response.headers.get('content-disposition')).toBe(
        `attachment; filename=donation-${id}-esign.pdf`,
      );
      const { text, fields, pages } = await pdfOf(await response.arrayBuffer());
      expect(pages).toBe(1);
      for (const expected of [
        'Matching Gift Request',
        names.hopeHarbor,
        '12-3456789',
        '12 Harbor Way',
        'gifts@hopeharbor.org',
        'Dana Donor',
        'dana@example.org',
        '$1,250.00',
        'March 1, 2025',
        'TX-PACKET-1',
        'Packet Esign Co',
        'Sign the form in the e-sign portal.',
        'Donor signature',
        'Nonprofit signature',
        'Date',
      ])
        expect(text).toContain(expected);
      expect(Object.keys(fields).sort()).toEqual(Object.keys(packetFields).sort());
      for (const name of Object.keys(packetFields))
        expect(fields[name]?.[0]).toMatchObject({ type: 'text', editable: true });
    }
  });

  it('is offered for paper companies at status 1 too', async () => {
    const id = await match(org.parent, 'Packet Paper Co', 1);
    const res = await call(t.app, 'GET', `/api/donation/${id}/esign/download`, { token: token.reader });
    expect(res.status).toBe(200);
    expect(res.text.startsWith('%PDF-')).toBe(true);
  });

  it('refuses other companies and statuses (409), missing and unreachable matches (404), anonymous callers (401)', async () => {
    const portal = await match(org.parent, 'Packet Portal Co', 4);
    expect(
      await call(t.app, 'GET', `/api/donation/${portal}/esign/download`, { token: token.reader }),
    ).toMatchObject({
      status: 409,
      json: { message: packetMessages.wrongMethod },
    });
    const early = await match(org.parent, 'Packet Esign Co', 5);
    expect(
      await call(t.app, 'GET', `/api/donation/${early}/esign/download`, { token: token.reader }),
    ).toMatchObject({
      status: 409,
      json: { message: packetMessages.wrongStatus },
    });
    const elsewhere = await match(org.other, 'Packet Esign Co', 4);
    const outside = await call(t.app, 'GET', `/api/donation/${elsewhere}/esign/download`, {
      token: token.reader,
    });
    const missing = await call(t.app, 'GET', '/api/donation/999999/esign/download', { token: token.reader });
    expect(outside).toMatchObject({ status: 404, json: { message: 'Donation not found' } });
    expect(missing).toMatchObject({ status: 404, json: { message: 'Donation not found' } });
    expect((await call(t.app, 'GET', `/donation/${early}/esign/download`)).status).toBe(401);
  });
});

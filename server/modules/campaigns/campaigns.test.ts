import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { campaignTexts } from '../../../src/contract/campaigns.ts';
import { campaigns, companies, donations, organizations, outbox } from '../../db/schema.ts';
import { renderDonorEmail } from '../../mail/donor-email.tsx';
import { call, demoOrganizationIds, lastMailTo, readyForMatching, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import { csvColumns } from '../donations/export.ts';
import { shippedTemplates } from '../templates/defaults.ts';
import { variableValues } from '../templates/variables.ts';

let t: TestContext;
const token: Record<string, string> = {};
const org = { parent: 0, other: 0 };
const company = { portal: 0, capped: 0, other: 0 };

beforeAll(async () => {
  t = await createTestContext({ config: { logRequests: false } });
  const demo = await demoOrganizationIds(t.db);
  org.parent = demo.hopeHarbor;
  org.other = demo.mapleStreet;
  await readyForMatching(t.db, [org.parent]);
  const made = await t.db
    .insert(companies)
    .values([
      // A donor-action method (csr), so a new match emails its donor.
      { name: 'Campaign Portal Co', match_method: 'csr', match_ratio: '1' },
      { name: 'Campaign Capped Co', match_method: 'csr', match_ratio: '1', maximum_match_cents: 5_000 },
      { name: 'Campaign Other Co', match_method: 'csr', match_ratio: '1' },
    ])
    .returning({ id: companies.id, name: companies.name });
  company.portal = made.find((c) => c.name === 'Campaign Portal Co')?.id ?? 0;
  company.capped = made.find((c) => c.name === 'Campaign Capped Co')?.id ?? 0;
  company.other = made.find((c) => c.name === 'Campaign Other Co')?.id ?? 0;
  for (const who of ['admin', 'writer', 'reader']) token[who] = await signIn(t.app, `${who}@twofold.test`);
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.delete(donations);
  await t.db.delete(campaigns);
  await t.db.delete(outbox);
  await t.db.update(organizations).set({ email_who: 'all', email_min: 0 });
});

const november = {
  name: 'Giving Week',
  company_id: 0,
  start_date: '2025-11-01',
  end_date: '2025-11-30',
  match_ratio: '2:1',
  message: 'Every gift this week is matched twice over.',
};

async function createCampaign(change: Record<string, unknown> = {}, orgId = org.parent) {
  return call(t.app, 'POST', `/api/organization/${orgId}/campaigns`, {
    token: token.writer,
    body: { ...november, company_id: company.portal, ...change },
  });
}

let serial = 0;
async function gift(change: Record<string, unknown> = {}) {
  serial += 1;
  const res = await call(t.app, 'POST', `/api/organization/${org.parent}/donation`, {
    token: token.writer,
    body: {
      donated_at: '2025-11-15 12:00:00',
      amount: 100,
      donor: { name: 'Jordan Lee', email: `jordan${serial}@example.org` },
      company_id: company.portal,
      ...change,
    },
  });
  expect(res.status).toBe(201);
  return res.json.donation as {
    id: number;
    matched: number;
    campaign: { id: number; name: string } | null;
    donor: { email: string };
  };
}

describe('campaign routes', () => {
  it('creates, lists, changes and deletes a campaign, with the company and amounts as the form shows them', async () => {
    const created = await createCampaign({ min_amount: 25, max_amount: 500, group_submit: true });
    expect(created.status).toBe(201);
    const id = created.json.campaign.id as number;
    expect(created.json.campaign).toMatchObject({
      name: 'Giving Week',
      company_id: company.portal,
      company_name: 'Campaign Portal Co',
      start_date: '2025-11-01',
      end_date: '2025-11-30',
      min_amount: 25,
      max_amount: 500,
      match_ratio: '2:1',
      group_submit: true,
      bill_eligible: false,
      bill_processed: false,
      organization_id: org.parent,
    });

    const listed = await call(t.app, 'GET', `/api/organization/${org.parent}/campaigns`, {
      token: token.reader,
    });
    expect(listed.status).toBe(200);
    expect(listed.json.campaigns.map((c: { id: number }) => c.id)).toEqual([id]);
    const elsewhere = await call(t.app, 'GET', `/api/organization/${org.other}/campaigns`, {
      token: token.admin,
    });
    expect(elsewhere.json.campaigns).toEqual([]);

    const changed = await call(t.app, 'PUT', `/api/campaigns/${id}`, {
      token: token.writer,
      body: { ...november, company_id: company.capped, name: 'Giving Week 2', match_ratio: '' },
    });
    expect(changed.status).toBe(200);
    expect(changed.json.campaign).toMatchObject({
      name: 'Giving Week 2',
      company_name: 'Campaign Capped Co',
      match_ratio: null,
      // spec: "Campaign min and max default to 0."
      min_amount: 0,
      max_amount: 0,
    });

    const removed = await call(t.app, 'DELETE', `/api/campaigns/${id}`, { token: token.writer });
    expect(removed.json).toEqual({ message: campaignTexts.deleted });
    const again = await call(t.app, 'DELETE', `/api/campaigns/${id}`, { token: token.writer });
    expect(again.status).toBe(404);
    expect(again.json.message).toBe(campaignTexts.notFound);
  });

  it.each([
    [{ end_date: '2025-10-31' }, `end_date: ${campaignTexts.endBeforeStart}`],
    [{ min_amount: 600, max_amount: 500 }, `min_amount: ${campaignTexts.minAboveMax}`],
    [{ match_ratio: 'double' }, `match_ratio: ${campaignTexts.ratio}`],
    [{ match_ratio: '0:1' }, `match_ratio: ${campaignTexts.ratio}`],
    [{ match_ratio: '11:1' }, `match_ratio: ${campaignTexts.ratio}`],
    [{ name: '   ' }, `name: ${campaignTexts.nameRequired}`],
    [{ start_date: '2025-02-30' }, `start_date: ${campaignTexts.startRequired}`],
    [{ min_amount: -1 }, `min_amount: ${campaignTexts.amount}`],
    [{ company_id: 2_000_000_000 }, `company_id: ${campaignTexts.companyNotFound}`],
  ])('refuses %j with a clear message and writes nothing', async (change, message) => {
    const res = await createCampaign(change);
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(message);
    expect(await t.db.select().from(campaigns)).toEqual([]);
  });

  it('takes a min above the max when the max is 0 (no maximum), and a one-day campaign', async () => {
    const res = await createCampaign({ min_amount: 600, max_amount: 0, end_date: '2025-11-01' });
    expect(res.status).toBe(201);
  });
});

describe("a campaign's terms in the estimated match", () => {
  it('doubles the estimate of a gift at the company within the dates, not before or after them', async () => {
    const campaign = (await createCampaign()).json.campaign as { id: number };
    const inside = await gift();
    expect(inside.matched).toBe(200);
    expect(inside.campaign).toEqual({ id: campaign.id, name: 'Giving Week' });
    // Both ends are included (UTC days).
    expect((await gift({ donated_at: '2025-11-01 00:00:00' })).matched).toBe(200);
    expect((await gift({ donated_at: '2025-11-30 23:59:59' })).matched).toBe(200);
    const before = await gift({ donated_at: '2025-10-31 23:59:59' });
    expect(before.matched).toBe(100);
    expect(before.campaign).toBeNull();
    expect((await gift({ donated_at: '2025-12-01 00:00:00' })).matched).toBe(100);
    // Another company's gift in the same days keeps its own terms.
    expect((await gift({ company_id: company.other })).matched).toBe(100);
  });

  it("applies the campaign's max (0: none, even where the company caps) and its min", async () => {
    await createCampaign({ company_id: company.capped, max_amount: 0 });
    // The company caps at $50; the campaign has no maximum.
    expect((await gift({ company_id: company.capped, amount: 100 })).matched).toBe(200);
    await t.db.delete(campaigns);
    await createCampaign({ max_amount: 150, min_amount: 25 });
    expect((await gift({ amount: 100 })).matched).toBe(150);
    // Below the campaign's minimum: the company's usual terms.
    const small = await gift({ amount: 20 });
    expect(small.matched).toBe(20);
    expect(small.campaign).toBeNull();
  });

  it("uses the company's ratio when the campaign's is blank, and the latest-starting campaign where two overlap", async () => {
    await createCampaign({ match_ratio: null, max_amount: 60 });
    expect((await gift({ amount: 100 })).matched).toBe(60);
    await createCampaign({
      name: 'Match Day',
      start_date: '2025-11-15',
      end_date: '2025-11-15',
      match_ratio: '3:1',
    });
    const matchDay = await gift({ amount: 100 });
    expect(matchDay.matched).toBe(300);
    expect(matchDay.campaign?.name).toBe('Match Day');
  });

  it('re-estimates a saved match by its new date, and keeps the estimate when the campaign is deleted', async () => {
    const campaign = (await createCampaign()).json.campaign as { id: number };
    const outside = await gift({ donated_at: '2025-12-05 12:00:00' });
    expect(outside.matched).toBe(100);
    const moved = await call(t.app, 'PUT', `/api/donation/${outside.id}`, {
      token: token.writer,
      body: {
        donated_at: '2025-11-20 12:00:00',
        amount: 100,
        donor: { name: 'Jordan Lee', email: outside.donor.email },
      },
    });
    expect(moved.json.donation).toMatchObject({ matched: 200, campaign: { id: campaign.id } });
    await call(t.app, 'DELETE', `/api/campaigns/${campaign.id}`, { token: token.writer });
    const kept = await call(t.app, 'GET', `/api/donation/${outside.id}`, { token: token.reader });
    expect(kept.json.donation).toMatchObject({ matched: 200, campaign: null });
  });
});

describe('campaigns in the donor email, the list filter and the CSV', () => {
  it("fills the donor's email with the campaign's name and message", async () => {
    await createCampaign();
    const inside = await gift();
    const mail = await lastMailTo(t.db, inside.donor.email);
    expect(mail?.text).toContain('Giving Week: Every gift this week is matched twice over.');
    const outside = await gift({ donated_at: '2025-12-05 12:00:00' });
    expect((await lastMailTo(t.db, outside.donor.email))?.text).not.toContain('Giving Week');
  });

  it('fills {{campaign_name}} and {{campaign_msg}} where a live template uses them, without repeating them', async () => {
    const values = variableValues({
      donorName: 'Jordan Lee',
      transactionId: null,
      donatedAt: new Date('2025-11-15T12:00:00Z'),
      custom: { campaign: { name: 'Imported Name', message: 'Imported message' } },
      campaign: { name: 'Giving Week', message: 'Twice over.' },
      organization: {
        name: 'Hope Harbor',
        ein: null,
        url: null,
        mission: null,
        file_logo: null,
        notify_contact: {},
      },
      companyName: 'Campaign Portal Co',
      company: null,
    });
    // The campaign the estimate took wins over what an import put in custom.
    expect(values.campaign_name).toBe('Giving Week');
    expect(values.campaign_msg).toBe('Twice over.');
    const texts = { ...shippedTemplates[7], subject1: '{{campaign_name}} doubles your gift' };
    const mail = await renderDonorEmail({
      to: 'jordan@example.org',
      texts,
      stage: 1,
      values,
      links: {
        confirm: null,
        decline: null,
        unsubscribe: 'https://twofold.test/unsubscribe',
        faq: 'https://twofold.test/portal/faq',
        companyUrl: null,
        companyGuide: null,
        openPixel: null,
      },
      supportEmail: 'help@twofold.test',
    });
    expect(mail.subject).toBe('Giving Week doubles your gift');
    // The template already names the campaign: no added sentence.
    expect(mail.text).not.toContain('Giving Week: Twice over.');
  });

  it('filters the list by campaign and names the campaign in the CSV', async () => {
    const campaign = (await createCampaign()).json.campaign as { id: number };
    const inside = await gift();
    await gift({ donated_at: '2025-12-05 12:00:00' });
    const list = await call(
      t.app,
      'GET',
      `/api/organization/${org.parent}/donation?filters[campaign]=${campaign.id}`,
      { token: token.reader },
    );
    expect(list.status).toBe(200);
    expect(list.json.donations.map((d: { id: number }) => d.id)).toEqual([inside.id]);
    expect(list.json.total).toBe(1);
    const bad = await call(t.app, 'GET', `/api/organization/${org.parent}/donation?filters[campaign]=abc`, {
      token: token.reader,
    });
    expect(bad.status).toBe(400);

    const link = await call(t.app, 'GET', `/api/donation/${org.parent}/csv-token`, { token: token.reader });
    const csv = await (await t.app.request(link.json.url as string)).text();
    const [header, ...rows] = parse(csv.replace(/^\uFEFF/, '')) as string[][];
    expect(header).toEqual([...csvColumns]);
    const column = header?.indexOf('Campaign') ?? -1;
    expect(column).toBeGreaterThan(0);
    const byId = Object.fromEntries(rows.map((r) => [r[0], r[column]]));
    expect(byId[String(inside.id)]).toBe('Giving Week');
    expect(Object.values(byId).sort()).toEqual(['', 'Giving Week']);
  });

  it('refuses a campaign on an organization the caller does not belong to, as if it did not exist', async () => {
    const theirs = (await createCampaign({}, org.other)).status;
    // The writer has no access to Maple Street: the create is refused and nothing is written.
    expect(theirs).toBe(404);
    expect(await t.db.select().from(campaigns).where(eq(campaigns.organization_id, org.other))).toEqual([]);
  });
});

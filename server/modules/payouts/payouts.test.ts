import { readFileSync } from 'node:fs';
import * as XLSX from '@e965/xlsx';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { proposePayoutMap, recogniseVendor } from '../../../src/contract/payouts.ts';
import {
  companies,
  donationStatusHistory,
  donations,
  donors,
  payoutBatches,
  payoutLines,
  permissions,
  users,
} from '../../db/schema.ts';
import { demoOrganizationIds, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import { hashPassword } from '../auth/passwords.ts';
import { uniqueHeaders } from '../donations/import-parse.ts';
import {
  classify,
  type MatchCandidate,
  type PayoutLineValues,
  rankCandidates,
  scoreCandidate,
} from './payout-match.ts';

let t: TestContext;
const token: Record<string, string> = {};
const org = { parent: 0, chapter: 0, other: 0 };
let companyId = 0;

beforeAll(async () => {
  t = await createTestContext({ config: { logRequests: false } });
  const demo = await demoOrganizationIds(t.db);
  org.parent = demo.hopeHarbor;
  org.chapter = demo.northShore;
  org.other = demo.mapleStreet;
  const [company] = await t.db
    .insert(companies)
    .values({ name: 'Payout Form Co', match_method: 'form' })
    .returning({ id: companies.id });
  companyId = company?.id ?? 0;
  const [outsider] = await t.db
    .insert(users)
    .values({
      email: 'payout-outsider@example.org',
      name: 'Out',
      password_hash: await hashPassword('outsider-pass'),
    })
    .returning();
  await t.db.insert(permissions).values({ org_id: org.other, user_id: outsider?.id ?? 0, level: 'admin' });
  token.writer = await signIn(t.app, 'writer@twofold.test');
  token.reader = await signIn(t.app, 'reader@twofold.test');
  token.outsider = await signIn(t.app, 'payout-outsider@example.org', 'outsider-pass');
});
afterAll(() => t.close());

const ids = { avery: 0, jordanOld: 0, jordanNew: 0 };
beforeEach(async () => {
  await t.db.delete(payoutBatches);
  await t.db.delete(donations);
  await t.db.delete(donors);
  ids.avery = await stored(org.chapter, 'Avery Stone', 'avery@example.org', 10_000, '2025-03-01');
  ids.jordanOld = await stored(org.parent, 'Jordan Lee', 'jordan@example.org', 5000, '2025-04-01');
  ids.jordanNew = await stored(org.parent, 'Jordan Lee', 'jordan@example.org', 5000, '2025-04-10');
});

async function stored(orgId: number, name: string, email: string, cents: number, day: string) {
  const [donor] = await t.db
    .insert(donors)
    .values({ organization_id: orgId, name, email })
    .returning({ id: donors.id });
  const [row] = await t.db
    .insert(donations)
    .values({
      organization_id: orgId,
      donor_id: donor?.id ?? null,
      company_id: companyId,
      company_name: 'Payout Form Co',
      amount_cents: cents,
      matched_cents: cents,
      donated_at: new Date(`${day}T12:00:00Z`),
      status_id: 4,
    })
    .returning({ id: donations.id });
  return row?.id ?? 0;
}

/** A Benevity report: one exact line (Avery), one ambiguous (Jordan, two $50 gifts), one unknown. */
const benevityReport = [
  'Company,Donation Date,Donor First Name,Donor Last Name,Email,Transaction ID,Total Donation to be Acknowledged,Match Amount',
  'Payout Form Co,2025-03-01,Avery,Stone,avery@example.org,BEN-1,100.00,100.00',
  'Payout Form Co Inc.,,Jordan,Lee,jordan@example.org,BEN-2,50.00,50.00',
  'Payout Form Co,2025-05-05,Casey,Nobody,casey@example.org,BEN-3,75.00,75.00',
].join('\n');

async function send(
  action: 'preview' | 'confirm',
  content: string | Uint8Array<ArrayBuffer>,
  options: { who?: string; orgId?: number; name?: string; map?: unknown; choices?: unknown } = {},
) {
  const form = new FormData();
  form.set('report', new File([content], options.name ?? 'benevity.csv'));
  form.set('paid_at', '2025-06-15');
  if (options.map) form.set('map', JSON.stringify(options.map));
  if (options.choices) form.set('choices', JSON.stringify(options.choices));
  const response = await t.app.request(`/api/organization/${options.orgId ?? org.parent}/payouts/${action}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token[options.who ?? 'writer'] ?? ''}` },
    body: form,
  });
  const text = await response.text();
  return {
    status: response.status,
    text,
    // biome-ignore lint/suspicious/noExplicitAny: tests read the response's fields.
    json: (text.startsWith('{') ? JSON.parse(text) : undefined) as any,
  };
}

const matchesOf = async (list: number[]) =>
  (
    await t.db
      .select({
        id: donations.id,
        status: donations.status_id,
        paid: donations.paid_cents,
        at: donations.paid_at,
      })
      .from(donations)
      .where(inArray(donations.id, list))
  ).sort((a, b) => a.id - b.id);

describe('the matching score (hand-made cases)', () => {
  const candidate = (change: Partial<MatchCandidate> = {}): MatchCandidate => ({
    id: 1,
    donor_name: 'Avery Stone',
    donor_email: 'avery@example.org',
    company_name: 'Acme Corp',
    amount_cents: 10_000,
    matched_cents: 10_000,
    donated_day: '2025-03-01',
    transaction_id: null,
    status_id: 4,
    ...change,
  });
  const line = (change: Partial<PayoutLineValues> = {}): PayoutLineValues => ({
    line: 2,
    donorName: 'Avery Stone',
    donorEmail: 'avery@example.org',
    company: 'ACME, Inc.',
    amountCents: 10_000,
    giftCents: null,
    donatedAt: '2025-03-01',
    paidAt: '2025-06-15',
    transactionId: null,
    ...change,
  });

  it('scores an exact line 80 (email, company, amount, day) and matches it', () => {
    expect(scoreCandidate(line(), candidate())).toBe(80);
    expect(classify(rankCandidates(line(), [candidate()]))).toBe('matched');
  });

  it('is ambiguous when two gifts fit equally (no date to tell them apart)', () => {
    const ranked = rankCandidates(line({ donatedAt: null }), [
      candidate(),
      candidate({ id: 2, donated_day: '2025-03-20' }),
    ]);
    expect(ranked.map((r) => r.score)).toEqual([70, 70]);
    expect(classify(ranked)).toBe('ambiguous');
  });

  it('tells them apart by the day when the report gives it', () => {
    const ranked = rankCandidates(line(), [candidate({ id: 2, donated_day: '2025-03-20' }), candidate()]);
    expect(ranked.map((r) => [r.candidate.id, r.score])).toEqual([
      [1, 80],
      [2, 73],
    ]);
    // 80 against 73 is too close to call.
    expect(classify(ranked)).toBe('ambiguous');
  });

  it('leaves an unknown donor unmatched, and a weak likeness (same last name only) too', () => {
    expect(
      classify(
        rankCandidates(line({ donorEmail: 'x@example.org', donorName: 'Casey Nobody' }), [candidate()]),
      ),
    ).toBe('unmatched');
    expect(
      scoreCandidate(line({ donorEmail: null, donorName: 'Robin Stone', company: null }), candidate()),
    ).toBe(38);
  });

  it('trusts a transaction id, and refuses a gift made after the payment', () => {
    expect(
      scoreCandidate(
        line({ transactionId: 'T-1', donorEmail: null, donorName: null }),
        candidate({ transaction_id: 't-1' }),
      ),
    ).toBe(85);
    expect(scoreCandidate(line({ paidAt: '2025-02-01' }), candidate())).toBe(50);
  });
});

describe('vendor reports', () => {
  it.each([
    ['benevity.csv', 'Benevity'],
    ['yourcause.csv', 'YourCause'],
    ['cybergrants.csv', 'CyberGrants'],
    ['brightfunds.csv', 'Bright Funds'],
  ])('recognises %s as %s and matches its line', async (file, vendor) => {
    const content = readFileSync(new URL(`./fixtures/${file}`, import.meta.url));
    const headers = uniqueHeaders(content.toString().split('\n')[0]?.split(',') ?? []);
    expect(recogniseVendor(headers)).toBe(vendor);
    expect(Object.values(proposePayoutMap(headers))).toContain('amount');
    const res = await send(
      'preview',
      new Uint8Array(content.buffer.slice(content.byteOffset, content.byteOffset + content.byteLength)),
      { name: file },
    );
    expect(res.status, res.text).toBe(200);
    expect(res.json.vendor).toBe(vendor);
    expect(res.json.lines).toMatchObject([
      {
        outcome: 'matched',
        donor_email: 'avery@example.org',
        amount: 100,
        candidates: [{ donation_id: ids.avery }],
      },
    ]);
  });
});

describe('preview and confirm', () => {
  it('shows matched, ambiguous and unmatched lines and changes nothing', async () => {
    const res = await send('preview', benevityReport);
    expect(res.status, res.text).toBe(200);
    expect(res.json.counts).toEqual({ matched: 1, ambiguous: 1, unmatched: 1, recorded: 0, invalid: 0 });
    const [exact, ambiguous, unknown] = res.json.lines;
    expect(exact).toMatchObject({
      line: 2,
      outcome: 'matched',
      paid_at: '2025-06-15',
      candidates: [{ donation_id: ids.avery, score: 80 }],
    });
    expect(ambiguous.outcome).toBe('ambiguous');
    expect(ambiguous.candidates.map((c: { donation_id: number }) => c.donation_id)).toEqual([
      ids.jordanOld,
      ids.jordanNew,
    ]);
    expect(unknown).toMatchObject({ outcome: 'unmatched', candidates: [] });
    expect((await matchesOf([ids.avery])).map((m) => m.status)).toEqual([4]);
    expect(await t.db.select().from(payoutLines)).toHaveLength(0);
  });

  it('confirms: the matched and picked requests are completed with amount and day paid, the unknown one becomes a match; a second upload changes nothing', async () => {
    const res = await send('confirm', benevityReport, { choices: { 3: ids.jordanNew, 4: 'create' } });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ completed: 2, created: 1, skipped: 0, already_recorded: 0, paid: 225 });
    expect(await matchesOf([ids.avery, ids.jordanOld, ids.jordanNew])).toEqual([
      { id: ids.avery, status: 1, paid: 10_000, at: '2025-06-15' },
      { id: ids.jordanOld, status: 4, paid: null, at: null },
      { id: ids.jordanNew, status: 1, paid: 5000, at: '2025-06-15' },
    ]);
    const history = await t.db
      .select()
      .from(donationStatusHistory)
      .where(inArray(donationStatusHistory.donation_id, [ids.avery, ids.jordanNew]));
    expect(history.map((h) => [h.from_status_id, h.to_status_id])).toEqual([
      [4, 1],
      [4, 1],
    ]);
    const [made] = await t.db
      .select()
      .from(donations)
      .where(and(eq(donations.organization_id, org.parent), eq(donations.inert, 1)));
    expect(made).toMatchObject({ status_id: 1, paid_cents: 7500, amount_cents: 7500, company_id: companyId });

    const before = await t.db.select().from(donations);
    const again = await send('preview', benevityReport);
    expect(again.json.recorded).toBe(true);
    expect(again.json.counts).toMatchObject({ recorded: 3, matched: 0 });
    const confirmedAgain = await send('confirm', benevityReport, {
      choices: { 3: ids.jordanOld, 4: 'create' },
    });
    expect(confirmedAgain.status, confirmedAgain.text).toBe(200);
    expect(confirmedAgain.json).toMatchObject({ completed: 0, created: 0, already_recorded: 3 });
    expect(await t.db.select().from(donations)).toEqual(before);
    expect(await t.db.select().from(payoutBatches)).toHaveLength(1);
  });

  it('leaves an ambiguous line alone until one is picked, and refuses two lines paying one match', async () => {
    const res = await send('confirm', benevityReport);
    expect(res.json).toMatchObject({ completed: 1, created: 0, skipped: 2 });
    expect((await matchesOf([ids.jordanOld, ids.jordanNew])).map((m) => m.status)).toEqual([4, 4]);
    // The skipped lines can still be confirmed later, from the same report.
    const twice = `${benevityReport}\nPayout Form Co,,Jordan,Lee,jordan@example.org,BEN-4,50.00,50.00`;
    const refused = await send('confirm', twice, { choices: { 3: ids.jordanOld, 5: ids.jordanOld } });
    expect(refused.status).toBe(400);
    expect(refused.json.message).toBe('Lines 3 and 5 both pay the same match: pick another for one of them.');
    expect((await matchesOf([ids.jordanOld])).map((m) => m.status)).toEqual([4]);
  });

  it('reads XLSX, and sends unknown headers through a map', async () => {
    const sheet = XLSX.utils.aoa_to_sheet([
      ['Employee', 'Mail', 'Paid', 'Employer'],
      ['Avery Stone', 'avery@example.org', 100, 'Payout Form Co'],
    ]);
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, sheet, 'Payouts');
    const bytes = new Uint8Array(XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }));
    const first = await send('preview', bytes, { name: 'acme.xlsx' });
    expect(first.status, first.text).toBe(200);
    expect(first.json).toMatchObject({
      vendor: null,
      problem: 'Choose the column holding the amount paid.',
      lines: [],
    });
    const mapped = await send('preview', bytes, {
      name: 'acme.xlsx',
      map: { employee: 'donor_name', mail: 'donor_email', paid: 'amount', employer: 'company' },
    });
    expect(mapped.json.lines).toMatchObject([
      { outcome: 'matched', candidates: [{ donation_id: ids.avery }] },
    ]);
  });
});

describe('who may', () => {
  it('needs write to preview or confirm: a reader is refused and nothing changes', async () => {
    expect((await send('preview', benevityReport, { who: 'reader' })).status).toBe(403);
    expect((await send('confirm', benevityReport, { who: 'reader' })).status).toBe(403);
    expect((await matchesOf([ids.avery]))[0]?.status).toBe(4);
  });

  it("never matches or pays another organization's requests", async () => {
    const theirs = await stored(org.other, 'Avery Stone', 'avery@example.org', 10_000, '2025-03-01');
    // The outsider's organization has its own Avery: Hope Harbor's lines never reach it.
    const preview = await send('preview', benevityReport, { who: 'outsider', orgId: org.other });
    expect(preview.json.lines[0].candidates.map((c: { donation_id: number }) => c.donation_id)).toEqual([
      theirs,
    ]);
    expect((await send('preview', benevityReport, { who: 'outsider' })).status).toBe(404);
    const refused = await send('confirm', benevityReport, { choices: { 3: theirs } });
    expect(refused.status).toBe(400);
    expect((await matchesOf([theirs, ids.avery])).map((m) => m.status)).toEqual([4, 4]);
  });
});

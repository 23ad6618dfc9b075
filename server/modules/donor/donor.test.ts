import { solveChallenge } from 'altcha-lib/v1';
import { and, asc, eq, like, sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { donationMessages } from '../../../src/contract/donations.ts';
import {
  DonorMatchResponse,
  DonorMatchUpdateResponse,
  DonorSessionResponse,
  donorMessages,
  donorTexts,
  MatchRequestResponse,
} from '../../../src/contract/donor.ts';
import { captchaFailedMessage } from '../../../src/contract/public.ts';
import { matchPagePath } from '../../../src/contract/setup.ts';
import {
  companies,
  donationStatusHistory,
  donations,
  oneTimeTokens,
  organizations,
  outbox,
} from '../../db/schema.ts';
import { demoOrganizationNames } from '../../db/seed.ts';
import { call, demoOrganizationIds, lastMailTo, linkIn, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import { donorTokenLifetimeSeconds, hashToken } from '../auth/tokens.ts';

let t: TestContext;
let admin = '';
let hopeHarbor = 0;
let mapleStreet = 0;
beforeAll(async () => {
  t = await createTestContext();
  admin = await signIn(t.app, 'admin@twofold.test');
  ({ hopeHarbor, mapleStreet } = await demoOrganizationIds(t.db));
});
afterAll(() => t.close());

async function company(name: string) {
  const [row] = await t.db.select().from(companies).where(eq(companies.name, name));
  if (!row) throw new Error(`no company ${name}`);
  return row;
}

let unique = 0;
/** A match created by staff, as the nonprofit's list would hold it. */
async function staffMatch(overrides: Record<string, unknown> = {}, org = hopeHarbor) {
  unique++;
  const res = await call(t.app, 'POST', `/api/organization/${org}/donation`, {
    token: admin,
    body: {
      donated_at: '2025-03-01T12:00:00Z',
      amount: 100,
      donor: { name: 'Jordan Rivers', email: `jordan${unique}@example.org` },
      company_id: null,
      company_name: 'Someone Unknown Inc',
      ...overrides,
    },
  });
  if (res.status !== 201 && res.status !== 200) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.json.donation as { id: number; donor: { email: string }; status_id: number };
}

const requestLink = (email: string, id: number | string) =>
  call(
    t.app,
    'GET',
    `/api/auth/otp?email=${encodeURIComponent(email)}&redirect=${encodeURIComponent(`/donor-match-update/${id}`)}`,
  );

/** Donor link mails to an address (the match's status emails, if any, are not counted). */
const linkMailCount = async (to: string) =>
  (
    await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(outbox)
      .where(and(eq(outbox.to, to), like(outbox.subject, 'Edit your match request%')))
  )[0]?.n ?? 0;

/** Requests a donor link and returns the token from the email. */
async function linkToken(email: string, id: number): Promise<string> {
  const res = await requestLink(email, id);
  expect(res.status).toBe(200);
  const mail = await lastMailTo(t.db, email.toLowerCase());
  if (!mail) throw new Error('no donor link mail');
  const url = linkIn(mail.text, `${t.config.publicUrl}/portal/donor-match-update/${id}?token=`);
  return url.searchParams.get('token') ?? '';
}

async function donorSession(email: string, id: number): Promise<string> {
  const res = await call(t.app, 'POST', '/api/donor/session', {
    body: { token: await linkToken(email, id) },
  });
  expect(res.status).toBe(200);
  return z.parse(DonorSessionResponse, res.json).token;
}

describe('the donor link (GET /api/auth/otp with a donor-match-update redirect)', () => {
  it('emails the match’s donor a one-time link to the edit page, stored only as a hash', async () => {
    const match = await staffMatch();
    const res = await requestLink(match.donor.email.toUpperCase(), match.id);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ message: donorMessages.linkSent });
    const mail = await lastMailTo(t.db, match.donor.email);
    expect(mail?.subject).toBe(`Edit your match request for ${demoOrganizationNames.hopeHarbor}`);
    const url = linkIn(
      mail?.text ?? '',
      `${t.config.publicUrl}/portal/donor-match-update/${match.id}?token=`,
    );
    const token = url.searchParams.get('token') ?? '';
    const [stored] = await t.db
      .select()
      .from(oneTimeTokens)
      .where(eq(oneTimeTokens.token_hash, hashToken(token)));
    expect(stored).toMatchObject({ purpose: 'donor_link', user_id: null, used_at: null });
    expect(JSON.stringify(stored)).not.toContain(token);
    const hours = ((stored?.expires_at.getTime() ?? 0) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
  });

  it('answers the same, and sends nothing, for another email, a missing match or a match without that donor', async () => {
    const match = await staffMatch();
    const answers = [
      await requestLink('stranger@example.org', match.id),
      await requestLink(match.donor.email, 2_000_000_000),
      await requestLink('nobody-at-all@example.org', 999_999),
    ];
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ message: donorMessages.linkSent });
    }
    expect(await linkMailCount('stranger@example.org')).toBe(0);
    expect(await linkMailCount(match.donor.email)).toBe(0);
  });

  it('works with the POST form too, from any origin', async () => {
    const match = await staffMatch();
    const res = await call(t.app, 'POST', '/api/auth/otp', {
      body: { email: match.donor.email, redirect: `/portal/donor-match-update/${match.id}` },
      headers: { origin: 'https://nonprofit.example' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await linkMailCount(match.donor.email)).toBe(1);
  });

  it('leaves the staff flow as it was: an unknown staff email is still told so', async () => {
    const res = await call(t.app, 'GET', '/api/auth/otp?email=nobody@example.org&redirect=/portal');
    expect(res.status).toBe(404);
  });
});

describe('POST /api/donor/session', () => {
  it('exchanges the link once for a 2-hour donor session on the donor’s email', async () => {
    const match = await staffMatch();
    const token = await linkToken(match.donor.email, match.id);
    const before = Math.floor(Date.now() / 1000);
    const first = await call(t.app, 'POST', '/api/donor/session', { body: { token } });
    expect(first.status).toBe(200);
    const session = z.parse(DonorSessionResponse, first.json);
    expect(session.match_id).toBe(match.id);
    const claims = decodeJwt(session.token);
    expect(claims).toMatchObject({ purpose: 'donor-session', sub: match.donor.email });
    expect(claims.exp).toBeGreaterThanOrEqual(before + donorTokenLifetimeSeconds);
    expect(claims.exp).toBeLessThanOrEqual(before + donorTokenLifetimeSeconds + 5);

    const again = await call(t.app, 'POST', '/api/donor/session', { body: { token } });
    expect(again.status).toBe(400);
    expect(again.json.message).toBe(donorMessages.linkInvalid);
  });

  it('refuses an expired link, an unknown one and a staff magic link', async () => {
    const match = await staffMatch();
    const token = await linkToken(match.donor.email, match.id);
    await t.db
      .update(oneTimeTokens)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(eq(oneTimeTokens.token_hash, hashToken(token)));
    const expired = await call(t.app, 'POST', '/api/donor/session', { body: { token } });
    expect(expired.status).toBe(400);
    expect(expired.json.message).toBe(donorMessages.linkInvalid);

    const unknown = await call(t.app, 'POST', '/api/donor/session', { body: { token: 'x'.repeat(43) } });
    expect(unknown.status).toBe(400);

    await call(t.app, 'POST', '/api/auth/otp', { body: { email: 'reader@twofold.test' } });
    const magic = linkIn((await lastMailTo(t.db, 'reader@twofold.test'))?.text ?? '', t.config.publicUrl);
    const staffToken = magic.searchParams.get('magic') ?? '';
    const asDonor = await call(t.app, 'POST', '/api/donor/session', { body: { token: staffToken } });
    expect(asDonor.status).toBe(400);
  });

  it('opens nothing when the match has left that email since the link was sent', async () => {
    const match = await staffMatch();
    const token = await linkToken(match.donor.email, match.id);
    await call(t.app, 'PUT', `/api/donation/${match.id}`, {
      token: admin,
      body: {
        donated_at: '2025-03-01T12:00:00Z',
        amount: 100,
        donor: { name: 'J', email: 'new-owner@example.org' },
      },
    });
    const res = await call(t.app, 'POST', '/api/donor/session', { body: { token } });
    expect(res.status).toBe(400);
  });
});

describe('GET /api/donor/donation/{id}', () => {
  it('shows the donor their own match: donor, company with next steps, amount, status, organization', async () => {
    const acme = await company('Acme Analytics');
    const match = await staffMatch({ company_id: acme.id, company_name: acme.name });
    const token = await donorSession(match.donor.email, match.id);
    const res = await call(t.app, 'GET', `/api/donor/donation/${match.id}`, { token });
    expect(res.status).toBe(200);
    const { donation } = z.parse(DonorMatchResponse, res.json);
    expect(donation).toMatchObject({
      id: match.id,
      donor: { name: 'Jordan Rivers', email: match.donor.email },
      company: { id: acme.id, name: 'Acme Analytics', match_method: 'form', deadline: null },
      company_name: 'Acme Analytics',
      amount: 100,
      status: { id: 3, name: 'NPO to Verify/Sign' },
      organization: { name: demoOrganizationNames.hopeHarbor, logo: null },
    });
  });

  it('answers 404 for another donor’s match exactly as for a missing one', async () => {
    const mine = await staffMatch();
    const theirs = await staffMatch();
    const token = await donorSession(mine.donor.email, mine.id);
    const other = await call(t.app, 'GET', `/api/donor/donation/${theirs.id}`, { token });
    const missing = await call(t.app, 'GET', '/api/donor/donation/2000000000', { token });
    expect(other.status).toBe(404);
    expect(other.json).toEqual({ message: donationMessages.notFound });
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual(other.json);
    const put = await call(t.app, 'PUT', `/api/donor/donation/${theirs.id}`, {
      token,
      body: {
        donor: { name: 'Mallory', email: mine.donor.email },
        company_id: null,
        company_name: 'Evil Corp',
      },
    });
    expect(put.status).toBe(404);
    const [row] = await t.db.select().from(donations).where(eq(donations.id, theirs.id));
    expect(row?.company_name).toBe('Someone Unknown Inc');
  });

  it('refuses staff tokens on donor routes and donor tokens on staff routes (401)', async () => {
    const match = await staffMatch();
    const token = await donorSession(match.donor.email, match.id);
    expect((await call(t.app, 'GET', `/api/donor/donation/${match.id}`, { token: admin })).status).toBe(401);
    expect((await call(t.app, 'GET', `/api/donor/donation/${match.id}`)).status).toBe(401);
    expect((await call(t.app, 'GET', `/api/donation/${match.id}`, { token })).status).toBe(401);
    expect((await call(t.app, 'GET', '/api/common', { token })).status).toBe(401);
  });
});

describe('PUT /api/donor/donation/{id}', () => {
  const body = (email: string, overrides: Record<string, unknown> = {}) => ({
    donor: { name: 'Jordan Q. Rivers', email },
    company_id: null,
    company_name: 'Someone Unknown Inc',
    ...overrides,
  });

  it('a new company resolves the status again and records the change as the donor’s', async () => {
    const match = await staffMatch();
    expect(match.status_id).toBe(23);
    const esign = await company('Acme Biotech');
    const token = await donorSession(match.donor.email, match.id);
    const res = await call(t.app, 'PUT', `/api/donor/donation/${match.id}`, {
      token,
      body: body(match.donor.email, { company_id: esign.id, company_name: esign.name, amount: 100 }),
    });
    expect(res.status).toBe(200);
    const answer = z.parse(DonorMatchUpdateResponse, res.json);
    expect(answer.message).toBe(donorTexts.updated);
    expect(answer.transferred).toBe(false);
    expect(answer.donation).toMatchObject({
      donor: { name: 'Jordan Q. Rivers' },
      company: { name: 'Acme Biotech', match_method: 'esign', deadline: '2025-12-31' },
      status: { id: 5, name: 'Donor to E-Sign Form' },
      amount: 100,
    });
    const history = await t.db
      .select()
      .from(donationStatusHistory)
      .where(eq(donationStatusHistory.donation_id, match.id))
      .orderBy(asc(donationStatusHistory.id));
    expect(history.map((h) => [h.from_status_id, h.to_status_id, h.source, h.user_id])).toEqual([
      [null, 23, 'staff', expect.any(Number)],
      [23, 5, 'donor', null],
    ]);
    // Staff see the donor's change.
    const staff = await call(t.app, 'GET', `/api/donation/${match.id}`, { token: admin });
    expect(staff.json.donation).toMatchObject({
      company_name: 'Acme Biotech',
      status_id: 5,
      donor_name: 'Jordan Q. Rivers',
    });
  });

  it('keeps the amount: a different one is refused and nothing changes', async () => {
    const match = await staffMatch();
    const token = await donorSession(match.donor.email, match.id);
    const res = await call(t.app, 'PUT', `/api/donor/donation/${match.id}`, {
      token,
      body: body(match.donor.email, { amount: 1000, company_name: 'Changed Co' }),
    });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(donorMessages.amountFixed);
    const [row] = await t.db.select().from(donations).where(eq(donations.id, match.id));
    expect(row).toMatchObject({ amount_cents: 10_000, company_name: 'Someone Unknown Inc' });
  });

  it('requires name, email and company with clear messages', async () => {
    const match = await staffMatch();
    const token = await donorSession(match.donor.email, match.id);
    const put = (b: unknown) => call(t.app, 'PUT', `/api/donor/donation/${match.id}`, { token, body: b });
    const noName = await put(body(match.donor.email, { donor: { name: '  ', email: match.donor.email } }));
    expect(noName.status).toBe(400);
    expect(noName.json.message).toContain(donorMessages.nameRequired);
    const badEmail = await put(body(match.donor.email, { donor: { name: 'J', email: 'not-an-email' } }));
    expect(badEmail.status).toBe(400);
    expect(badEmail.json.message).toContain(donorMessages.emailInvalid);
    const noCompany = await put(body(match.donor.email, { company_name: '' }));
    expect(noCompany.status).toBe(400);
    expect(noCompany.json.message).toContain(donorMessages.companyRequired);
    const unknownCompany = await put(
      body(match.donor.email, { company_id: 2_000_000_000, company_name: 'X' }),
    );
    expect(unknownCompany.status).toBe(400);
  });

  it('a new email transfers the request: the session no longer reaches it', async () => {
    const match = await staffMatch();
    const token = await donorSession(match.donor.email, match.id);
    const res = await call(t.app, 'PUT', `/api/donor/donation/${match.id}`, {
      token,
      body: body(' Jordan.New@Example.org '),
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      transferred: true,
      message: donorMessages.transferred,
      donation: { donor: { email: 'jordan.new@example.org' } },
    });
    expect((await call(t.app, 'GET', `/api/donor/donation/${match.id}`, { token })).status).toBe(404);
    // The new address can ask for its own link.
    const next = await donorSession('jordan.new@example.org', match.id);
    expect((await call(t.app, 'GET', `/api/donor/donation/${match.id}`, { token: next })).status).toBe(200);
  });

  it('answers cross-origin preflights for PUT', async () => {
    const res = await t.app.request('/api/donor/donation/1', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://nonprofit.example',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-methods')).toContain('PUT');
  });
});

/** What the browser does: fetch a challenge, solve it, send the solution base64-encoded. */
async function solvedCaptcha(): Promise<string> {
  const c = (await call(t.app, 'GET', '/api/captcha/challenge')).json;
  const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
  if (!solution) throw new Error('unsolvable challenge');
  const payload = {
    algorithm: c.algorithm,
    challenge: c.challenge,
    number: solution.number,
    salt: c.salt,
    signature: c.signature,
  };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

const hopeSlug = () =>
  encodeURIComponent(matchPagePath(demoOrganizationNames.hopeHarbor).slice('/match/'.length));

describe('GET /api/public/match/{slug}', () => {
  it('finds the organization by its matching-page slug (name lowercased, first space a hyphen) or id', async () => {
    expect(matchPagePath(demoOrganizationNames.hopeHarbor)).toBe('/match/hope-harbor foundation');
    const res = await call(t.app, 'GET', `/api/public/match/${hopeSlug()}`, {
      headers: { origin: 'https://nonprofit.example' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.json.organization).toMatchObject({ id: hopeHarbor, name: demoOrganizationNames.hopeHarbor });
    expect(res.json.organization.mission).toContain('Hope Harbor');
    const byId = await call(t.app, 'GET', `/api/public/match/${mapleStreet}`);
    expect(byId.json.organization.name).toBe(demoOrganizationNames.mapleStreet);
    const upper = await call(t.app, 'GET', `/api/public/match/${hopeSlug().toUpperCase()}`);
    expect(upper.json.organization.id).toBe(hopeHarbor);
  });

  it('answers 404 for unknown and deactivated organizations', async () => {
    const unknown = await call(t.app, 'GET', '/api/public/match/no-such-nonprofit');
    expect(unknown.status).toBe(404);
    expect(unknown.json.message).toBe(donorMessages.organizationNotFound);
    for (const odd of ['%00', 'a%00b', '%zz', '%E0%A4%A', 'x'.repeat(300), '2147483648', '0'])
      expect((await call(t.app, 'GET', `/api/public/match/${odd}`)).status, odd).toBeLessThan(500);
    // Every space hyphenated is not the rule's slug.
    expect((await call(t.app, 'GET', '/api/public/match/hope-harbor-foundation')).status).toBe(404);
    const [org] = await t.db
      .insert(organizations)
      .values({ name: 'Closed Shelter', type: 'non-profit', complete: true, rule_deactivated: true })
      .returning();
    expect((await call(t.app, 'GET', '/api/public/match/closed-shelter')).status).toBe(404);
    expect((await call(t.app, 'GET', `/api/public/match/${org?.id}`)).status).toBe(404);
  });
});

describe('POST /api/public/match/{slug}', () => {
  const request = (captcha: string, overrides: Record<string, unknown> = {}) => ({
    donor: { name: 'Casey Doe', email: `casey${++unique}@example.org` },
    company_id: null,
    company_name: 'Birch Telecom',
    amount: 250,
    donated_at: '2025-06-15',
    transaction_id: null,
    captcha,
    ...overrides,
  });
  const post = (body: unknown, slug = hopeSlug()) =>
    call(t.app, 'POST', `/api/public/match/${slug}`, { body });

  it('creates the match with its resolved status and answers the company’s next steps', async () => {
    const res = await post(request(await solvedCaptcha(), { transaction_id: 'GIVE-1001' }));
    expect(res.status).toBe(201);
    const answer = z.parse(MatchRequestResponse, res.json);
    expect(answer).toMatchObject({
      status: { id: 7, name: 'Donor to Submit in Company Portal' },
      company: {
        name: 'Birch Telecom',
        match_method: 'csr',
        maximum_match: 25_000,
        match_ratio: 3,
        // 365 days after the gift.
        deadline: '2026-06-15',
      },
      company_name: 'Birch Telecom',
    });
    const [row] = await t.db.select().from(donations).where(eq(donations.id, answer.match_id));
    expect(row).toMatchObject({
      organization_id: hopeHarbor,
      amount_cents: 25_000,
      transaction_id: 'GIVE-1001',
      status_id: 7,
    });
    expect(row?.donated_at.toISOString()).toBe('2025-06-15T12:00:00.000Z');
    const history = await t.db
      .select()
      .from(donationStatusHistory)
      .where(eq(donationStatusHistory.donation_id, answer.match_id));
    expect(history).toMatchObject([
      { from_status_id: null, to_status_id: 7, source: 'public', user_id: null },
    ]);
    // The nonprofit sees it in its list.
    const staff = await call(t.app, 'GET', `/api/donation/${answer.match_id}`, { token: admin });
    expect(staff.json.donation.donor.name).toBe('Casey Doe');
  });

  it('keeps an Other employer as typed, on hold until the company is known', async () => {
    const res = await post(request(await solvedCaptcha(), { company_name: 'Tiny Family Bakery' }));
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ status: { id: 23 }, company: null, company_name: 'Tiny Family Bakery' });
  });

  it('requires a solved captcha, used once', async () => {
    const missing = await post(request(''));
    expect(missing.status).toBe(400);
    expect(missing.json.message).toContain(donorMessages.captchaRequired);
    const forged = await post(request(Buffer.from('{"x":1}').toString('base64')));
    expect(forged.status).toBe(400);
    expect(forged.json.message).toBe(captchaFailedMessage);
    const captcha = await solvedCaptcha();
    expect((await post(request(captcha))).status).toBe(201);
    const reused = await post(request(captcha));
    expect(reused.status).toBe(400);
    expect(reused.json.message).toBe(captchaFailedMessage);
  });

  it('refuses a transaction id the organization already has (409) and writes nothing', async () => {
    expect((await post(request(await solvedCaptcha(), { transaction_id: 'DUP-77' }))).status).toBe(201);
    const again = await post(request(await solvedCaptcha(), { transaction_id: 'DUP-77' }));
    expect(again.status).toBe(409);
    expect(again.json.message).toBe(donationMessages.duplicateTransaction);
    const rows = await t.db
      .select()
      .from(donations)
      .where(and(eq(donations.organization_id, hopeHarbor), eq(donations.transaction_id, 'DUP-77')));
    expect(rows).toHaveLength(1);
    // Another organization may use the same id.
    const maple = await post(
      request(await solvedCaptcha(), { transaction_id: 'DUP-77' }),
      String(mapleStreet),
    );
    expect(maple.status).toBe(201);
  });

  it('answers two simultaneous requests with one transaction id with one match and one 409', async () => {
    const [a, b] = await Promise.all([
      post(request(await solvedCaptcha(), { transaction_id: 'RACE-1' })),
      post(request(await solvedCaptcha(), { transaction_id: 'RACE-1' })),
    ]);
    expect([a?.status, b?.status].sort()).toEqual([201, 409]);
  });

  it('checks the gift: amount above zero, a real date not in the future', async () => {
    const captcha = await solvedCaptcha();
    const zero = await post(request(captcha, { amount: 0 }));
    expect(zero.status).toBe(400);
    expect(zero.json.message).toContain(donorMessages.amountPositive);
    const future = await post(request(captcha, { donated_at: '2999-01-01' }));
    expect(future.status).toBe(400);
    expect(future.json.message).toContain(donorMessages.dateFuture);
    const fake = await post(request(captcha, { donated_at: '2025-02-30' }));
    expect(fake.status).toBe(400);
    expect(fake.json.message).toContain(donorMessages.dateInvalid);
    // The captcha was not spent by refused input.
    expect((await post(request(captcha))).status).toBe(201);
  });

  it('answers 404 for an unknown organization', async () => {
    const res = await post(request(await solvedCaptcha()), 'no-such-nonprofit');
    expect(res.status).toBe(404);
  });
});

describe('rate limits', () => {
  it('limits match requests per email address', async () => {
    const limited = await createTestContext({
      config: { rateLimit: { windowMs: 60_000, perIp: 100, perEmail: 2 } },
    });
    try {
      const body = {
        donor: { name: 'A', email: 'same@example.org' },
        company_id: null,
        company_name: 'X Co',
        amount: 5,
        donated_at: '2025-01-01',
        captcha: 'bad',
      };
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++)
        statuses.push(
          (await call(limited.app, 'POST', '/api/public/match/hope-harbor%20foundation', { body })).status,
        );
      expect(statuses).toEqual([400, 400, 429]);
      const links: number[] = [];
      for (let i = 0; i < 3; i++)
        links.push(
          (await call(limited.app, 'GET', '/api/auth/otp?email=d@example.org&redirect=/donor-match-update/1'))
            .status,
        );
      expect(links).toEqual([200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});

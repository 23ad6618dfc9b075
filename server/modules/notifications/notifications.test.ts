import { threadId } from 'node:worker_threads';
import { solveChallenge } from 'altcha-lib/v1';
import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../app.ts';
import {
  companies,
  donationNotifications,
  donations,
  organizations,
  outbox,
  permissions,
  users,
} from '../../db/schema.ts';
import { memoryLogger } from '../../http/logger.ts';
import { afterCommitSettled } from '../../jobs/after-commit.ts';
import { createMailWorker } from '../../jobs/mail-worker.ts';
import type { MailMessage } from '../../mail/templates.ts';
import { call, demoOrganizationIds, readyForMatching, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext, testDb } from '../../testing.ts';
import { hashPassword } from '../auth/passwords.ts';
import { hashToken, signDonorToken } from '../auth/tokens.ts';
import { renderQueuedMails } from '../templates/mail-queue.ts';
import {
  closeRenderThread,
  renderQueuedOffThread,
  renderThreadCompleted,
} from '../templates/render-thread.ts';
import { notifyMatches } from './notifications.service.ts';

let t: TestContext;
const token: Record<string, string> = {};
const org = { parent: 0, chapter: 0, other: 0 };
const company: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestContext({ config: { logRequests: false } });
  const demo = await demoOrganizationIds(t.db);
  org.parent = demo.hopeHarbor;
  org.chapter = demo.northShore;
  org.other = demo.mapleStreet;
  await readyForMatching(t.db, [org.parent, org.chapter]);
  const made = await t.db
    .insert(companies)
    .values([
      {
        name: 'Notify Portal Co',
        match_method: 'csr',
        url: 'https://portal-co.example.com/give',
        guide: 'Sign in with your employee id, then choose Match a Gift.',
        match_ratio: '1',
      },
      { name: 'Notify Form Co', match_method: 'form' },
      { name: 'Notify Mail Co', match_method: 'mail' },
      { name: 'Notify Minimum Co', match_method: 'csr', minimum_match_cents: 50_000 },
    ])
    .returning({ id: companies.id, name: companies.name });
  for (const c of made) company[c.name] = c.id;
  const [outsider] = await t.db
    .insert(users)
    .values({
      email: 'outsider-n@example.org',
      name: 'Out Sider',
      password_hash: await hashPassword('outsider-pass'),
    })
    .returning();
  await t.db.insert(permissions).values({ org_id: org.other, user_id: outsider?.id ?? 0, level: 'admin' });
  token.writer = await signIn(t.app, 'writer@twofold.test');
  token.reader = await signIn(t.app, 'reader@twofold.test');
  token.outsider = await signIn(t.app, 'outsider-n@example.org', 'outsider-pass');
});
afterAll(async () => {
  await closeRenderThread();
  await t.close();
});
beforeEach(async () => {
  await t.db.delete(donations);
  await t.db.delete(outbox);
  await t.db.update(organizations).set({ email_who: 'all', email_min: 0 });
});

let serial = 0;
function match(change: Record<string, unknown> = {}) {
  serial += 1;
  return {
    id: 0,
    donated_at: '2025-03-01 12:00:00',
    amount: 100,
    donor: { name: 'Jordan Lee', email: `jordan${serial}@example.org` },
    company_id: company['Notify Portal Co'],
    ...change,
  };
}
async function create(change: Record<string, unknown> = {}, orgId = org.parent) {
  const res = await call(t.app, 'POST', `/api/organization/${orgId}/donation`, {
    token: token.writer ?? '',
    body: match(change),
  });
  expect(res.status).toBe(201);
  return res.json.donation as { id: number; status_id: number; donor: { email: string } };
}
const mailTo = (to: string) => t.db.select().from(outbox).where(eq(outbox.to, to)).orderBy(desc(outbox.id));
const notificationsOf = (donationId: number) =>
  t.db
    .select()
    .from(donationNotifications)
    .where(eq(donationNotifications.donation_id, donationId))
    .orderBy(desc(donationNotifications.id));
/** Moves every notification a week and a minute into the past (the weekly limit has passed). */
const ageNotifications = () =>
  t.db.update(donationNotifications).set({ created_at: sql`now() - interval '7 days 1 minute'` });

describe('a new match whose status asks the donor to act', () => {
  it('queues one email to the donor and records it with its subject, at status 7', async () => {
    const donation = await create({ donor: { name: 'Jordan Lee', email: 'Jordan.Portal@Example.org' } });
    expect(donation.status_id).toBe(7);
    const mails = await mailTo('jordan.portal@example.org');
    expect(mails).toHaveLength(1);
    const mail = mails[0];
    // The shipped Default version of template 7, rendered through the one donor-email path.
    expect(mail?.subject).toBe('Double your gift to Hope Harbor Foundation');
    expect(mail?.html).toContain('Hi Jordan,');
    expect(mail?.html).toContain('https://portal-co.example.com/give');
    expect(mail?.html).toContain('Sign in with your employee id, then choose Match a Gift.');
    expect(mail?.text).toContain('Open Notify Portal Co&#39;s matching gift site'.replace('&#39;', "'"));
    expect(mail?.html).toMatch(
      /src="http:\/\/portal\.test\/api\/notification\/open\.gif\?t=[A-Za-z0-9_-]{43}"/,
    );
    const rows = await notificationsOf(donation.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      status_id: 7,
      to_email: 'jordan.portal@example.org',
      subject: mail?.subject,
      outbox_id: mail?.id,
      first_open: null,
      organization_id: org.parent,
    });
    // The stored copy is what went out, minus the tracking image; the token itself is not stored.
    const pixelToken = mail?.html.match(/open\.gif\?t=([A-Za-z0-9_-]+)/)?.[1] ?? '';
    expect(rows[0]?.html).toBe(mail?.html.replace(/<img [^>]*open\.gif[^>]*>/, ''));
    expect(rows[0]?.html).not.toContain('open.gif');
    expect(rows[0]?.open_token_hash).not.toContain(pixelToken);
  });

  it('escapes what people typed and links the FAQ with the match, the donor and the company', async () => {
    const donation = await create({
      donor: { name: '<b>Ann</b> Smith', email: 'ann@example.org' },
      company_id: null,
      company_name: 'Acme & <Sons>',
    });
    expect(donation.status_id).toBe(23);
    const [mail] = await mailTo('ann@example.org');
    expect(mail?.subject).toBe('Where do you work? Your gift to Hope Harbor Foundation could be matched');
    expect(mail?.html).toContain('Hi &lt;b&gt;Ann&lt;/b&gt;,');
    expect(mail?.html).not.toContain('<b>Ann</b>');
    const faq = new URL(mail?.text.match(/read the FAQ: (\S+)/)?.[1] ?? 'http://x');
    expect(faq.origin + faq.pathname).toBe('http://portal.test/portal/faq');
    expect(faq.searchParams.get('di')).toBe(String(donation.id));
    expect(faq.searchParams.get('de')).toBe('ann@example.org');
    expect(faq.searchParams.get('cn')).toBe('Acme & <Sons>');
  });

  it('GET /api/donation/{id} lists the notifications newest first with id, created_at, subject, first_open (and kind, stage)', async () => {
    const donation = await create();
    await ageNotifications();
    const res = await call(t.app, 'PUT', `/api/donation/${donation.id}`, {
      token: token.writer ?? '',
      body: { ...match(), id: undefined, donor: donation.donor, company_id: company['Notify Mail Co'] },
    });
    expect(res.status).toBe(200);
    const got = await call(t.app, 'GET', `/api/donation/${donation.id}`, { token: token.reader ?? '' });
    const list = got.json.donation.notifications as Array<Record<string, unknown>>;
    expect(list.map((n) => n.subject)).toEqual([
      'Double your gift to Hope Harbor Foundation: let Notify Mail Co know',
      'Double your gift to Hope Harbor Foundation',
    ]);
    // The spec's four fields, and (ours) which email of the workflow each was.
    expect(Object.keys(list[0] ?? {}).sort()).toEqual([
      'created_at',
      'first_open',
      'id',
      'kind',
      'stage',
      'subject',
    ]);
    expect(list[0]).toMatchObject({ first_open: null, kind: 'initial', stage: 1 });
  });
});

describe('no email, and no record, when', () => {
  it('the match is silenced', async () => {
    const d = await create({ silenced: true });
    expect(await notificationsOf(d.id)).toHaveLength(0);
    expect(await mailTo(d.donor.email)).toHaveLength(0);
  });

  it('the donor has no email', async () => {
    const d = await create({ donor: { name: 'No Mail' } });
    expect(d.status_id).toBe(7);
    expect(await notificationsOf(d.id)).toHaveLength(0);
    expect(await t.db.select().from(outbox)).toHaveLength(0);
  });

  it('the status asks nothing of the donor (3 NPO to Verify/Sign)', async () => {
    const d = await create({ company_id: company['Notify Form Co'] });
    expect(d.status_id).toBe(3);
    expect(await notificationsOf(d.id)).toHaveLength(0);
  });

  it('the organization emails only donors who named an employer and this one did not, but not when they did', async () => {
    await t.db.update(organizations).set({ email_who: 'company' }).where(eq(organizations.id, org.parent));
    const none = await create({ company_id: null, company_name: null });
    expect(none.status_id).toBe(23);
    expect(await notificationsOf(none.id)).toHaveLength(0);
    const named = await create({ company_id: null, company_name: 'Unlisted Employer Inc' });
    expect(named.status_id).toBe(23);
    expect(await notificationsOf(named.id)).toHaveLength(1);
  });

  it("the gift is below the organization's email_min (whole dollars), but not at it", async () => {
    await t.db.update(organizations).set({ email_min: 100 }).where(eq(organizations.id, org.parent));
    const below = await create({ amount: 99.99 });
    expect(await notificationsOf(below.id)).toHaveLength(0);
    const at = await create({ amount: 100 });
    expect(await notificationsOf(at.id)).toHaveLength(1);
  });

  it('the organization is deactivated', async () => {
    await t.db.update(organizations).set({ rule_deactivated: true }).where(eq(organizations.id, org.chapter));
    try {
      const d = await create({}, org.chapter);
      expect(d.status_id).toBe(14);
      expect(await notificationsOf(d.id)).toHaveLength(0);
    } finally {
      await t.db
        .update(organizations)
        .set({ rule_deactivated: false })
        .where(eq(organizations.id, org.chapter));
    }
  });

  it('the organization emailed the donor within the last week (spec: "sent at most weekly")', async () => {
    const donor = { name: 'Weekly Donor', email: 'weekly@example.org' };
    const first = await create({ donor });
    const second = await create({ donor, company_id: company['Notify Mail Co'] });
    expect(second.status_id).toBe(8);
    expect(await notificationsOf(first.id)).toHaveLength(1);
    expect(await notificationsOf(second.id)).toHaveLength(0);
    expect(await mailTo('weekly@example.org')).toHaveLength(1);
    // Another organization's emails do not count: the chapter is its own sender.
    const chapter = await create({ donor }, org.chapter);
    expect(await notificationsOf(chapter.id)).toHaveLength(1);
    // A week later the donor may be emailed again.
    await ageNotifications();
    const third = await create({ donor });
    expect(await notificationsOf(third.id)).toHaveLength(1);
  });
});

describe('a changed match', () => {
  it('a company change by Save & Re-Email to a donor-action status sends a new email, unless within the week', async () => {
    const d = await create({ company_id: company['Notify Form Co'] });
    expect(d.status_id).toBe(3);
    expect(await notificationsOf(d.id)).toHaveLength(0);
    const put = (companyId: number | undefined) =>
      call(t.app, 'PUT', `/api/donation/${d.id}`, {
        token: token.writer ?? '',
        body: { ...match(), id: undefined, donor: d.donor, company_id: companyId, reprocess: true },
      });
    expect((await put(company['Notify Mail Co'])).json.donation.status_id).toBe(8);
    const afterFirst = await notificationsOf(d.id);
    expect(afterFirst.map((n) => n.status_id)).toEqual([8]);
    expect((await put(company['Notify Portal Co'])).json.donation.status_id).toBe(7);
    expect(await notificationsOf(d.id)).toHaveLength(1);
    await ageNotifications();
    expect((await put(company['Notify Portal Co'])).status).toBe(200);
    expect((await notificationsOf(d.id)).map((n) => n.status_id)).toEqual([7, 8]);
  });

  it('a save without reprocess or company change sends nothing', async () => {
    const d = await create();
    await ageNotifications();
    const res = await call(t.app, 'PUT', `/api/donation/${d.id}`, {
      token: token.writer ?? '',
      body: { ...match(), id: undefined, donor: d.donor, amount: 120 },
    });
    expect(res.status).toBe(200);
    expect(await notificationsOf(d.id)).toHaveLength(1);
  });

  it('a gift below the company minimum tells the donor the minimum', async () => {
    const d = await create({ company_id: company['Notify Minimum Co'], amount: 100 });
    expect(d.status_id).toBe(10);
    const [mail] = await mailTo(d.donor.email);
    expect(mail?.subject).toBe('Your gift to Hope Harbor Foundation is below Notify Minimum Co’s minimum');
    expect(mail?.text).toContain('at least $500.00');
  });
});

describe('the open-tracking image', () => {
  async function sentToken() {
    const d = await create();
    const [mail] = await mailTo(d.donor.email);
    return { donationId: d.id, pixel: mail?.html.match(/open\.gif\?t=([A-Za-z0-9_-]+)/)?.[1] ?? '' };
  }

  it('sets first_open on the first load only, and answers the same gif every time', async () => {
    const { donationId, pixel } = await sentToken();
    const first = await t.app.request(`/api/notification/open.gif?t=${pixel}`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/gif');
    const body = new Uint8Array(await first.arrayBuffer());
    expect(new TextDecoder().decode(body.slice(0, 6))).toBe('GIF89a');
    const [opened] = await notificationsOf(donationId);
    expect(opened?.first_open).toBeInstanceOf(Date);
    await t.db
      .update(donationNotifications)
      .set({ first_open: new Date('2026-01-01T00:00:00Z') })
      .where(eq(donationNotifications.donation_id, donationId));
    const again = await t.app.request(`/api/notification/open.gif?t=${pixel}`);
    expect(new Uint8Array(await again.arrayBuffer())).toEqual(body);
    const [still] = await notificationsOf(donationId);
    expect(still?.first_open?.toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });

  it('answers the same gif for garbage, missing and unknown tokens and changes nothing', async () => {
    const { donationId } = await sentToken();
    const reference = new Uint8Array(await (await t.app.request('/api/notification/open.gif')).arrayBuffer());
    for (const query of ['?t=nope', '?t=%27;drop', `?t=${'a'.repeat(5000)}`, '?t=', '?t=a&t=b', '']) {
      const res = await t.app.request(`/api/notification/open.gif${query}`);
      expect(res.status, query).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/gif');
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(reference);
    }
    // Text no token can hold (a NUL) is refused before the route, like on every route; it tells
    // nothing about real tokens, which never hold one.
    const nul = await t.app.request('/api/notification/open.gif?t=%00%27;drop');
    expect(nul.status).toBe(400);
    expect(await nul.json()).toEqual({ message: 't: Text cannot contain NUL characters' });
    const [row] = await notificationsOf(donationId);
    expect(row?.first_open).toBeNull();
  });
});

describe('GET /api/notification/{id}/preview', () => {
  it('gives a reader of the organization the subject and the HTML as sent, without the tracking image', async () => {
    const d = await create();
    const [row] = await notificationsOf(d.id);
    const res = await call(t.app, 'GET', `/api/notification/${row?.id}/preview`, {
      token: token.reader ?? '',
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      id: row?.id,
      donation_id: d.id,
      subject: row?.subject,
      to: d.donor.email,
    });
    expect(res.json.html).toBe(row?.html);
    expect(res.json.html).not.toContain('open.gif');
    // Previewing is not an open.
    const [after] = await notificationsOf(d.id);
    expect(after?.first_open).toBeNull();
  });

  it("works for a chapter's notification through the parent's permission", async () => {
    const d = await create({}, org.chapter);
    const [row] = await notificationsOf(d.id);
    const res = await call(t.app, 'GET', `/api/notification/${row?.id}/preview`, {
      token: token.reader ?? '',
    });
    expect(res.status).toBe(200);
  });

  it("answers another organization's notification exactly like a missing one, and 401 without a session", async () => {
    const d = await create();
    const [row] = await notificationsOf(d.id);
    const other = await call(t.app, 'GET', `/api/notification/${row?.id}/preview`, {
      token: token.outsider ?? '',
    });
    const missing = await call(t.app, 'GET', '/api/notification/2147483647/preview', {
      token: token.outsider ?? '',
    });
    expect(other.status).toBe(404);
    expect(other.json).toEqual({ message: 'Notification not found' });
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual(other.json);
    const anonymous = await call(t.app, 'GET', `/api/notification/${row?.id}/preview`);
    expect(anonymous.status).toBe(401);
    const bad = await call(t.app, 'GET', '/api/notification/abc/preview', { token: token.reader ?? '' });
    expect(bad.status).toBe(400);
  });
});

describe('other paths that set a status', () => {
  it('the import emails each new match donor once, one per donor, in its transaction', () =>
    importEmailsEachDonorOnce(t.app));

  it.runIf(testDb === 'postgres')(
    "on PostgreSQL, the import's emails are rendered in the render thread, the same way",
    async () => {
      // As the server runs with DATABASE_URL: the notifier hands the rendering to the thread.
      const { app } = createApp({
        config: { ...t.config, databaseUrl: t.url },
        db: t.db,
        logger: memoryLogger(),
      });
      const before = renderThreadCompleted();
      await importEmailsEachDonorOnce(app);
      expect(renderThreadCompleted()).toBe(before + 1);
    },
  );

  async function importEmailsEachDonorOnce(app: TestContext['app']) {
    const [parent] = await t.db.select().from(organizations).where(eq(organizations.id, org.parent));
    const [chapter] = await t.db.select().from(organizations).where(eq(organizations.id, org.chapter));
    const csv = [
      'Donor Name,Email,Amount,Date,Company,Organization',
      `Ira One,ira@example.org,50,2025-03-01,Notify Portal Co,"${parent?.name}"`,
      `Ira One,ira@example.org,60,2025-03-02,Notify Mail Co,"${parent?.name}"`,
      `Bo Two,bo@example.org,70,2025-03-03,Notify Form Co,"${chapter?.name}"`,
      `Cy Three,cy@example.org,80,2025-03-04,Notify Mail Co,"${chapter?.name}"`,
    ].join('\n');
    const form = new FormData();
    form.set('donations', new File([csv], 'donations.csv', { type: 'text/csv' }));
    form.set('type', 'Upload');
    form.set(
      'map',
      JSON.stringify({
        donor_name: 'donor.name',
        email: 'donor.email',
        amount: 'amount',
        date: 'donated_at',
        company: 'company.name',
        organization: 'organization_name',
      }),
    );
    const res = await app.request(`/api/organization/${org.parent}/donation/import-file/Upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.writer}` },
      body: form,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    // The emails were recorded with the matches (whether or not rendered yet), one per donor.
    const sent = await t.db
      .select({ to: donationNotifications.to_email, status: donationNotifications.status_id })
      .from(donationNotifications)
      .orderBy(donationNotifications.to_email);
    expect(sent).toEqual([
      { to: 'cy@example.org', status: 8 },
      { to: 'ira@example.org', status: 7 },
    ]);
    // They are rendered into the outbox once the upload has committed.
    await afterCommitSettled(t.db);
    expect(
      await t.db.select().from(donationNotifications).where(eq(donationNotifications.queued, true)),
    ).toEqual([]);
    expect((await t.db.select().from(outbox)).map((m) => m.to).sort()).toEqual([
      'cy@example.org',
      'ira@example.org',
    ]);
    // Each stored copy is its outbox message minus the tracking image, as for a single match.
    const copies = await t.db
      .select({ notification: donationNotifications, mail: outbox })
      .from(donationNotifications)
      .innerJoin(outbox, eq(outbox.id, donationNotifications.outbox_id));
    expect(copies).toHaveLength(2);
    for (const { notification, mail } of copies) {
      expect(notification.subject).toBe(mail.subject);
      expect(notification.text).toBe(mail.text);
      expect(mail.html).toMatch(/open\.gif\?t=[A-Za-z0-9_-]{43}"/);
      expect(notification.html).toBe(mail.html.replace(/<img [^>]*open\.gif[^>]*>/, ''));
    }
  }

  it('the donor changing their company on their edit screen is emailed about the new status', async () => {
    const d = await create({
      company_id: company['Notify Form Co'],
      donor: { name: 'Dee', email: 'dee@example.org' },
    });
    expect(await notificationsOf(d.id)).toHaveLength(0);
    const donorToken = await signDonorToken(t.config.jwtSecret, 'dee@example.org');
    const put = await call(t.app, 'PUT', `/api/donor/donation/${d.id}`, {
      token: donorToken,
      body: {
        donor: { name: 'Dee', email: 'dee@example.org' },
        company_id: company['Notify Portal Co'],
        company_name: 'Notify Portal Co',
      },
    });
    expect(put.status, put.text).toBe(200);
    const rows = await notificationsOf(d.id);
    expect(rows.map((r) => [r.status_id, r.to_email])).toEqual([[7, 'dee@example.org']]);
  });

  it("a donor's request on the public matching page emails them what their company needs", async () => {
    const c = (await call(t.app, 'GET', '/api/captcha/challenge')).json;
    const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
    const captcha = Buffer.from(
      JSON.stringify({
        algorithm: c.algorithm,
        challenge: c.challenge,
        number: solution?.number,
        salt: c.salt,
        signature: c.signature,
      }),
    ).toString('base64');
    const res = await call(t.app, 'POST', `/api/public/match/${org.parent}`, {
      body: {
        donor: { name: 'Pat Public', email: 'pat.public@example.org' },
        company_id: company['Notify Mail Co'],
        company_name: 'Notify Mail Co',
        amount: 80,
        donated_at: '2025-06-15',
        transaction_id: null,
        captcha,
      },
    });
    expect(res.status, res.text).toBe(201);
    const rows = await notificationsOf(res.json.match_id);
    expect(rows.map((r) => [r.status_id, r.to_email, r.subject])).toEqual([
      [8, 'pat.public@example.org', 'Double your gift to Hope Harbor Foundation: let Notify Mail Co know'],
    ]);
  });

  it('rolls back with the change that caused it: a failed transaction leaves no mail and no record', async () => {
    const d = await create({ company_id: company['Notify Form Co'] });
    await t.db.update(donations).set({ status_id: 8 }).where(eq(donations.id, d.id));
    await expect(
      t.db.transaction(async (tx) => {
        expect(await notifyMatches(tx, [d.id], t.config)).toHaveLength(1);
        throw new Error('a later step failed');
      }),
    ).rejects.toThrow('a later step failed');
    expect(await notificationsOf(d.id)).toHaveLength(0);
    expect(await mailTo(d.donor.email)).toHaveLength(0);
    expect(await notifyMatches(t.db, [d.id], t.config)).toHaveLength(1);
    expect(await mailTo(d.donor.email)).toHaveLength(1);
  });
});

describe('emails recorded now and rendered after the commit (an import queues its emails)', () => {
  /** The match's donor emailed again, queued in a transaction of its own (the weekly limit passed). */
  async function queueFor(donationId: number) {
    await ageNotifications();
    return t.db.transaction((tx) => notifyMatches(tx, [donationId], t.config, { queue: true }));
  }

  it('records the email without rendering it, then renders it into the outbox with a working open link', async () => {
    const d = await create();
    const [queuedId] = await queueFor(d.id);
    const [queued] = await t.db
      .select()
      .from(donationNotifications)
      .where(eq(donationNotifications.id, queuedId ?? 0));
    expect(queued).toMatchObject({
      queued: true,
      subject: null,
      html: null,
      text: null,
      outbox_id: null,
      status_id: 7,
    });
    expect(await mailTo(d.donor.email)).toHaveLength(1);
    // Not sent yet: the match's notifications leave it out, and it has no preview.
    const listed = await call(t.app, 'GET', `/api/donation/${d.id}`, {
      token: token.reader ?? '',
    });
    expect(listed.status).toBe(200);
    expect((listed.json.donation.notifications as Array<{ id: number }>).map((n) => n.id)).not.toContain(
      queuedId,
    );
    const early = await call(t.app, 'GET', `/api/notification/${queuedId}/preview`, {
      token: token.reader ?? '',
    });
    expect(early.status).toBe(404);

    expect(await renderQueuedMails(t.db, t.config)).toBe(1);
    expect(await renderQueuedMails(t.db, t.config)).toBe(0);
    const [mail] = await mailTo(d.donor.email);
    const [row] = await t.db
      .select()
      .from(donationNotifications)
      .where(eq(donationNotifications.id, queuedId ?? 0));
    expect(row).toMatchObject({
      queued: false,
      outbox_id: mail?.id,
      subject: mail?.subject,
      text: mail?.text,
    });
    expect(mail?.html).toContain('Hi Jordan,');
    expect(row?.html).toBe(mail?.html.replace(/<img [^>]*open\.gif[^>]*>/, ''));
    const preview = await call(t.app, 'GET', `/api/notification/${queuedId}/preview`, {
      token: token.reader ?? '',
    });
    expect(preview.status).toBe(200);
    expect(preview.json.html).toBe(row?.html);
    // The image's token, made when the email was rendered, is the one whose hash was recorded.
    const pixel = mail?.html.match(/open\.gif\?t=([A-Za-z0-9_-]+)/)?.[1] ?? '';
    expect(hashToken(pixel)).toBe(row?.open_token_hash);
    await t.app.request(`/api/notification/open.gif?t=${pixel}`);
    const [opened] = await t.db
      .select()
      .from(donationNotifications)
      .where(eq(donationNotifications.id, queuedId ?? 0));
    expect(opened?.first_open).not.toBeNull();
  });

  it('is rendered and delivered by the mail worker when no one rendered it after the commit', async () => {
    const d = await create();
    await t.db.update(outbox).set({ status: 'sent' });
    await queueFor(d.id);
    const delivered: MailMessage[] = [];
    const worker = createMailWorker({
      db: t.db,
      transport: { kind: 'smtp', send: async (message) => void delivered.push(message) },
      logger: memoryLogger(),
      renderQueued: () => renderQueuedMails(t.db, t.config),
    });
    expect(await worker.runOnce()).toBe(1);
    expect(delivered.map((m) => m.to)).toEqual([d.donor.email.toLowerCase()]);
    expect(
      await t.db.select().from(donationNotifications).where(eq(donationNotifications.queued, true)),
    ).toEqual([]);
  });

  it('drops a queued email whose match was deleted before it was rendered', async () => {
    const d = await create();
    const [queuedId] = await queueFor(d.id);
    const other = await create();
    const [kept] = await queueFor(other.id);
    await t.db.delete(donations).where(eq(donations.id, d.id));
    expect(await renderQueuedMails(t.db, t.config)).toBe(1);
    const rows = await t.db.select().from(donationNotifications);
    expect(rows.map((r) => r.id)).toContain(kept);
    expect(rows.map((r) => r.id)).not.toContain(queuedId);
  });

  it.runIf(testDb === 'postgres')(
    'on PostgreSQL, renders in a thread of its own with its own connection, each email once',
    async () => {
      const d = await create();
      const [queuedId] = await queueFor(d.id);
      const answer = await renderQueuedOffThread(t.url ?? '', t.config);
      expect(answer.rendered).toBe(1);
      expect(answer.threadId).not.toBe(threadId);
      expect((await renderQueuedOffThread(t.url ?? '', t.config)).rendered).toBe(0);
      const [mail] = await mailTo(d.donor.email);
      const [row] = await t.db
        .select()
        .from(donationNotifications)
        .where(eq(donationNotifications.id, queuedId ?? 0));
      expect(row).toMatchObject({ queued: false, outbox_id: mail?.id, subject: mail?.subject });
      expect(mail?.html).toContain('Hi Jordan,');
      expect(row?.html).toBe(mail?.html.replace(/<img [^>]*open\.gif[^>]*>/, ''));
      // Its links are signed with this server's secret: the open image counts the open.
      const pixel = mail?.html.match(/open\.gif\?t=([A-Za-z0-9_-]+)/)?.[1] ?? '';
      expect(hashToken(pixel)).toBe(row?.open_token_hash);
    },
  );

  it('two renderers at once render each queued email once', async () => {
    const matches = [await create(), await create(), await create()];
    await ageNotifications();
    await t.db.transaction((tx) =>
      notifyMatches(
        tx,
        matches.map((m) => m.id),
        t.config,
        { queue: true },
      ),
    );
    const before = (await t.db.select().from(outbox)).length;
    const [a, b] = await Promise.all([renderQueuedMails(t.db, t.config), renderQueuedMails(t.db, t.config)]);
    expect((a ?? 0) + (b ?? 0)).toBe(3);
    expect((await t.db.select().from(outbox)).length).toBe(before + 3);
  });
});

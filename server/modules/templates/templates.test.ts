import { and, desc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { percent, templateTextFields } from '../../../src/contract/email-templates.ts';
import { manualClock } from '../../clock.ts';
import {
  companies,
  donationNotifications,
  donationStatusHistory,
  donations,
  emailTemplates,
  emailUnsubscribes,
  outbox,
} from '../../db/schema.ts';
import { call, demoOrganizationIds, readyForMatching, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import { shippedTemplates } from './defaults.ts';
import { actionToken } from './links.ts';

let t: TestContext;
const clock = manualClock(new Date('2026-03-02T09:00:00Z'));
const token: Record<string, string> = {};
const org = { hope: 0, maple: 0 };
let portalCo = 0;
/** Like portalCo, with a deadline: 60 days after the gift (2026-02-20 → 2026-04-21). */
let deadlineCo = 0;

beforeAll(async () => {
  t = await createTestContext({ config: { logRequests: false }, clock });
  const demo = await demoOrganizationIds(t.db);
  org.hope = demo.hopeHarbor;
  org.maple = demo.mapleStreet;
  await readyForMatching(t.db, [org.hope, org.maple]);
  const [c] = await t.db
    .insert(companies)
    .values({
      name: 'Template Portal Co',
      match_method: 'csr',
      csr_vendor: 'Benevity',
      minimum_match_cents: 2500,
    })
    .returning();
  portalCo = c?.id ?? 0;
  const [withDeadline] = await t.db
    .insert(companies)
    .values({
      name: 'Template Deadline Co',
      match_method: 'csr',
      csr_vendor: 'Benevity',
      deadline_rule: 'days-after-gift',
      deadline_days: 60,
    })
    .returning();
  deadlineCo = withDeadline?.id ?? 0;
  token.writer = await signIn(t.app, 'writer@twofold.test');
  token.reader = await signIn(t.app, 'reader@twofold.test');
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.delete(donations);
  await t.db.delete(outbox);
  await t.db.delete(emailTemplates);
  await t.db.delete(emailUnsubscribes);
});

const base = (orgId = org.hope) => `/api/organization/${orgId}`;
const list = async (statusId = 7, who = 'reader', orgId = org.hope) =>
  call(t.app, 'GET', `${base(orgId)}/mail-templates/${statusId}`, { token: token[who] ?? '' });
const save = (id: number, body: Record<string, unknown>, orgId = org.hope) =>
  call(t.app, 'POST', `${base(orgId)}/template/${id}`, { token: token.writer ?? '', body });

/** A new version of template 7, as the editor makes it: a copy of Default, live false. */
async function newVersion(change: Record<string, unknown> = {}) {
  const [def] = (await list()).json.templates;
  const res = await save(0, { ...def, id: undefined, organization_id: org.hope, live: false, ...change });
  expect(res.status).toBe(200);
  return res.json;
}

let serial = 0;
async function createMatch(change: Record<string, unknown> = {}, orgId = org.hope) {
  serial += 1;
  const res = await call(t.app, 'POST', `${base(orgId)}/donation`, {
    token: token.writer ?? '',
    body: {
      id: 0,
      donated_at: '2026-02-20 12:00:00',
      amount: 100,
      donor: { name: 'Robin Giver', email: `robin${serial}@example.org` },
      company_id: portalCo,
      ...change,
    },
  });
  expect(res.status).toBe(201);
  return res.json.donation as { id: number; status_id: number; donor: { email: string } };
}
const mailTo = (to: string) => t.db.select().from(outbox).where(eq(outbox.to, to)).orderBy(desc(outbox.id));
const linkIn = (text: string, action: string) => {
  const found = text.match(new RegExp(`(http://portal\\.test/api/email/${action}\\?t=\\S+)`))?.[1];
  if (!found) throw new Error(`no ${action} link in:\n${text}`);
  return found.replace('http://portal.test', '');
};
const statusOf = async (id: number) =>
  (await t.db.select({ s: donations.status_id }).from(donations).where(eq(donations.id, id)))[0]?.s;

describe('the template store (GET mail-templates/{statusId})', () => {
  it('answers the shipped Default version first, live, with zero stats, for an organization that changed nothing', async () => {
    const res = await list(7);
    expect(res.status).toBe(200);
    expect(res.json.templates).toHaveLength(1);
    const [def] = res.json.templates;
    expect(def).toMatchObject({
      organization_id: org.hope,
      status_id: 7,
      version: 0,
      label: 'Default',
      live: true,
    });
    for (const field of templateTextFields) expect(def[field]).toBe(shippedTemplates[7][field]);
    expect(def.stats).toEqual({
      sent: 0,
      opened: 0,
      confirm_clicked: 0,
      decline_clicked: 0,
      r1_sent: 0,
      r1_opened: 0,
      r1_confirm_clicked: 0,
      r2_sent: 0,
      r2_opened: 0,
      r2_confirm_clicked: 0,
    });
  });

  it('has shipped texts for all ten template types and the reminder texts of 6, 7, 8 and 25', async () => {
    for (const statusId of [7, 8, 9, 10, 11, 23, 19, 24, 15, 102]) {
      const [def] = (await list(statusId)).json.templates;
      expect(def.subject1, `template ${statusId}`).not.toBe('');
      expect(def.paragraph_one_1, `template ${statusId}`).not.toBe('');
    }
    for (const statusId of [6, 7, 8, 25]) {
      const [def] = (await list(statusId)).json.templates;
      for (const f of ['subject2', 'subject3', 'paragraph_one_2', 'paragraph_one_3'])
        expect(def[f], `template ${statusId} ${f}`).not.toBe('');
    }
  });

  it('answers 404 for a status that has no template', async () => {
    const res = await list(4);
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ message: 'Unknown template type' });
  });
});

describe('versions (spec section 4)', () => {
  it('a new version is a copy labelled A with live false, answered with its id', async () => {
    const a = await newVersion({ subject1: 'Our own subject' });
    expect(a).toMatchObject({ id: expect.any(Number), version: 1, label: 'A', live: false, status_id: 7 });
    expect(a.subject1).toBe('Our own subject');
    expect(a.paragraph_two).toBe(shippedTemplates[7].paragraph_two);
    const all = (await list()).json.templates;
    expect(all.map((v: { label: string }) => v.label)).toEqual(['Default', 'A']);
  });

  it('allows at most 5 versions: Default and A to D, then refuses', async () => {
    for (let i = 0; i < 4; i += 1) await newVersion();
    expect((await list()).json.templates.map((v: { label: string }) => v.label)).toEqual([
      'Default',
      'A',
      'B',
      'C',
      'D',
    ]);
    const [def] = (await list()).json.templates;
    const sixth = await save(0, { ...def, live: false });
    expect(sixth.status).toBe(409);
    expect(sixth.json).toEqual({ message: 'A template has at most 5 versions.' });
  });

  it('Default is read-only and always live; saving it unchanged answers it', async () => {
    const [def] = (await list()).json.templates;
    const changed = await save(def.id, { ...def, subject1: 'Changed' });
    expect(changed.status).toBe(409);
    expect(changed.json.message).toBe(
      'The Default version cannot be changed; create a new version to customise it.',
    );
    const off = await save(def.id, { ...def, live: false });
    expect(off.status).toBe(409);
    const same = await save(def.id, def);
    expect(same.status).toBe(200);
    expect(same.json.subject1).toBe(shippedTemplates[7].subject1);
  });

  it('saves texts, toggles live, and GET template/{id} answers the saved version', async () => {
    const a = await newVersion();
    const saved = await save(a.id, { ...a, paragraph_one_1: 'Hello {{ donor_first_name }}!', live: true });
    expect(saved.status).toBe(200);
    expect(saved.json).toMatchObject({ live: true, paragraph_one_1: 'Hello {{ donor_first_name }}!' });
    const got = await call(t.app, 'GET', `${base()}/template/${a.id}`, { token: token.reader ?? '' });
    expect(got.json).toMatchObject({ id: a.id, live: true, label: 'A' });
    const off = await save(a.id, { ...saved.json, live: false });
    expect(off.json.live).toBe(false);
  });

  it('refuses an unknown {{variable}} on save, naming it and its field, and saves nothing', async () => {
    const a = await newVersion();
    const res = await save(a.id, { ...a, subject1: 'Hi {{donor_nickname}}' });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ message: 'Unknown variable {{donor_nickname}} in subject1' });
    const [row] = await t.db.select().from(emailTemplates).where(eq(emailTemplates.id, a.id));
    expect(row?.subject1).toBe(shippedTemplates[7].subject1);
    const created = await save(0, { ...a, status_id: 7, paragraph_two: '{{ receiving_org_fax }}' });
    expect(created.json).toEqual({ message: 'Unknown variable {{receiving_org_fax}} in paragraph_two' });
  });

  it('reset puts the shipped texts back and keeps live', async () => {
    const a = await newVersion({ subject1: 'Mine', live: true });
    const res = await call(t.app, 'POST', `${base()}/template/${a.id}/reset`, { token: token.writer ?? '' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: a.id, subject1: shippedTemplates[7].subject1, live: true });
  });

  it("another organization's template answers 404, like a missing one", async () => {
    const a = await newVersion();
    const [mapleDefault] = (await list(7, 'writer', org.maple)).json.templates ?? [];
    expect(mapleDefault).toBeUndefined(); // the writer has no permission on Maple Street
    const res = await save(a.id, { ...a, subject1: 'Moved' }, org.maple);
    expect(res.status).toBe(404);
  });
});

describe('the shipped Default of template 8', () => {
  it('reads naturally once its variables are filled, and reaches organizations that kept the Default', async () => {
    // An organization whose Default row was stored by an earlier release, with that release's text.
    await t.db.insert(emailTemplates).values({
      organization_id: org.hope,
      status_id: 8,
      version: 0,
      live: true,
      paragraph_two:
        'Email {{matching_employer_contact_email}} (or your HR team) with your gift to {{receiving_org_name}}, EIN {{receiving_org_ein}}, transaction {{donation_transaction_id}}.',
    });
    const res = await list(8);
    expect(res.status).toBe(200);
    const [def] = res.json.templates;
    expect(def).toMatchObject({ version: 0, label: 'Default', live: true });
    expect(def.paragraph_two).toBe(shippedTemplates[8].paragraph_two);

    const preview = await t.app.request(`${base()}/preview-template`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.reader}`, 'content-type': 'application/json' },
      body: JSON.stringify(shippedTemplates[8]),
    });
    expect(preview.status).toBe(200);
    const text = (await preview.text()).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(text).toContain(
      'Email your matching gift or HR team about your gift to Hope Harbor Foundation (EIN',
    );
    expect(text).toContain('transaction TX-10042).');
    // The team is named once, not twice over.
    expect(text.match(/HR team/g)).toHaveLength(1);
    expect(text).not.toContain('(or your HR team)');
  });
});

describe('preview-template', () => {
  it('renders the posted texts with an example match, variables filled and escaped', async () => {
    const res = await t.app.request(`${base()}/preview-template`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.reader}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...shippedTemplates[7], paragraph_one_1: '<b>{{donor_first_name}}</b> gave' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toContain('&lt;b&gt;Jordan&lt;/b&gt; gave');
    expect(html).toContain('Hope Harbor Foundation');
    expect(html).not.toContain('{{');
  });

  it('the 1st reminder tab previews the reminder texts', async () => {
    const res = await t.app.request(`${base()}/preview-template`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.reader}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...shippedTemplates[7], header2: 'Second look', stage: 2 }),
    });
    expect(await res.text()).toContain('Second look');
  });
});

describe('sending: every donor email is the live version, rendered through one path', () => {
  it('a live version A replaces Default for new matches, with its own subject and paragraph', async () => {
    const a = await newVersion({
      subject1: 'A match for {{receiving_org_name}} awaits, {{donor_first_name}}',
      paragraph_one_1: 'Custom first paragraph for {{donor_full_name}}.',
    });
    await save(a.id, { ...a, live: true });
    const d = await createMatch();
    expect(d.status_id).toBe(7);
    const [mail] = await mailTo(d.donor.email);
    expect(mail?.subject).toBe('A match for Hope Harbor Foundation awaits, Robin');
    // Sent for its organization: the mail worker picks that organization's sender (issue #28).
    expect(mail?.organization_id).toBe(org.hope);
    expect(mail?.html).toContain('Custom first paragraph for Robin Giver.');
    expect(mail?.text).toContain('Custom first paragraph for Robin Giver.');
    const [n] = await t.db
      .select()
      .from(donationNotifications)
      .where(eq(donationNotifications.donation_id, d.id));
    expect(n).toMatchObject({ template_id: a.id, stage: 1, kind: 'initial' });
  });

  it('with nothing customised, the Default version sends, and the plain-text part carries every link', async () => {
    const d = await createMatch();
    const [mail] = await mailTo(d.donor.email);
    expect(mail?.subject).toBe('Double your gift to Hope Harbor Foundation');
    expect(mail?.text).toContain("I've done it: http://portal.test/api/email/confirm?t=");
    expect(mail?.text).toContain("I won't be submitting: http://portal.test/api/email/decline?t=");
    expect(mail?.text).toContain('http://portal.test/api/email/unsubscribe?t=');
    expect(mail?.text).toContain('Benevity');
  });

  it('two live versions share new matches, and the stats count each version', async () => {
    const a = await newVersion({ subject1: 'Version A' });
    const b = await newVersion({ subject1: 'Version B' });
    await save(a.id, { ...a, live: true });
    await save(b.id, { ...b, live: true });
    const subjects = [];
    for (let i = 0; i < 4; i += 1) {
      const d = await createMatch();
      subjects.push((await mailTo(d.donor.email))[0]?.subject);
    }
    expect(subjects.filter((s) => s === 'Version A')).toHaveLength(2);
    expect(subjects.filter((s) => s === 'Version B')).toHaveLength(2);
    const listed = (await list()).json;
    expect(listed.templates.map((v: { stats: { sent: number } }) => v.stats.sent)).toEqual([0, 2, 2]);
    expect(listed.comparisons).toEqual([
      { a: a.id, b: b.id, p_value: null, significant: false, message: 'not enough data yet' },
    ]);
  });

  it('compares confirm rates once there is enough data: percentages to one decimal, the p-value', async () => {
    const a = await newVersion({ subject1: 'Version A' });
    const b = await newVersion({ subject1: 'Version B' });
    const match = (await createMatch()).id;
    // 200 emails per version: A confirmed 60 times (30.0%), B 30 times (15.0%).
    const rows = (template: number, confirmed: number) =>
      Array.from({ length: 200 }, (_, i) => ({
        donation_id: match,
        organization_id: org.hope,
        status_id: 7,
        to_email: `ab${template}-${i}@example.org`,
        subject: 's',
        html: 'h',
        text: 't',
        open_token_hash: `ab-${template}-${i}`,
        template_id: template,
        stage: 1,
        kind: 'initial',
        confirm_clicked_at: i < confirmed ? new Date() : null,
      }));
    await t.db.insert(donationNotifications).values([...rows(a.id, 60), ...rows(b.id, 30)]);
    const listed = (await list()).json;
    const va = listed.templates.find((v: { id: number }) => v.id === a.id);
    const vb = listed.templates.find((v: { id: number }) => v.id === b.id);
    expect(percent(va.stats.confirm_clicked, va.stats.sent)).toBe('30.0%');
    expect(percent(vb.stats.confirm_clicked, vb.stats.sent)).toBe('15.0%');
    const cmp = listed.comparisons.find((c: { a: number; b: number }) => c.a === a.id && c.b === b.id);
    expect(cmp).toMatchObject({ a: a.id, b: b.id, significant: true });
    expect(cmp.p_value).toBeLessThan(0.001);
  });
});

describe('the signed step links', () => {
  it('confirm: the page asks, the button moves the match to Donor Engaged once, a second click changes nothing', async () => {
    const d = await createMatch();
    const [mail] = await mailTo(d.donor.email);
    const confirm = linkIn(mail?.text ?? '', 'confirm');
    const page = await t.app.request(confirm);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Did you submit your gift for a match?');
    expect(await statusOf(d.id)).toBe(7); // looking at the page (or a mail scanner) changes nothing
    const done = await t.app.request(confirm, { method: 'POST' });
    expect(await done.text()).toContain(
      'We have recorded that you submitted your gift to Hope Harbor Foundation',
    );
    expect(await statusOf(d.id)).toBe(28);
    const history = await t.db
      .select()
      .from(donationStatusHistory)
      .where(eq(donationStatusHistory.donation_id, d.id))
      .orderBy(desc(donationStatusHistory.id));
    expect(history[0]).toMatchObject({ from_status_id: 7, to_status_id: 28, source: 'donor' });
    const again = await t.app.request(confirm, { method: 'POST' });
    expect(again.status).toBe(200);
    expect(await again.text()).toContain('Already recorded');
    expect(await statusOf(d.id)).toBe(28);
    const [def] = (await list()).json.templates;
    expect(def.stats).toMatchObject({ sent: 1, confirm_clicked: 1, decline_clicked: 0 });
  });

  it('decline moves the match to Donor Declined (21)', async () => {
    const d = await createMatch();
    const [mail] = await mailTo(d.donor.email);
    await t.app.request(linkIn(mail?.text ?? '', 'decline'), { method: 'POST' });
    expect(await statusOf(d.id)).toBe(21);
  });

  it('a link whose signature or action was changed is refused and changes nothing', async () => {
    const d = await createMatch();
    const [n] = await t.db
      .select()
      .from(donationNotifications)
      .where(eq(donationNotifications.donation_id, d.id));
    const confirmToken = actionToken(t.config.jwtSecret, n?.id ?? 0, 'confirm');
    const swapped = await t.app.request(`/api/email/decline?t=${confirmToken}`, { method: 'POST' });
    expect(swapped.status).toBe(400);
    const forged = await t.app.request(`/api/email/confirm?t=${n?.id}.confirm.${'A'.repeat(43)}`, {
      method: 'POST',
    });
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('Link not valid');
    expect(await statusOf(d.id)).toBe(7);
  });

  it('a match that moved on is left as it is', async () => {
    const d = await createMatch();
    await t.db.update(donations).set({ status_id: 4 }).where(eq(donations.id, d.id));
    const [mail] = await mailTo(d.donor.email);
    const res = await t.app.request(linkIn(mail?.text ?? '', 'confirm'), { method: 'POST' });
    expect(await res.text()).toContain('already moved on (Submitted)');
    expect(await statusOf(d.id)).toBe(4);
  });
});

describe('the lifetime of the step links (the match deadline plus 30 days; a year without one)', () => {
  let before: Date;
  beforeEach(() => {
    before = clock.now();
    clock.set(new Date('2026-03-10T09:00:00Z'));
  });
  afterEach(() => clock.set(before));

  const clicksOf = async (donationId: number) =>
    t.db
      .select({
        confirm: donationNotifications.confirm_clicked_at,
        decline: donationNotifications.decline_clicked_at,
      })
      .from(donationNotifications)
      .where(eq(donationNotifications.donation_id, donationId));
  const donorHistory = async (donationId: number) =>
    t.db
      .select()
      .from(donationStatusHistory)
      .where(
        and(eq(donationStatusHistory.donation_id, donationId), eq(donationStatusHistory.source, 'donor')),
      );

  it('work until the end of the 30th day after the deadline, then answer 410 with a page that says what to do, and change nothing', async () => {
    const early = await createMatch({ company_id: deadlineCo });
    const late = await createMatch({ company_id: deadlineCo });
    const earlyConfirm = linkIn((await mailTo(early.donor.email))[0]?.text ?? '', 'confirm');
    const [lateMail] = await mailTo(late.donor.email);
    const lateConfirm = linkIn(lateMail?.text ?? '', 'confirm');
    const lateDecline = linkIn(lateMail?.text ?? '', 'decline');

    // Deadline 2026-04-21, so the links work through 2026-05-21 (UTC).
    clock.set(new Date('2026-05-21T23:59:00Z'));
    expect((await t.app.request(lateConfirm)).status).toBe(200);
    const done = await t.app.request(earlyConfirm, { method: 'POST' });
    expect(done.status).toBe(200);
    expect(await statusOf(early.id)).toBe(28);

    clock.set(new Date('2026-05-22T00:00:01Z'));
    for (const [url, method] of [
      [lateConfirm, 'GET'],
      [lateConfirm, 'POST'],
      [lateDecline, 'POST'],
    ] as const) {
      const res = await t.app.request(url, { method });
      expect(res.status, `${method} ${url}`).toBe(410);
      expect(res.headers.get('content-type')).toContain('text/html');
      const html = await res.text();
      expect(html).toContain('This link has expired');
      expect(html).toContain(
        'This link stopped working on May 21, 2026, after the company&#39;s deadline to request a match for this gift, so nothing was changed.',
      );
      expect(html).toContain('please contact Hope Harbor Foundation');
      expect(html).toContain('use the Unsubscribe link at the bottom of any of their emails');
      expect(html).not.toContain('<form');
    }
    expect(await statusOf(late.id)).toBe(7);
    expect(await clicksOf(late.id)).toEqual([{ confirm: null, decline: null }]);
    expect(await donorHistory(late.id)).toEqual([]);

    // A changed token is still refused as not valid, expired or not.
    const forged = lateConfirm.replace(/\.confirm\.\S{43}$/, `.confirm.${'A'.repeat(43)}`);
    expect(forged).not.toBe(lateConfirm);
    const refused = await t.app.request(forged, { method: 'POST' });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('Link not valid');
  });

  it('without a known deadline, work for a year after the email', async () => {
    const d = await createMatch(); // portalCo has no deadline rule
    const decline = linkIn((await mailTo(d.donor.email))[0]?.text ?? '', 'decline');
    clock.set(new Date('2027-03-10T08:59:00Z'));
    expect((await t.app.request(decline)).status).toBe(200);
    clock.set(new Date('2027-03-10T09:00:01Z'));
    const res = await t.app.request(decline, { method: 'POST' });
    expect(res.status).toBe(410);
    expect(await res.text()).toContain('a year after the email was sent');
    expect(await statusOf(d.id)).toBe(7);
    expect(await clicksOf(d.id)).toEqual([{ confirm: null, decline: null }]);
  });

  it('unsubscribe never expires: years after the deadline, the one-click POST still unsubscribes', async () => {
    const d = await createMatch({ company_id: deadlineCo });
    const [mail] = await mailTo(d.donor.email);
    const url = (mail?.headers['List-Unsubscribe'] ?? '').slice(1, -1).replace('http://portal.test', '');
    clock.set(new Date('2031-01-01T00:00:00Z'));
    expect((await t.app.request(url)).status).toBe(200);
    const res = await t.app.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('will not email you about matching gifts any more');
    expect(
      await t.db.select().from(emailUnsubscribes).where(eq(emailUnsubscribes.email, d.donor.email)),
    ).toHaveLength(1);
  });
});

describe('one-click unsubscribe', () => {
  it('every donor email carries List-Unsubscribe and List-Unsubscribe-Post', async () => {
    const d = await createMatch();
    const [mail] = await mailTo(d.donor.email);
    expect(mail?.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    expect(mail?.headers['List-Unsubscribe']).toMatch(
      /^<http:\/\/portal\.test\/api\/email\/unsubscribe\?t=\S+>$/,
    );
  });

  it('the one-click POST stops that organization emailing the donor', async () => {
    const d = await createMatch({ donor: { name: 'Una Sub', email: 'una@example.org' } });
    const [mail] = await mailTo('una@example.org');
    const url = (mail?.headers['List-Unsubscribe'] ?? '').slice(1, -1).replace('http://portal.test', '');
    const res = await t.app.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(
      'Hope Harbor Foundation will not email you about matching gifts any more.',
    );
    expect(
      await t.db
        .select()
        .from(emailUnsubscribes)
        .where(
          and(
            eq(emailUnsubscribes.organization_id, org.hope),
            eq(emailUnsubscribes.email, 'una@example.org'),
          ),
        ),
    ).toHaveLength(1);
    clock.advance(8 * 24 * 3600 * 1000); // past the weekly limit
    await t.db.update(donations).set({ status_id: 7 }).where(eq(donations.id, d.id));
    await createMatch({ donor: { name: 'Una Sub', email: 'una@example.org' } });
    expect(await mailTo('una@example.org')).toHaveLength(1);
  });
});

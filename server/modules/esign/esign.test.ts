import { createRequire } from 'node:module';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { desc, eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esignMessages } from '../../../src/contract/esign.ts';
import { companies, donationStatusHistory, donations, donors, esignDocuments } from '../../db/schema.ts';
import { createMailWorker } from '../../jobs/mail-worker.ts';
import { devMailboxTransport } from '../../mail/transport.ts';
import { call, demoOrganizationIds, lastMailTo, linkIn, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import { notifyMatches } from '../notifications/notifications.service.ts';
import { packetDelivered } from './esign.service.ts';
import { sha256 } from './esign-pdf.ts';

let t: TestContext;
const token = { reader: '', writer: '' };
const org = { parent: 0, other: 0 };
const company = { email: 0, noEmail: 0, paper: 0 };

beforeAll(async () => {
  t = await createTestContext({ config: { logRequests: false } });
  const demo = await demoOrganizationIds(t.db);
  org.parent = demo.hopeHarbor;
  org.other = demo.mapleStreet;
  const made = await t.db
    .insert(companies)
    .values([
      { name: 'Signco', match_method: 'esign', forms_email: 'matching@signco.example' },
      { name: 'Quietsign', match_method: 'esign' },
      {
        name: 'Inkwell Paper',
        match_method: 'paper',
        forms_address: 'Inkwell Paper Inc.\n1 Quill Road\nSpringfield, IL 62701',
      },
    ])
    .returning();
  company.email = made[0]?.id ?? 0;
  company.noEmail = made[1]?.id ?? 0;
  company.paper = made[2]?.id ?? 0;
  token.reader = await signIn(t.app, 'reader@twofold.test');
  token.writer = await signIn(t.app, 'writer@twofold.test');
});
afterAll(() => t.close());

let n = 0;
/** A match of a donor with their own email, at a company and status. */
async function match(companyId: number, statusId: number, orgId = org.parent) {
  const email = `signer${++n}@example.org`;
  const [donor] = await t.db
    .insert(donors)
    .values({ organization_id: orgId, name: `Sam Signer${n}`, email })
    .returning();
  const [row] = await t.db
    .insert(donations)
    .values({
      organization_id: orgId,
      donor_id: donor?.id ?? null,
      company_id: companyId,
      amount_cents: 50_000,
      matched_cents: 50_000,
      donated_at: new Date('2026-02-01T12:00:00Z'),
      transaction_id: `TX-SIGN-${n}`,
      status_id: statusId,
    })
    .returning();
  return { id: row?.id ?? 0, email };
}

/** A match at Donor to E-Sign Form whose donor was emailed: the signing link from that email. */
async function emailedMatch(companyId = company.email, orgId = org.parent) {
  const m = await match(companyId, 5, orgId);
  await t.db.transaction((tx) => notifyMatches(tx, [m.id], t.config));
  const mail = await lastMailTo(t.db, m.email);
  if (!mail) throw new Error('no e-sign email');
  const link = linkIn(mail.text, `${t.config.publicUrl}/sign/`);
  return { ...m, mail, link, token: link.pathname.slice('/sign/'.length) };
}

const ua = { 'user-agent': 'SignTest/1.0' };
const sign = (tok: string, body: Record<string, unknown> = { name: 'Sam Signer', consent: true }) =>
  call(t.app, 'POST', `/api/esign/${tok}`, { body, headers: ua });

async function record(donationId: number) {
  const [r] = await t.db.select().from(esignDocuments).where(eq(esignDocuments.donation_id, donationId));
  return r;
}
async function statusOf(donationId: number) {
  const [r] = await t.db
    .select({ status: donations.status_id })
    .from(donations)
    .where(eq(donations.id, donationId));
  return r?.status;
}

const standardFontDataUrl = `${path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'))}/standard_fonts/`;
/** The text of every page of a PDF. */
async function pagesOf(bytes: Uint8Array): Promise<string[]> {
  const doc = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, standardFontDataUrl })
    .promise;
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  return pages;
}
async function download(donationId: number, auth = token.reader) {
  const res = await t.app.request(`/donation/${donationId}/esign/download`, {
    headers: { authorization: `Bearer ${auth}` },
  });
  return {
    status: res.status,
    bytes: new Uint8Array(await res.arrayBuffer()),
    type: res.headers.get('content-type'),
  };
}

/** A valid 16x8 PNG: a drawn signature. */
const png8 =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAICAYAAADwdn+XAAAAJ0lEQVR4nGNgYGD4DwQMyJgUMQZKNINpSjSjGECuVyjSDBUb6oEIAJLbSsTrYZInAAAAAElFTkSuQmCC';

describe('the donor signs', () => {
  it("emails a signing link with Donor to E-Sign Form's template, shown as adobe_sign_signingUrl while open", async () => {
    const m = await emailedMatch();
    expect(m.mail.subject).toContain('Sign Signco’s matching gift form');
    expect(m.mail.html).toContain(m.link.toString().replace(/&/g, '&amp;'));
    const got = await call(t.app, 'GET', `/api/donation/${m.id}`, { token: token.reader });
    expect(got.json.donation.adobe_sign_signingUrl).toBe(m.link.toString());
    const form = await call(t.app, 'GET', `/api/esign/${m.token}`);
    expect(form.status).toBe(200);
    expect(form.json).toMatchObject({
      state: 'open',
      form: {
        donation_id: m.id,
        donor: { name: expect.stringMatching(/^Sam Signer/), email: m.email },
        gift: { date: '2026-02-01', amount: 500, transaction_id: expect.stringMatching(/^TX-SIGN-/) },
        company: { name: 'Signco' },
      },
    });
    expect(form.json.form.consent).toContain('sign this matching gift form electronically');
  });

  it('signs once: the signed packet with its audit page is stored, the match moves to NPO to Verify/Sign, the link is used up', async () => {
    const m = await emailedMatch();
    const signed = await sign(m.token, { name: 'Sam Q. Signer', consent: true });
    expect(signed.status).toBe(200);
    expect(await statusOf(m.id)).toBe(3);
    const [history] = await t.db
      .select()
      .from(donationStatusHistory)
      .where(eq(donationStatusHistory.donation_id, m.id))
      .orderBy(desc(donationStatusHistory.id));
    expect(history).toMatchObject({ from_status_id: 5, to_status_id: 3, source: 'donor' });
    const r = await record(m.id);
    expect(r?.audit).toHaveLength(1);
    expect(r?.audit[0]).toMatchObject({
      event: 'donor-signed',
      name: 'Sam Q. Signer',
      email: m.email,
      userAgent: 'SignTest/1.0',
      method: 'typed',
    });
    const got = await call(t.app, 'GET', `/api/donation/${m.id}`, { token: token.reader });
    expect(got.json.donation.adobe_sign_signingUrl).toBeNull();

    // Used once: a second submission and a second look both say it is signed.
    expect(await sign(m.token)).toMatchObject({
      status: 409,
      json: { message: esignMessages.alreadySigned },
    });
    expect((await call(t.app, 'GET', `/api/esign/${m.token}`)).json).toMatchObject({
      state: 'signed',
      form: null,
    });

    const file = await download(m.id);
    expect(file.status).toBe(200);
    expect(file.type).toBe('application/pdf');
    expect(sha256(file.bytes)).toBe(r?.file_sha256);
    const pages = await pagesOf(file.bytes);
    expect(pages).toHaveLength(2);
    expect(pages[0]).toContain('Sam Q. Signer');
    expect(pages[1]).toContain('Audit trail');
    expect(pages[1]).toContain(r?.audit[0]?.before ?? 'missing');
    expect(pages[1]).toContain(r?.audit[0]?.after ?? 'missing');
    expect(pages[1]).toContain('sign this matching gift form electronically');
    // The donor's fields are filled (removed); the nonprofit's still wait.
    const fields = (await PDFDocument.load(file.bytes))
      .getForm()
      .getFields()
      .map((f) => f.getName())
      .sort();
    expect(fields).toEqual(['nonprofit_signature', 'nonprofit_signature_date']);
  });

  it('takes a drawn signature, and refuses an unreadable drawing, no consent or no name (400) without using the link', async () => {
    const m = await emailedMatch();
    const junk = `data:image/png;base64,${Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(80, 7)]).toString('base64')}`;
    expect(await sign(m.token, { name: 'Sam', consent: true, drawing: junk })).toMatchObject({
      status: 400,
      json: { message: esignMessages.badDrawing },
    });
    // A decompression bomb: 8000 × 8000 blank pixels deflate to some 250 KB, under the size
    // limit of the data URL, and took the event loop for half a minute to embed.
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(8000, 0);
    ihdr.writeUInt32BE(8000, 4);
    ihdr[8] = 8;
    ihdr[9] = 6;
    const chunk = (type: string, data: Buffer) => {
      const length = Buffer.alloc(4);
      length.writeUInt32BE(data.length);
      const body = Buffer.concat([Buffer.from(type), data]);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(crc32(body) >>> 0);
      return Buffer.concat([length, body, crc]);
    };
    const bomb = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      chunk('IDAT', deflateSync(Buffer.alloc((8000 * 4 + 1) * 8000), { level: 9 })),
      chunk('IEND', Buffer.alloc(0)),
    ]).toString('base64');
    expect(bomb.length).toBeLessThan(400_000);
    const started = performance.now();
    expect(
      await sign(m.token, { name: 'Sam', consent: true, drawing: `data:image/png;base64,${bomb}` }),
    ).toMatchObject({ status: 400, json: { message: esignMessages.drawingTooLarge } });
    // Generous: refused from its header, not after unpacking it (which took 10–30 s).
    expect(performance.now() - started).toBeLessThan(5000);
    expect((await sign(m.token, { name: 'Sam', consent: false })).status).toBe(400);
    expect((await sign(m.token, { name: ' ', consent: true })).status).toBe(400);
    expect(await statusOf(m.id)).toBe(5);
    expect(await sign(m.token, { name: 'Sam Drawn', consent: true, drawing: png8 })).toMatchObject({
      status: 200,
    });
    expect((await record(m.id))?.audit[0]?.method).toBe('drawn');
  });

  it('an expired link cannot sign and offers a new one, emailed to the donor on file; the old link then counts as used', async () => {
    const m = await emailedMatch();
    await t.db
      .update(esignDocuments)
      .set({ link_expires_at: new Date(Date.now() - 1000) })
      .where(eq(esignDocuments.donation_id, m.id));
    expect((await call(t.app, 'GET', `/api/esign/${m.token}`)).json).toMatchObject({
      state: 'expired',
      message: esignMessages.expiredLink,
    });
    expect(await sign(m.token)).toMatchObject({ status: 409, json: { message: esignMessages.expiredLink } });
    const before = (await lastMailTo(t.db, m.email))?.id ?? 0;
    expect(await call(t.app, 'POST', `/api/esign/${m.token}/resend`)).toMatchObject({
      status: 200,
      json: { message: esignMessages.newLinkSent },
    });
    const fresh = await lastMailTo(t.db, m.email);
    expect(fresh?.id).toBeGreaterThan(before);
    const newToken = linkIn(fresh?.text ?? '', `${t.config.publicUrl}/sign/`).pathname.slice(6);
    expect(newToken).not.toBe(m.token);
    expect((await call(t.app, 'GET', `/api/esign/${m.token}`)).json.state).toBe('used');
    expect((await call(t.app, 'GET', `/api/esign/${newToken}`)).json.state).toBe('open');
    expect(await sign(m.token)).toMatchObject({ status: 409, json: { message: esignMessages.usedLink } });
    expect((await sign(newToken)).status).toBe(200);
    // Signed: no new link is sent any more.
    expect(await call(t.app, 'POST', `/api/esign/${newToken}/resend`)).toMatchObject({ status: 409 });
  });

  it('a changed token is not a link (404), and a match that moved on is closed', async () => {
    const m = await emailedMatch();
    const forged = `${m.token.slice(0, -3)}${m.token.endsWith('AAA') ? 'BBB' : 'AAA'}`;
    expect(await call(t.app, 'GET', `/api/esign/${forged}`)).toMatchObject({
      status: 404,
      json: { message: esignMessages.invalidLink },
    });
    expect((await sign(forged)).status).toBe(404);
    expect((await call(t.app, 'POST', `/api/esign/${forged}/resend`)).status).toBe(404);
    await t.db.update(donations).set({ status_id: 21 }).where(eq(donations.id, m.id));
    expect((await call(t.app, 'GET', `/api/esign/${m.token}`)).json.state).toBe('closed');
    expect((await sign(m.token)).status).toBe(409);
  });
});

describe('countersigning and delivery', () => {
  async function signedMatch(companyId = company.email, orgId = org.parent) {
    const m = await emailedMatch(companyId, orgId);
    expect((await sign(m.token)).status).toBe(200);
    return m;
  }
  const countersign = (id: number, auth: string, body: Record<string, unknown> = { name: 'Wren Castillo' }) =>
    call(t.app, 'POST', `/api/donation/${id}/esign/countersign`, { token: auth, body, headers: ua });

  it('needs write on the match: a reader is refused (403), another organization’s match is not found (404), an unsigned one is refused (409)', async () => {
    const m = await signedMatch();
    expect((await countersign(m.id, token.reader)).status).toBe(403);
    const other = await match(company.email, 3, org.other);
    expect((await countersign(other.id, token.writer)).status).toBe(404);
    expect(
      (await call(t.app, 'GET', `/api/donation/${other.id}/esign`, { token: token.reader })).status,
    ).toBe(404);
    const unsigned = await match(company.email, 3);
    expect(await countersign(unsigned.id, token.writer)).toMatchObject({
      status: 409,
      json: { message: esignMessages.notSigned },
    });
    expect((await record(m.id))?.countersigned_at).toBeNull();
  });

  it('puts both signatures and two audit pages on the packet and emails it to the company; delivery moves the match to Submitted', async () => {
    const m = await signedMatch();
    const done = await countersign(m.id, token.writer);
    expect(done.status).toBe(200);
    expect(done.json).toMatchObject({
      stage: 'delivering',
      delivery: { to: 'matching@signco.example', status: 'pending' },
    });
    expect(await countersign(m.id, token.writer)).toMatchObject({
      status: 409,
      json: { message: esignMessages.alreadyCountersigned },
    });
    const r = await record(m.id);
    expect(r?.audit.map((e) => e.event)).toEqual(['donor-signed', 'nonprofit-countersigned']);
    // Each signature's "before" is the file the previous step stored.
    expect(r?.audit[1]?.before).not.toBe(r?.audit[0]?.after);
    const file = await download(m.id);
    expect(sha256(file.bytes)).toBe(r?.file_sha256);
    const pages = await pagesOf(file.bytes);
    expect(pages).toHaveLength(3);
    expect(pages[0]).toContain('Sam Signer');
    expect(pages[0]).toContain('Wren Castillo');
    expect(pages[2]).toContain('Nonprofit countersignature');
    expect((await PDFDocument.load(file.bytes)).getForm().getFields()).toHaveLength(0);

    const mail = await lastMailTo(t.db, 'matching@signco.example');
    expect(mail?.attachments).toEqual([
      { filename: `donation-${m.id}-esign.pdf`, contentType: 'application/pdf', file: r?.file },
    ]);
    expect(await statusOf(m.id)).toBe(3);
    const sent: Array<{ attachments?: unknown[] }> = [];
    const worker = createMailWorker({
      db: t.db,
      transport: { kind: 'dev-mailbox', send: async (message) => void sent.push(message) },
      logger: t.logger,
      storage: t.storage,
      afterSent: packetDelivered,
    });
    await worker.runOnce();
    expect(sent.find((s) => (s.attachments?.length ?? 0) > 0)?.attachments).toHaveLength(1);
    expect(await statusOf(m.id)).toBe(4);
    const state = await call(t.app, 'GET', `/api/donation/${m.id}/esign`, { token: token.reader });
    expect(state.json).toMatchObject({ stage: 'delivered', delivery: { status: 'sent', error: null } });
    expect(state.json.delivery.preview_html).toContain('Attached is a matching gift request');
  });

  it('a failed delivery leaves the match at NPO to Verify/Sign with the reason shown', async () => {
    await worker0().runOnce(); // earlier tests' mail out of the way
    const m = await signedMatch();
    expect((await countersign(m.id, token.writer)).status).toBe(200);
    const failing = createMailWorker({
      db: t.db,
      transport: {
        kind: 'smtp',
        send: async (message) => {
          if (message.to === 'matching@signco.example') throw new Error('550 5.1.1 mailbox unavailable');
        },
      },
      logger: t.logger,
      storage: t.storage,
      afterSent: packetDelivered,
      maxAttempts: 1,
    });
    await failing.runOnce();
    expect(await statusOf(m.id)).toBe(3);
    const state = await call(t.app, 'GET', `/api/donation/${m.id}/esign`, { token: token.reader });
    expect(state.json).toMatchObject({
      stage: 'delivery-failed',
      delivery: { status: 'failed', error: '550 5.1.1 mailbox unavailable' },
    });

    // Sent again (the address fixed): once pending it is not queued twice; delivered, it is Submitted.
    const deliver = (auth: string) =>
      call(t.app, 'POST', `/api/donation/${m.id}/esign/deliver`, { token: auth });
    expect((await deliver(token.reader)).status).toBe(403);
    expect(await deliver(token.writer)).toMatchObject({
      status: 200,
      json: { stage: 'delivering', delivery: { status: 'pending' } },
    });
    expect(await deliver(token.writer)).toMatchObject({
      status: 409,
      json: { message: esignMessages.deliveryPending },
    });
    await worker0().runOnce();
    expect(await statusOf(m.id)).toBe(4);
    expect(await deliver(token.writer)).toMatchObject({
      status: 409,
      json: { message: esignMessages.alreadyDelivered },
    });
  });

  it('a company without a forms email gets no email: the countersigned packet is downloaded', async () => {
    const m = await signedMatch(company.noEmail);
    const done = await countersign(m.id, token.writer);
    expect(done.json).toMatchObject({ stage: 'countersigned', delivery: null });
    expect(await statusOf(m.id)).toBe(3);
    expect(
      await call(t.app, 'POST', `/api/donation/${m.id}/esign/deliver`, { token: token.writer }),
    ).toMatchObject({
      status: 409,
      json: { message: esignMessages.noFormsEmail },
    });
  });

  it('refuses a stored packet whose bytes changed (its SHA-256 no longer matches): download and countersign', async () => {
    const m = await signedMatch();
    const r = await record(m.id);
    const stored = await t.storage.get(r?.file ?? '');
    if (!stored || !r?.file) throw new Error('no stored packet');
    const changed = new Uint8Array(stored.bytes);
    changed[changed.length - 10] = (changed[changed.length - 10] ?? 0) ^ 0xff;
    const name = await t.storage.put(changed, 'application/pdf');
    await t.db.update(esignDocuments).set({ file: name }).where(eq(esignDocuments.donation_id, m.id));
    expect(await download(m.id)).toMatchObject({ status: 409 });
    expect(await countersign(m.id, token.writer)).toMatchObject({
      status: 409,
      json: { message: esignMessages.tampered },
    });
  });

  it('countersigns in bulk what is ready and says why it skipped the rest; another organization’s match refuses the whole call', async () => {
    const a = await signedMatch(company.noEmail);
    const b = await signedMatch(company.noEmail);
    const unsigned = await match(company.noEmail, 3);
    const res = await call(t.app, 'POST', '/api/donation/esign/countersign', {
      token: token.writer,
      body: { donation_ids: [a.id, b.id, unsigned.id], name: 'Wren Castillo' },
    });
    expect(res.json).toEqual({
      countersigned: [a.id, b.id],
      skipped: [{ id: unsigned.id, reason: esignMessages.notSigned }],
    });
    const other = await match(company.email, 3, org.other);
    const refused = await call(t.app, 'POST', '/api/donation/esign/countersign', {
      token: token.writer,
      body: { donation_ids: [unsigned.id, other.id], name: 'Wren Castillo' },
    });
    expect(refused.status).toBe(404);
    const reader = await call(t.app, 'POST', '/api/donation/esign/countersign', {
      token: token.reader,
      body: { donation_ids: [unsigned.id], name: 'Riley Chen' },
    });
    expect(reader.status).toBe(403);
  });
});

describe('original signature only', () => {
  it('prints a cover letter to the company’s mailing address before the form, and records the posting (Submitted)', async () => {
    const m = await match(company.paper, 6);
    const file = await download(m.id);
    expect(file.status).toBe(200);
    const pages = await pagesOf(file.bytes);
    expect(pages[0]).toContain('Attn: Matching Gift Program');
    expect(pages[0]).toContain('1 Quill Road');
    expect(pages[0]).toContain('original signatures only');
    expect(pages[1]).toContain('Matching Gift Request');
    expect(
      (await call(t.app, 'POST', `/api/donation/${m.id}/esign/posted`, { token: token.reader })).status,
    ).toBe(403);
    const posted = await call(t.app, 'POST', `/api/donation/${m.id}/esign/posted`, { token: token.writer });
    expect(posted.json).toMatchObject({ stage: 'posted', posted_at: expect.any(String) });
    expect(await statusOf(m.id)).toBe(4);
    expect(
      await call(t.app, 'POST', `/api/donation/${m.id}/esign/posted`, { token: token.writer }),
    ).toMatchObject({
      status: 409,
    });
  });
});

/** A worker that delivers whatever is due (the dev mailbox transport). */
function worker0() {
  return createMailWorker({
    db: t.db,
    transport: devMailboxTransport,
    logger: t.logger,
    storage: t.storage,
    afterSent: packetDelivered,
  });
}

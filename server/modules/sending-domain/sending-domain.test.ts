import { generateKeyPairSync } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import type { AddressInfo } from 'node:net';
import { and, desc, eq } from 'drizzle-orm';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendingDomainMessages } from '../../../src/contract/sending-domain.ts';
import { auditEvents, outbox, sendingDomainKeys, sendingDomains } from '../../db/schema.ts';
import { createMailWorker } from '../../jobs/mail-worker.ts';
import { enqueueMail } from '../../jobs/outbox.ts';
import { smtpTransport } from '../../mail/transport.ts';
import { call, demoOrganizationIds, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import { getSendingDomain, recheckSendingDomains, senderFor } from './sending-domain.service.ts';
import { startTestDns, type TestDns } from './test-dns.ts';

/** A message as the SMTP server received it: envelope sender and the raw message. */
type Received = { mailFrom: string; raw: string };

/** The platform's own DKIM key (MAIL_DKIM_*), served at platform1._domainkey.twofold.test. */
const platformKey = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'der' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});

let t: TestContext;
let dns: TestDns;
let smtp: SMTPServer;
let received: Received[] = [];
let admin = '';
let writer = '';
let orgId = 0;
let clock = new Date('2026-11-27T10:00:00Z');

/** The DKIM results mailauth reads from a message, with the keys our DNS server serves. */
async function dkimResults(raw: string) {
  const resolver = new Resolver();
  resolver.setServers([dns.server]);
  const result = await dkimVerify(Buffer.from(raw), {
    resolver: (name: string, type: string) => resolver.resolve(name, type as 'TXT'),
  } as never);
  return result.results.map((r) => ({
    domain: r.signingDomain,
    selector: r.selector,
    result: r.status.result,
  }));
}

function header(raw: string, name: string): string | undefined {
  const head = raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
  return new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1];
}

/** Sends every queued message through nodemailer to the SMTP server, choosing the sender as the server does. */
async function deliver(): Promise<Received[]> {
  received = [];
  const transport = smtpTransport(
    `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    t.config.mailFrom,
    60_000,
    t.config.mailDkim,
  );
  const worker = createMailWorker({
    db: t.db,
    transport,
    logger: t.logger,
    senderFor: (id) => senderFor(t.db, t.config, id),
  });
  await worker.runOnce();
  transport.close?.();
  return received;
}

/** Delivers what is queued and returns the message to `to`. */
async function deliveredTo(to: string): Promise<Received | undefined> {
  return (await deliver()).find((m) => header(m.raw, 'To') === to);
}

const donorEmail = (to: string) =>
  enqueueMail(
    t.db,
    { to, subject: 'Your gift can be matched', html: '<p>Hello</p>', text: 'Hello' },
    [],
    orgId,
  );

const api = (method: string, path: string, token: string, body?: unknown) =>
  call(t.app, method, `/api/organization/${orgId}/sending-domain${path}`, {
    token,
    ...(body !== undefined ? { body } : {}),
  });

beforeAll(async () => {
  dns = await startTestDns();
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    disableReverseLookup: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const from = session.envelope.mailFrom;
        received.push({ mailFrom: from ? from.address : '', raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  t = await createTestContext({
    config: {
      dnsResolver: [dns.server],
      mailFrom: 'Twofold <no-reply@twofold.test>',
      mailDkim: { domainName: 'twofold.test', keySelector: 'platform1', privateKey: platformKey.privateKey },
    },
    clock: { now: () => clock },
  });
  dns.publish(
    'platform1._domainkey.twofold.test',
    `v=DKIM1; k=rsa; p=${platformKey.publicKey.toString('base64')}`,
  );
  orgId = (await demoOrganizationIds(t.db)).hopeHarbor;
  admin = await signIn(t.app, 'admin@twofold.test');
  writer = await signIn(t.app, 'writer@twofold.test');
});

afterAll(async () => {
  await t?.close();
  await dns?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

describe('setting the sender', () => {
  it('refuses free-mail and platform addresses, and members who are not admins', async () => {
    const gmail = await api('PUT', '', admin, { from_name: 'Hope Harbor', from_email: 'hope@gmail.com' });
    expect(gmail.status).toBe(400);
    expect(gmail.json.message).toBe(sendingDomainMessages.freeMail);
    const platform = await api('PUT', '', admin, { from_name: 'Hope Harbor', from_email: 'me@twofold.test' });
    expect(platform.status).toBe(400);
    expect(platform.json.message).toBe(sendingDomainMessages.platformDomain);
    const bad = await api('PUT', '', admin, { from_name: '', from_email: 'not an address' });
    expect(bad.status).toBe(400);
    const byWriter = await api('PUT', '', writer, { from_name: 'Hope', from_email: 'giving@hopeharbor.org' });
    expect(byWriter.status).toBe(403);
    expect((await api('GET', '', writer)).json.sending_domain).toBeNull();
  });

  it('before verification, donor emails go from the platform address with the name and Reply-To', async () => {
    const res = await api('PUT', '', admin, {
      from_name: 'Hope Harbor Foundation',
      from_email: 'Giving@HopeHarbor.org',
    });
    expect(res.status).toBe(200);
    const domain = res.json.sending_domain;
    expect(domain).toMatchObject({
      from_email: 'giving@hopeharbor.org',
      domain: 'hopeharbor.org',
      status: 'pending',
    });
    const dkim = domain.records.find((r: { purpose: string }) => r.purpose === 'dkim');
    expect(dkim.name).toBe('twofold-20261127-1._domainkey.hopeharbor.org');
    expect(dkim.value).toMatch(/^v=DKIM1; k=rsa; p=MIIBIjAN[A-Za-z0-9+/=]+$/);
    expect(domain.records.find((r: { purpose: string }) => r.purpose === 'spf')).toMatchObject({
      value: null,
    });
    expect(domain.sending).toEqual({
      from: 'Hope Harbor Foundation <no-reply@twofold.test>',
      reply_to: 'giving@hopeharbor.org',
    });
    // The private key is never shown, and stored sealed.
    expect(res.text).not.toContain('PRIVATE');
    const [key] = await t.db.select().from(sendingDomainKeys);
    expect(key?.private_key_sealed).toMatch(/^v1\./);
    expect(key?.private_key_sealed).not.toContain('PRIVATE');

    await donorEmail('donor@example.org');
    const mail = await deliveredTo('donor@example.org');
    expect(header(mail?.raw ?? '', 'From')).toBe('Hope Harbor Foundation <no-reply@twofold.test>');
    expect(header(mail?.raw ?? '', 'Reply-To')).toBe('giving@hopeharbor.org');
    // The platform's own domain is signed the same way (MAIL_DKIM_*).
    expect(await dkimResults(mail?.raw ?? '')).toEqual([
      { domain: 'twofold.test', selector: 'platform1', result: 'pass' },
    ]);
  });
});

describe('Verify', () => {
  const dkimCheck = (res: {
    json: { sending_domain: { records: Array<{ purpose: string; check: unknown }> } };
  }) => res.json.sending_domain.records.find((r) => r.purpose === 'dkim')?.check;
  const record = async () => {
    const [key] = await t.db.select().from(sendingDomainKeys).orderBy(desc(sendingDomainKeys.id)).limit(1);
    return {
      name: `${key?.selector}._domainkey.hopeharbor.org`,
      value: `v=DKIM1; k=rsa; p=${key?.public_key}`,
    };
  };

  it('says missing when nothing is published, and the DMARC hint', async () => {
    const res = await api('POST', '/verify', admin);
    expect(res.status).toBe(200);
    expect(dkimCheck(res)).toEqual({ state: 'missing', found: [], detail: null });
    const dmarc = res.json.sending_domain.records.find((r: { purpose: string }) => r.purpose === 'dmarc');
    expect(dmarc.check.state).toBe('missing');
    expect(dmarc.value).toBe('v=DMARC1; p=none; rua=mailto:giving@hopeharbor.org');
    expect(res.json.sending_domain.status).toBe('pending');
  });

  it('says found but different, showing what was found', async () => {
    const { name } = await record();
    const other = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({
      type: 'spki',
      format: 'der',
    });
    dns.publish(name, `v=DKIM1; k=rsa; p=${other.toString('base64')}`);
    const res = await api('POST', '/verify', admin);
    expect(dkimCheck(res)).toEqual({
      state: 'different',
      found: [`v=DKIM1; k=rsa; p=${other.toString('base64')}`],
      detail: 'Its public key (p=) is not the one Twofold generated',
    });
    dns.zone.set(name, [['v=DKIM1; k=ed25519; p=abc']]);
    expect(dkimCheck(await api('POST', '/verify', admin))).toMatchObject({
      state: 'different',
      detail: 'k= is ed25519, not rsa',
    });
    expect(res.json.sending_domain.status).toBe('pending');
  });

  it('says nothing is concluded when the DNS server fails', async () => {
    const { name } = await record();
    dns.failing.add(name);
    const res = await api('POST', '/verify', admin);
    dns.failing.delete(name);
    expect(dkimCheck(res)).toMatchObject({ state: 'failed', detail: expect.stringContaining('ESERVFAIL') });
  });

  it('verifies once the record is right (published in 255-byte strings): mail goes from the organization, DKIM-signed', async () => {
    const { name, value } = await record();
    dns.zone.delete(name);
    dns.publish(name, value);
    expect(dns.zone.get(name)?.[0]?.length).toBeGreaterThan(1);
    dns.publish('_dmarc.hopeharbor.org', 'v=DMARC1; p=quarantine');
    const res = await api('POST', '/verify', admin);
    expect(dkimCheck(res)).toEqual({ state: 'right', found: [value], detail: null });
    const dmarc = res.json.sending_domain.records.find((r: { purpose: string }) => r.purpose === 'dmarc');
    expect(dmarc.check).toEqual({ state: 'right', found: ['v=DMARC1; p=quarantine'], detail: null });
    expect(res.json.sending_domain).toMatchObject({
      status: 'verified',
      sending: { from: 'Hope Harbor Foundation <giving@hopeharbor.org>', reply_to: null },
    });
    const [audit] = await t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.kind, 'sending_domain.verified'));
    expect(audit?.organization_id).toBe(orgId);

    await donorEmail('donor@example.org');
    const mail = await deliveredTo('donor@example.org');
    expect(header(mail?.raw ?? '', 'From')).toBe('Hope Harbor Foundation <giving@hopeharbor.org>');
    expect(header(mail?.raw ?? '', 'Reply-To')).toBeUndefined();
    // Bounces come back to the platform: the return path (envelope sender) stays its address.
    expect(mail?.mailFrom).toBe('no-reply@twofold.test');
    expect(await dkimResults(mail?.raw ?? '')).toEqual([
      { domain: 'hopeharbor.org', selector: name.split('.')[0], result: 'pass' },
    ]);
    // The same message fails once the record says something else.
    const published = dns.zone.get(name);
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({
      type: 'spki',
      format: 'der',
    });
    dns.zone.delete(name);
    dns.publish(name, `v=DKIM1; k=rsa; p=${other.toString('base64')}`);
    expect((await dkimResults(mail?.raw ?? ''))[0]?.result).toBe('fail');
    if (published) dns.zone.set(name, published);
  });
});

describe('the daily check', () => {
  it('falls back to the platform address for queued mail, emails the admins and records it when the record disappears', async () => {
    const [key] = await t.db.select().from(sendingDomainKeys).where(eq(sendingDomainKeys.state, 'active'));
    const name = `${key?.selector}._domainkey.hopeharbor.org`;
    // Queued while the domain was verified; sent after the record disappeared.
    await donorEmail('queued@example.org');
    const published = dns.zone.get(name);
    dns.zone.delete(name);
    // Not due yet: nothing is checked.
    expect(await recheckSendingDomains(t.db, t.config, clock, t.logger)).toBe(0);
    clock = new Date(clock.getTime() + 25 * 60 * 60 * 1000);
    expect(await recheckSendingDomains(t.db, t.config, clock, t.logger)).toBe(1);
    const [domain] = await t.db.select().from(sendingDomains);
    expect(domain?.status).toBe('failed');
    const [changed] = await t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.kind, 'sending_domain.changed'));
    expect(changed).toMatchObject({ organization_id: orgId, actor_kind: 'system' });
    const [alert] = await t.db
      .select()
      .from(outbox)
      .where(
        and(
          eq(outbox.to, 'admin@twofold.test'),
          eq(outbox.subject, 'Donor emails for Hope Harbor Foundation no longer go from hopeharbor.org'),
        ),
      );
    expect(alert?.text).toContain(`the DKIM record ${name} is missing`);
    expect(alert?.organization_id).toBeNull();
    // Only admins of the organization are told.
    const toWriter = await t.db.select().from(outbox).where(eq(outbox.to, 'writer@twofold.test'));
    expect(toWriter.filter((m) => m.subject.includes('no longer go from'))).toHaveLength(0);

    const sent = await deliver();
    const queued = sent.find((m) => header(m.raw, 'To') === 'queued@example.org');
    // The admins' alert is a staff email: from MAIL_FROM, signed with the platform's key.
    const delivered = sent.find((m) => header(m.raw, 'To') === 'admin@twofold.test');
    expect(header(delivered?.raw ?? '', 'From')).toBe('Twofold <no-reply@twofold.test>');
    expect(await dkimResults(delivered?.raw ?? '')).toEqual([
      { domain: 'twofold.test', selector: 'platform1', result: 'pass' },
    ]);
    expect(header(queued?.raw ?? '', 'From')).toBe('Hope Harbor Foundation <no-reply@twofold.test>');
    expect(header(queued?.raw ?? '', 'Reply-To')).toBe('giving@hopeharbor.org');
    expect((await dkimResults(queued?.raw ?? '')).map((r) => r.domain)).toEqual(['twofold.test']);

    // A second check finds it still missing: no second email.
    clock = new Date(clock.getTime() + 25 * 60 * 60 * 1000);
    expect(await recheckSendingDomains(t.db, t.config, clock, t.logger)).toBe(1);
    const alerts = await t.db.select().from(outbox).where(eq(outbox.to, 'admin@twofold.test'));
    expect(alerts.filter((m) => m.subject.includes('no longer go from'))).toHaveLength(1);

    // Published again: the next check verifies it again.
    if (published) dns.zone.set(name, published);
    clock = new Date(clock.getTime() + 25 * 60 * 60 * 1000);
    await recheckSendingDomains(t.db, t.config, clock, t.logger);
    const [again] = await t.db.select().from(sendingDomains);
    expect(again?.status).toBe('verified');
  });
});

describe('key rotation', () => {
  it('publishes a new selector, keeps signing with the old one until it is found, then switches', async () => {
    const rotated = await api('POST', '/rotate', admin);
    expect(rotated.status).toBe(200);
    const { active_selector: old, next_selector: next } = rotated.json.sending_domain;
    expect(next).toMatch(/^twofold-\d{8}-\d+$/);
    expect(next).not.toBe(old);
    expect((await api('POST', '/rotate', admin)).json.message).toBe(sendingDomainMessages.rotationPending);
    // Not published yet: still verified, still signed with the old key.
    const waiting = await api('POST', '/verify', admin);
    expect(waiting.json.sending_domain).toMatchObject({ status: 'verified', active_selector: old });
    await donorEmail('during@example.org');
    const during = await deliveredTo('during@example.org');
    expect(await dkimResults(during?.raw ?? '')).toEqual([
      { domain: 'hopeharbor.org', selector: old, result: 'pass' },
    ]);

    const record = waiting.json.sending_domain.records.find(
      (r: { purpose: string }) => r.purpose === 'dkim-next',
    );
    expect(record.name).toBe(`${next}._domainkey.hopeharbor.org`);
    dns.publish(record.name, record.value);
    const switched = await api('POST', '/verify', admin);
    expect(switched.json.sending_domain).toMatchObject({
      status: 'verified',
      active_selector: next,
      next_selector: null,
      retired_selector: old,
    });
    await donorEmail('after@example.org');
    const after = await deliveredTo('after@example.org');
    expect(await dkimResults(after?.raw ?? '')).toEqual([
      { domain: 'hopeharbor.org', selector: next, result: 'pass' },
    ]);
    const rotation = await t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.kind, 'sending_domain.key_rotation'));
    expect(rotation[0]?.summary).toBe(`Started a DKIM key rotation for hopeharbor.org: new selector ${next}`);
    // A key that no longer opens (JWT_SECRET changed) never signs: the mail falls back instead.
    const otherSecret = { ...t.config, jwtSecret: 'another-secret-that-is-long-enough-for-hs256' };
    expect(await senderFor(t.db, otherSecret, orgId)).toEqual({
      from: { name: 'Hope Harbor Foundation', address: 'no-reply@twofold.test' },
      replyTo: 'giving@hopeharbor.org',
    });
    // And the screen says so, rather than Verified.
    const shown = (await getSendingDomain(t.db, otherSecret, orgId)).sending_domain;
    expect(shown?.status).toBe('failed');
    expect(shown?.sending.from).toBe('Hope Harbor Foundation <no-reply@twofold.test>');
    expect(shown?.records[0]?.note).toBe(sendingDomainMessages.keyUnreadable);
    expect((await getSendingDomain(t.db, t.config, orgId)).sending_domain?.status).toBe('verified');
    // The retired key's private half is gone.
    const [retired] = await t.db.select().from(sendingDomainKeys).where(eq(sendingDomainKeys.selector, old));
    expect(retired?.private_key_sealed).toBeNull();
  });

  it('a new name or address at the same domain keeps the verified key; another domain starts again', async () => {
    const before = (await api('GET', '', admin)).json.sending_domain;
    const renamed = await api('PUT', '', admin, {
      from_name: 'Hope Harbor',
      from_email: 'donors@hopeharbor.org',
    });
    expect(renamed.json.sending_domain).toMatchObject({
      status: 'verified',
      active_selector: before.active_selector,
      sending: { from: 'Hope Harbor <donors@hopeharbor.org>', reply_to: null },
    });
    const moved = await api('PUT', '', admin, {
      from_name: 'Hope Harbor',
      from_email: 'giving@hopeharbor.net',
    });
    expect(moved.json.sending_domain).toMatchObject({
      domain: 'hopeharbor.net',
      status: 'pending',
      active_selector: null,
      sending: { from: 'Hope Harbor <no-reply@twofold.test>', reply_to: 'giving@hopeharbor.net' },
    });
    expect(await t.db.select().from(sendingDomainKeys)).toHaveLength(1);
  });

  it('removing the sender goes back to the platform address and records it', async () => {
    const res = await api('DELETE', '', admin);
    expect(res.status).toBe(200);
    expect(res.json.sending_domain).toBeNull();
    expect(await t.db.select().from(sendingDomainKeys)).toHaveLength(0);
    expect(await senderFor(t.db, t.config, orgId)).toBeUndefined();
    const removed = await t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.kind, 'sending_domain.removed'));
    expect(removed).toHaveLength(1);
    expect((await api('DELETE', '', admin)).status).toBe(404);
  });
});

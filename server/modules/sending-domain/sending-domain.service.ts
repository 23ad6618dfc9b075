import { and, asc, eq, isNotNull, lte, sql } from 'drizzle-orm';
import freeMailDomains from 'email-providers/all.json' with { type: 'json' };
import {
  type DnsRecord,
  type RecordCheck,
  type SendingDomain,
  type SendingDomainInput,
  type SendingDomainResponse,
  sendingDomainMessages,
} from '../../../src/contract/sending-domain.ts';
import type { Config } from '../../config.ts';
import { seal, unseal } from '../../crypto/sealed.ts';
import type { Db, Queryable, Tx } from '../../db/client.ts';
import { organizations, permissions, sendingDomainKeys, sendingDomains, users } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { Logger } from '../../http/logger.ts';
import { enqueueMail } from '../../jobs/outbox.ts';
import { sendingDomainLostMail } from '../../mail/templates.ts';
import { addressOf, type Sender } from '../../mail/transport.ts';
import { type AuditActor, recordAudit } from '../audit/audit.ts';
import {
  checkDkim,
  checkDmarc,
  dkimRecordName,
  dkimRecordValue,
  newDkimKey,
  selectorFor,
  type TxtLookup,
  txtLookup,
} from './dkim.ts';

/** What the service needs of the server's settings. */
export type SendingDomainConfig = Pick<
  Config,
  'jwtSecret' | 'dnsResolver' | 'mailFrom' | 'publicUrl' | 'supportEmail'
>;

/** Who asked (for the audit log). */
export type Caller = { actor: AuditActor; ip?: string | null; userAgent?: string | null };

const dayMs = 24 * 60 * 60 * 1000;
/** The daily re-verification: how long a claimed check is reserved, and when a failed lookup is tried again. */
const checkLeaseMs = 10 * 60 * 1000;
const retryAfterFailedLookupMs = 60 * 60 * 1000;

const freeMail = new Set((freeMailDomains as string[]).map((d) => d.toLowerCase()));
const sealPurpose = 'dkim';
const sealContext = (orgId: number, domain: string, selector: string) => `${orgId}:${domain}:${selector}`;

type DomainRow = typeof sendingDomains.$inferSelect;
type KeyRow = typeof sendingDomainKeys.$inferSelect;

/** The stored result of the last check: each record's check by its name. */
type LastCheck = Record<string, RecordCheck>;

async function loadDomain(db: Queryable, orgId: number) {
  const [domain] = await db.select().from(sendingDomains).where(eq(sendingDomains.organization_id, orgId));
  if (!domain) return null;
  const keys = await db
    .select()
    .from(sendingDomainKeys)
    .where(eq(sendingDomainKeys.sending_domain_id, domain.id))
    .orderBy(asc(sendingDomainKeys.id));
  return { domain, keys };
}

const platformSender = (config: Pick<Config, 'mailFrom'>) => addressOf(config.mailFrom);
const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1);

/** How donor emails of this organization go out now (the worker's choice, in header form). */
/**
 * Whether the domain signs now: verified, with an active key whose private half opens (a changed
 * JWT_SECRET leaves it sealed for good; `senderFor` then falls back, and so does the screen).
 */
function signsNow(config: SendingDomainConfig, domain: DomainRow, keys: KeyRow[]): boolean {
  const active = keys.find((k) => k.state === 'active');
  return (
    domain.status === 'verified' &&
    active?.private_key_sealed != null &&
    openKey(config, domain.organization_id, domain, active) !== null
  );
}

function sendingNow(config: SendingDomainConfig, domain: DomainRow, keys: KeyRow[]) {
  if (signsNow(config, domain, keys))
    return { from: `${domain.from_name} <${domain.from_email}>`, reply_to: null };
  return { from: `${domain.from_name} <${platformSender(config)}>`, reply_to: domain.from_email };
}

function toView(config: SendingDomainConfig, domain: DomainRow, keys: KeyRow[]): SendingDomain {
  const last = (domain.last_check ?? {}) as LastCheck;
  const active = keys.find((k) => k.state === 'active');
  const next = keys.find((k) => k.state === 'new');
  const retired = keys
    .filter((k) => k.state === 'retired')
    .sort((a, b) => (b.retired_at?.getTime() ?? 0) - (a.retired_at?.getTime() ?? 0))[0];
  const dkim = (key: KeyRow, purpose: 'dkim' | 'dkim-next', note: string): DnsRecord => {
    const name = dkimRecordName(key.selector, domain.domain);
    return {
      purpose,
      type: 'TXT',
      name,
      value: dkimRecordValue(key.public_key),
      required: true,
      note,
      check: last[name] ?? null,
    };
  };
  const records: DnsRecord[] = [];
  // Verified, but its key no longer opens: it cannot sign, so it is shown as failed, with the way out.
  const keyLost = domain.status === 'verified' && !signsNow(config, domain, keys);
  if (active)
    records.push(
      dkim(
        active,
        'dkim',
        keyLost
          ? sendingDomainMessages.keyUnreadable
          : 'DKIM: the key your donor emails are signed with now.',
      ),
    );
  if (next)
    records.push(
      dkim(
        next,
        active ? 'dkim-next' : 'dkim',
        active
          ? 'DKIM, new key: publish it beside the current one. Once Verify finds it, Twofold signs with it.'
          : 'DKIM: once Verify finds it, donor emails go from your address, signed for your domain.',
      ),
    );
  records.push({
    purpose: 'spf',
    type: 'TXT',
    name: domain.domain,
    value: null,
    required: false,
    note: `SPF: none needed. Twofold sends with its own return path (${domainOf(platformSender(config))}), which bounces come back to and SPF checks; DMARC passes through the DKIM signature of ${domain.domain}. Keep your SPF record as it is.`,
    check: null,
  });
  const dmarcName = `_dmarc.${domain.domain}`;
  const dmarc = last[dmarcName] ?? null;
  records.push({
    purpose: 'dmarc',
    type: 'TXT',
    name: dmarcName,
    value: dmarc?.state === 'right' ? null : `v=DMARC1; p=none; rua=mailto:${domain.from_email}`,
    required: false,
    note:
      dmarc?.state === 'right'
        ? 'DMARC: your domain has a policy; nothing to add.'
        : 'DMARC (advice): your domain has no DMARC policy. This one only asks for reports; tighten p= once your mail passes.',
    check: dmarc,
  });
  return {
    from_name: domain.from_name,
    from_email: domain.from_email,
    domain: domain.domain,
    status: keyLost ? 'failed' : domain.status,
    verified_at: domain.verified_at?.toISOString() ?? null,
    checked_at: domain.checked_at?.toISOString() ?? null,
    active_selector: active?.selector ?? null,
    next_selector: active && next ? next.selector : null,
    retired_selector: retired?.selector ?? null,
    records,
    sending: sendingNow(config, domain, keys),
  };
}

/** GET: the organization's sender and its records, or null with the platform address. */
export async function getSendingDomain(
  db: Queryable,
  config: SendingDomainConfig,
  orgId: number,
): Promise<SendingDomainResponse> {
  const found = await loadDomain(db, orgId);
  return {
    sending_domain: found ? toView(config, found.domain, found.keys) : null,
    platform_from: config.mailFrom,
  };
}

async function newKeyRow(orgId: number, domain: string, selector: string, secret: string) {
  const key = await newDkimKey();
  return {
    selector,
    public_key: key.publicKey,
    private_key_sealed: seal(secret, sealPurpose, sealContext(orgId, domain, selector), key.privateKey),
  };
}

/**
 * PUT: sets the sender. The same domain keeps its keys and verification (a new name or local
 * part only); a new domain starts again with a new key, unverified.
 */
export async function setSendingDomain(
  db: Db,
  config: SendingDomainConfig,
  orgId: number,
  input: SendingDomainInput,
  caller: Caller,
  now: Date,
): Promise<SendingDomainResponse> {
  input = { ...input, from_email: input.from_email.toLowerCase() };
  const domain = domainOf(input.from_email);
  if (freeMail.has(domain)) throw new HttpError(400, sendingDomainMessages.freeMail);
  const platform = domainOf(platformSender(config));
  if (domain === platform || domain.endsWith(`.${platform}`))
    throw new HttpError(400, sendingDomainMessages.platformDomain);
  // Generating a 2048-bit key takes a moment: done before the transaction, for a new domain only.
  const selector = selectorFor(now, []);
  const before = await loadDomain(db, orgId);
  const key =
    before?.domain.domain === domain ? null : await newKeyRow(orgId, domain, selector, config.jwtSecret);
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${0x646b696d}, ${orgId})`);
    const existing = await loadDomain(tx, orgId);
    const audit = (summary: string) =>
      recordAudit(tx, {
        kind: 'sending_domain.set',
        organizationId: orgId,
        actor: caller.actor,
        summary,
        details: { from_name: input.from_name, from_email: input.from_email, domain },
        ip: caller.ip ?? null,
        userAgent: caller.userAgent ?? null,
      });
    if (existing && existing.domain.domain === domain) {
      await tx
        .update(sendingDomains)
        .set({ from_name: input.from_name, from_email: input.from_email })
        .where(eq(sendingDomains.id, existing.domain.id));
      await audit(`Set the donor email sender to ${input.from_name} <${input.from_email}>`);
      return;
    }
    // The sender changed between the look before and now (another admin): ask to try again.
    if (!key) throw new HttpError(409, 'The sender was changed meanwhile; reload and try again.');
    if (existing) await tx.delete(sendingDomains).where(eq(sendingDomains.id, existing.domain.id));
    const [row] = await tx
      .insert(sendingDomains)
      .values({
        organization_id: orgId,
        from_name: input.from_name,
        from_email: input.from_email,
        domain,
        next_check_at: new Date(now.getTime() + dayMs),
      })
      .returning({ id: sendingDomains.id });
    if (!row) throw new Error('sending domain insert returned no row');
    await tx.insert(sendingDomainKeys).values({ ...key, sending_domain_id: row.id });
    await audit(
      `Set the donor email sender to ${input.from_name} <${input.from_email}> (new domain ${domain}, DKIM selector ${selector})`,
    );
  });
  return getSendingDomain(db, config, orgId);
}

/** DELETE: back to the platform address; the keys are deleted with it. */
export async function removeSendingDomain(
  db: Db,
  config: SendingDomainConfig,
  orgId: number,
  caller: Caller,
): Promise<SendingDomainResponse> {
  await db.transaction(async (tx) => {
    const [gone] = await tx
      .delete(sendingDomains)
      .where(eq(sendingDomains.organization_id, orgId))
      .returning({ domain: sendingDomains.domain, from_email: sendingDomains.from_email });
    if (!gone) throw new HttpError(404, sendingDomainMessages.notSet);
    await recordAudit(tx, {
      kind: 'sending_domain.removed',
      organizationId: orgId,
      actor: caller.actor,
      summary: `Removed the donor email sender ${gone.from_email}: donor emails go from the platform address`,
      details: { domain: gone.domain, from_email: gone.from_email },
      ip: caller.ip ?? null,
      userAgent: caller.userAgent ?? null,
    });
  });
  return getSendingDomain(db, config, orgId);
}

/**
 * POST …/rotate: a new key under a new selector, published beside the current one. The current
 * key keeps signing until Verify (or the daily check) finds the new record right, then the new
 * one signs and the old record may be removed: no gap.
 */
export async function rotateSendingKey(
  db: Db,
  config: SendingDomainConfig,
  orgId: number,
  caller: Caller,
  now: Date,
): Promise<SendingDomainResponse> {
  const found = await loadDomain(db, orgId);
  if (!found) throw new HttpError(404, sendingDomainMessages.notSet);
  const { domain } = found;
  const selector = selectorFor(
    now,
    found.keys.map((k) => k.selector),
  );
  const key = await newKeyRow(orgId, domain.domain, selector, config.jwtSecret);
  await db.transaction(async (tx) => {
    const [locked] = await tx
      .select()
      .from(sendingDomains)
      .where(eq(sendingDomains.id, domain.id))
      .for('update');
    if (!locked || locked.domain !== domain.domain) throw new HttpError(409, 'The sender changed; reload.');
    const keys = await tx
      .select()
      .from(sendingDomainKeys)
      .where(eq(sendingDomainKeys.sending_domain_id, domain.id));
    if (!keys.some((k) => k.state === 'active')) throw new HttpError(400, sendingDomainMessages.notVerified);
    if (keys.some((k) => k.state === 'new')) throw new HttpError(400, sendingDomainMessages.rotationPending);
    if (keys.some((k) => k.selector === selector)) throw new HttpError(409, 'The sender changed; reload.');
    await tx.insert(sendingDomainKeys).values({ ...key, sending_domain_id: domain.id });
    await recordAudit(tx, {
      kind: 'sending_domain.key_rotation',
      organizationId: orgId,
      actor: caller.actor,
      summary: `Started a DKIM key rotation for ${domain.domain}: new selector ${selector}`,
      details: { domain: domain.domain, selector },
      ip: caller.ip ?? null,
      userAgent: caller.userAgent ?? null,
    });
  });
  return getSendingDomain(db, config, orgId);
}

/** Looks up every record of a domain (outside any transaction: DNS may take seconds). */
async function lookUp(lookup: TxtLookup, domain: DomainRow, keys: KeyRow[]): Promise<LastCheck> {
  const checks: LastCheck = {};
  for (const key of keys.filter((k) => k.state !== 'retired')) {
    const name = dkimRecordName(key.selector, domain.domain);
    checks[name] = await checkDkim(lookup, name, key.public_key);
  }
  checks[`_dmarc.${domain.domain}`] = await checkDmarc(lookup, domain.domain);
  return checks;
}

const problemOf = (check: RecordCheck | undefined) =>
  check?.state === 'missing'
    ? 'missing'
    : `different from the one Twofold generated (${check?.detail ?? ''})`;

/**
 * Applies a check's results in one transaction, on the row as it is now (a change made while DNS
 * was being asked wins: the results are dropped when the keys are no longer those checked):
 * a new key found right becomes the signing key (the one it replaces retires); the signing key's
 * record gone or changed turns a verified domain back to the platform address, records
 * `sending_domain.changed` and emails the organization's admins.
 */
async function applyCheck(
  tx: Tx,
  config: SendingDomainConfig,
  checked: { domain: DomainRow; keys: KeyRow[] },
  checks: LastCheck,
  caller: Caller,
  now: Date,
): Promise<void> {
  const [domain] = await tx
    .select()
    .from(sendingDomains)
    .where(eq(sendingDomains.id, checked.domain.id))
    .for('update');
  if (!domain || domain.domain !== checked.domain.domain) return;
  const keys = await tx
    .select()
    .from(sendingDomainKeys)
    .where(eq(sendingDomainKeys.sending_domain_id, domain.id));
  const live = (ks: KeyRow[]) =>
    ks
      .filter((k) => k.state !== 'retired')
      .map((k) => `${k.id}:${k.state}`)
      .sort()
      .join();
  if (live(keys) !== live(checked.keys)) return;
  const checkOf = (key: KeyRow | undefined) =>
    key ? checks[dkimRecordName(key.selector, domain.domain)] : undefined;
  const active = keys.find((k) => k.state === 'active');
  const next = keys.find((k) => k.state === 'new');
  const lookupFailed = Object.values(checks).some((c) => c.state === 'failed');
  const audit = (kind: 'sending_domain.verified' | 'sending_domain.changed', summary: string, details = {}) =>
    recordAudit(tx, {
      kind,
      organizationId: domain.organization_id,
      actor: caller.actor,
      summary,
      details: { domain: domain.domain, ...details },
      ip: caller.ip ?? null,
      userAgent: caller.userAgent ?? null,
    });
  let status = domain.status;
  let verifiedAt = domain.verified_at;
  if (next && checkOf(next)?.state === 'right') {
    if (active)
      await tx
        .update(sendingDomainKeys)
        .set({ state: 'retired', retired_at: now, private_key_sealed: null })
        .where(eq(sendingDomainKeys.id, active.id));
    await tx
      .update(sendingDomainKeys)
      .set({ state: 'active', activated_at: now })
      .where(eq(sendingDomainKeys.id, next.id));
    if (status !== 'verified') verifiedAt = now;
    status = 'verified';
    await audit(
      'sending_domain.verified',
      active
        ? `Switched the DKIM key of ${domain.domain} to selector ${next.selector}; ${active.selector} is retired`
        : `Verified ${domain.domain}: donor emails go from ${domain.from_email}, DKIM-signed`,
      { selector: next.selector, ...(active ? { retired_selector: active.selector } : {}) },
    );
  } else if (active) {
    const check = checkOf(active);
    if (check?.state === 'right') {
      if (status !== 'verified') {
        await audit(
          'sending_domain.verified',
          `Verified ${domain.domain} again: donor emails go from ${domain.from_email}, DKIM-signed`,
          {
            selector: active.selector,
          },
        );
        verifiedAt = now;
      }
      status = 'verified';
    } else if (check && check.state !== 'failed' && status === 'verified') {
      status = 'failed';
      const recordName = dkimRecordName(active.selector, domain.domain);
      await audit(
        'sending_domain.changed',
        `The DKIM record ${recordName} is ${check.state}: donor emails fell back to the platform address`,
        { selector: active.selector, record: check.state, found: check.found },
      );
      await emailAdmins(tx, config, domain, recordName, problemOf(check));
    }
  }
  await tx
    .update(sendingDomains)
    .set({
      status,
      verified_at: verifiedAt,
      last_check: checks,
      checked_at: now,
      next_check_at: new Date(now.getTime() + (lookupFailed ? retryAfterFailedLookupMs : dayMs)),
    })
    .where(eq(sendingDomains.id, domain.id));
}

/** The organization's admins: the staff email that its domain fell back, through the outbox. */
async function emailAdmins(
  tx: Tx,
  config: SendingDomainConfig,
  domain: DomainRow,
  recordName: string,
  problem: string,
): Promise<void> {
  const [org] = await tx
    .select({ name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, domain.organization_id));
  const admins = await tx
    .select({ email: users.email, name: users.name })
    .from(permissions)
    .innerJoin(users, eq(users.id, permissions.user_id))
    .where(and(eq(permissions.org_id, domain.organization_id), eq(permissions.level, 'admin')))
    .orderBy(asc(users.email));
  for (const admin of admins)
    await enqueueMail(
      tx,
      await sendingDomainLostMail({
        to: admin.email,
        name: admin.name?.trim() || admin.email,
        organizationName: org?.name ?? 'your organization',
        domain: domain.domain,
        recordName,
        problem,
        url: `${config.publicUrl}/portal/email-templates`,
        supportEmail: config.supportEmail,
      }),
    );
}

/** POST …/verify: looks the records up now and answers what was found for each. */
export async function verifySendingDomain(
  db: Db,
  config: SendingDomainConfig,
  orgId: number,
  caller: Caller,
  now: Date,
  lookup: TxtLookup = txtLookup(config.dnsResolver),
): Promise<SendingDomainResponse> {
  const found = await loadDomain(db, orgId);
  if (!found) throw new HttpError(404, sendingDomainMessages.notSet);
  const checks = await lookUp(lookup, found.domain, found.keys);
  await db.transaction((tx) => applyCheck(tx, config, found, checks, caller, now));
  return getSendingDomain(db, config, orgId);
}

/**
 * The daily re-verification, run from the scheduler's round with its clock: claims the domains
 * due (a lease, FOR UPDATE SKIP LOCKED, so several processes never check the same one), looks
 * each up outside any transaction, and applies the results. A lookup that failed is tried again
 * in an hour and changes nothing.
 */
export async function recheckSendingDomains(
  db: Db,
  config: SendingDomainConfig,
  now: Date,
  logger: Logger,
  lookup: TxtLookup = txtLookup(config.dnsResolver),
): Promise<number> {
  const claimed = await db.transaction(async (tx) => {
    const due = await tx
      .select({ id: sendingDomains.id })
      .from(sendingDomains)
      .where(and(isNotNull(sendingDomains.next_check_at), lte(sendingDomains.next_check_at, now)))
      .orderBy(asc(sendingDomains.next_check_at))
      .limit(50)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    const ids = due.map((d) => d.id);
    await tx
      .update(sendingDomains)
      .set({ next_check_at: new Date(now.getTime() + checkLeaseMs) })
      .where(sql`${sendingDomains.id} = any(${sql.param(ids)}::int[])`);
    return ids;
  });
  for (const id of claimed) {
    try {
      const [domain] = await db.select().from(sendingDomains).where(eq(sendingDomains.id, id));
      if (!domain) continue;
      const keys = await db
        .select()
        .from(sendingDomainKeys)
        .where(eq(sendingDomainKeys.sending_domain_id, id));
      const checks = await lookUp(lookup, domain, keys);
      await db.transaction((tx) =>
        applyCheck(
          tx,
          config,
          { domain, keys },
          checks,
          { actor: { kind: 'system', label: 'daily DNS check' } },
          now,
        ),
      );
    } catch (error) {
      logger.warn(
        `sending domain ${id}: daily check failed (${error instanceof Error ? error.message : error})`,
      );
    }
  }
  return claimed.length;
}

/**
 * The signing key, or null when it no longer opens (JWT_SECRET was changed): the mail then goes
 * from the platform address rather than unsigned from the organization's, and the screen's
 * Rotate key makes a new one.
 */
function openKey(config: SendingDomainConfig, orgId: number, domain: DomainRow, key: KeyRow): string | null {
  try {
    return unseal(
      config.jwtSecret,
      sealPurpose,
      sealContext(orgId, domain.domain, key.selector),
      key.private_key_sealed ?? '',
    );
  } catch {
    return null;
  }
}

/**
 * Who the organization's donor emails go out as, now: from its address, DKIM-signed with its
 * active key, while its domain is verified; otherwise from the platform address with its sender
 * name and its address as Reply-To. Undefined (MAIL_FROM) when it set no sender.
 */
export async function senderFor(
  db: Queryable,
  config: SendingDomainConfig,
  orgId: number,
): Promise<Sender | undefined> {
  const [row] = await db
    .select({ domain: sendingDomains, key: sendingDomainKeys })
    .from(sendingDomains)
    .leftJoin(
      sendingDomainKeys,
      and(eq(sendingDomainKeys.sending_domain_id, sendingDomains.id), eq(sendingDomainKeys.state, 'active')),
    )
    .where(eq(sendingDomains.organization_id, orgId));
  if (!row) return undefined;
  const { domain, key } = row;
  const privateKey =
    domain.status === 'verified' && key?.private_key_sealed ? openKey(config, orgId, domain, key) : null;
  if (key && privateKey) {
    return {
      from: { name: domain.from_name, address: domain.from_email },
      dkim: { domainName: domain.domain, keySelector: key.selector, privateKey },
    };
  }
  return { from: { name: domain.from_name, address: platformSender(config) }, replyTo: domain.from_email };
}

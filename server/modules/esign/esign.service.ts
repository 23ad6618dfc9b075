import { eq } from 'drizzle-orm';
import { donationMessages } from '../../../src/contract/donations.ts';
import {
  type BulkCountersignRequest,
  type CountersignRequest,
  consentText,
  type EsignFormResponse,
  type EsignSignRequest,
  type EsignStateResponse,
  esignMessages,
  esignStatuses,
} from '../../../src/contract/esign.ts';
import type { Queryable, Tx } from '../../db/client.ts';
import {
  companies,
  donationStatusHistory,
  donations,
  esignDocuments,
  outbox,
  type StatusChangeSource,
  users,
} from '../../db/schema.ts';
import { attachment } from '../../http/attachment.ts';
import { HttpError } from '../../http/errors.ts';
import type { Deps } from '../../http/route.ts';
import { enqueueMail } from '../../jobs/outbox.ts';
import { renderLinesEmail } from '../../mail/staff-email.tsx';
import type { MailMessage } from '../../mail/templates.ts';
import type { FileStorage } from '../../storage/storage.ts';
import { verifyToken } from '../auth/tokens.ts';
import { countSubmitted } from '../billing/bills.ts';
import { type PacketData, packetData, packetMessages, renderPacket } from '../donations/packet.ts';
import * as webhookEvents from '../integrations/webhook-events.ts';
import {
  chooseVersion,
  emailCompanyName,
  liveVersions,
  matchFacts,
  sendDonorMails,
} from '../templates/donor-mail.ts';
import { lockedRecord, signingLink } from './esign-link.ts';
import { drawingBytes, printPacket, sha256, signWithAudit } from './esign-pdf.ts';

/**
 * Signed forms (issue #16). A match at Donor to E-Sign Form (5) emails its donor a signing link
 * (the status's template, 25, whose first step button opens it); the donor signs on
 * `/sign/{token}`; the signed packet (signature, date, audit page) is stored with the match, which
 * moves to NPO to Verify/Sign (3). Staff countersign (another audit page); for a company that
 * takes forms by email the packet then goes to its forms address through the outbox, and the
 * match moves to Submitted (4) when the message is delivered. Original Signature Only (6) matches
 * get a print packet with a cover letter and are marked posted.
 *
 * The link is a signed token ('esign-link': the match and the link's version), so no credential
 * is stored: `adobe_sign_signingUrl` (the spec's field) shows it to staff while it is open. It
 * opens the form only while it is the match's current version, the form is unsigned and the link
 * is within its 14 days; one signature uses it up.
 */

type Meta = { ip: string; userAgent: string };

/** What a link token says, or 404 when it is not one of ours. */
async function linkOf(secret: string, token: string) {
  const verified = await verifyToken(secret, 'esign-link', token);
  const version = verified?.data.v;
  if (!verified || typeof version !== 'number') throw new HttpError(404, esignMessages.invalidLink);
  return { donationId: Number(verified.subject), version };
}

type LinkState = EsignFormResponse['state'];

/** Whether a link can be used now, and if not why (the page's state). */
function stateOf(
  record: typeof esignDocuments.$inferSelect | undefined,
  statusId: number,
  version: number,
  now: Date,
): LinkState {
  if (record?.donor_signed_at && record.link_version === version) return 'signed';
  if (!record || version > record.link_version) return 'closed';
  if (statusId !== esignStatuses.donorToSign) return 'closed';
  if (version < record.link_version) return 'used';
  if (record.link_expires_at === null || record.link_expires_at.getTime() <= now.getTime()) return 'expired';
  return 'open';
}

const stateMessages: Record<LinkState, string | null> = {
  open: null,
  signed: esignMessages.alreadySigned,
  expired: esignMessages.expiredLink,
  used: esignMessages.usedLink,
  closed: esignMessages.notWaiting,
};

/** The match a signing step acts on; `lock` holds it for the rest of the transaction. */
async function matchRow(db: Queryable, donationId: number, lock = false) {
  const query = db
    .select({
      id: donations.id,
      organization_id: donations.organization_id,
      status_id: donations.status_id,
      company_id: donations.company_id,
    })
    .from(donations)
    .where(eq(donations.id, donationId));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

async function recordOf(db: Queryable, donationId: number) {
  const [record] = await db.select().from(esignDocuments).where(eq(esignDocuments.donation_id, donationId));
  return record;
}

/** GET /api/esign/{token}: the prefilled form the link opens, or why it cannot. */
export async function signingForm(deps: Deps, token: string): Promise<EsignFormResponse> {
  const link = await linkOf(deps.config.jwtSecret, token);
  const match = await matchRow(deps.db, link.donationId);
  if (!match) throw new HttpError(404, esignMessages.invalidLink);
  const record = await recordOf(deps.db, match.id);
  const state = stateOf(record, match.status_id, link.version, deps.clock.now());
  if (state !== 'open' || !record?.link_expires_at)
    return { state, message: stateMessages[state], form: null };
  const data = await packetData(deps.db, match.id, [esignStatuses.donorToSign]);
  return {
    state,
    message: null,
    form: {
      donation_id: match.id,
      donor: data.donor,
      gift: {
        date: data.donatedAt.toISOString().slice(0, 10),
        amount: data.amountCents / 100,
        transaction_id: data.transactionId,
      },
      company: { name: data.company.name },
      nonprofit: {
        name: data.organization.name,
        ein: data.organization.ein,
        address: data.organization.address,
      },
      consent: consentText,
      expires_at: record.link_expires_at.toISOString(),
    },
  };
}

/** Moves a match, with its history row and webhook; Submitted also counts on a per-match bill. */
async function moveStatus(
  tx: Tx,
  match: { id: number; organization_id: number; status_id: number },
  to: number,
  who: { userId: number | null; source: StatusChangeSource },
  now: Date,
) {
  if (match.status_id === to) return;
  await tx.update(donations).set({ status_id: to, updated_at: now }).where(eq(donations.id, match.id));
  await tx.insert(donationStatusHistory).values({
    donation_id: match.id,
    from_status_id: match.status_id,
    to_status_id: to,
    user_id: who.userId,
    source: who.source,
    at: now,
  });
  await webhookEvents.statusChanged(tx, [match.id]);
  if (to === esignStatuses.submitted) await countSubmitted(tx, [match], now);
}

/** Stores a new version of a match's packet: the name and SHA-256 to record. */
async function store(storage: FileStorage, bytes: Uint8Array) {
  return { file: await storage.put(bytes, 'application/pdf'), file_sha256: sha256(bytes) };
}

/**
 * POST /api/esign/{token}: the donor signs. Once per link: the record is locked, the state
 * checked again, and the signature recorded in the same transaction that moves the match to NPO
 * to Verify/Sign, so two submissions of one link sign once.
 */
export async function signForm(
  deps: Deps,
  token: string,
  body: EsignSignRequest,
  meta: Meta,
): Promise<{ message: string; signed_at: string }> {
  const link = await linkOf(deps.config.jwtSecret, token);
  const drawing = drawingBytes(body.drawing);
  const now = deps.clock.now();
  let stored: string | undefined;
  try {
    return await deps.db.transaction(async (tx) => {
      const [match] = await tx
        .select({
          id: donations.id,
          organization_id: donations.organization_id,
          status_id: donations.status_id,
        })
        .from(donations)
        .where(eq(donations.id, link.donationId))
        .for('update');
      if (!match) throw new HttpError(404, esignMessages.invalidLink);
      const record = await lockedRecord(tx, match.id, match.organization_id);
      const state = stateOf(record, match.status_id, link.version, now);
      if (state !== 'open') throw new HttpError(409, stateMessages[state] ?? esignMessages.invalidLink);
      const data = await packetData(tx, match.id, [esignStatuses.donorToSign]);
      const unsigned = new Uint8Array(await renderPacket(data));
      const { bytes, event } = await signWithAudit(
        unsigned,
        { who: 'donor', name: body.name, drawing, at: now },
        {
          event: 'donor-signed',
          at: now.toISOString(),
          name: body.name,
          email: data.donor.email,
          ip: meta.ip,
          userAgent: meta.userAgent,
          method: drawing ? 'drawn' : 'typed',
        },
        { donationId: match.id, consent: consentText },
      );
      const saved = await store(deps.storage, bytes);
      stored = saved.file;
      await tx
        .update(esignDocuments)
        .set({ ...saved, donor_signed_at: now, audit: [event], updated_at: now })
        .where(eq(esignDocuments.id, record.id));
      await tx.update(donations).set({ adobe_sign_signing_url: null }).where(eq(donations.id, match.id));
      await moveStatus(tx, match, esignStatuses.npoToSign, { userId: null, source: 'donor' }, now);
      return {
        message: `Thank you! Your signed form is on its way to ${data.organization.name}, who will countersign it and send it to ${data.company.name}.`,
        signed_at: now.toISOString(),
      };
    });
  } catch (error) {
    // The transaction did not commit: the file it stored belongs to nothing.
    if (stored) await deps.storage.remove(stored);
    throw error;
  }
}

/**
 * POST /api/esign/{token}/resend: an expired or used link asks for a new one. It goes to the
 * donor's email on file (never an address the caller names), only while the match still waits
 * for the donor's signature.
 */
export async function resendLink(deps: Deps, token: string): Promise<{ message: string }> {
  const link = await linkOf(deps.config.jwtSecret, token);
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const match = await matchRow(tx, link.donationId);
    if (!match) throw new HttpError(404, esignMessages.invalidLink);
    const record = await lockedRecord(tx, match.id, match.organization_id);
    const state = stateOf(record, match.status_id, link.version, now);
    if (state === 'signed' || state === 'closed')
      throw new HttpError(409, stateMessages[state] ?? esignMessages.notWaiting);
    const [facts] = await matchFacts(tx, [match.id]);
    const email = facts?.donor_email?.trim().toLowerCase();
    if (!facts || !email) throw new HttpError(409, esignMessages.noDonorEmail);
    const versions = await liveVersions(tx, [{ organization_id: match.organization_id, status_id: 25 }]);
    const template = chooseVersion(versions.get(`${match.organization_id}:25`) ?? [], match.id);
    if (!template) throw new Error('no live e-sign template');
    await signingLink(tx, deps.config, match, now, { fresh: true });
    await sendDonorMails(
      tx,
      [
        {
          row: facts,
          email,
          companyName: emailCompanyName(facts),
          template,
          stage: 1,
          kind: 'link',
        },
      ],
      deps.config,
      now,
    );
    return { message: esignMessages.newLinkSent };
  });
}

/** The stored packet of a record, refused (409) when its bytes no longer have the recorded SHA-256. */
async function verifiedPacket(
  storage: FileStorage,
  record: { file: string | null; file_sha256: string | null },
) {
  if (!record.file || !record.file_sha256) return undefined;
  const stored = await storage.get(record.file);
  if (!stored || sha256(stored.bytes) !== record.file_sha256)
    throw new HttpError(409, esignMessages.tampered);
  return stored.bytes;
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** The company's forms contact and address, and whether it takes forms by email. */
async function companyForms(db: Queryable, companyId: number | null) {
  if (companyId === null) return { email: null, address: null, method: null, name: null };
  const [row] = await db
    .select({
      email: companies.forms_email,
      address: companies.forms_address,
      method: companies.match_method,
      name: companies.name,
    })
    .from(companies)
    .where(eq(companies.id, companyId));
  return row ?? { email: null, address: null, method: null, name: null };
}

/** The email that carries a countersigned packet to the company's matching gift team. */
export function deliveryEmail(to: string, data: PacketData, donationId: number): Promise<MailMessage> {
  const subject = `Matching gift request: ${data.donor.name ?? 'a donor'}'s gift to ${data.organization.name}`;
  const lines = [
    'Dear Matching Gift Team,',
    `Attached is a matching gift request for ${data.donor.name ?? 'your employee'}'s gift of ${usd.format(data.amountCents / 100)} to ${data.organization.name}${data.organization.ein ? ` (EIN ${data.organization.ein})` : ''}, made on ${data.donatedAt.toISOString().slice(0, 10)}.`,
    `The form is signed electronically by the donor and countersigned by ${data.organization.name}; its last pages are the audit trail of both signatures.`,
    `Please send the match to ${data.organization.name}${data.organization.address.length ? `, ${data.organization.address.join(', ')}` : ''}. Questions about this request: ${data.organization.email ?? 'reply to this email'}.`,
    'Thank you,',
    data.organization.name,
  ];
  const attachmentNote = `Attachment: donation-${donationId}-esign.pdf`;
  return renderLinesEmail({
    to,
    subject,
    lines,
    small: attachmentNote,
    text: `${lines.join('\n\n')}\n\n${attachmentNote}\n`,
  });
}

/** Queues the packet's email to the company's forms address, when it has one: what to record. */
async function queueDelivery(
  tx: Tx,
  donationId: number,
  companyId: number | null,
  file: string,
): Promise<Partial<typeof esignDocuments.$inferInsert>> {
  const forms = await companyForms(tx, companyId);
  if (!forms.email) return {};
  const data = await packetData(tx, donationId, [esignStatuses.npoToSign]);
  const outboxId = await enqueueMail(tx, await deliveryEmail(forms.email, data, donationId), [
    { filename: `donation-${donationId}-esign.pdf`, contentType: 'application/pdf', file },
  ]);
  return { delivery_outbox_id: outboxId, delivery_to: forms.email };
}

/**
 * POST /api/donation/{id}/esign/deliver: sends a countersigned packet to the company again, after
 * a failed delivery (a bounce, a wrong address since corrected) or when the company's forms email
 * was added after the countersignature. Refused while a delivery is pending or once delivered.
 */
export async function deliverAgain(deps: Deps, donationId: number): Promise<EsignStateResponse> {
  await deps.db.transaction(async (tx) => {
    const [match] = await tx
      .select({ id: donations.id, status_id: donations.status_id, company_id: donations.company_id })
      .from(donations)
      .where(eq(donations.id, donationId))
      .for('update');
    if (!match) throw new HttpError(404, donationMessages.notFound);
    const [record] = await tx
      .select()
      .from(esignDocuments)
      .where(eq(esignDocuments.donation_id, donationId))
      .for('update');
    if (!record?.countersigned_at || !record.file) throw new HttpError(409, esignMessages.notCountersigned);
    if (record.delivered_at || match.status_id !== esignStatuses.npoToSign)
      throw new HttpError(409, esignMessages.alreadyDelivered);
    if (record.delivery_outbox_id !== null) {
      const [previous] = await tx
        .select({ status: outbox.status })
        .from(outbox)
        .where(eq(outbox.id, record.delivery_outbox_id));
      if (previous?.status === 'pending') throw new HttpError(409, esignMessages.deliveryPending);
    }
    await verifiedPacket(deps.storage, record);
    const delivery = await queueDelivery(tx, donationId, match.company_id, record.file);
    if (!delivery.delivery_outbox_id) throw new HttpError(409, esignMessages.noFormsEmail);
    await tx
      .update(esignDocuments)
      .set({ ...delivery, updated_at: deps.clock.now() })
      .where(eq(esignDocuments.id, record.id));
  });
  return esignState(deps.db, donationId);
}

type CountersignOutcome = { id: number; ok: true } | { id: number; ok: false; reason: string };

/**
 * Countersigns one match in the caller's transaction: the nonprofit's signature and an audit
 * page go on the donor-signed packet; a company that takes forms by email gets it through the
 * outbox (the match moves to Submitted when it is delivered).
 */
async function countersignOne(
  tx: Tx,
  deps: Deps,
  donationId: number,
  signer: { userId: number; name: string; drawing: Uint8Array | undefined },
  meta: Meta,
  now: Date,
  stored: string[],
): Promise<CountersignOutcome> {
  const match = await matchRow(tx, donationId, true);
  if (!match) return { id: donationId, ok: false, reason: donationMessages.notFound };
  const [record] = await tx
    .select()
    .from(esignDocuments)
    .where(eq(esignDocuments.donation_id, donationId))
    .for('update');
  if (!record?.donor_signed_at) return { id: donationId, ok: false, reason: esignMessages.notSigned };
  if (record.countersigned_at)
    return { id: donationId, ok: false, reason: esignMessages.alreadyCountersigned };
  if (match.status_id !== esignStatuses.npoToSign)
    return { id: donationId, ok: false, reason: esignMessages.notAtNpoToSign };
  const before = await verifiedPacket(deps.storage, record);
  if (!before) return { id: donationId, ok: false, reason: esignMessages.notSigned };
  const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, signer.userId));
  const { bytes, event } = await signWithAudit(
    before,
    { who: 'nonprofit', name: signer.name, drawing: signer.drawing, at: now },
    {
      event: 'nonprofit-countersigned',
      at: now.toISOString(),
      name: signer.name,
      email: user?.email ?? null,
      ip: meta.ip,
      userAgent: meta.userAgent,
      method: signer.drawing ? 'drawn' : 'typed',
    },
    { donationId, consent: null },
  );
  const saved = await store(deps.storage, bytes);
  stored.push(saved.file);
  const delivery = await queueDelivery(tx, donationId, match.company_id, saved.file);
  await tx
    .update(esignDocuments)
    .set({
      ...saved,
      ...delivery,
      countersigned_at: now,
      countersigned_by: signer.userId,
      audit: [...record.audit, event],
      updated_at: now,
    })
    .where(eq(esignDocuments.id, record.id));
  return { id: donationId, ok: true };
}

/** POST /api/donation/{id}/esign/countersign. */
export async function countersign(
  deps: Deps,
  donationId: number,
  userId: number,
  body: CountersignRequest,
  meta: Meta,
): Promise<EsignStateResponse> {
  const drawing = drawingBytes(body.drawing);
  const now = deps.clock.now();
  const stored: string[] = [];
  try {
    const outcome = await deps.db.transaction((tx) =>
      countersignOne(tx, deps, donationId, { userId, name: body.name, drawing }, meta, now, stored),
    );
    if (!outcome.ok)
      throw new HttpError(outcome.reason === donationMessages.notFound ? 404 : 409, outcome.reason);
  } catch (error) {
    for (const file of stored) await deps.storage.remove(file);
    throw error;
  }
  return esignState(deps.db, donationId);
}

/**
 * POST /api/donation/esign/countersign: several matches at once (the guard has checked the caller
 * may change every one, as for POST /api/donation/confirm), typed signature, each in its own transaction so one refusal (not signed
 * yet, already countersigned, changed file) does not hold back the others; the answer lists both.
 */
export async function countersignMany(
  deps: Deps,
  userId: number,
  body: BulkCountersignRequest,
  meta: Meta,
): Promise<{ countersigned: number[]; skipped: Array<{ id: number; reason: string }> }> {
  const ids = [...new Set(body.donation_ids)];
  const countersigned: number[] = [];
  const skipped: Array<{ id: number; reason: string }> = [];
  for (const id of ids) {
    const stored: string[] = [];
    try {
      const outcome = await deps.db.transaction((tx) =>
        countersignOne(
          tx,
          deps,
          id,
          { userId, name: body.name, drawing: undefined },
          meta,
          deps.clock.now(),
          stored,
        ),
      );
      if (outcome.ok) countersigned.push(id);
      else skipped.push({ id, reason: outcome.reason });
    } catch (error) {
      for (const file of stored) await deps.storage.remove(file);
      if (!(error instanceof HttpError)) throw error;
      skipped.push({ id, reason: error.message });
    }
  }
  return { countersigned, skipped };
}

/**
 * The mail worker's hook, in the transaction that marks an outbox message sent: a countersigned
 * packet's delivery moves its match from NPO to Verify/Sign to Submitted (4), with the date.
 */
export async function packetDelivered(tx: Tx, outboxId: number, now: Date): Promise<void> {
  const [record] = await tx
    .select()
    .from(esignDocuments)
    .where(eq(esignDocuments.delivery_outbox_id, outboxId))
    .for('update');
  if (!record || record.delivered_at) return;
  await tx
    .update(esignDocuments)
    .set({ delivered_at: now, updated_at: now })
    .where(eq(esignDocuments.id, record.id));
  const [match] = await tx
    .select({ id: donations.id, organization_id: donations.organization_id, status_id: donations.status_id })
    .from(donations)
    .where(eq(donations.id, record.donation_id))
    .for('update');
  if (match?.status_id === esignStatuses.npoToSign)
    await moveStatus(tx, match, esignStatuses.submitted, { userId: null, source: 'system' }, now);
}

/** POST /api/donation/{id}/esign/posted: an original-signature packet was posted to the company. */
export async function markPosted(
  deps: Deps,
  donationId: number,
  userId: number,
): Promise<EsignStateResponse> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const [match] = await tx
      .select({
        id: donations.id,
        organization_id: donations.organization_id,
        status_id: donations.status_id,
      })
      .from(donations)
      .where(eq(donations.id, donationId))
      .for('update');
    if (!match) throw new HttpError(404, donationMessages.notFound);
    if (match.status_id !== esignStatuses.originalSignature)
      throw new HttpError(409, esignMessages.notOriginalSignature);
    const record = await lockedRecord(tx, match.id, match.organization_id);
    if (record.posted_at) throw new HttpError(409, esignMessages.alreadyPosted);
    await tx
      .update(esignDocuments)
      .set({ posted_at: now, posted_by: userId, updated_at: now })
      .where(eq(esignDocuments.id, record.id));
    await moveStatus(tx, match, esignStatuses.submitted, { userId, source: 'staff' }, now);
  });
  return esignState(deps.db, donationId);
}

/** GET /api/donation/{id}/esign: the match's signed form, its audit trail and its delivery. */
export async function esignState(db: Queryable, donationId: number): Promise<EsignStateResponse> {
  const match = await matchRow(db, donationId);
  if (!match) throw new HttpError(404, donationMessages.notFound);
  const record = await recordOf(db, donationId);
  const forms = await companyForms(db, match.company_id);
  const [message] = record?.delivery_outbox_id
    ? await db.select().from(outbox).where(eq(outbox.id, record.delivery_outbox_id))
    : [];
  const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;
  let stage: EsignStateResponse['stage'] = 'none';
  if (match.status_id === esignStatuses.originalSignature) stage = 'print';
  else if (record?.posted_at) stage = 'posted';
  else if (record?.delivered_at) stage = 'delivered';
  else if (message?.status === 'failed') stage = 'delivery-failed';
  else if (message) stage = 'delivering';
  else if (record?.countersigned_at) stage = 'countersigned';
  else if (record?.donor_signed_at) stage = 'awaiting-countersign';
  else if (match.status_id === esignStatuses.donorToSign && record?.link_sent_at) stage = 'awaiting-donor';
  return {
    stage,
    link_sent_at: iso(record?.link_sent_at),
    link_expires_at: iso(record?.link_expires_at),
    donor_signed_at: iso(record?.donor_signed_at),
    countersigned_at: iso(record?.countersigned_at),
    file_sha256: record?.file_sha256 ?? null,
    audit: (record?.audit ?? []).map((e) => ({
      event: e.event,
      at: e.at,
      name: e.name,
      ip: e.ip,
      before: e.before,
      after: e.after,
    })),
    delivery: message
      ? {
          to: message.to,
          subject: message.subject,
          status: message.status,
          error: message.last_error,
          sent_at: iso(message.sent_at),
          preview_html: message.html,
        }
      : null,
    posted_at: iso(record?.posted_at),
    company_forms_email: forms.email,
    company_forms_address: forms.address,
  };
}

const pdfResponse = (bytes: Uint8Array, donationId: number) =>
  new Response(new Uint8Array(bytes), {
    headers: {
      'content-type': 'application/pdf',
      'content-disposition': attachment(`donation-${donationId}-esign.pdf`),
      'content-length': String(bytes.byteLength),
      'cache-control': 'no-store',
    },
  });

/**
 * GET /donation/{id}/esign/download: the current packet. Signed (and countersigned) once signed,
 * after its SHA-256 check; an Original Signature Only match's print packet (cover letter to the
 * company's mailing address, then the form); otherwise the unsigned packet of the spec's Download
 * Packet (statuses 1 and 4).
 */
export async function currentPacket(deps: Deps, donationId: number): Promise<Response> {
  const record = await recordOf(deps.db, donationId);
  const signed = record ? await verifiedPacket(deps.storage, record) : undefined;
  if (signed) return pdfResponse(signed, donationId);
  const match = await matchRow(deps.db, donationId);
  if (!match) throw new HttpError(404, donationMessages.notFound);
  if (match.status_id === esignStatuses.originalSignature) {
    const data = await packetData(deps.db, donationId, [esignStatuses.originalSignature]);
    const forms = await companyForms(deps.db, match.company_id);
    const bytes = await printPacket(new Uint8Array(await renderPacket(data)), {
      date: deps.clock.now(),
      companyName: data.company.name,
      companyAddress: (forms.address ?? '')
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean),
      organization: data.organization,
      donorName: data.donor.name,
      donationId,
      amount: usd.format(data.amountCents / 100),
    });
    return pdfResponse(bytes, donationId);
  }
  const data = await packetData(deps.db, donationId);
  return pdfResponse(new Uint8Array(await renderPacket(data)), donationId);
}

export { packetMessages };

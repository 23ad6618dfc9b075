import { eq } from 'drizzle-orm';
import PDFDocument from 'pdfkit';
import { donationMessages, packetMethods, packetStatuses } from '../../../src/contract/donations.ts';
import { statusName } from '../../../src/contract/statuses.ts';
import type { Queryable } from '../../db/client.ts';
import { addresses, companies, donations, donors, organizations } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';

/**
 * The e-sign packet (spec: "GET /donation/{id}/esign/download (binary), saved as
 * donation-{id}-esign.pdf"; "Download Packet: for esign, paper or mail companies at status 1 or
 * 4"): the matching-gift request the donor's company receives, with the nonprofit's and the
 * donor's signature fields as real PDF form fields, so it can be signed on screen or on paper.
 */

export const packetMessages = {
  wrongMethod: 'A packet is only available for companies that match through e-sign, paper or mail forms.',
  wrongStatus: `A packet is only available for matches at status ${statusName(1)} or ${statusName(4)}.`,
} as const;

/** The form fields of the packet: name → printed label. */
export const packetFields = {
  donor_signature: 'Donor signature',
  donor_signature_date: 'Date',
  nonprofit_signature: 'Nonprofit signature',
  nonprofit_signature_date: 'Date',
} as const;

const methodLabels: Record<(typeof packetMethods)[number], string> = {
  esign: 'Electronic signature form',
  paper: 'Paper form (original signature)',
  mail: 'Mailed form',
};

export type PacketData = {
  donationId: number;
  transactionId: string | null;
  donatedAt: Date;
  amountCents: number;
  matchedCents: number;
  donor: { name: string | null; email: string | null };
  organization: {
    name: string;
    ein: string | null;
    address: string[];
    email: string | null;
  };
  company: { name: string; method: (typeof packetMethods)[number]; guide: string | null };
};

/** The facts the packet prints, or 404 (missing) / 409 (not a packet company or status). */
export async function packetData(
  db: Queryable,
  donationId: number,
  /** The statuses the packet is offered at (the spec's Download Packet: 1 and 4). */
  statuses: readonly number[] = packetStatuses,
): Promise<PacketData> {
  const [row] = await db
    .select({
      id: donations.id,
      transaction_id: donations.transaction_id,
      donated_at: donations.donated_at,
      amount_cents: donations.amount_cents,
      matched_cents: donations.matched_cents,
      status_id: donations.status_id,
      donor_name: donors.name,
      donor_email: donors.email,
      company_name: companies.name,
      match_method: companies.match_method,
      guide: companies.guide,
      organization_name: organizations.name,
      ein: organizations.ein,
      contact: organizations.notify_contact,
      street: addresses.street,
      street2: addresses.street2,
      city: addresses.city,
      state: addresses.state,
      zip: addresses.zip,
      country: addresses.country,
    })
    .from(donations)
    .innerJoin(organizations, eq(organizations.id, donations.organization_id))
    .leftJoin(addresses, eq(addresses.id, organizations.address_id))
    .leftJoin(donors, eq(donors.id, donations.donor_id))
    .leftJoin(companies, eq(companies.id, donations.company_id))
    .where(eq(donations.id, donationId));
  if (!row) throw new HttpError(404, donationMessages.notFound);
  const method = packetMethods.find((m) => m === row.match_method);
  if (!method || row.company_name === null) throw new HttpError(409, packetMessages.wrongMethod);
  if (!statuses.includes(row.status_id)) throw new HttpError(409, packetMessages.wrongStatus);
  const cityLine = [row.city, [row.state, row.zip].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return {
    donationId: row.id,
    transactionId: row.transaction_id,
    donatedAt: row.donated_at,
    amountCents: row.amount_cents,
    matchedCents: row.matched_cents,
    donor: { name: row.donor_name, email: row.donor_email },
    organization: {
      name: row.organization_name,
      ein: row.ein,
      address: [row.street, row.street2, cityLine, row.country].filter((line): line is string => !!line),
      email: row.contact.email ?? null,
    },
    company: { name: row.company_name, method, guide: row.guide },
  };
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const longDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });
const dash = (text: string | null | undefined) => (text?.trim() ? text : '—');

/** Renders the packet as PDF bytes (letter size, Helvetica, AcroForm signature fields). */
export function renderPacket(data: PacketData): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: 56,
    info: {
      Title: `Matching Gift Request — donation ${data.donationId}`,
      Author: data.organization.name,
      Subject: `Matching gift request to ${data.company.name}`,
    },
  });
  const chunks: Uint8Array[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Uint8Array) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const width = doc.page.width - 112;

  doc.font('Helvetica-Bold').fontSize(20).text('Matching Gift Request', { align: 'center' });
  doc.moveDown(0.25);
  doc
    .font('Helvetica')
    .fontSize(10)
    .fillColor('#444')
    .text(`Donation ${data.donationId} · ${methodLabels[data.company.method]}`, { align: 'center' });
  doc.fillColor('black').moveDown(1);

  const section = (title: string, lines: Array<[string, string]>) => {
    doc.font('Helvetica-Bold').fontSize(12).text(title);
    doc
      .moveTo(doc.x, doc.y + 2)
      .lineTo(doc.x + width, doc.y + 2)
      .strokeColor('#999')
      .stroke();
    doc.moveDown(0.4);
    for (const [label, value] of lines) {
      doc.font('Helvetica-Bold').fontSize(10).text(`${label}: `, { continued: true });
      doc.font('Helvetica').text(value);
    }
    doc.moveDown(0.8);
  };

  section('Nonprofit', [
    ['Name', data.organization.name],
    ['EIN', dash(data.organization.ein)],
    ['Address', data.organization.address.length ? data.organization.address.join(', ') : '—'],
    ['Contact email', dash(data.organization.email)],
  ]);
  section('Donor', [
    ['Name', dash(data.donor.name)],
    ['Email', dash(data.donor.email)],
  ]);
  section('Gift', [
    ['Date', longDate.format(data.donatedAt)],
    ['Amount', usd.format(data.amountCents / 100)],
    ['Transaction ID', dash(data.transactionId)],
    ['Estimated match', usd.format(data.matchedCents / 100)],
  ]);
  section('Matching company', [
    ['Company', data.company.name],
    ['Method', methodLabels[data.company.method]],
    ['Guide', dash(data.company.guide)],
  ]);

  doc.font('Helvetica-Bold').fontSize(12).text('Certification');
  doc.moveDown(0.3);
  doc
    .font('Helvetica')
    .fontSize(10)
    .text(
      `The donor certifies that the gift above was made personally, from their own funds, and that no goods or services were received in return. ` +
        `The nonprofit certifies that it received the gift on the date shown, that it is a tax-exempt organization under section 501(c)(3) of the ` +
        `Internal Revenue Code (EIN ${dash(data.organization.ein)}), and that the gift will be used for its charitable purposes. ` +
        `Both ask ${data.company.name} to match this gift under its matching gift program.`,
      { width, align: 'justify' },
    );
  doc.moveDown(2);

  // Two rows of signature fields, each a fillable text field with a printed line and label under it.
  doc.initForm();
  const fieldHeight = 22;
  const signatureWidth = width * 0.62;
  const dateX = doc.page.margins.left + signatureWidth + 24;
  const dateWidth = width - signatureWidth - 24;
  const signatureRow = (signature: keyof typeof packetFields, date: keyof typeof packetFields) => {
    const y = doc.y;
    const left = doc.page.margins.left;
    doc.formText(signature, left, y, signatureWidth, fieldHeight, {});
    doc.formText(date, dateX, y, dateWidth, fieldHeight, {});
    const lineY = y + fieldHeight + 2;
    doc
      .moveTo(left, lineY)
      .lineTo(left + signatureWidth, lineY)
      .strokeColor('black')
      .stroke();
    doc
      .moveTo(dateX, lineY)
      .lineTo(dateX + dateWidth, lineY)
      .stroke();
    doc.font('Helvetica').fontSize(9);
    doc.text(packetFields[signature], left, lineY + 4, { width: signatureWidth });
    doc.text(packetFields[date], dateX, lineY + 4, { width: dateWidth });
    doc.x = left;
    doc.moveDown(2.5);
  };
  signatureRow('donor_signature', 'donor_signature_date');
  signatureRow('nonprofit_signature', 'nonprofit_signature_date');

  doc.end();
  return done;
}

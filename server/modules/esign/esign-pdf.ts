import { createHash } from 'node:crypto';
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import { esignMessages } from '../../../src/contract/esign.ts';
import type { EsignAuditEvent } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';

/**
 * The signed packet's PDF work, with pdf-lib on the packet pdfkit renders (packet.ts): a
 * signature (typed or drawn) and its date placed where the packet's form fields were, an audit
 * page after each signature, and the original-signature packet's cover letter.
 */

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export type Signature = {
  /** Whose fields: the packet's donor_signature / nonprofit_signature (and their dates). */
  who: 'donor' | 'nonprofit';
  name: string;
  /** A PNG of the drawn signature; the typed name is the signature without one. */
  drawing?: Uint8Array | undefined;
  at: Date;
};

const dayFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** Text the standard fonts can draw: characters outside WinAnsi become '?'. */
function drawable(font: PDFFont, text: string): string {
  const known = new Set(font.getCharacterSet());
  return [...text.replace(/[\r\n\t]+/g, ' ')]
    .map((ch) => (known.has(ch.codePointAt(0) ?? -1) ? ch : '?'))
    .join('');
}

/**
 * The page and rectangle of a packet form field, removing the field (the signature replaces it).
 * pdfkit's fields carry no appearance stream, which pdf-lib's removeField expects: the widget
 * leaves its page and the field the form by hand.
 */
function takeField(doc: PDFDocument, name: string) {
  const form = doc.getForm();
  const field = form.getFieldMaybe(name);
  if (!field) return undefined;
  const widget = field.acroField.getWidgets()[0];
  if (!widget) return undefined;
  const rect = widget.getRectangle();
  const ref = doc.context.getObjectRef(widget.dict) ?? field.ref;
  let page: PDFPage | undefined;
  for (const p of doc.getPages()) {
    const annots = p.node.Annots();
    if (annots?.asArray().some((a) => a === ref)) {
      page = p;
      p.node.removeAnnot(ref);
    }
  }
  form.acroForm.removeField(field.acroField);
  doc.context.delete(field.ref);
  return { page: page ?? doc.getPage(0), rect };
}

/** The largest drawing accepted: the pad is at most 680 × 160 CSS pixels, at up to 4 pixels each way per CSS pixel on dense screens. */
const maxDrawing = { width: 4096, height: 2048 };

/** Decodes a signature drawing's data URL, or 400 when it is not one (or is too large). */
export function drawingBytes(dataUrl: string | undefined): Uint8Array | undefined {
  if (dataUrl === undefined) return undefined;
  const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  // PNG signature: \x89PNG\r\n\x1a\n.
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length < 64 || !png.every((b, i) => bytes[i] === b))
    throw new HttpError(400, esignMessages.badDrawing);
  // The first chunk is IHDR: width and height at bytes 16 and 20. pdf-lib unpacks every pixel
  // (four bytes each) and deflates them again on the event loop, so a 300 KB PNG declaring
  // 8000 × 8000 pixels held the server for half a minute; the pad draws far fewer.
  if (bytes.toString('latin1', 12, 16) !== 'IHDR') throw new HttpError(400, esignMessages.badDrawing);
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  if (width > maxDrawing.width || height > maxDrawing.height)
    throw new HttpError(400, esignMessages.drawingTooLarge);
  return new Uint8Array(bytes);
}

async function load(bytes: Uint8Array): Promise<PDFDocument> {
  return PDFDocument.load(bytes, { updateMetadata: false });
}

/** Places one party's signature and date on the packet; the fields it fills are removed. */
export async function applySignature(bytes: Uint8Array, signature: Signature): Promise<Uint8Array> {
  const doc = await load(bytes);
  const script = await doc.embedFont(StandardFonts.TimesRomanItalic);
  const plain = await doc.embedFont(StandardFonts.Helvetica);
  const box = takeField(doc, `${signature.who}_signature`);
  const dateBox = takeField(doc, `${signature.who}_signature_date`);
  if (!box) throw new Error(`the packet has no ${signature.who}_signature field`);
  const { page, rect } = box;
  if (signature.drawing) {
    let image: Awaited<ReturnType<PDFDocument['embedPng']>>;
    try {
      image = await doc.embedPng(signature.drawing);
    } catch {
      throw new HttpError(400, esignMessages.badDrawing);
    }
    // The drawing keeps its proportions inside a box a little taller than the field.
    const height = rect.height + 16;
    const scale = Math.min(rect.width / image.width, height / image.height);
    page.drawImage(image, { x: rect.x, y: rect.y, width: image.width * scale, height: image.height * scale });
    page.drawText(drawable(plain, signature.name), {
      x: rect.x + rect.width - Math.min(rect.width / 2, plain.widthOfTextAtSize(signature.name, 7)),
      y: rect.y - 22,
      size: 7,
      font: plain,
      color: rgb(0.3, 0.3, 0.3),
    });
  } else {
    const text = drawable(script, signature.name);
    const size = Math.min(18, (rect.width / Math.max(1, script.widthOfTextAtSize(text, 18))) * 18);
    page.drawText(text, { x: rect.x + 2, y: rect.y + 5, size, font: script, color: rgb(0.05, 0.1, 0.35) });
  }
  if (dateBox)
    dateBox.page.drawText(dayFormat.format(signature.at), {
      x: dateBox.rect.x + 2,
      y: dateBox.rect.y + 7,
      size: 10,
      font: plain,
    });
  return doc.save({ useObjectStreams: false });
}

const roleOf: Record<EsignAuditEvent['event'], string> = {
  'donor-signed': 'Donor signature',
  'nonprofit-countersigned': 'Nonprofit countersignature',
};

/** Wraps text to a width (in the font at a size). */
function wrap(font: PDFFont, text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    const next = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(next, size) > width && line) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * Appends an audit page for one signature: who signed, when, from which address and browser,
 * how, the consent given, and the SHA-256 of the PDF before the signature and of the signed PDF
 * (before this page was added).
 */
export async function appendAuditPage(
  bytes: Uint8Array,
  event: EsignAuditEvent,
  facts: { donationId: number; consent: string | null },
): Promise<Uint8Array> {
  const doc = await load(bytes);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const plain = await doc.embedFont(StandardFonts.Helvetica);
  const mono = await doc.embedFont(StandardFonts.Courier);
  const page: PDFPage = doc.addPage([612, 792]);
  const left = 56;
  const width = 612 - 112;
  let y = 792 - 72;
  const write = (text: string, font: PDFFont, size: number, color = rgb(0, 0, 0)) => {
    for (const line of wrap(font, drawable(font, text), size, width)) {
      page.drawText(line, { x: left, y, size, font, color });
      y -= size * 1.45;
    }
  };
  write('Audit trail', bold, 20);
  write(
    `${roleOf[event.event]} · Matching Gift Request, donation ${facts.donationId}`,
    plain,
    10,
    rgb(0.3, 0.3, 0.3),
  );
  y -= 12;
  const rows: Array<[string, string, PDFFont]> = [
    ['Signed by', event.name, plain],
    ['Email', event.email ?? '—', plain],
    ['Signed at (UTC)', event.at.replace('T', ' ').replace(/\.\d+Z$/, ' UTC'), plain],
    ['IP address', event.ip, plain],
    ['Browser', event.userAgent.slice(0, 160) || '—', plain],
    ['Signature', event.method === 'drawn' ? 'Drawn on screen' : 'Typed name', plain],
    ['SHA-256 before signing', event.before, mono],
    ['SHA-256 after signing', event.after, mono],
  ];
  for (const [label, value, font] of rows) {
    write(label, bold, 10);
    write(value, font, font === mono ? 8.5 : 10);
    y -= 6;
  }
  if (facts.consent) {
    y -= 6;
    write('Consent given', bold, 10);
    write(facts.consent, plain, 9);
  }
  y -= 12;
  write(
    'The SHA-256 before signing is that of the PDF as it stood before this signature; the one after signing is that of the signed PDF before this audit page was added. Twofold records the SHA-256 of the whole file as it stores it, and refuses a file that no longer matches.',
    plain,
    8,
    rgb(0.35, 0.35, 0.35),
  );
  return doc.save({ useObjectStreams: false });
}

/** Signs, then adds the audit page: the new file, and the event with both hashes filled in. */
export async function signWithAudit(
  bytes: Uint8Array,
  signature: Signature,
  event: Omit<EsignAuditEvent, 'before' | 'after'>,
  facts: { donationId: number; consent: string | null },
): Promise<{ bytes: Uint8Array; event: EsignAuditEvent }> {
  const signed = await applySignature(bytes, signature);
  const full: EsignAuditEvent = { ...event, before: sha256(bytes), after: sha256(signed) };
  return { bytes: await appendAuditPage(signed, full, facts), event: full };
}

/**
 * The original-signature packet: a cover letter to the company's matching gift team (its
 * mailing address placed for a window envelope) in front of the packet, ready to print.
 */
export async function printPacket(
  packet: Uint8Array,
  letter: {
    date: Date;
    companyName: string;
    companyAddress: string[];
    organization: { name: string; address: string[]; email: string | null };
    donorName: string | null;
    donationId: number;
    amount: string;
  },
): Promise<Uint8Array> {
  const doc = await load(packet);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const plain = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.insertPage(0, [612, 792]);
  const left = 72;
  const width = 612 - 144;
  let y = 792 - 72;
  const write = (text: string, font = plain, size = 11) => {
    for (const line of wrap(font, drawable(font, text), size, width)) {
      page.drawText(line, { x: left, y, size, font });
      y -= size * 1.5;
    }
  };
  write(letter.organization.name, bold, 12);
  for (const line of letter.organization.address) write(line, plain, 10);
  if (letter.organization.email) write(letter.organization.email, plain, 10);
  y -= 28;
  write(dayFormat.format(letter.date));
  y -= 14;
  write(`${letter.companyName}`, bold);
  write('Attn: Matching Gift Program');
  for (const line of letter.companyAddress) write(line);
  if (letter.companyAddress.length === 0) write('(mailing address not on file: add it to the company)');
  y -= 20;
  write('Dear Matching Gift Team,');
  y -= 6;
  write(
    `Enclosed is a matching gift request, signed in original by the donor${letter.donorName ? `, ${letter.donorName},` : ''} and by ${letter.organization.name}, for a gift of ${letter.amount} (our reference: donation ${letter.donationId}). ${letter.companyName} accepts matching gift forms with original signatures only, so we are sending it by post.`,
  );
  y -= 6;
  write(
    `Please send the match to ${letter.organization.name} at the address above. If anything is missing, write to us${letter.organization.email ? ` at ${letter.organization.email}` : ''} and we will answer promptly.`,
  );
  y -= 6;
  write('Thank you for supporting your employees’ giving.'.replace('’', "'"));
  y -= 14;
  write('Sincerely,');
  y -= 24;
  write(letter.organization.name, bold);
  return doc.save({ useObjectStreams: false });
}

import * as z from 'zod/mini';
import { dbId, safeText } from './fields.ts';

/**
 * Signed forms (issue #16): the donor's signing page (`/sign/{token}`, element `<twofold-esign>`),
 * the nonprofit's countersignature, the original-signature print packet and the delivery to the
 * company. The statuses are the spec's (section 4): 5 Donor to E-Sign Form (the donor signs), 3
 * NPO to Verify/Sign (the nonprofit countersigns), 6 Original Signature Only (printed and posted),
 * 4 Submitted (the company has the form).
 */
export const esignStatuses = { donorToSign: 5, npoToSign: 3, originalSignature: 6, submitted: 4 } as const;

/** The texts a signer and the staff see (one place, used by the server's errors and the page). */
export const esignMessages = {
  invalidLink: 'This signing link is not valid. Please use the link in your most recent email.',
  expiredLink: 'This signing link has expired.',
  usedLink: 'This signing link has already been used.',
  alreadySigned: 'This form has already been signed. Thank you!',
  notWaiting: 'This match is no longer waiting for a signature, so there is nothing to sign.',
  newLinkSent: 'We emailed a new signing link to the address we have on file.',
  noDonorEmail:
    'We have no email address for this donor, so a new link cannot be sent. Please contact the nonprofit.',
  consentRequired: 'Please agree to sign electronically.',
  signatureRequired: 'Please type your full name or draw your signature.',
  badDrawing: 'The drawn signature could not be read. Please draw it again or type your name.',
  drawingTooLarge:
    'The drawn signature is too large (at most 4096 × 2048 pixels). Please draw it again or type your name.',
  notSigned: 'The donor has not signed this form yet.',
  alreadyCountersigned: 'This form is already countersigned.',
  notAtNpoToSign: 'Only matches at NPO to Verify/Sign can be countersigned.',
  tampered:
    'The signed packet fails its integrity check (its SHA-256 does not match the one recorded when it was signed). It was not used.',
  notOriginalSignature: 'Only matches at Original Signature Only have a print packet to post.',
  alreadyPosted: 'This packet is already marked as posted.',
  notCountersigned: 'This form is not countersigned yet, so there is nothing to send.',
  alreadyDelivered: 'This packet was already delivered to the company.',
  deliveryPending: 'This packet is on its way to the company already.',
  noFormsEmail:
    'The company has no forms email on file: add it to the company, or download the packet and send it.',
} as const;

/** spec is silent; the consent a signer gives (ESIGN Act style), printed on the audit page too. */
export const consentText =
  'I agree to sign this matching gift form electronically. My electronic signature has the same effect as my handwritten signature, and I confirm that the gift described above was made personally, from my own funds, with no goods or services received in return.';

/** A typed signature: the signer's full name. */
const typedName = safeText(z.trim(), z.minLength(2, esignMessages.signatureRequired), z.maxLength(120));
/** A drawn signature: a PNG data URL from the signature pad (at most about 300 KB). */
const drawing = z
  .string()
  .check(
    z.maxLength(400_000, esignMessages.badDrawing),
    z.regex(/^data:image\/png;base64,[A-Za-z0-9+/=]+$/, esignMessages.badDrawing),
  );

/** POST /api/esign/{token}: the donor's signature. */
export const EsignSignRequest = z.object({
  /** The name the signer signs as (printed under a drawn signature, the signature itself when typed). */
  name: typedName,
  consent: z.literal(true, esignMessages.consentRequired),
  /** Present when drawn; the typed name is the signature otherwise. */
  drawing: z.optional(drawing),
});
export type EsignSignRequest = z.infer<typeof EsignSignRequest>;

/** POST /api/donation/{id}/esign/countersign: the staff member's signature (typed or drawn). */
export const CountersignRequest = z.object({
  name: typedName,
  drawing: z.optional(drawing),
});
export type CountersignRequest = z.infer<typeof CountersignRequest>;

/** POST /api/organization/{id}/esign/countersign: several signed matches at once. */
export const BulkCountersignRequest = z.object({
  donation_ids: z.array(dbId('donation_ids must be donation ids')).check(z.minLength(1), z.maxLength(500)),
  name: typedName,
});
export type BulkCountersignRequest = z.infer<typeof BulkCountersignRequest>;

/** What a signing link opens: the prefilled form, or why it cannot. */
export const EsignFormResponse = z.object({
  state: z.enum(['open', 'signed', 'expired', 'used', 'closed']),
  message: z.nullable(z.string()),
  form: z.nullable(
    z.object({
      donation_id: z.number(),
      donor: z.object({ name: z.nullable(z.string()), email: z.nullable(z.string()) }),
      gift: z.object({ date: z.string(), amount: z.number(), transaction_id: z.nullable(z.string()) }),
      company: z.object({ name: z.string() }),
      nonprofit: z.object({ name: z.string(), ein: z.nullable(z.string()), address: z.array(z.string()) }),
      consent: z.string(),
      expires_at: z.string(),
    }),
  ),
});
export type EsignFormResponse = z.infer<typeof EsignFormResponse>;

export const EsignSignResponse = z.object({ message: z.string(), signed_at: z.string() });
export type EsignSignResponse = z.infer<typeof EsignSignResponse>;

/** A match's signed form as staff see it in the match dialog. */
export const EsignStateResponse = z.object({
  /** What can be done now. */
  stage: z.enum([
    'none',
    'awaiting-donor',
    'awaiting-countersign',
    'delivering',
    'delivered',
    'delivery-failed',
    'print',
    'posted',
    'countersigned',
  ]),
  link_sent_at: z.nullable(z.string()),
  link_expires_at: z.nullable(z.string()),
  donor_signed_at: z.nullable(z.string()),
  countersigned_at: z.nullable(z.string()),
  file_sha256: z.nullable(z.string()),
  audit: z.array(
    z.object({
      event: z.string(),
      at: z.string(),
      name: z.string(),
      ip: z.string(),
      before: z.string(),
      after: z.string(),
    }),
  ),
  delivery: z.nullable(
    z.object({
      to: z.string(),
      subject: z.string(),
      status: z.enum(['pending', 'sent', 'failed']),
      error: z.nullable(z.string()),
      sent_at: z.nullable(z.string()),
      preview_html: z.string(),
    }),
  ),
  posted_at: z.nullable(z.string()),
  /** Where the company takes forms: its email (e-sign) or mailing address (original signature). */
  company_forms_email: z.nullable(z.string()),
  company_forms_address: z.nullable(z.string()),
});
export type EsignStateResponse = z.infer<typeof EsignStateResponse>;

export const BulkCountersignResponse = z.object({
  countersigned: z.array(z.number()),
  skipped: z.array(z.object({ id: z.number(), reason: z.string() })),
});
export type BulkCountersignResponse = z.infer<typeof BulkCountersignResponse>;

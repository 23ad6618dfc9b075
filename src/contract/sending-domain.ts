import * as z from 'zod/mini';
import { emailMaxLength, isEmailAddress } from './email.ts';

/**
 * An organization's own sender for donor emails (issue #28), shared by the server and the Email
 * Templates screen's "Sender" section: the address an admin sets, the DNS records Twofold asks
 * for, and what Verify found for each.
 */

export const sendingDomainMessages = {
  keyUnreadable:
    'DKIM: Twofold can no longer read this key (the server secret changed), so donor emails go from the platform address. Choose Rotate key and publish the new record.',
  nameRequired: 'Enter the name donors see as the sender.',
  emailInvalid: 'Enter the address to send from, such as giving@yourdomain.org.',
  freeMail: 'Use an address at your organization’s own domain, not a free email provider.',
  platformDomain: 'This domain belongs to Twofold; use an address at your organization’s domain.',
  notSet: 'No sender address is set.',
  rotationPending: 'A new key is already waiting to be published.',
  notVerified: 'Verify the domain before rotating its key.',
} as const;

export const fromNameMaxLength = 100;

export const SendingDomainInput = z.object({
  from_name: z.string().check(
    z.trim(),
    z.minLength(1, sendingDomainMessages.nameRequired),
    z.maxLength(fromNameMaxLength, `The sender name is at most ${fromNameMaxLength} characters.`),
    z.refine((v) => !/[\r\n"<>]/.test(v), 'The sender name cannot contain quotes, < > or line breaks.'),
  ),
  from_email: z.string().check(
    // Lowercased by the server (zod's toLowerCase would add to the portal's first load).
    z.trim(),
    z.maxLength(emailMaxLength, sendingDomainMessages.emailInvalid),
    z.refine(isEmailAddress, sendingDomainMessages.emailInvalid),
  ),
});
export type SendingDomainInput = z.infer<typeof SendingDomainInput>;

/**
 * What a lookup found for one record: found and right, found but different (`found` shows what),
 * missing (no such record), or the lookup failed (the DNS server did not answer; nothing is
 * concluded from it).
 */
export const recordCheckStates = ['right', 'different', 'missing', 'failed'] as const;
export type RecordCheckState = (typeof recordCheckStates)[number];
export const RecordCheck = z.object({
  state: z.enum(recordCheckStates),
  /** The TXT records found at the name (each one's strings joined). */
  found: z.array(z.string()),
  /** What was wrong, in words ("The public key differs", "SERVFAIL"). */
  detail: z.nullable(z.string()),
});
export type RecordCheck = z.infer<typeof RecordCheck>;

export const DnsRecord = z.object({
  purpose: z.enum(['dkim', 'dkim-next', 'spf', 'dmarc']),
  type: z.literal('TXT'),
  /** The full name of the record (`twofold-20261127-1._domainkey.hopeharbor.org`). */
  name: z.string(),
  /** The value to publish; null when nothing needs publishing (SPF with Twofold's return path). */
  value: z.nullable(z.string()),
  /** Whether verification needs it (the DKIM records); DMARC is advice. */
  required: z.boolean(),
  note: z.string(),
  /** The last check of this record; null before any. */
  check: z.nullable(RecordCheck),
});
export type DnsRecord = z.infer<typeof DnsRecord>;

export const sendingDomainStatuses = ['pending', 'verified', 'failed'] as const;
export type SendingDomainStatus = (typeof sendingDomainStatuses)[number];
export const sendingDomainStatusLabels: Record<SendingDomainStatus, string> = {
  pending: 'Not verified yet',
  verified: 'Verified',
  failed: 'Verification lost',
};

export const SendingDomain = z.object({
  from_name: z.string(),
  from_email: z.string(),
  domain: z.string(),
  status: z.enum(sendingDomainStatuses),
  verified_at: z.nullable(z.string()),
  checked_at: z.nullable(z.string()),
  /** The selector signing now (null before the first verification). */
  active_selector: z.nullable(z.string()),
  /** A rotation's next selector, published but not yet found right (null when none). */
  next_selector: z.nullable(z.string()),
  /** The selector a rotation replaced: its record may be removed from DNS. */
  retired_selector: z.nullable(z.string()),
  records: z.array(DnsRecord),
  /** How donor emails go out now: the From and Reply-To headers. */
  sending: z.object({ from: z.string(), reply_to: z.nullable(z.string()) }),
});
export type SendingDomain = z.infer<typeof SendingDomain>;

export const SendingDomainResponse = z.object({
  sending_domain: z.nullable(SendingDomain),
  /** How donor emails go out when no sender is set (the platform address). */
  platform_from: z.string(),
});
export type SendingDomainResponse = z.infer<typeof SendingDomainResponse>;

import { createTransport } from 'nodemailer';
import type { MailMessage } from './templates.ts';

/**
 * Which outbox row a delivery is: its Message-ID is made from it, the same on every attempt, so a
 * retry after a process died mid-send (delivery is at least once) is recognisable as the same
 * message by the receiving side.
 */
export type OutboxRef = { id: number; createdAt: Date };

/** nodemailer's DKIM signing options: `d=` domainName, `s=` keySelector. */
export type DkimKey = { domainName: string; keySelector: string; privateKey: string };

/**
 * Who a message goes out as, decided by the mail worker when it sends (an organization's
 * verified domain, or the platform address on its behalf). Without one: MAIL_FROM, signed with
 * the platform's key when the operator configured MAIL_DKIM_*.
 */
export type Sender = {
  from: { name: string; address: string };
  /** Where replies go when the message itself names no Reply-To. */
  replyTo?: string | undefined;
  /** Signs the message (`d=` the From's domain, so DMARC aligns on DKIM). */
  dkim?: DkimKey | undefined;
};

/** Delivers one message or throws; the mail worker retries on a throw. */
export type MailTransport = {
  kind: 'smtp' | 'dev-mailbox';
  send: (message: MailMessage, ref?: OutboxRef, sender?: Sender) => Promise<void>;
  close?: () => void;
};

/** The address in a From header (`Twofold <no-reply@twofold.org>` → `no-reply@twofold.org`). */
export function addressOf(from: string): string {
  return (/<([^<>\s]+@[^<>\s]+)>\s*$/.exec(from)?.[1] ?? from).trim().toLowerCase();
}

/** `<outbox-ID-CREATEDMS@domain>`: stable per outbox row, distinct across rows and installs. */
export function outboxMessageId(ref: OutboxRef, from: string): string {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1] ?? 'twofold.invalid';
  return `<outbox-${ref.id}-${ref.createdAt.getTime()}@${domain}>`;
}

/**
 * SMTP through nodemailer. Its waits are bounded by the mail worker's lease (MAIL_LEASE_MS): a send
 * that stalls gives up, and is retried, before the lease runs out and another process may take the
 * same message; nodemailer's own defaults (10 minutes of silence) would outlast the 5-minute
 * default lease, and the message would then be sent by two processes at once.
 *
 * Connections are pooled: up to `connections` kept open (one per message the worker sends at
 * once, MAIL_CONCURRENCY) and reused for the next message instead of a TCP connect, TLS and
 * EHLO per message, each replaced after 100 messages; an idle one the server closes is simply
 * opened again when needed.
 */
export function smtpTransport(
  smtpUrl: string,
  from: string,
  leaseMs = 5 * 60_000,
  platformDkim?: DkimKey,
  connections = 4,
): MailTransport {
  const transporter = createTransport({
    url: smtpUrl,
    pool: true,
    maxConnections: connections,
    maxMessages: 100,
    connectionTimeout: Math.min(120_000, Math.floor(leaseMs / 4)),
    greetingTimeout: Math.min(30_000, Math.floor(leaseMs / 4)),
    socketTimeout: Math.min(600_000, Math.floor(leaseMs / 2)),
  });
  const platformAddress = addressOf(from);
  return {
    kind: 'smtp',
    send: async (message, ref, sender) => {
      const { replyTo, ...rest } = message;
      const fromAddress = sender?.from.address ?? platformAddress;
      const reply = replyTo ?? sender?.replyTo;
      const dkim = sender?.dkim ?? (fromAddress === platformAddress ? platformDkim : undefined);
      await transporter.sendMail({
        from: sender?.from ?? from,
        ...rest,
        ...(reply ? { replyTo: reply } : {}),
        ...(dkim ? { dkim } : {}),
        // The return path stays the platform's for every sender: bounces come back to Twofold,
        // SPF is the platform domain's (no change to an organization's SPF record), and DMARC
        // aligns through the DKIM signature of the organization's own domain.
        ...(fromAddress !== platformAddress ? { envelope: { from: platformAddress, to: message.to } } : {}),
        ...(ref ? { messageId: outboxMessageId(ref, fromAddress) } : {}),
      });
    },
    close: () => transporter.close(),
  };
}

/**
 * Without SMTP the outbox is the mailbox: marking a message sent is its delivery, and
 * `/dev/mailbox` shows it, so magic links and resets work on a fresh machine.
 */
export const devMailboxTransport: MailTransport = {
  kind: 'dev-mailbox',
  send: async () => {},
};

export function transportFor(config: {
  smtpUrl: string | undefined;
  mailFrom: string;
  mail: { leaseMs: number; concurrency?: number };
  mailDkim?: DkimKey | undefined;
}): MailTransport {
  return config.smtpUrl
    ? smtpTransport(
        config.smtpUrl,
        config.mailFrom,
        config.mail.leaseMs,
        config.mailDkim,
        config.mail.concurrency ?? 4,
      )
    : devMailboxTransport;
}

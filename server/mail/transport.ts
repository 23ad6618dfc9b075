import { createTransport } from 'nodemailer';
import type { MailMessage } from './templates.ts';

/**
 * Which outbox row a delivery is: its Message-ID is made from it, the same on every attempt, so a
 * retry after a process died mid-send (delivery is at least once) is recognisable as the same
 * message by the receiving side.
 */
export type OutboxRef = { id: number; createdAt: Date };

/** Delivers one message or throws; the mail worker retries on a throw. */
export type MailTransport = {
  kind: 'smtp' | 'dev-mailbox';
  send: (message: MailMessage, ref?: OutboxRef) => Promise<void>;
  close?: () => void;
};

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
 */
export function smtpTransport(smtpUrl: string, from: string, leaseMs = 5 * 60_000): MailTransport {
  const transporter = createTransport({
    url: smtpUrl,
    connectionTimeout: Math.min(120_000, Math.floor(leaseMs / 4)),
    greetingTimeout: Math.min(30_000, Math.floor(leaseMs / 4)),
    socketTimeout: Math.min(600_000, Math.floor(leaseMs / 2)),
  });
  return {
    kind: 'smtp',
    send: async (message, ref) => {
      await transporter.sendMail({
        from,
        ...message,
        ...(ref ? { messageId: outboxMessageId(ref, from) } : {}),
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
  mail: { leaseMs: number };
}): MailTransport {
  return config.smtpUrl
    ? smtpTransport(config.smtpUrl, config.mailFrom, config.mail.leaseMs)
    : devMailboxTransport;
}

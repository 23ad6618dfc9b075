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

export function smtpTransport(smtpUrl: string, from: string): MailTransport {
  const transporter = createTransport(smtpUrl);
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

export function transportFor(config: { smtpUrl: string | undefined; mailFrom: string }): MailTransport {
  return config.smtpUrl ? smtpTransport(config.smtpUrl, config.mailFrom) : devMailboxTransport;
}

import { createTransport } from 'nodemailer';
import type { MailMessage } from './templates.ts';

/** Delivers one message or throws; the mail worker retries on a throw. */
export type MailTransport = {
  kind: 'smtp' | 'dev-mailbox';
  send: (message: MailMessage) => Promise<void>;
  close?: () => void;
};

export function smtpTransport(smtpUrl: string, from: string): MailTransport {
  const transporter = createTransport(smtpUrl);
  return {
    kind: 'smtp',
    send: async (message) => {
      await transporter.sendMail({ from, ...message });
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

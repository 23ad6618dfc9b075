import type { Queryable } from '../db/client.ts';
import { type OutboxAttachment, outbox } from '../db/schema.ts';
import type { MailMessage } from '../mail/templates.ts';

/**
 * Queues a message for delivery. Call it with the transaction of the change that causes the mail
 * (e.g. the token it carries): both are committed together or not at all. Attachments are named
 * by their stored file (read from file storage when the message is sent).
 */
export async function enqueueMail(
  tx: Queryable,
  message: Omit<MailMessage, 'attachments'>,
  attachments: OutboxAttachment[] = [],
  /** A donor email's organization: it is sent from that organization's sender (mail-worker.ts). */
  organizationId: number | null = null,
): Promise<number> {
  const { replyTo, headers, ...rest } = message;
  const [row] = await tx
    .insert(outbox)
    .values({
      ...rest,
      reply_to: replyTo ?? null,
      headers: headers ?? {},
      attachments,
      organization_id: organizationId,
    })
    .returning({ id: outbox.id });
  if (!row) throw new Error('outbox insert returned no row');
  return row.id;
}

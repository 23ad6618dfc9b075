import type { Queryable } from '../db/client.ts';
import { outbox } from '../db/schema.ts';
import type { MailMessage } from '../mail/templates.ts';

/**
 * Queues a message for delivery. Call it with the transaction of the change that causes the mail
 * (e.g. the token it carries): both are committed together or not at all.
 */
export async function enqueueMail(tx: Queryable, message: MailMessage): Promise<number> {
  const { replyTo, headers, ...rest } = message;
  const [row] = await tx
    .insert(outbox)
    .values({ ...rest, reply_to: replyTo ?? null, headers: headers ?? {} })
    .returning({ id: outbox.id });
  if (!row) throw new Error('outbox insert returned no row');
  return row.id;
}

import { desc, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import type { Db } from '../db/client.ts';
import { outbox } from '../db/schema.ts';
import { idSegment } from '../http/params.ts';
import { escapeHtml } from './templates.ts';

/** How many messages the mailbox lists; it is a development aid, not an archive. */
const pageSize = 100;

/**
 * The development mailbox (only without SMTP): every message the server "sent", newest first, so
 * magic links and reset links can be followed on a fresh machine.
 */
export function devMailbox(db: Db): Hono {
  const mailbox = new Hono();
  mailbox.get('/', async (c) => {
    const messages = await db
      .select({
        id: outbox.id,
        to: outbox.to,
        subject: outbox.subject,
        status: outbox.status,
        created_at: outbox.created_at,
      })
      .from(outbox)
      .orderBy(desc(outbox.created_at), desc(outbox.id))
      .limit(pageSize);
    const rows = messages
      .map(
        (m) => `<tr>
<td>${escapeHtml(m.to)}</td>
<td><a href="/dev/mailbox/${m.id}">${escapeHtml(m.subject)}</a></td>
<td><time datetime="${m.created_at.toISOString()}">${escapeHtml(m.created_at.toISOString().replace('T', ' ').slice(0, 19))} UTC</time></td>
<td>${escapeHtml(m.status)}</td>
</tr>`,
      )
      .join('\n');
    return c.html(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Twofold dev mailbox</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;color:#1f2937}table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.5rem;border-bottom:1px solid #e5e7eb}a{color:#0f766e}</style></head>
<body><h1>Dev mailbox</h1>
<p>Mail the server sent while no SMTP_URL is configured, newest first.</p>
${
  messages.length === 0
    ? '<p>No mail yet.</p>'
    : `<table><thead><tr><th scope="col">To</th><th scope="col">Subject</th><th scope="col">Time</th><th scope="col">Status</th></tr></thead><tbody>
${rows}
</tbody></table>`
}
</body></html>`);
  });
  mailbox.get('/:id', async (c) => {
    const id = idSegment.safeParse(c.req.param('id'));
    const [message] = id.success ? await db.select().from(outbox).where(eq(outbox.id, id.data)) : [];
    if (!message) return c.json({ message: 'Not found' }, 404);
    return c.html(message.html);
  });
  return mailbox;
}

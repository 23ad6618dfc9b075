import { desc, eq } from 'drizzle-orm';
import { type Context, Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { html } from 'hono/html';
import type { Db } from '../db/client.ts';
import { outbox } from '../db/schema.ts';
import { attachment as contentDisposition, fileNamePart } from '../http/attachment.ts';
import { idSegment } from '../http/params.ts';
import { hasSecondFactor } from '../modules/auth/sessions.ts';
import { verifyToken } from '../modules/auth/tokens.ts';
import type { FileStorage } from '../storage/storage.ts';

export type DevMailboxOptions = {
  /** The server is reachable beyond loopback: only a signed-in super user may read the mail. */
  exposed: boolean;
  jwtSecret: string;
  /** Marks the cookie Secure when the portal is served over HTTPS. */
  publicUrl: string;
  /** Where attached files live (a signed packet sent to a company), to open them from the mail. */
  storage?: FileStorage;
};

/** The cookie carrying the super user's portal session to the mailbox pages (and nowhere else). */
export const mailboxCookie = 'twofold_dev_mailbox';

/**
 * The mailbox reads the portal's own session: the page's script (same origin) posts the portal's
 * stored `auth_token` to `/dev/mailbox/session`, which keeps it in an HttpOnly, SameSite=Strict
 * cookie scoped to /dev/mailbox, so the pages and their links work as ordinary browser pages.
 */
const signInScript = `(async () => {
  const status = document.getElementById('status');
  let token = null;
  try { token = localStorage.getItem('auth_token'); } catch {}
  if (!token) { status.textContent = 'Sign in to the portal as a super user, then open this page again.'; return; }
  const res = await fetch('/dev/mailbox/session', { method: 'POST', headers: { Authorization: 'Bearer ' + token }, credentials: 'same-origin' });
  if (res.ok) { location.reload(); return; }
  status.textContent = res.status === 403
    ? 'The dev mailbox is open to super users only.'
    : 'Your portal session has ended. Sign in to the portal again, then open this page again.';
})();
`;

const signInPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Twofold dev mailbox</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;color:#1f2937}a{color:#0f766e}</style></head>
<body><h1>Dev mailbox</h1>
<p>This server can be reached from other machines, so its mailbox is open to a signed-in super user only.</p>
<p id="status" role="status">Checking your portal session…</p>
<p><a href="/portal/login">Sign in to the portal</a></p>
<script src="/dev/mailbox/sign-in.js"></script>
</body></html>`;

/** The signed-in super user behind a staff token, or undefined. */
async function superUserOf(db: Db, secret: string, token: string | undefined): Promise<number | undefined> {
  if (!token) return undefined;
  // A session ended since (signed out, reset, removal, demotion) opens the mailbox no more than the API,
  // and, as for the API beyond loopback (issue #24), only once it has passed a second factor: the
  // mailbox holds everyone's sign-in links.
  const session = (await verifyToken(secret, 'access', token, db))?.session;
  return session?.globalPermission && hasSecondFactor(session.factors) ? session.userId : undefined;
}

function bearer(c: Context): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')?.[1];
}

/** How many messages the mailbox lists; it is a development aid, not an archive. */
const pageSize = 100;

/**
 * The development mailbox (only without SMTP): every message the server "sent", newest first, so
 * magic links and reset links can be followed on a fresh machine.
 */
export function devMailbox(db: Db, options: DevMailboxOptions): Hono {
  const mailbox = new Hono();
  if (options.exposed) {
    const { jwtSecret } = options;
    mailbox.get('/sign-in.js', (c) => {
      c.header('Cache-Control', 'no-store');
      return c.body(signInScript, 200, { 'Content-Type': 'text/javascript; charset=utf-8' });
    });
    mailbox.post('/session', async (c) => {
      const token = bearer(c);
      const claims = token ? await verifyToken(jwtSecret, 'access', token, db) : null;
      if (!token || !claims) return c.json({ message: 'Sign in to the portal as a super user.' }, 401);
      if (!(await superUserOf(db, jwtSecret, token)))
        return c.json({ message: 'The dev mailbox is open to super users only.' }, 403);
      setCookie(c, mailboxCookie, token, {
        path: '/dev/mailbox',
        httpOnly: true,
        sameSite: 'Strict',
        secure: options.publicUrl.startsWith('https:'),
        maxAge: Math.max(1, claims.expiresAt - Math.floor(Date.now() / 1000)),
      });
      return c.body(null, 204);
    });
    // Every page: the portal token as a header (scripts) or the cookie above (a browser).
    mailbox.use(async (c, next) => {
      const allowed =
        (await superUserOf(db, jwtSecret, bearer(c))) ??
        (await superUserOf(db, jwtSecret, getCookie(c, mailboxCookie)));
      if (allowed) return next();
      c.header('Cache-Control', 'no-store');
      return c.html(signInPage, 401);
    });
  }
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
    // hono/html escapes every interpolated value: subjects and addresses carry user input.
    const rows = messages.map(
      (m) => html`<tr>
<td>${m.to}</td>
<td><a href="/dev/mailbox/${m.id}">${m.subject}</a></td>
<td><time datetime="${m.created_at.toISOString()}">${m.created_at.toISOString().replace('T', ' ').slice(0, 19)} UTC</time></td>
<td>${m.status}</td>
</tr>`,
    );
    return c.html(html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Twofold dev mailbox</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;color:#1f2937}table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.5rem;border-bottom:1px solid #e5e7eb}a{color:#0f766e}</style></head>
<body><h1>Dev mailbox</h1>
<p>Mail the server sent while no SMTP_URL is configured, newest first.</p>
${
  messages.length === 0
    ? html`<p>No mail yet.</p>`
    : html`<table><thead><tr><th scope="col">To</th><th scope="col">Subject</th><th scope="col">Time</th><th scope="col">Status</th></tr></thead><tbody>
${rows}
</tbody></table>`
}
</body></html>`);
  });
  mailbox.get('/:id', async (c) => {
    const id = idSegment.safeParse(c.req.param('id'));
    const [message] = id.success ? await db.select().from(outbox).where(eq(outbox.id, id.data)) : [];
    if (!message) return c.json({ message: 'Not found' }, 404);
    if (message.attachments.length === 0) return c.html(message.html);
    // The mailbox lists a message's attachments above it, each a link to the file it carried.
    const links = message.attachments.map(
      (a, i) =>
        html`${i > 0 ? ', ' : ''}<a href="/dev/mailbox/${message.id}/attachments/${i}">${a.filename}</a>`,
    );
    const list =
      html`<p style="font-family:system-ui,sans-serif;margin:1rem;padding:.5rem 1rem;background:#fef3c7">Attachments: ${links}</p>`.toString();
    return c.html(
      /<body[^>]*>/i.test(message.html)
        ? message.html.replace(/<body[^>]*>/i, (tag) => tag + list)
        : list + message.html,
    );
  });
  mailbox.get('/:id/attachments/:n', async (c) => {
    const id = idSegment.safeParse(c.req.param('id'));
    const n = Number(c.req.param('n'));
    const [message] = id.success ? await db.select().from(outbox).where(eq(outbox.id, id.data)) : [];
    const attachment = Number.isInteger(n) ? message?.attachments[n] : undefined;
    const file = attachment ? await options.storage?.get(attachment.file) : undefined;
    if (!attachment || !file) return c.json({ message: 'Not found' }, 404);
    return c.body(file.bytes, 200, {
      'Content-Type': attachment.contentType,
      'Content-Disposition': contentDisposition(fileNamePart(attachment.filename, 'attachment', 200)),
      'Cache-Control': 'no-store',
    });
  });
  return mailbox;
}

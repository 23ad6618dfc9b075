import { desc, eq, inArray } from 'drizzle-orm';
import type { App } from './app.ts';
import type { Db } from './db/client.ts';
import { organizations, outbox } from './db/schema.ts';
import { demoOrganizationNames } from './db/seed.ts';

/** The seeded demo organizations' ids, by their seed keys; a missing one fails loudly. */
export async function demoOrganizationIds(
  db: Db,
): Promise<Record<keyof typeof demoOrganizationNames, number>> {
  const rows = await db.select({ id: organizations.id, name: organizations.name }).from(organizations);
  const idOf = (name: string) => {
    const id = rows.find((r) => r.name === name)?.id;
    if (id === undefined) throw new Error(`the demo seed has no organization named ${name}`);
    return id;
  };
  return {
    hopeHarbor: idOf(demoOrganizationNames.hopeHarbor),
    northShore: idOf(demoOrganizationNames.northShore),
    riverside: idOf(demoOrganizationNames.riverside),
    mapleStreet: idOf(demoOrganizationNames.mapleStreet),
  };
}

/**
 * Registered, active nonprofits: a new match there resolves by its company's policy, not by the
 * organization's own holds (registration incomplete, deactivated).
 */
export async function readyForMatching(db: Db, ids: number[]): Promise<void> {
  await db
    .update(organizations)
    .set({ complete: true, rule_deactivated: false, type: 'non-profit' })
    .where(inArray(organizations.id, ids));
}

/** A JSON request to the app, as a browser or integrator would send it. */
export async function call(
  app: App,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await app.request(path, {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary response bodies.
  return { status: response.status, headers: response.headers, json: json as any, text };
}

/** Signs in with the demo password and returns the access token. */
export async function signIn(app: App, email: string, password = 'twofold-demo'): Promise<string> {
  const response = await call(app, 'POST', '/api/auth/login', { body: { email, password } });
  if (response.status !== 200)
    throw new Error(`sign-in as ${email} failed: ${response.status} ${response.text}`);
  return response.json.access_token as string;
}

/** The newest mail to an address, as the recipient reads it (the outbox is the dev mailbox). */
export async function lastMailTo(db: Db, to: string) {
  const [mail] = await db.select().from(outbox).where(eq(outbox.to, to)).orderBy(desc(outbox.id)).limit(1);
  return mail;
}

/** The first link in a mail's text that starts with the given prefix. */
export function linkIn(text: string, prefix: string): URL {
  const found = text.split(/\s+/).find((word) => word.startsWith(prefix));
  if (!found) throw new Error(`no link starting with ${prefix} in:\n${text}`);
  return new URL(found);
}

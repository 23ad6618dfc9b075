import { inArray, isNotNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { oneTimeTokens, users } from '../db/schema.ts';
import { demoPassword } from '../db/seed.ts';
import { verifyPassword } from '../modules/auth/passwords.ts';
import { endUserSessions } from '../modules/auth/sessions.ts';

/** The command that takes the published demo password away from every account that still has it. */
export const disarmCommand = 'npm run demo:disarm';

/** argon2 verifications at once: the hashing runs on libuv's pool (4 threads by default). */
const parallel = 4;

/**
 * Every account whose password is still the published demo password. The hash is checked, not
 * the email: a demo user renamed to a real address, or a real user given the demo password, is
 * just as open to anyone who read the README.
 */
export async function demoPasswordAccounts(db: Db): Promise<{ id: number; email: string }[]> {
  const candidates = await db
    .select({ id: users.id, email: users.email, hash: users.password_hash })
    .from(users)
    .where(isNotNull(users.password_hash))
    .orderBy(users.id);
  const found: { id: number; email: string }[] = [];
  for (let i = 0; i < candidates.length; i += parallel) {
    const batch = candidates.slice(i, i + parallel);
    const matches = await Promise.all(
      // A hash the library cannot read (imported from elsewhere) is not the demo password.
      batch.map((u) => verifyPassword(u.hash ?? '', demoPassword).catch(() => false)),
    );
    batch.forEach((u, j) => {
      if (matches[j]) found.push({ id: u.id, email: u.email });
    });
  }
  return found;
}

/**
 * Refuses an exposed start while any account still signs in with the demo password: the message
 * names them and the command that disarms them. Undefined when there is none.
 */
export function demoAccountsRefusal(accounts: { email: string }[], host: string): string | undefined {
  if (accounts.length === 0) return undefined;
  return [
    `Refusing to start on ${host}: these accounts still have the published demo password (twofold-demo), so anyone who reaches the server could sign in as them:`,
    ...accounts.map((a) => `  ${a.email}`),
    `Run \`${disarmCommand}\` with the same DATA_DIR / DATABASE_URL to remove their passwords, super-user rights and sessions, then start again.`,
    'To serve the demo on purpose (a shared test server), start with SEED_DEMO=true instead.',
  ].join('\n');
}

/**
 * Takes away from every demo-password account what makes it a door: its password (it can no longer
 * sign in with one), super-user rights, its sessions (the version bump) and its unused magic and
 * reset links. The accounts and their organization grants stay, so nothing that refers to them
 * breaks; an admin can invite the address again if it is a real person's. One transaction.
 */
export async function disarmDemoAccounts(db: Db): Promise<{ email: string }[]> {
  const accounts = await demoPasswordAccounts(db);
  if (accounts.length === 0) return [];
  const ids = accounts.map((a) => a.id);
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({
        password_hash: null,
        global_permission: false,
      })
      .where(inArray(users.id, ids));
    await tx.delete(oneTimeTokens).where(inArray(oneTimeTokens.user_id, ids));
    for (const id of ids) await endUserSessions(tx, id, 'account_disarmed');
  });
  return accounts.map((a) => ({ email: a.email }));
}

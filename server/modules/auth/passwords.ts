import { hash, verify } from '@node-rs/argon2';

/** argon2id with the library's defaults (19 MiB, 2 passes, 1 lane: OWASP's recommendation). */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return verify(passwordHash, password);
}

let dummy: Promise<string> | undefined;

/**
 * Spends the time of a real verification when there is no account (or no password) to check,
 * so response times do not reveal which emails have accounts.
 */
export async function verifyNothing(password: string): Promise<false> {
  dummy ??= hash('twofold-timing-equaliser');
  await verify(await dummy, password);
  return false;
}

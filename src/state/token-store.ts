import { readStored, removeStored, storageKeys, writeStored } from './storage.ts';

/**
 * The access token itself, mirrored to local storage (spec key auth_token), without any signals:
 * the API client reads and clears it through this module, so the public elements (which never
 * hold a staff session) do not ship the signals runtime. `token.ts` mirrors it into the signal
 * the session and the portal's components read.
 */
let current: string | null = readStored(storageKeys.token);
const watchers = new Set<(token: string | null) => void>();

export function currentToken(): string | null {
  return current;
}

/** Stores a new token, or forgets it with null, and tells the watchers. */
export function storeToken(token: string | null): void {
  current = token;
  if (token === null) removeStored(storageKeys.token);
  else writeStored(storageKeys.token, token);
  for (const watcher of watchers) watcher(token);
}

/** Calls `watcher` on every change; returns the function that stops it. */
export function watchToken(watcher: (token: string | null) => void): () => void {
  watchers.add(watcher);
  return () => watchers.delete(watcher);
}

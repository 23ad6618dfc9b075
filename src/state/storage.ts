/**
 * The spec's local storage keys (part 1, section 3): auth_token, csrf_token,
 * currentOrganizationId, orgs. Storage can be missing or throw (private mode, sandboxed
 * frames): then the values live only as long as the page.
 */
export const storageKeys = {
  token: 'auth_token',
  csrf: 'csrf_token',
  currentOrganizationId: 'currentOrganizationId',
  orgs: 'orgs',
} as const;
export type StorageKey = (typeof storageKeys)[keyof typeof storageKeys];

function store(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

export function readStored(key: StorageKey): string | null {
  try {
    return store()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeStored(key: StorageKey, value: string): void {
  try {
    store()?.setItem(key, value);
  } catch {
    // Storage full or blocked: the session still works for this page.
  }
}

export function removeStored(key: StorageKey): void {
  try {
    store()?.removeItem(key);
  } catch {
    // Nothing stored that we could remove.
  }
}

import { signal } from '@preact/signals-react';
import { readStored, removeStored, storageKeys, writeStored } from './storage.ts';

/**
 * The access token, mirrored to local storage (spec key auth_token). It lives apart from the
 * session so the API client can read and clear it without importing the session (which calls the
 * API). The session treats a cleared token as signed out.
 */
export const authToken = signal<string | null>(readStored(storageKeys.token));

export function setToken(token: string): void {
  writeStored(storageKeys.token, token);
  authToken.value = token;
}

export function clearToken(): void {
  removeStored(storageKeys.token);
  authToken.value = null;
}

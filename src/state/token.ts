import { signal } from '@preact/signals-react';
import { currentToken, storeToken, watchToken } from './token-store.ts';

/**
 * The access token as a signal, for the session and the portal's components. The value lives in
 * `token-store.ts` (which the API client uses without signals); this signal follows it, so a
 * token the client clears on a 401 signs the session out here too.
 */
export const authToken = signal<string | null>(currentToken());
watchToken((token) => {
  authToken.value = token;
});

export function setToken(token: string): void {
  storeToken(token);
}

export function clearToken(): void {
  storeToken(null);
}

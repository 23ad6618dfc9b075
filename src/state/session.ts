import { computed, signal } from '@preact/signals-react';
import { common } from '../api/auth.ts';
import { ApiError, errorMessage, send } from '../api/client.ts';
import { type LoginResponse, type Me, TokenClaims } from '../contract/index.ts';
import { navigate } from './navigation.ts';
import { removeStored, storageKeys, writeStored } from './storage.ts';
import { toast } from './toasts.ts';
import { authToken, clearToken, setToken } from './token.ts';

export type SessionStatus = 'loading' | 'authenticated' | 'anonymous' | 'error';

/** The signed-in user (GET /api/common or the login answer); null while unknown or signed out. */
export const user = signal<Me | null>(null);
/**
 * True once the user signed out on purpose (Logout): the guard then sends them to login without
 * remembering the page they left, so the next person to sign in starts on the dashboard.
 */
export const signedOut = signal(false);
/** Why the user could not be loaded (not an expired session: that signs out). */
export const sessionError = signal<string | null>(null);

/** What the auth guard needs: spinner while loading, login when anonymous, the page otherwise. */
export const sessionStatus = computed<SessionStatus>(() => {
  if (!authToken.value) return 'anonymous';
  if (user.value) return 'authenticated';
  if (sessionError.value) return 'error';
  return 'loading';
});

export const isSuperUser = computed(() => user.value?.globalPermission === true);

/** Decode a JWT's claims without verifying it (the server verifies); null when unreadable. */
export function decodeToken(token: string): TokenClaims | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
    const bytes = Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
    const parsed = TokenClaims.safeParse(JSON.parse(new TextDecoder().decode(bytes)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

let loading: Promise<void> | null = null;

/**
 * spec (part 1, section 4, Session): "A token in local storage is decoded on load. If its exp is
 * before now, it is removed and the user is treated as signed out." A live token is then
 * exchanged for the user (GET /api/common). Safe to call repeatedly.
 */
export function initSession(now: number = Date.now()): Promise<void> {
  const token = authToken.value;
  if (!token) return Promise.resolve();
  const claims = decodeToken(token);
  if (!claims || claims.exp * 1000 <= now) {
    clearToken();
    user.value = null;
    return Promise.resolve();
  }
  if (user.value) return Promise.resolve();
  if (loading) return loading;
  sessionError.value = null;
  loading = common()
    .then((me) => {
      if (authToken.value !== token) return;
      user.value = me;
      writeStored(storageKeys.orgs, JSON.stringify(me.orgs));
    })
    .catch((error: unknown) => {
      // A 401 has already removed the token (the API client): that is simply "signed out".
      if (error instanceof ApiError && error.status === 401) return;
      sessionError.value = errorMessage(error);
    })
    .finally(() => {
      loading = null;
    });
  return loading;
}

/** Try loading the user again after a failure (the guard's Try again button). */
export function retrySession(): Promise<void> {
  sessionError.value = null;
  return initSession();
}

/**
 * spec: "Login stores the token and sets the user. It shows the toast 'Login Successful' with
 * 'Welcome back, {name}!' and goes to /portal. If the login response lists exactly one
 * organization, that organization is stored as current."
 */
export function login(response: LoginResponse, redirect = '/portal'): void {
  const { access_token, me } = response;
  setToken(access_token);
  signedOut.value = false;
  sessionError.value = null;
  user.value = me;
  writeStored(storageKeys.orgs, JSON.stringify(me.orgs));
  const only = me.orgs.length === 1 ? me.orgs[0] : undefined;
  if (only) writeStored(storageKeys.currentOrganizationId, String(only.id));
  toast({ title: 'Login Successful', description: `Welcome back, ${me.name}!` });
  // Issue #24: an organization requires a second factor this user has not set up yet.
  navigate(me.twoFactorRequired ? '/portal/account' : redirect);
}

/**
 * spec: "Logout clears user, token and orgs, shows the toast 'Logged out' with 'You have been
 * successfully logged out.', and goes to /portal/login." The current organization id goes too,
 * so the next person to sign in on this browser does not start on it.
 */
export function logout(): void {
  // The server ends the session too (its token is refused from now on, wherever it was copied).
  if (authToken.value) send('api/auth/logout', { method: 'post' }).catch(() => {});
  signedOut.value = true;
  clearToken();
  user.value = null;
  sessionError.value = null;
  removeStored(storageKeys.orgs);
  removeStored(storageKeys.currentOrganizationId);
  toast({ title: 'Logged out', description: 'You have been successfully logged out.' });
  navigate('/portal/login');
}

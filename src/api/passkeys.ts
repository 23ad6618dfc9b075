import { startAuthentication, startRegistration } from '@simplewebauthn/browser';
import { LoginResponse } from '../contract/auth.ts';
import {
  Passkey,
  PasskeyList,
  PasskeyOptions,
  type PasskeyRegisterRequest,
  type PasskeySignInRequest,
} from '../contract/passkeys.ts';
import { request } from './client.ts';

/** GET /api/account/passkeys: the signed-in user's passkeys. */
export function listPasskeys(): Promise<PasskeyList> {
  return request(PasskeyList, 'api/account/passkeys');
}

/**
 * Adds a passkey: the server's options, the browser's WebAuthn ceremony (the user touches a key,
 * unlocks a phone or confirms in a passkey manager), then the server's verification.
 */
export async function addPasskey(name: string | undefined): Promise<Passkey> {
  const options = await request(PasskeyOptions, 'api/account/passkeys/options', { method: 'post' });
  // biome-ignore lint/suspicious/noExplicitAny: the server made these options for this library.
  const credential = await startRegistration({ optionsJSON: options as any });
  const body = { credential, ...(name ? { name } : {}) } as PasskeyRegisterRequest;
  return request(Passkey, 'api/account/passkeys', { method: 'post', json: body });
}

export function renamePasskey(id: number, name: string): Promise<Passkey> {
  return request(Passkey, `api/account/passkeys/${id}`, { method: 'patch', json: { name } });
}

export function removePasskey(id: number): Promise<PasskeyList> {
  return request(PasskeyList, `api/account/passkeys/${id}`, { method: 'delete' });
}

/** Signs in with a passkey alone; with an email, the authenticator is asked for that account's. */
export async function signInWithPasskey(email?: string): Promise<LoginResponse> {
  const options = await request(PasskeyOptions, 'api/auth/passkey/options', {
    method: 'post',
    json: email ? { email } : {},
    authenticated: false,
  });
  // biome-ignore lint/suspicious/noExplicitAny: the server made these options for this library.
  const credential = await startAuthentication({ optionsJSON: options as any });
  return request(LoginResponse, 'api/auth/passkey', {
    method: 'post',
    json: { credential } as PasskeySignInRequest,
    authenticated: false,
  });
}

import * as z from 'zod/mini';
import { email, LoginResponse } from './auth.ts';

/**
 * Passkeys (WebAuthn, issue #24): a staff user registers one or more, names and removes them, and
 * signs in with one alone (it is both factors). The browser side is @simplewebauthn/browser, the
 * server side @simplewebauthn/server; these are the shapes between them.
 */

export const passkeyMessages = {
  nameRequired: 'Give the passkey a name',
  notFound: 'Passkey not found',
  challengeInvalid: 'This passkey request has expired or was already used. Please try again.',
  registrationFailed: 'The passkey could not be verified. Please try again.',
  alreadyRegistered: 'This passkey is already registered.',
  signInFailed: 'That passkey is not registered with Twofold, or it could not be verified.',
} as const;

export const passkeyNameMax = 60;
export const passkeyName = z
  .string(passkeyMessages.nameRequired)
  .check(z.trim(), z.minLength(1, passkeyMessages.nameRequired), z.maxLength(passkeyNameMax));

const b64url = (max: number) => z.string().check(z.maxLength(max), z.regex(/^[A-Za-z0-9_-]*={0,2}$/));
const transports = z.optional(
  z.array(z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'])).check(z.maxLength(8)),
);
const common = {
  id: b64url(1400).check(z.minLength(1)),
  rawId: b64url(1400).check(z.minLength(1)),
  type: z.literal('public-key'),
  clientExtensionResults: z.record(z.string(), z.unknown()),
  authenticatorAttachment: z.optional(z.enum(['platform', 'cross-platform'])),
};

/** What `startRegistration()` gives back (RegistrationResponseJSON). */
export const PasskeyRegistrationCredential = z.object({
  ...common,
  response: z.object({
    clientDataJSON: b64url(8000),
    attestationObject: b64url(64000),
    authenticatorData: z.optional(b64url(64000)),
    transports,
    publicKeyAlgorithm: z.optional(z.number()),
    publicKey: z.optional(b64url(8000)),
  }),
});

/** What `startAuthentication()` gives back (AuthenticationResponseJSON). */
export const PasskeyAssertion = z.object({
  ...common,
  response: z.object({
    clientDataJSON: b64url(8000),
    authenticatorData: b64url(64000),
    signature: b64url(8000),
    userHandle: z.optional(b64url(200)),
  }),
});

/** The options the browser hands to `startRegistration` / `startAuthentication`, as the server made them. */
export const PasskeyOptions = z.looseObject({ challenge: z.string() });
export type PasskeyOptions = z.infer<typeof PasskeyOptions>;

export const PasskeyRegisterRequest = z.object({
  name: z.optional(passkeyName),
  credential: PasskeyRegistrationCredential,
});
export type PasskeyRegisterRequest = z.infer<typeof PasskeyRegisterRequest>;

export const PasskeyRenameRequest = z.object({ name: passkeyName });

export const Passkey = z.object({
  id: z.number(),
  name: z.string(),
  /** Synced across the owner's devices (a passkey manager), or bound to one authenticator. */
  synced: z.boolean(),
  created_at: z.string(),
  last_used_at: z.nullable(z.string()),
});
export type Passkey = z.infer<typeof Passkey>;
export const PasskeyList = z.object({ passkeys: z.array(Passkey) });
export type PasskeyList = z.infer<typeof PasskeyList>;

/** Sign-in: the email is optional; without it the authenticator offers the passkeys it holds. */
export const PasskeySignInOptionsRequest = z.object({ email: z.optional(email) });
export const PasskeySignInRequest = z.object({ credential: PasskeyAssertion });
export type PasskeySignInRequest = z.infer<typeof PasskeySignInRequest>;
export const PasskeySignInResponse = LoginResponse;

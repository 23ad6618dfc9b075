import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A passkey authenticator in software, for tests: it makes real WebAuthn registrations ('none'
 * attestation, an ES256 key made with node:crypto) and real signed assertions, exactly as a
 * security key or phone would, so the server's verification runs unchanged. Test support only.
 */
export class SoftwareAuthenticator {
  readonly credentialId = randomBytes(16).toString('base64url');
  readonly #keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  counter = 0;
  #userHandle = '';

  constructor(
    readonly origin: string,
    readonly rpId = new URL(origin).hostname,
  ) {}

  get privateKey(): KeyObject {
    return this.#keys.privateKey;
  }

  #clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string) {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  #authData(flags: number, attested?: Buffer): Buffer {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    const rpIdHash = createHash('sha256').update(this.rpId).digest();
    return Buffer.concat([rpIdHash, Buffer.from([flags]), counter, attested ?? Buffer.alloc(0)]);
  }

  /** The answer to registration options (`startRegistration`'s RegistrationResponseJSON). */
  register(options: { challenge: string; user?: { id?: string } }, origin = this.origin) {
    this.#userHandle = options.user?.id ?? '';
    const jwk = this.#keys.publicKey.export({ format: 'jwk' });
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x ?? '', 'base64url')],
        [-3, Buffer.from(jwk.y ?? '', 'base64url')],
      ]),
    );
    const id = Buffer.from(this.credentialId, 'base64url');
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, id, Buffer.from(cose)]);
    // UP, UV and AT: the user was present and verified, and a credential is attached.
    const authData = this.#authData(0x45, attested);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(authData)],
      ]) as never,
    );
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key' as const,
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
      response: {
        clientDataJSON: this.#clientData('webauthn.create', options.challenge, origin).toString('base64url'),
        attestationObject: Buffer.from(attestationObject).toString('base64url'),
        transports: ['internal' as const],
      },
    };
  }

  /** The answer to sign-in options (`startAuthentication`'s AuthenticationResponseJSON). */
  authenticate(options: { challenge: string }, extra: { origin?: string; keepCounter?: boolean } = {}) {
    if (!extra.keepCounter) this.counter += 1;
    const authData = this.#authData(0x05);
    const clientData = this.#clientData('webauthn.get', options.challenge, extra.origin ?? this.origin);
    const signed = Buffer.concat([authData, createHash('sha256').update(clientData).digest()]);
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key' as const,
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
      response: {
        clientDataJSON: clientData.toString('base64url'),
        authenticatorData: authData.toString('base64url'),
        signature: sign('sha256', signed, this.#keys.privateKey).toString('base64url'),
        userHandle: this.#userHandle,
      },
    };
  }
}

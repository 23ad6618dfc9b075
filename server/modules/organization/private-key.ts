import { seal, unseal } from '../../crypto/sealed.ts';

/**
 * The card payment provider's private key, sealed (server/crypto/sealed.ts) for this purpose and
 * bound to its organization. A database dump alone does not reveal it. It is never logged and
 * never sent back.
 */
const purpose = 'organization-private-key';

export function encryptPrivateKey(secret: string, orgId: number, plaintext: string): string {
  return seal(secret, purpose, `organization:${orgId}`, plaintext);
}

/** For the payment integration that will use it; throws when the value was tampered with. */
export function decryptPrivateKey(secret: string, orgId: number, stored: string): string {
  return unseal(secret, purpose, `organization:${orgId}`, stored);
}

import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * The card payment provider's private key, stored encrypted: AES-256-GCM with a key derived
 * (HKDF-SHA-256) from the server secret for this purpose only. A database dump alone does not
 * reveal it. It is never logged and never sent back.
 */
function keyFor(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'twofold', 'organization-private-key', 32));
}

/** `v1.{iv}.{tag}.{ciphertext}`, base64url. The organization id is bound in as associated data. */
export function encryptPrivateKey(secret: string, orgId: number, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(secret), iv);
  cipher.setAAD(Buffer.from(`organization:${orgId}`));
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), data]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** For the payment integration that will use it; throws when the value was tampered with. */
export function decryptPrivateKey(secret: string, orgId: number, stored: string): string {
  const [version, iv, tag, data] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('unknown private key format');
  const decipher = createDecipheriv('aes-256-gcm', keyFor(secret), Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(`organization:${orgId}`));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}

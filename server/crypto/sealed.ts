import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * A secret Twofold must read back (a card provider's private key, an authenticator app's seed,
 * an SSO client secret, a DKIM private key), stored encrypted: AES-256-GCM with a key derived
 * (HKDF-SHA-256) from the server secret for one purpose only, and the record it belongs to bound
 * in as associated data, so a value copied to another row or purpose does not open. A database
 * dump alone does not reveal it. Never logged, never sent back.
 *
 * Changing JWT_SECRET makes every sealed value unreadable (the features that hold one ask for it
 * again); docs/architecture.md says so.
 */
function keyFor(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'twofold', purpose, 32));
}

/** `v1.{iv}.{tag}.{ciphertext}`, base64url. */
export function seal(secret: string, purpose: string, context: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(secret, purpose), iv);
  cipher.setAAD(Buffer.from(context));
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), data]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** Opens a sealed value; throws when it was tampered with, or sealed for another purpose or record. */
export function unseal(secret: string, purpose: string, context: string, stored: string): string {
  const [version, iv, tag, data] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('unknown sealed value format');
  const decipher = createDecipheriv('aes-256-gcm', keyFor(secret, purpose), Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}

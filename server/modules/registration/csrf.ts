import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { csrfExpiredMessage } from '../../../src/contract/public.ts';
import { HttpError } from '../../http/errors.ts';
import type { AppEnv, Deps } from '../../http/route.ts';

/** How long a registration form may stay open before its token expires. */
export const csrfLifetimeMs = 2 * 60 * 60 * 1000;

/** Its own key, derived from the server secret, so a csrf token can never pass for a session. */
function csrfKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'twofold', 'csrf-token', 32));
}

function sign(secret: string, payload: string): string {
  return createHmac('sha256', csrfKey(secret)).update(payload).digest('base64url');
}

/**
 * A stateless token: a random nonce and an expiry (seconds), signed with HMAC-SHA-256. Nothing is
 * stored; any server holding the secret can check it.
 */
export function issueCsrfToken(secret: string, now = Date.now()): string {
  const payload = `${randomBytes(16).toString('base64url')}.${Math.floor((now + csrfLifetimeMs) / 1000)}`;
  return `${payload}.${sign(secret, payload)}`;
}

export function verifyCsrfToken(secret: string, token: string, now = Date.now()): boolean {
  const parts = token.split('.');
  if (parts.length !== 3) return false;
  const [nonce = '', expires = '', signature = ''] = parts;
  if (!/^[A-Za-z0-9_-]{22}$/.test(nonce) || !/^[0-9]{1,12}$/.test(expires)) return false;
  const expected = Buffer.from(sign(secret, `${nonce}.${expires}`));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
  return Number(expires) * 1000 > now;
}

/**
 * spec: registration "uses the csrf token as bearer and also sends it in an X-CSRF-Token header".
 * Both must be present, equal and valid; checked before the form is read.
 */
export function requireCsrf(c: Context<AppEnv>, deps: Deps): void {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')?.[1];
  const header = c.req.header('x-csrf-token')?.trim();
  if (!bearer || bearer !== header || !verifyCsrfToken(deps.config.jwtSecret, bearer))
    throw new HttpError(403, csrfExpiredMessage);
}

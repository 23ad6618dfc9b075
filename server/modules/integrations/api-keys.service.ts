import { createHash, randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, isNull, sql } from 'drizzle-orm';
import {
  type ApiKey,
  type ApiKeyCreated,
  type ApiKeyIssued,
  type ApiKeyList,
  integrationMessages,
  maxApiKeysPerOrganization,
} from '../../../src/contract/integrations.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { apiKeys } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { ApiKeyCaller } from '../../http/route.ts';
import { type AuditBy, recordBy } from '../audit/audit.ts';

/** Every key starts with this, so a leaked one is recognisable (secret scanners match on it). */
const keyPrefix = 'tf_';
/** How much of a key the list shows: the marker and 8 characters of the random part. */
const shownLength = keyPrefix.length + 8;
/**
 * `last_used_at` and `last_ip_address` are written when the address changes or the stored time
 * is older than this, so a busy integration does not write a row on every request.
 */
const lastUsedResolutionMs = 60_000;

/** SHA-256: the key is 256 random bits, so a slow password hash would add nothing. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

type Row = typeof apiKeys.$inferSelect;
function toApiKey(row: Row): ApiKey {
  return {
    id: row.id,
    name: row.name,
    key: row.prefix,
    last_used_at: row.last_used_at?.toISOString() ?? null,
    last_ip_address: row.last_ip_address,
    created_at: row.created_at.toISOString(),
  };
}

/** spec: "GET /api/organization/{id}/partial/api_keys" — the live keys, oldest first. */
export async function listApiKeys(db: Queryable, orgId: number): Promise<ApiKeyList> {
  const rows = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.organization_id, orgId), isNull(apiKeys.revoked_at)))
    .orderBy(asc(apiKeys.id));
  return { api_keys: rows.map(toApiKey) };
}

/**
 * spec: "GET /api/organization/{id}/api-key — creates or returns a key". With a live key, answers
 * the newest one's record: keys are stored hashed, so its whole value can never be shown again
 * (and a page reload must not mint keys). With none, creates the first, whole, once.
 */
export async function currentApiKey(
  db: Db,
  orgId: number,
  userId: number,
  by: AuditBy,
): Promise<ApiKeyIssued> {
  return db.transaction(async (tx) => {
    await tx.execute(sqlLock(orgId));
    const [newest] = await tx
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.organization_id, orgId), isNull(apiKeys.revoked_at)))
      .orderBy(desc(apiKeys.id))
      .limit(1);
    if (newest) return { api_key: toApiKey(newest) };
    return insertKey(tx, orgId, userId, by);
  });
}

/**
 * `POST /api/organization/{id}/api-key`: the explicit "create a new key". This answer is the only
 * place the new key's whole value appears.
 */
export async function createApiKey(
  db: Db,
  orgId: number,
  userId: number,
  by: AuditBy,
): Promise<ApiKeyCreated> {
  return db.transaction(async (tx) => {
    // Serialises concurrent creations for one organization, so the cap holds.
    await tx.execute(sqlLock(orgId));
    const [live] = await tx
      .select({ n: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.organization_id, orgId), isNull(apiKeys.revoked_at)));
    if ((live?.n ?? 0) >= maxApiKeysPerOrganization)
      throw new HttpError(400, integrationMessages.tooManyKeys);
    return insertKey(tx, orgId, userId, by);
  });
}

async function insertKey(tx: Queryable, orgId: number, userId: number, by: AuditBy): Promise<ApiKeyCreated> {
  const secret = `${keyPrefix}${randomBytes(32).toString('base64url')}`;
  const [row] = await tx
    .insert(apiKeys)
    .values({
      organization_id: orgId,
      prefix: secret.slice(0, shownLength),
      key_hash: hashApiKey(secret),
      created_by: userId,
    })
    .returning();
  if (!row) throw new Error('api key insert returned nothing');
  // The entry names the key by its shown prefix only, never its secret.
  await recordBy(tx, by, {
    kind: 'api_key.created',
    organizationId: orgId,
    summary: `Created API key ${row.prefix}…`,
    details: { key_id: row.id, prefix: row.prefix },
  });
  return { api_key: { ...toApiKey(row), secret } };
}

function sqlLock(orgId: number) {
  return sql`select pg_advisory_xact_lock(${0x61706b}, ${orgId})`;
}

async function liveKey(db: Queryable, orgId: number, keyId: number): Promise<Row> {
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.organization_id, orgId), isNull(apiKeys.revoked_at)));
  if (!row) throw new HttpError(404, integrationMessages.keyNotFound);
  return row;
}

/** spec: "PUT /api/organization/{id}/api-key/{keyId}, body: name". */
export async function renameApiKey(db: Queryable, orgId: number, keyId: number, name: string) {
  await liveKey(db, orgId, keyId);
  const [row] = await db.update(apiKeys).set({ name }).where(eq(apiKeys.id, keyId)).returning();
  if (!row) throw new HttpError(404, integrationMessages.keyNotFound);
  return { api_key: toApiKey(row) };
}

/** spec: "DELETE /api/organization/{id}/api-key/{keyId}". The key stops working at once. */
export async function revokeApiKey(db: Db, orgId: number, keyId: number, by: AuditBy) {
  return db.transaction(async (tx) => {
    const key = await liveKey(tx, orgId, keyId);
    await tx.update(apiKeys).set({ revoked_at: new Date() }).where(eq(apiKeys.id, keyId));
    const named = key.name ? ` (${key.name})` : '';
    await recordBy(tx, by, {
      kind: 'api_key.revoked',
      organizationId: orgId,
      summary: `Removed API key ${key.prefix}…${named}`,
      details: { key_id: key.id, prefix: key.prefix, name: key.name },
    });
    return { message: integrationMessages.keyDeleted };
  });
}

/**
 * The caller of a public API request, from `Authorization: Bearer <api key>`: 401 with a message
 * saying what is wrong (no key, an unknown key, a revoked key). Records when and from where the
 * key was last used.
 */
export async function authenticateApiKey(
  db: Queryable,
  authorization: string | undefined,
  ip: string,
  now = new Date(),
): Promise<ApiKeyCaller> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  const key = match?.[1];
  if (!key) throw new HttpError(401, integrationMessages.apiKeyMissing);
  if (!key.startsWith(keyPrefix) || key.length > 200)
    throw new HttpError(401, integrationMessages.apiKeyInvalid);
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.key_hash, hashApiKey(key)));
  if (!row) throw new HttpError(401, integrationMessages.apiKeyInvalid);
  if (row.revoked_at) throw new HttpError(401, integrationMessages.apiKeyRevoked);
  const stale = !row.last_used_at || now.getTime() - row.last_used_at.getTime() >= lastUsedResolutionMs;
  if (stale || row.last_ip_address !== ip)
    await db.update(apiKeys).set({ last_used_at: now, last_ip_address: ip }).where(eq(apiKeys.id, row.id));
  return { id: row.id, organizationId: row.organization_id };
}

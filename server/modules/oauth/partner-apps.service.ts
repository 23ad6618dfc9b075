import { createHash, randomBytes } from 'node:crypto';
import { and, asc, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import {
  oauthLifetimes,
  oauthMessages,
  type PartnerApp,
  type PartnerAppInput,
  type PartnerAppList,
  type PartnerAppSecretIssued,
} from '../../../src/contract/oauth.ts';
import type { Config } from '../../config.ts';
import { seal } from '../../crypto/sealed.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { partnerAppSecrets, partnerApps } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { AuthUser } from '../../http/route.ts';
import { tokenPrefixes } from './oauth.service.ts';

/** Partner apps as super users register them (issue #25). */

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
/** The sealed-secret purpose of a partner app's webhook signing secret. */
export const webhookSecretPurpose = 'partner-app-webhook';

type Row = typeof partnerApps.$inferSelect;

async function toPartnerApp(db: Queryable, row: Row): Promise<PartnerApp> {
  const secrets = await db
    .select({ prefix: partnerAppSecrets.prefix, expires_at: partnerAppSecrets.expires_at })
    .from(partnerAppSecrets)
    .where(
      and(
        eq(partnerAppSecrets.app_id, row.id),
        or(isNull(partnerAppSecrets.expires_at), gt(partnerAppSecrets.expires_at, sql`now()`)),
      ),
    )
    .orderBy(desc(partnerAppSecrets.id));
  return {
    id: row.id,
    client_id: row.client_id,
    name: row.name,
    logo_url: row.logo_url,
    website: row.website,
    redirect_uris: row.redirect_uris,
    scopes: row.scopes,
    webhook_url: row.webhook_url,
    secrets: secrets.map((s) => ({ prefix: s.prefix, expires_at: s.expires_at?.toISOString() ?? null })),
    created_at: row.created_at.toISOString(),
  };
}

export async function listPartnerApps(db: Queryable): Promise<PartnerAppList> {
  const rows = await db
    .select()
    .from(partnerApps)
    .where(isNull(partnerApps.disabled_at))
    .orderBy(asc(partnerApps.id));
  return { apps: await Promise.all(rows.map((r) => toPartnerApp(db, r))) };
}

async function addSecret(tx: Queryable, appId: number): Promise<string> {
  const secret = `${tokenPrefixes.clientSecret}${randomBytes(32).toString('base64url')}`;
  await tx.insert(partnerAppSecrets).values({
    app_id: appId,
    prefix: secret.slice(0, tokenPrefixes.clientSecret.length + 6),
    secret_hash: sha256(secret),
  });
  return secret;
}

function sealWebhookSecret(config: Config, appId: number) {
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  return { secret, sealed: seal(config.jwtSecret, webhookSecretPurpose, `partner_app:${appId}`, secret) };
}

/** Registers an app: its client id, and a client secret shown once in this answer. */
export async function createPartnerApp(
  db: Db,
  config: Config,
  user: AuthUser,
  input: PartnerAppInput,
): Promise<PartnerAppSecretIssued> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(partnerApps)
      .values({
        client_id: `${tokenPrefixes.clientId}${randomBytes(16).toString('base64url')}`,
        name: input.name,
        logo_url: input.logo_url || null,
        website: input.website,
        redirect_uris: [...new Set(input.redirect_uris)],
        scopes: [...new Set(input.scopes)],
        webhook_url: input.webhook_url || null,
        created_by: user.id,
      })
      .returning();
    if (!row) throw new Error('partner app insert returned nothing');
    const clientSecret = await addSecret(tx, row.id);
    let webhookSecret: string | undefined;
    let saved = row;
    if (row.webhook_url) {
      const made = sealWebhookSecret(config, row.id);
      webhookSecret = made.secret;
      const [updated] = await tx
        .update(partnerApps)
        .set({ webhook_secret_sealed: made.sealed })
        .where(eq(partnerApps.id, row.id))
        .returning();
      saved = updated ?? row;
    }
    return {
      app: await toPartnerApp(tx, saved),
      client_secret: clientSecret,
      ...(webhookSecret ? { webhook_secret: webhookSecret } : {}),
    };
  });
}

async function liveApp(db: Queryable, id: number): Promise<Row> {
  const [row] = await db
    .select()
    .from(partnerApps)
    .where(and(eq(partnerApps.id, id), isNull(partnerApps.disabled_at)));
  if (!row) throw new HttpError(404, oauthMessages.appNotFound);
  return row;
}

/** Edits an app; a first webhook URL makes its signing secret (shown once in `webhook_secret`). */
export async function updatePartnerApp(db: Db, config: Config, id: number, input: PartnerAppInput) {
  return db.transaction(async (tx) => {
    const before = await liveApp(tx, id);
    const made =
      input.webhook_url && !before.webhook_secret_sealed ? sealWebhookSecret(config, id) : undefined;
    const [row] = await tx
      .update(partnerApps)
      .set({
        name: input.name,
        logo_url: input.logo_url || null,
        website: input.website,
        redirect_uris: [...new Set(input.redirect_uris)],
        scopes: [...new Set(input.scopes)],
        webhook_url: input.webhook_url || null,
        ...(made ? { webhook_secret_sealed: made.sealed } : {}),
      })
      .where(eq(partnerApps.id, id))
      .returning();
    if (!row) throw new HttpError(404, oauthMessages.appNotFound);
    return { app: await toPartnerApp(tx, row), ...(made ? { webhook_secret: made.secret } : {}) };
  });
}

/**
 * Rotates the client secret: a new one (shown once), and the live ones keep working for the
 * overlap period, so the partner can deploy the new secret without downtime.
 */
export async function rotateSecret(db: Db, id: number): Promise<PartnerAppSecretIssued> {
  return db.transaction(async (tx) => {
    const row = await liveApp(tx, id);
    await tx
      .update(partnerAppSecrets)
      .set({ expires_at: new Date(Date.now() + oauthLifetimes.secretOverlapSeconds * 1000) })
      .where(and(eq(partnerAppSecrets.app_id, id), isNull(partnerAppSecrets.expires_at)));
    const clientSecret = await addSecret(tx, id);
    return { app: await toPartnerApp(tx, row), client_secret: clientSecret };
  });
}

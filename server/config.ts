import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { type PlanId, paidPlanIds } from '../src/contract/billing.ts';

/**
 * The server's settings. This is the only module that reads `process.env`; everything else
 * receives a `Config` value. Every setting has a working default so `npm start` runs on a fresh
 * machine.
 */
export type Config = {
  port: number;
  host: string;
  /** Unset: the embedded PGlite database under `dataDir/pglite`. */
  databaseUrl: string | undefined;
  dataDir: string;
  publicUrl: string;
  jwtSecret: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  supportEmail: string;
  seedDemo: boolean;
  logRequests: boolean;
  /** Honour `X-Forwarded-For` for the client address only behind a proxy we trust. */
  trustProxy: boolean;
  rateLimit: {
    windowMs: number;
    /** Attempts per client address and window on each auth endpoint. */
    perIp: number;
    /** Attempts per email address and window on each auth endpoint. */
    perEmail: number;
  };
  /** The card payment provider for paid plans (Stripe). Unset: only the free plan can be chosen. */
  stripe: StripeConfig | undefined;
  /** Public API (`/api/v1`) requests per API key and minute. */
  apiRateLimitPerMinute: number;
  /**
   * Lets webhooks use http:// and private, loopback and link-local addresses (local development and
   * tests only). Off: deliveries go over https to public addresses only.
   */
  webhookAllowPrivate: boolean;
};

/** Stripe, reached through its REST API with fetch. */
export type StripeConfig = {
  /** A secret (sk_) or restricted (rk_) key. Never logged or returned. */
  secretKey: string;
  /** https://api.stripe.com unless a test points it elsewhere. */
  apiBase: string;
  /** Verifies the Stripe-Signature of webhook events; unset: the webhook refuses every event. */
  webhookSecret: string | undefined;
  /** The Stripe price id of each paid plan (STRIPE_PRICE_FLAT_20 ...); a plan without one cannot be bought. */
  prices: Partial<Record<PlanId, string>>;
};

/** STRIPE_PRICE_FLAT_5 ... STRIPE_PRICE_ELIG_5: the environment variable of each paid plan's price. */
const stripePriceVariable = (plan: PlanId) => `STRIPE_PRICE_${plan.toUpperCase()}`;

const boolean = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const positiveInt = z.coerce
  .number({ message: 'must be a number' })
  .int('must be a whole number')
  .positive('must be positive');

const Env = z.object({
  PORT: z.coerce.number({ message: 'must be a number' }).int().min(1).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  PUBLIC_URL: z.url({ message: 'must be an absolute URL, e.g. https://twofold.example.org' }).optional(),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Twofold <no-reply@twofold.test>'),
  SUPPORT_EMAIL: z.email({ message: 'must be an email address' }).default('support@twofold.test'),
  SEED_DEMO: boolean.default(true),
  LOG_REQUESTS: boolean.default(true),
  TRUST_PROXY: boolean.default(false),
  RATE_LIMIT_WINDOW_MS: positiveInt.default(15 * 60 * 1000),
  RATE_LIMIT_PER_IP: positiveInt.default(20),
  RATE_LIMIT_PER_EMAIL: positiveInt.default(5),
  API_RATE_LIMIT_PER_MINUTE: positiveInt.default(600),
  WEBHOOK_ALLOW_PRIVATE: boolean.default(false),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_[A-Za-z0-9_]+$/, 'must be a Stripe secret (sk_...) or restricted (rk_...) key')
    .optional(),
  STRIPE_API_BASE: z.url({ message: 'must be an absolute URL' }).default('https://api.stripe.com'),
  STRIPE_WEBHOOK_SECRET: z.string().min(8, 'must be the webhook signing secret (whsec_...)').optional(),
  ...Object.fromEntries(
    paidPlanIds.map((plan) => [
      stripePriceVariable(plan),
      z
        .string()
        .regex(/^[A-Za-z0-9_]+$/, 'must be a Stripe price id (price_...)')
        .optional(),
    ]),
  ),
});

/** A bad environment variable; the message names it. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Parses the environment into a `Config`. Throws `ConfigError` naming the first bad variable.
 * Empty strings count as unset, as shells and .env files commonly produce them.
 */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = Env.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? 'environment');
    throw new ConfigError(`Invalid environment variable ${name}: ${issue?.message ?? 'invalid value'}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    jwtSecret: e.JWT_SECRET ?? persistedSecret(dataDir),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    supportEmail: e.SUPPORT_EMAIL,
    seedDemo: e.SEED_DEMO,
    logRequests: e.LOG_REQUESTS,
    trustProxy: e.TRUST_PROXY,
    rateLimit: {
      windowMs: e.RATE_LIMIT_WINDOW_MS,
      perIp: e.RATE_LIMIT_PER_IP,
      perEmail: e.RATE_LIMIT_PER_EMAIL,
    },
    stripe: e.STRIPE_SECRET_KEY
      ? {
          secretKey: e.STRIPE_SECRET_KEY,
          apiBase: e.STRIPE_API_BASE.replace(/\/+$/, ''),
          webhookSecret: e.STRIPE_WEBHOOK_SECRET,
          prices: Object.fromEntries(
            paidPlanIds.flatMap((plan) => {
              const price = (e as Record<string, unknown>)[stripePriceVariable(plan)];
              return typeof price === 'string' ? [[plan, price]] : [];
            }),
          ),
        }
      : undefined,
    apiRateLimitPerMinute: e.API_RATE_LIMIT_PER_MINUTE,
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
  };
}

/**
 * Without JWT_SECRET we generate one on first start and keep it (owner-only) in the data
 * directory, so sessions survive restarts and no secret ever lives in the repository.
 */
function persistedSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) {
    const secret = readFileSync(file, 'utf8').trim();
    if (secret.length >= 32) return secret;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

import { createPrivateKey, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import proxyAddr from 'proxy-addr';
import * as z from 'zod';
import { type PlanId, paidPlanIds } from '../src/contract/billing.ts';

/**
 * The server's settings. This is the only module that reads `process.env`; everything else
 * receives a `Config` value. Every setting has a working default so `npm start` runs on a fresh
 * machine.
 */
export type Config = {
  port: number;
  /** The interface to listen on; loopback unless HOST says otherwise. */
  host: string;
  /**
   * True when `host` is not a loopback address, so other machines may reach the server: then the
   * dev mailbox answers only a signed-in super user, and demo users are seeded only on request.
   */
  exposed: boolean;
  /** Unset: the embedded PGlite database under `dataDir/pglite`. */
  databaseUrl: string | undefined;
  dataDir: string;
  publicUrl: string;
  jwtSecret: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  supportEmail: string;
  /** SEED_DEMO when set; otherwise only on loopback (published demo passwords stay local). */
  seedDemo: boolean;
  /**
   * The scheduler's clock follows `npm run clock` (DATA_DIR/dev-clock.json): only on the embedded
   * database, on loopback, and outside production (DEV_CLOCK=true is how `npm start`, which runs
   * React's production build, says it is a local demo). Never with DATABASE_URL or an exposed HOST.
   */
  devClock: boolean;
  logRequests: boolean;
  mail: {
    /** How often each process's mail worker looks for due mail. */
    pollMs: number;
    /**
     * How long a claimed message is reserved for the process sending it; a message whose
     * process died mid-send is retried after it. Longer than any SMTP send takes.
     */
    leaseMs: number;
    /**
     * Messages each process sends at once (MAIL_CONCURRENCY), over as many kept-open SMTP
     * connections; each is claimed and recorded on its own, so a crash leaves at most this many
     * in doubt.
     */
    concurrency: number;
  };
  /**
   * The platform's own DKIM key for MAIL_FROM's domain (MAIL_DKIM_SELECTOR and
   * MAIL_DKIM_PRIVATE_KEY or MAIL_DKIM_PRIVATE_KEY_FILE): every email sent from MAIL_FROM is
   * signed with it. Unset: platform mail goes unsigned (organizations' verified domains are
   * signed with their own keys either way).
   */
  mailDkim: MailDkim | undefined;
  /**
   * DNS servers the sending-domain checks ask (`host` or `host:port`, IPv6 in brackets), in
   * order; unset: the system's resolvers.
   */
  dnsResolver: string[] | undefined;
  /** SIGTERM: how long to wait for in-flight requests and jobs before closing what is left. */
  shutdownTimeoutMs: number;
  /**
   * Which peers are proxies whose `X-Forwarded-For` entries we believe: none (false), the nearest
   * n hops, or addresses / CIDRs / the names loopback, linklocal, uniquelocal. The client is the
   * first untrusted address from the right (proxy-addr's model).
   */
  trustProxy: TrustProxy;
  /**
   * Host names (besides PUBLIC_URL's, IP literals and localhost) the server answers for; a
   * leading dot takes every subdomain. Any other Host is refused (DNS rebinding).
   */
  allowedHosts: string[];
  rateLimit: {
    windowMs: number;
    /** Attempts per client address and window on each auth endpoint. */
    perIp: number;
    /** Attempts per email address and window on each auth endpoint. */
    perEmail: number;
  };
  /** Failed sign-ins for one email (per rate-limit window) after which sign-in asks for a solved challenge. */
  loginCaptchaAfter: number;
  /** The card payment provider for paid plans (Stripe). Unset: only the free plan can be chosen. */
  stripe: StripeConfig | undefined;
  /** Public API (`/api/v1`) requests per API key and minute. */
  apiRateLimitPerMinute: number;
  /**
   * Lets webhooks use http:// and private, loopback and link-local addresses (local development and
   * tests only). Off: deliveries go over https to public addresses only.
   */
  webhookAllowPrivate: boolean;
  /**
   * Lets a single sign-on issuer be http:// or on a private, loopback or link-local address
   * (local development and tests, with an OpenID provider on this machine). Off: https to public
   * addresses only.
   */
  ssoAllowPrivate: boolean;
  /** Where uploaded files live: an S3-compatible bucket when S3_BUCKET is set, else DATA_DIR/files. */
  s3: S3Config | undefined;
  /**
   * The log's shape: JSON lines, or human lines for a person at a terminal. 'auto' (the default)
   * is human when stdout is a terminal and JSON otherwise (a service manager, a container).
   */
  logFormat: 'json' | 'human' | 'auto';
  logLevel: 'info' | 'warn' | 'error' | 'silent';
  metrics: MetricsConfig;
  /** OpenTelemetry traces: exported over OTLP/HTTP when an endpoint is set, else off. */
  tracing: TracingConfig;
};

/**
 * Where `GET /metrics` answers. Off unless configured: on its own port (METRICS_PORT, bound to
 * METRICS_HOST, loopback by default) or on the public port behind a bearer token (METRICS_TOKEN);
 * with both, the metrics port asks for the token too.
 */
export type MetricsConfig = {
  /** Never logged or returned. */
  token: string | undefined;
  port: number | undefined;
  host: string;
};

export type TracingConfig = {
  /** OTEL_EXPORTER_OTLP_ENDPOINT: the collector's base URL (traces go to `/v1/traces` under it). */
  endpoint: string | undefined;
  serviceName: string;
};

export type TrustProxy = false | number | string[];

/** nodemailer's DKIM options for the platform's MAIL_FROM domain; the key is never logged. */
export type MailDkim = { domainName: string; keySelector: string; privateKey: string };

/** An S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, ...) shared by every server process. */
export type S3Config = {
  bucket: string;
  region: string;
  /** Unset: AWS S3 itself; set for other S3-compatible services. */
  endpoint: string | undefined;
  /** Unset: the AWS SDK's own credential chain (AWS_* variables, instance or task role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** Bucket in the path (`endpoint/bucket/key`) rather than the host name; most non-AWS services need it. */
  forcePathStyle: boolean;
  /** Prepended to every object key, to share a bucket ('' or ending in '/'). */
  prefix: string;
};

/** Stripe, reached through its official library (server/modules/billing/stripe.ts). */
export type StripeConfig = {
  /** A secret (sk_) or restricted (rk_) key. Never logged or returned. */
  secretKey: string;
  /** Where the library sends requests: api.stripe.com over https unless STRIPE_API_BASE points elsewhere (tests). */
  api: { host: string; port: number; protocol: 'http' | 'https' };
  /** The `event_name` of the billing meter the per-match plans' usage is reported to (STRIPE_METER_EVENT). */
  meterEventName: string;
  /** Verifies the Stripe-Signature of webhook events; unset: the webhook refuses every event. */
  webhookSecret: string | undefined;
  /** The Stripe price id of each paid plan (STRIPE_PRICE_FLAT_20 ...); a plan without one cannot be bought. */
  prices: Partial<Record<PlanId, string>>;
};

/** STRIPE_API_BASE as the library takes it: host, port (the scheme's default when absent) and protocol. */
function stripeApi(base: string): StripeConfig['api'] {
  const url = new URL(base);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: Number(url.port || (protocol === 'http' ? 80 : 443)), protocol };
}

/** STRIPE_PRICE_FLAT_5 ... STRIPE_PRICE_ELIG_5: the environment variable of each paid plan's price. */
const stripePriceVariable = (plan: PlanId) => `STRIPE_PRICE_${plan.toUpperCase()}`;

const boolean = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const positiveInt = z.coerce
  .number({ message: 'must be a number' })
  .int('must be a whole number')
  .positive('must be positive');

/** The tracing settings (also read alone by the tracing preload, before the app loads). */
const tracingEnv = {
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .url({ protocol: /^https?$/, message: 'must be an http:// or https:// URL, e.g. http://collector:4318' })
    .optional(),
  OTEL_SERVICE_NAME: z.string().min(1).default('twofold'),
};

const Env = z.object({
  PORT: z.coerce.number({ message: 'must be a number' }).int().min(1).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
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
  SEED_DEMO: boolean.optional(),
  DEV_CLOCK: boolean.optional(),
  LOG_REQUESTS: boolean.default(true),
  TRUST_PROXY: z
    .string()
    .transform((value, ctx): TrustProxy => {
      const v = value.trim().toLowerCase();
      if (['false', 'no', '0'].includes(v)) return false;
      if (['true', 'yes'].includes(v)) {
        // The old `true` believed the leftmost entry, which the client writes itself.
        ctx.addIssue({
          code: 'custom',
          message:
            "'true' is no longer accepted (it let any client choose its own address): name the proxies to trust instead: 'loopback' for a proxy on this machine, a hop count such as 1, or their addresses or CIDRs, e.g. 10.0.0.0/8",
        });
        return z.NEVER;
      }
      if (/^\d+$/.test(v)) return Number(v);
      const list = v
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean);
      try {
        proxyAddr.compile(list);
      } catch (error) {
        ctx.addIssue({
          code: 'custom',
          message: `must be false, a hop count, or a comma list of addresses, CIDRs, loopback, linklocal, uniquelocal (${error instanceof Error ? error.message : 'invalid'})`,
        });
        return z.NEVER;
      }
      return list;
    })
    .default(false),
  ALLOWED_HOSTS: z
    .string()
    .transform((value, ctx) => {
      const hosts = value
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean);
      const bad = hosts.find(
        (h) => !/^\.?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(h),
      );
      if (bad !== undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `'${bad}' is not a host name (a comma list of names such as portal.example.org or .example.org, without ports)`,
        });
        return z.NEVER;
      }
      return hosts;
    })
    .default([]),
  SHUTDOWN_TIMEOUT_MS: positiveInt.default(20_000),
  DNS_RESOLVER: z
    .string()
    .transform((value, ctx) => {
      const servers = value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const bad = servers.find(
        (s) => !/^(\[[0-9a-fA-F:.]+\](:\d{1,5})?|[0-9a-fA-F:]*:[0-9a-fA-F:]+|[0-9.]+(:\d{1,5})?)$/.test(s),
      );
      if (bad || servers.length === 0) {
        ctx.addIssue({
          code: 'custom',
          message: `'${bad ?? value}' is not a DNS server address (IP or IP:port, IPv6 as [addr]:port; a comma list)`,
        });
        return z.NEVER;
      }
      return servers;
    })
    .optional(),
  MAIL_DKIM_DOMAIN: z
    .string()
    .regex(/^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/, 'must be a domain name such as twofold.example.org')
    .optional(),
  MAIL_DKIM_SELECTOR: z
    .string()
    .regex(/^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?$/, 'must be a DNS label such as twofold2026')
    .optional(),
  MAIL_DKIM_PRIVATE_KEY: z.string().min(1).optional(),
  MAIL_DKIM_PRIVATE_KEY_FILE: z.string().min(1).optional(),
  MAIL_POLL_MS: positiveInt.default(1000),
  MAIL_LEASE_MS: positiveInt.default(5 * 60_000),
  MAIL_CONCURRENCY: positiveInt.max(32).default(4),
  RATE_LIMIT_WINDOW_MS: positiveInt.default(15 * 60 * 1000),
  RATE_LIMIT_PER_IP: positiveInt.default(20),
  RATE_LIMIT_PER_EMAIL: positiveInt.default(5),
  LOGIN_CAPTCHA_AFTER: positiveInt.default(3),
  API_RATE_LIMIT_PER_MINUTE: positiveInt.default(600),
  WEBHOOK_ALLOW_PRIVATE: boolean.default(false),
  SSO_ALLOW_PRIVATE: boolean.default(false),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_[A-Za-z0-9_]+$/, 'must be a Stripe secret (sk_...) or restricted (rk_...) key')
    .optional(),
  STRIPE_API_BASE: z
    .url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' })
    .default('https://api.stripe.com'),
  STRIPE_WEBHOOK_SECRET: z.string().min(8, 'must be the webhook signing secret (whsec_...)').optional(),
  STRIPE_METER_EVENT: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,100}$/, 'must be a billing meter event name (letters, digits, _ . -)')
    .default('twofold_match_fee'),
  ...Object.fromEntries(
    paidPlanIds.map((plan) => [
      stripePriceVariable(plan),
      z
        .string()
        .regex(/^[A-Za-z0-9_]+$/, 'must be a Stripe price id (price_...)')
        .optional(),
    ]),
  ),
  S3_BUCKET: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      'must be a bucket name (3 to 63 lowercase letters, digits, dots and hyphens)',
    )
    .optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]+$/, 'must be a region name such as us-east-1')
    .default('us-east-1'),
  S3_ENDPOINT: z
    .url({ protocol: /^https?$/, message: 'must be an http:// or https:// URL, e.g. https://s3.example.org' })
    // The endpoint is shown at start-up; keys belong in their own variables, never in it.
    .refine((url) => !/^https?:\/\/[^/]*@/.test(url), 'must not contain credentials (use S3_ACCESS_KEY_ID)')
    .optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: boolean.default(false),
  S3_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9._/-]+\/$/, "must end with '/' and use only letters, digits and . _ - /")
    .optional(),
  LOG_FORMAT: z.enum(['json', 'human', 'auto'], { message: 'must be json, human or auto' }).default('auto'),
  LOG_LEVEL: z
    .enum(['info', 'warn', 'error', 'silent'], { message: 'must be info, warn, error or silent' })
    .default('info'),
  METRICS_TOKEN: z
    .string()
    .regex(
      /^[\x21-\x7e]{24,}$/,
      'must be at least 24 printable characters without spaces (openssl rand -hex 32)',
    )
    .optional(),
  METRICS_PORT: z.coerce.number({ message: 'must be a number' }).int().min(1).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  ...tracingEnv,
});

/** Every environment variable the server reads (docs/deploy.md's table names each one). */
export const environmentVariables: readonly string[] = Object.keys(Env.shape);

const s3Variables = [
  'S3_REGION',
  'S3_ENDPOINT',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
  'S3_PREFIX',
] as const;

/** The S3 settings, or undefined for the local folder; never mentions a secret's value. */
function s3Config(e: z.infer<typeof Env>, present: Record<string, string | undefined>): S3Config | undefined {
  if (!e.S3_BUCKET) {
    // Storage settings without a bucket would silently keep files on one machine's disk.
    const stray = s3Variables.find((name) => present[name] !== undefined);
    if (stray) throw new ConfigError(`Invalid environment variable S3_BUCKET: must be set when ${stray} is`);
    return undefined;
  }
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    const missing = e.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID';
    const other = e.S3_ACCESS_KEY_ID ? 'S3_ACCESS_KEY_ID' : 'S3_SECRET_ACCESS_KEY';
    throw new ConfigError(`Invalid environment variable ${missing}: must be set when ${other} is`);
  }
  return {
    bucket: e.S3_BUCKET,
    region: e.S3_REGION,
    endpoint: e.S3_ENDPOINT?.replace(/\/+$/, ''),
    credentials:
      e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
        : undefined,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
    prefix: e.S3_PREFIX ?? '',
  };
}

/**
 * The platform's DKIM key: selector and key (inline PEM, `\n` escapes allowed, or a file) both
 * or neither. The domain defaults to MAIL_FROM's. A key that is not a PEM private key stops the
 * server with a message that never shows it.
 */
function mailDkimConfig(e: z.infer<typeof Env>): MailDkim | undefined {
  const inline = e.MAIL_DKIM_PRIVATE_KEY?.replace(/\\n/g, '\n');
  if (inline && e.MAIL_DKIM_PRIVATE_KEY_FILE)
    throw new ConfigError(
      'Invalid environment variable MAIL_DKIM_PRIVATE_KEY: set it or MAIL_DKIM_PRIVATE_KEY_FILE, not both',
    );
  const variable = inline ? 'MAIL_DKIM_PRIVATE_KEY' : 'MAIL_DKIM_PRIVATE_KEY_FILE';
  let privateKey = inline;
  if (e.MAIL_DKIM_PRIVATE_KEY_FILE) {
    try {
      privateKey = readFileSync(e.MAIL_DKIM_PRIVATE_KEY_FILE, 'utf8');
    } catch {
      throw new ConfigError(`Invalid environment variable ${variable}: the file cannot be read`);
    }
  }
  if (!privateKey && !e.MAIL_DKIM_SELECTOR) {
    if (e.MAIL_DKIM_DOMAIN)
      throw new ConfigError(
        'Invalid environment variable MAIL_DKIM_SELECTOR: must be set when MAIL_DKIM_DOMAIN is',
      );
    return undefined;
  }
  if (!privateKey)
    throw new ConfigError(`Invalid environment variable ${variable}: must be set when MAIL_DKIM_SELECTOR is`);
  if (!e.MAIL_DKIM_SELECTOR)
    throw new ConfigError(`Invalid environment variable MAIL_DKIM_SELECTOR: must be set when ${variable} is`);
  try {
    const key = createPrivateKey(privateKey);
    if (key.asymmetricKeyType !== 'rsa' && key.asymmetricKeyType !== 'ed25519') throw new Error('type');
  } catch {
    throw new ConfigError(
      `Invalid environment variable ${variable}: must be an RSA or Ed25519 private key in PEM form`,
    );
  }
  const domainName = e.MAIL_DKIM_DOMAIN ?? /@([A-Za-z0-9.-]+)>?\s*$/.exec(e.MAIL_FROM)?.[1];
  if (!domainName)
    throw new ConfigError(
      'Invalid environment variable MAIL_DKIM_DOMAIN: MAIL_FROM names no domain, so set it',
    );
  return { domainName: domainName.toLowerCase(), keySelector: e.MAIL_DKIM_SELECTOR, privateKey };
}

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
    exposed: !isLoopbackHost(e.HOST),
    databaseUrl: e.DATABASE_URL,
    dataDir,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    jwtSecret: e.JWT_SECRET ?? persistedSecret(dataDir),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    supportEmail: e.SUPPORT_EMAIL,
    seedDemo: e.SEED_DEMO ?? isLoopbackHost(e.HOST),
    devClock: !e.DATABASE_URL && isLoopbackHost(e.HOST) && (e.DEV_CLOCK ?? env.NODE_ENV !== 'production'),
    logRequests: e.LOG_REQUESTS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    mail: { pollMs: e.MAIL_POLL_MS, leaseMs: e.MAIL_LEASE_MS, concurrency: e.MAIL_CONCURRENCY },
    mailDkim: mailDkimConfig(e),
    dnsResolver: e.DNS_RESOLVER,
    trustProxy: e.TRUST_PROXY,
    allowedHosts: e.ALLOWED_HOSTS,
    rateLimit: {
      windowMs: e.RATE_LIMIT_WINDOW_MS,
      perIp: e.RATE_LIMIT_PER_IP,
      perEmail: e.RATE_LIMIT_PER_EMAIL,
    },
    loginCaptchaAfter: e.LOGIN_CAPTCHA_AFTER,
    stripe: e.STRIPE_SECRET_KEY
      ? {
          secretKey: e.STRIPE_SECRET_KEY,
          api: stripeApi(e.STRIPE_API_BASE),
          meterEventName: e.STRIPE_METER_EVENT,
          webhookSecret: e.STRIPE_WEBHOOK_SECRET,
          prices: Object.fromEntries(
            paidPlanIds.flatMap((plan) => {
              const price = (e as Record<string, unknown>)[stripePriceVariable(plan)];
              return typeof price === 'string' ? [[plan, price]] : [];
            }),
          ),
        }
      : undefined,
    s3: s3Config(e, present),
    apiRateLimitPerMinute: e.API_RATE_LIMIT_PER_MINUTE,
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
    ssoAllowPrivate: e.SSO_ALLOW_PRIVATE,
    logFormat: e.LOG_FORMAT,
    logLevel: e.LOG_LEVEL,
    metrics: { token: e.METRICS_TOKEN, port: e.METRICS_PORT, host: e.METRICS_HOST },
    tracing: { endpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: e.OTEL_SERVICE_NAME },
  };
}

/** Only the tracing settings, validated like `loadConfig`: for the preload that starts tracing. */
export function loadTracingConfig(env: Record<string, string | undefined>): TracingConfig {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = z.object(tracingEnv).safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? 'environment');
    throw new ConfigError(`Invalid environment variable ${name}: ${issue?.message ?? 'invalid value'}`);
  }
  return {
    endpoint: parsed.data.OTEL_EXPORTER_OTLP_ENDPOINT,
    serviceName: parsed.data.OTEL_SERVICE_NAME,
  };
}

/**
 * Only where the data lives (DATA_DIR, DATABASE_URL, S3_BUCKET), validated like `loadConfig` but
 * creating nothing: for `npm run backup` and `npm run restore`, which must not generate a secret.
 */
export function loadDataLocation(env: Record<string, string | undefined>): {
  dataDir: string;
  databaseUrl: string | undefined;
  s3Bucket: string | undefined;
  /** JWT_SECRET is set in the environment (then DATA_DIR holds no generated one). */
  jwtSecretFromEnvironment: boolean;
} {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = Env.pick({ DATA_DIR: true, DATABASE_URL: true, S3_BUCKET: true }).safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? 'environment');
    throw new ConfigError(`Invalid environment variable ${name}: ${issue?.message ?? 'invalid value'}`);
  }
  return {
    dataDir: path.resolve(parsed.data.DATA_DIR),
    databaseUrl: parsed.data.DATABASE_URL,
    s3Bucket: parsed.data.S3_BUCKET,
    jwtSecretFromEnvironment: present.JWT_SECRET !== undefined,
  };
}

/**
 * Whether a listen address is reachable from this machine only: `localhost`, 127.0.0.0/8 and ::1
 * (also IPv4-mapped). The wildcards 0.0.0.0 and :: listen on every interface, so they are not.
 */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (h === '::1' || /^0{0,4}(:0{0,4}){6}:0{0,3}1$/.test(h)) return true;
  const v4 = h.startsWith('::ffff:') ? h.slice(7) : h;
  return /^127(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/.test(v4);
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

import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { environmentVariables, isLoopbackHost, loadConfig } from './config.ts';

const dataDir = () => mkdtempSync(path.join(tmpdir(), 'twofold-config-'));

describe('loadConfig', () => {
  it('reads TRUST_PROXY as false, a hop count or the proxies to trust, refusing the old true', () => {
    const trust = (value: string) => loadConfig({ DATA_DIR: dataDir(), TRUST_PROXY: value }).trustProxy;
    expect(trust('false')).toBe(false);
    expect(trust('2')).toBe(2);
    expect(trust('loopback,uniquelocal, 203.0.113.0/24')).toEqual([
      'loopback',
      'uniquelocal',
      '203.0.113.0/24',
    ]);
    // `true` used to believe the client's own leftmost entry: refused, naming what to set instead.
    expect(() => trust('true')).toThrow(/TRUST_PROXY: 'true' is no longer accepted.*'loopback'.*hop count/);
    expect(() => trust('proxy.internal')).toThrow(
      /Invalid environment variable TRUST_PROXY: must be false, a hop count/,
    );
  });

  it('reads DNS_RESOLVER as DNS server addresses, refusing names and junk', () => {
    const dns = (value: string) => loadConfig({ DATA_DIR: dataDir(), DNS_RESOLVER: value }).dnsResolver;
    expect(loadConfig({ DATA_DIR: dataDir() }).dnsResolver).toBeUndefined();
    expect(dns('127.0.0.1:5353, 1.1.1.1,[::1]:53, 2606:4700::1111')).toEqual([
      '127.0.0.1:5353',
      '1.1.1.1',
      '[::1]:53',
      '2606:4700::1111',
    ]);
    expect(() => dns('dns.example.org')).toThrow(
      /DNS_RESOLVER: 'dns.example.org' is not a DNS server address/,
    );
  });

  it('reads the platform DKIM key (MAIL_DKIM_*) for MAIL_FROM’s domain, never showing the key', () => {
    const { privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 1024,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const base = { DATA_DIR: dataDir(), MAIL_FROM: 'Twofold <no-reply@Mail.Example.org>' };
    expect(loadConfig(base).mailDkim).toBeUndefined();
    const inline = loadConfig({
      ...base,
      MAIL_DKIM_SELECTOR: 'tf1',
      MAIL_DKIM_PRIVATE_KEY: privateKey.replaceAll('\n', '\\n'),
    });
    expect(inline.mailDkim).toEqual({ domainName: 'mail.example.org', keySelector: 'tf1', privateKey });
    const file = path.join(dataDir(), 'dkim.pem');
    writeFileSync(file, privateKey);
    expect(
      loadConfig({
        ...base,
        MAIL_DKIM_SELECTOR: 'tf1',
        MAIL_DKIM_PRIVATE_KEY_FILE: file,
        MAIL_DKIM_DOMAIN: 'example.org',
      }).mailDkim,
    ).toEqual({ domainName: 'example.org', keySelector: 'tf1', privateKey });
    expect(() => loadConfig({ ...base, MAIL_DKIM_SELECTOR: 'tf1' })).toThrow(
      /MAIL_DKIM_PRIVATE_KEY_FILE: must be set when MAIL_DKIM_SELECTOR is/,
    );
    expect(() => loadConfig({ ...base, MAIL_DKIM_PRIVATE_KEY: privateKey })).toThrow(
      /MAIL_DKIM_SELECTOR: must be set when MAIL_DKIM_PRIVATE_KEY is/,
    );
    const secret = 'not-a-key-but-a-secret-value';
    expect(() => loadConfig({ ...base, MAIL_DKIM_SELECTOR: 'tf1', MAIL_DKIM_PRIVATE_KEY: secret })).toThrow(
      /MAIL_DKIM_PRIVATE_KEY: must be an RSA or Ed25519 private key in PEM form$/,
    );
  });

  it('reads ALLOWED_HOSTS as host names, refusing ports and junk', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).allowedHosts).toEqual([]);
    expect(loadConfig({ DATA_DIR: dataDir(), ALLOWED_HOSTS: 'A.Example.org,' }).allowedHosts).toEqual([
      'a.example.org',
    ]);
    expect(() => loadConfig({ DATA_DIR: dataDir(), ALLOWED_HOSTS: 'a.example.org:443' })).toThrow(
      /ALLOWED_HOSTS: 'a.example.org:443' is not a host name/,
    );
  });

  it('works with nothing set, generating and keeping a private JWT secret', () => {
    const dir = dataDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      exposed: false,
      databaseUrl: undefined,
      dataDir: dir,
      publicUrl: 'http://localhost:8080',
      smtpUrl: undefined,
      mailFrom: 'Twofold <no-reply@twofold.test>',
      supportEmail: 'support@twofold.test',
      seedDemo: true,
      logRequests: true,
      trustProxy: false,
    });
    expect(config.jwtSecret.length).toBeGreaterThanOrEqual(32);
    const file = path.join(dir, 'jwt-secret');
    expect(readFileSync(file, 'utf8').trim()).toBe(config.jwtSecret);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dir }).jwtSecret).toBe(config.jwtSecret);
  });

  it('derives the public URL from the port and reads every variable', () => {
    const config = loadConfig({
      DATA_DIR: dataDir(),
      PORT: '3000',
      DATABASE_URL: 'postgres://u@db:5432/twofold',
      JWT_SECRET: 's'.repeat(40),
      SMTP_URL: 'smtp://mail:25',
      SEED_DEMO: 'false',
      LOG_REQUESTS: '0',
      TRUST_PROXY: '10.0.0.0/8, loopback',
      ALLOWED_HOSTS: 'give.example.org, .example.net',
      RATE_LIMIT_PER_IP: '50',
      // Empty counts as unset.
      HOST: '',
    });
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:3000',
      databaseUrl: 'postgres://u@db:5432/twofold',
      jwtSecret: 's'.repeat(40),
      smtpUrl: 'smtp://mail:25',
      seedDemo: false,
      logRequests: false,
      trustProxy: ['10.0.0.0/8', 'loopback'],
      allowedHosts: ['give.example.org', '.example.net'],
    });
    expect(config.rateLimit.perIp).toBe(50);
    expect(loadConfig({ DATA_DIR: dataDir(), PUBLIC_URL: 'https://give.example.org/' }).publicUrl).toBe(
      'https://give.example.org',
    );
  });

  it('listens on loopback by default and seeds the demo users only there unless SEED_DEMO asks', () => {
    const dir = dataDir();
    expect(loadConfig({ DATA_DIR: dir })).toMatchObject({
      host: '127.0.0.1',
      exposed: false,
      seedDemo: true,
    });
    // Reachable from other machines: no published demo passwords unless explicitly asked for.
    expect(loadConfig({ DATA_DIR: dir, HOST: '0.0.0.0' })).toMatchObject({
      host: '0.0.0.0',
      exposed: true,
      seedDemo: false,
    });
    expect(loadConfig({ DATA_DIR: dir, HOST: '::', SEED_DEMO: 'true' })).toMatchObject({
      exposed: true,
      seedDemo: true,
    });
    expect(loadConfig({ DATA_DIR: dir, HOST: 'localhost', SEED_DEMO: 'false' })).toMatchObject({
      exposed: false,
      seedDemo: false,
    });
  });

  it('tells loopback addresses from the ones other machines reach', () => {
    for (const host of [
      '127.0.0.1',
      '127.1.2.3',
      'localhost',
      '::1',
      '[::1]',
      '::ffff:127.0.0.1',
      '0:0:0:0:0:0:0:1',
    ])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of [
      '0.0.0.0',
      '::',
      '192.168.1.10',
      '10.0.0.1',
      'example.org',
      '128.0.0.1',
      '127.0.0.256',
      'fe80::1',
    ])
      expect(isLoopbackHost(host), host).toBe(false);
  });

  it('names the bad variable', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ PORT: 'eighty' }, /PORT/],
      [{ PORT: '70000' }, /PORT/],
      [{ JWT_SECRET: 'short' }, /JWT_SECRET: must be at least 32 characters/],
      [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL: must be a postgres:\/\/ URL/],
      [{ SEED_DEMO: 'maybe' }, /SEED_DEMO: must be true or false/],
      [{ PUBLIC_URL: 'not a url' }, /PUBLIC_URL/],
      [{ SUPPORT_EMAIL: 'nobody' }, /SUPPORT_EMAIL/],
      [{ S3_BUCKET: 'Not_A_Bucket' }, /S3_BUCKET: must be a bucket name/],
      [{ S3_BUCKET: 'uploads', S3_ENDPOINT: 'ftp://files' }, /S3_ENDPOINT: must be an http/],
      [
        { S3_BUCKET: 'uploads', S3_ENDPOINT: 'https://key:hush@s3.example.org' },
        /S3_ENDPOINT: must not contain/,
      ],
      [{ S3_BUCKET: 'uploads', S3_REGION: 'Mars 1' }, /S3_REGION/],
      [{ S3_BUCKET: 'uploads', S3_FORCE_PATH_STYLE: 'sure' }, /S3_FORCE_PATH_STYLE: must be true or false/],
      [{ S3_BUCKET: 'uploads', S3_PREFIX: 'no-slash' }, /S3_PREFIX: must end with/],
      // Storage settings without a bucket would quietly keep files on one machine.
      [{ S3_ENDPOINT: 'http://minio:9000' }, /S3_BUCKET: must be set when S3_ENDPOINT is/],
      [
        { S3_BUCKET: 'uploads', S3_ACCESS_KEY_ID: 'AKIA1' },
        /S3_SECRET_ACCESS_KEY: must be set when S3_ACCESS_KEY_ID is/,
      ],
      [{ S3_BUCKET: 'uploads', S3_SECRET_ACCESS_KEY: 'hush' }, /S3_ACCESS_KEY_ID: must be set when/],
    ];
    for (const [env, message] of cases) {
      expect(() => loadConfig({ DATA_DIR: dataDir(), ...env })).toThrow(message);
    }
  });

  it('keeps uploads on disk without S3_BUCKET and reads every S3 setting with one', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).s3).toBeUndefined();
    expect(
      loadConfig({
        DATA_DIR: dataDir(),
        S3_BUCKET: 'twofold-files',
        S3_REGION: 'eu-central-1',
        S3_ENDPOINT: 'https://s3.example.org/',
        S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
        S3_SECRET_ACCESS_KEY: 'secret/value+1',
        S3_FORCE_PATH_STYLE: 'true',
        S3_PREFIX: 'twofold/uploads/',
      }).s3,
    ).toEqual({
      bucket: 'twofold-files',
      region: 'eu-central-1',
      endpoint: 'https://s3.example.org',
      credentials: { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret/value+1' },
      forcePathStyle: true,
      prefix: 'twofold/uploads/',
    });
    // Without keys the AWS SDK's own chain (AWS_* variables, an instance role) applies.
    expect(loadConfig({ DATA_DIR: dataDir(), S3_BUCKET: 'twofold-files' }).s3).toEqual({
      bucket: 'twofold-files',
      region: 'us-east-1',
      endpoint: undefined,
      credentials: undefined,
      forcePathStyle: false,
      prefix: '',
    });
  });

  it('never puts a secret value in its error messages', () => {
    const secret = 'very-secret-value-0123456789';
    for (const env of [
      { S3_BUCKET: 'uploads', S3_SECRET_ACCESS_KEY: secret },
      { S3_SECRET_ACCESS_KEY: secret },
      { JWT_SECRET: 'short-secret' },
    ]) {
      let message = '';
      try {
        loadConfig({ DATA_DIR: dataDir(), ...env });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/^Invalid environment variable /);
      expect(message).not.toContain(secret);
      expect(message).not.toContain('short-secret');
    }
  });

  it('keeps metrics and traces off and logs in the auto format unless told otherwise (issue #26)', () => {
    const config = loadConfig({ DATA_DIR: dataDir() });
    expect(config.metrics).toEqual({ token: undefined, port: undefined, host: '127.0.0.1' });
    expect(config.tracing).toEqual({ endpoint: undefined, serviceName: 'twofold' });
    expect([config.logFormat, config.logLevel]).toEqual(['auto', 'info']);
    const set = loadConfig({
      DATA_DIR: dataDir(),
      METRICS_TOKEN: 'a'.repeat(32),
      METRICS_PORT: '9464',
      METRICS_HOST: '10.0.0.5',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_SERVICE_NAME: 'twofold-eu',
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'warn',
    });
    expect(set.metrics).toEqual({ token: 'a'.repeat(32), port: 9464, host: '10.0.0.5' });
    expect(set.tracing).toEqual({ endpoint: 'http://collector:4318', serviceName: 'twofold-eu' });
    expect([set.logFormat, set.logLevel]).toEqual(['json', 'warn']);
    // A guessable token is refused, and the message does not repeat it.
    expect(() => loadConfig({ DATA_DIR: dataDir(), METRICS_TOKEN: 'short-token' })).toThrow(
      /^Invalid environment variable METRICS_TOKEN: must be at least 24 printable characters/,
    );
    expect(() => loadConfig({ DATA_DIR: dataDir(), METRICS_TOKEN: 'short-token' })).not.toThrow(
      /short-token/,
    );
    expect(() => loadConfig({ DATA_DIR: dataDir(), METRICS_PORT: 'x' })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT: must be an http/,
    );
    expect(() => loadConfig({ DATA_DIR: dataDir(), LOG_FORMAT: 'xml' })).toThrow(
      /LOG_FORMAT: must be json, human or auto/,
    );
  });
});

describe('docs/deploy.md', () => {
  it('names every environment variable the server reads, in its table', () => {
    const doc = readFileSync(path.join(import.meta.dirname, '..', 'docs', 'deploy.md'), 'utf8');
    const firstCells = [...doc.matchAll(/^\| ([^|]+)\|/gm)].map((m) => m[1] ?? '');
    const documented = new Set(
      firstCells.flatMap((cell) => [...cell.matchAll(/`([A-Z0-9_<>]+)`/g)].map((m) => m[1])),
    );
    const missing = environmentVariables.filter(
      (name) =>
        !documented.has(name) && !(name.startsWith('STRIPE_PRICE_') && documented.has('STRIPE_PRICE_<PLAN>')),
    );
    expect(missing).toEqual([]);
    expect(environmentVariables).toContain('DATABASE_URL');
  });
});

import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isLoopbackHost, loadConfig } from './config.ts';

const dataDir = () => mkdtempSync(path.join(tmpdir(), 'twofold-config-'));

describe('loadConfig', () => {
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
      TRUST_PROXY: 'true',
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
      trustProxy: true,
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
    ];
    for (const [env, message] of cases) {
      expect(() => loadConfig({ DATA_DIR: dataDir(), ...env })).toThrow(message);
    }
  });
});

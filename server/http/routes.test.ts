import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissionLevels } from '../../src/contract/access.ts';
import { createApp, routes } from '../app.ts';
import type { Db } from '../db/client.ts';
import { call } from '../test-helpers.ts';
import { createTestContext, type TestContext } from '../testing.ts';
import { memoryLogger } from './logger.ts';

describe('the route table', () => {
  it('declares who may call every route (guards against `as any`)', () => {
    const problems: string[] = [];
    for (const route of routes) {
      const name = `${route.method.toUpperCase()} ${route.path}`;
      const access: unknown = route.access;
      if (typeof access === 'string') {
        if (!['anonymous', 'authenticated', 'donor', 'super', 'api-key'].includes(access))
          problems.push(`${name}: ${access}`);
      } else if (
        !access ||
        typeof access !== 'object' ||
        !permissionLevels.includes((access as { level: never }).level) ||
        typeof (access as { org?: unknown }).org !== 'function'
      ) {
        problems.push(`${name}: no valid access declaration`);
      }
      if (!route.summary) problems.push(`${name}: no summary`);
    }
    expect(problems).toEqual([]);
  });

  it('has one definition per method and path', () => {
    const keys = routes.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('keeps anonymous routes to the ones meant to be public', () => {
    const anonymous = routes.filter((r) => r.access === 'anonymous').map((r) => `${r.method} ${r.path}`);
    expect(anonymous.sort()).toEqual(
      [
        'get /api/auth/otp',
        'get /api/health',
        'get /api/health/live',
        'get /api/health/ready',
        'get /api/openapi.json',
        'post /api/auth/forgot',
        'post /api/auth/login',
        'post /api/auth/otp',
        'post /api/auth/otp/verify',
        'post /api/auth/reset',
        // Issue 3: the public endpoints behind the registration and contact elements, and logos.
        'get /api/csrf-token',
        'post /organization/register',
        'get /api/public/organization-search',
        'get /api/captcha/challenge',
        'post /api/contact-form',
        'get /files/:name',
        // Donors search their employer on the match forms.
        'get /search/company-name/:text',
        // Issue 12: the public employer lookup (/companies, <twofold-company-lookup>).
        'get /api/public/companies',
        'get /api/public/companies/:id',
        // Issue 31: the match request's "Is this your employer?" (from the email's domain only).
        'get /api/public/employer-suggestion',
        // Donors: the donor link's exchange and the public matching page (captcha on the request).
        'post /api/donor/session',
        'get /api/public/match/:slug',
        'post /api/public/match/:slug',
        // Billing: Stripe's signed webhook.
        'post /api/billing/stripe/webhook',
        // Donor emails' open-tracking image (the same gif whatever the token).
        'get /api/notification/open.gif',
        // A donor email's signed step and unsubscribe links (the signed link is the credential).
        'get /api/email/:action',
        'post /api/email/:action',
        // Issue 15: an invitation link's preview and acceptance (the one-time token is the credential).
        'post /api/invitation',
        'post /api/invitation/accept',
        // Issue 16: the donor's signing page (the signed, single-use link is the credential).
        'get /api/esign/:token',
        'post /api/esign/:token',
        'post /api/esign/:token/resend',
        // The public API's description and its interactive reference (the calls need a key).
        'get /api/v1/openapi.json',
        'get /api/v1/docs',
        'get /api/v1/docs/:asset',
        // Issue 24: a passkey sign-in (its options and the signed answer) and single sign-on (the
        // domain's provider name, the start, the provider's redirect back, the one-time hand-off).
        'post /api/auth/passkey/options',
        'post /api/auth/passkey',
        'get /api/auth/sso/lookup',
        'get /api/auth/sso/start',
        'get /api/auth/sso/callback',
        'post /api/auth/sso/complete',
        // Issue 24: the code after a right password, carrying the five-minute second-factor token
        // (not a session) in its body.
        'post /api/auth/second-factor',
        // Issue 26: Prometheus metrics; off unless configured, then behind METRICS_TOKEN or on
        // their own loopback port (server/modules/system/metrics.routes.ts).
        'get /metrics',
        // Issue 25: OAuth 2.0 for partner apps. The client authenticates itself at the token,
        // revocation and introspection endpoints; the consent page signs the user in itself.
        'get /.well-known/oauth-authorization-server',
        'get /oauth/authorize',
        'post /oauth/token',
        'post /oauth/revoke',
        'post /oauth/introspect',
        // The name on the embedded registration's Connect button.
        'get /api/public/partner-apps/:clientId',
      ].sort(),
    );
  });

  it('checks a ?token= credential in the guard like a bearer one: the billing links and the CSV link', () => {
    const inQuery = routes
      .filter((r) => r.tokenInQuery)
      .map((r) => [`${r.method} ${r.path}`, r.tokenInQuery?.purpose, (r.access as { level?: string }).level]);
    expect(inQuery.sort()).toEqual(
      [
        // A five-minute link for one billing action made by GET billing-link (never the session
        // token: issue #29), admin on the organization it names.
        ['get /api/organization/:id/subscribe/:plan', 'billing-link', 'admin'],
        ['get /api/organization/:id/billing-portal', 'billing-link', 'admin'],
        // A five-minute link made by GET csv-token, read on the organization it names.
        ['get /api/donation/:id/csv', 'csv-link', 'read'],
        // The same kind of link to a saved report's file, read on the report's organization.
        ['get /api/reports/:id/download', 'csv-link', 'read'],
        // Issue 24: the audit log's CSV, admin on the organization it names.
        ['get /api/organization/:id/audit-events/csv', 'csv-link', 'admin'],
      ].sort(),
    );
  });
});

describe('GET /api/openapi.json', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it('describes every route of the table from its own schemas', async () => {
    const res = await call(t.app, 'GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.json.openapi).toBe('3.1.0');
    for (const route of routes) {
      const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      expect(res.json.paths[path]?.[route.method]?.summary).toBe(route.summary);
    }
    const login = res.json.paths['/api/auth/login'].post;
    expect(login.requestBody.content['application/json'].schema.required).toEqual(['email', 'password']);
    expect(login.security).toBeUndefined();
    const org = res.json.paths['/api/organization/{id}'].get;
    expect(org.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
    expect(org.security).toEqual([{ bearer: [] }]);
    expect(org.responses['200'].content['application/json'].schema.properties.organization).toBeDefined();
  });

  it('answers health checks', async () => {
    expect((await call(t.app, 'GET', '/api/health')).json).toEqual({ status: 'ok' });
  });

  it('answers liveness always, and readiness only while the database answers and the process is not shutting down', async () => {
    const live = await call(t.app, 'GET', '/api/health/live');
    expect([live.status, live.json]).toEqual([200, { status: 'live' }]);
    const ready = await call(t.app, 'GET', '/api/health/ready');
    expect([ready.status, ready.json]).toEqual([200, { status: 'ready' }]);
    expect(ready.headers.get('cache-control')).toBe('no-store');

    const lifecycle = { draining: false };
    const { app } = createApp({ config: t.config, db: t.db, logger: memoryLogger(), lifecycle });
    expect((await call(app, 'GET', '/api/health/ready')).status).toBe(200);
    lifecycle.draining = true;
    const draining = await call(app, 'GET', '/api/health/ready');
    expect([draining.status, draining.json]).toEqual([503, { status: 'shutting down' }]);
    expect((await call(app, 'GET', '/api/health/live')).status).toBe(200);

    // A database that fails: unready, 503, never a 500.
    const broken = {
      ...t.db,
      execute: () => Promise.reject(new Error('connection refused')),
    } as unknown as Db;
    const { app: cut } = createApp({ config: t.config, db: broken, logger: memoryLogger() });
    const down = await call(cut, 'GET', '/api/health/ready');
    expect([down.status, down.json]).toEqual([503, { status: 'database unavailable' }]);
    expect((await call(cut, 'GET', '/api/health/live')).status).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissionLevels } from '../../src/contract/access.ts';
import { routes } from '../app.ts';
import { call } from '../test-helpers.ts';
import { createTestContext, type TestContext } from '../testing.ts';

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
        // Donors: the donor link's exchange and the public matching page (captcha on the request).
        'post /api/donor/session',
        'get /api/public/match/:slug',
        'post /api/public/match/:slug',
        // Billing: browser navigations carrying ?token= (their handlers check it and the admin
        // level), and Stripe's signed webhook.
        'get /api/organization/:id/subscribe/:plan',
        'get /api/organization/:id/billing-portal',
        'post /api/billing/stripe/webhook',
        // Donor emails' open-tracking image (the same gif whatever the token).
        'get /api/notification/open.gif',
        // The CSV download opened in a new tab: its five-minute signed link is the credential
        // (the handler checks it and the user's read level again).
        'get /api/donation/:id/csv',
        // The public API's description and its interactive reference (the calls need a key).
        'get /api/v1/openapi.json',
        'get /api/v1/docs',
        'get /api/v1/docs/:asset',
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
});

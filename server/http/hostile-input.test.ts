import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { demoOrganizationNames } from '../db/seed.ts';
import { routes } from '../routes.ts';
import { call, demoOrganizationIds, signIn } from '../test-helpers.ts';
import { createTestContext, type TestContext } from '../testing.ts';
import { defineRoute } from './route.ts';

/**
 * The bad requests of issue 15 that answered 500: each is a 400 whose message names the field,
 * refused by validation before any handler or database sees it.
 */

const handled: string[] = [];
/** A route whose schemas say only `z.string()`: the request layer alone must keep bad text out. */
const probe = defineRoute({
  method: 'post',
  path: '/api/test/plain/:word',
  access: 'anonymous',
  summary: 'schemas with no text rules of their own',
  params: z.object({ word: z.string() }),
  query: z.object({ q: z.optional(z.string()) }),
  body: z.object({ note: z.optional(z.string()), extra: z.optional(z.record(z.string(), z.unknown())) }),
  handler: async ({ params }) => {
    handled.push(params.word);
    return { ok: true };
  },
});

let t: TestContext;
let token = '';
let orgId = 0;
beforeAll(async () => {
  t = await createTestContext({ config: { logRequests: false }, routes: [...routes, probe] });
  token = await signIn(t.app, 'admin@twofold.test');
  orgId = (await demoOrganizationIds(t.db)).hopeHarbor;
});
afterAll(() => t.close());

const get = (path: string) => call(t.app, 'GET', path, { token });
const send = (method: string, path: string, body: unknown) => call(t.app, method, path, { token, body });
const donation = (extra: Record<string, unknown> = {}) => ({
  donated_at: '2025-03-01 12:00:00',
  amount: 50,
  donor: { name: 'Hostile Donor', email: 'hostile@example.org' },
  company_id: null,
  ...extra,
});

function expectRefused(response: { status: number; json: { message?: string } }, field: string) {
  expect(response.status).toBe(400);
  expect(response.json.message?.startsWith(`${field}: `), response.json.message).toBe(true);
}

describe('NUL characters', () => {
  it('in a query value, signed in or not', async () => {
    expectRefused(await get('/api/search/organization?term=%00'), 'term');
    expectRefused(await call(t.app, 'GET', '/api/public/organization-search?term=a%00b'), 'term');
  });
  it('in a partial update of the organization (mission=a%00b)', async () => {
    expectRefused(
      await call(t.app, 'PUT', `/api/organization/${orgId}/partial?mission=a%00b`, { token }),
      'mission',
    );
  });
  it('in a path parameter', async () => {
    expectRefused(await get('/search/company-name/a%00b'), 'text');
  });
  it('in a custom field value and key of a match', async () => {
    const body = JSON.parse('{"custom":{"a":"x\\u0000y"}}') as Record<string, unknown>;
    expectRefused(await send('POST', `/api/organization/${orgId}/donation`, donation(body)), 'custom.a');
    const key = JSON.parse('{"custom":{"a\\u0000":"x"}}') as Record<string, unknown>;
    const response = await send('POST', `/api/organization/${orgId}/donation`, donation(key));
    expect(response.status).toBe(400);
    expect(response.json.message).toMatch(/^custom\.a\uFFFD: Field names cannot contain/);
  });
});

describe('lone surrogates', () => {
  it('in JSON text', async () => {
    const body = donation({ donor: { name: 'x\ud800y', email: 'hostile@example.org' } });
    expectRefused(await send('POST', `/api/organization/${orgId}/donation`, body), 'donor.name');
  });
  it('percent-encoded in a query string or a path', async () => {
    expectRefused(await call(t.app, 'GET', '/api/public/organization-search?term=%ED%A0%80'), 'term');
    expectRefused(await get('/search/company-name/%ED%A0%80'), 'text');
  });
});

describe('integers beyond the columns and decimals where ids belong', () => {
  it('company_id 1099511627776 and 1.5', async () => {
    for (const company_id of [1_099_511_627_776, 2_147_483_648, 1.5]) {
      expectRefused(
        await send('POST', `/api/organization/${orgId}/donation`, donation({ company_id })),
        'company_id',
      );
    }
  });
  it('a category id of 2147483648 on the public registration form', async () => {
    const csrf = (await call(t.app, 'GET', '/api/csrf-token')).json.csrf_token as string;
    const response = await call(t.app, 'POST', '/organization/register', {
      token: csrf,
      headers: { 'x-csrf-token': csrf },
      body: {
        name: 'Range Test',
        type: 'non-profit',
        phone: '555',
        mission: 'm',
        ein: '1',
        url: 'https://example.org',
        address: { street: '1 Main', city: 'Boston', country: 'US' },
        categoryId: [2_147_483_648],
        contact_name: 'C',
        contact_email: 'range@example.org',
      },
    });
    expectRefused(response, 'categoryId.0');
  });
  it('report_id=2147483648 on the CSV link (found by the route fuzz)', async () => {
    expectRefused(await get(`/api/donation/${orgId}/csv-token?report_id=2147483648`), 'report_id');
  });
  it('filters[minAmount]=999999999.99 (beyond integer cents)', async () => {
    const response = await get(`/api/organization/${orgId}/donation?filters%5BminAmount%5D=999999999.99`);
    expectRefused(response, 'filters[minAmount]');
  });
  it('1.5 as an id in a path and in a JSON list', async () => {
    expectRefused(await get('/api/donation/1.5'), 'id');
    expectRefused(
      await send('POST', '/api/donation/confirm', { donation_ids: [1.5], status: 'submitted' }),
      'donation_ids.0',
    );
  });
});

describe('impossible dates', () => {
  const slug = encodeURIComponent(demoOrganizationNames.hopeHarbor.toLowerCase().replace(' ', '-'));
  for (const donated_at of ['2026-13-45', '0000-00-00', '2026-02-30']) {
    it(`${donated_at} on the public match form`, async () => {
      const response = await call(t.app, 'POST', `/api/public/match/${slug}`, {
        body: {
          donor: { name: 'Date Test', email: 'date@example.org' },
          company_id: null,
          company_name: 'Acme',
          amount: 10,
          donated_at,
          captcha: 'x',
        },
      });
      expectRefused(response, 'donated_at');
    });
    it(`${donated_at} on a staff match`, async () => {
      const response = await send(
        'POST',
        `/api/organization/${orgId}/donation`,
        donation({ donated_at: `${donated_at} 12:00:00` }),
      );
      expectRefused(response, 'donated_at');
    });
  }
});

describe('a route whose schemas say only z.string()', () => {
  it('never runs its handler for a NUL or lone surrogate in any part', async () => {
    const cases: [string, unknown, string][] = [
      ['/api/test/plain/a%00b', {}, 'word'],
      ['/api/test/plain/ok?q=%00', {}, 'q'],
      ['/api/test/plain/ok?q%00=1', {}, 'q\uFFFD'],
      ['/api/test/plain/ok', { note: 'a\u0000' }, 'note'],
      ['/api/test/plain/ok', { note: '\udc00' }, 'note'],
      ['/api/test/plain/ok', { extra: { deep: [{ deeper: 'x\u0000' }] } }, 'extra.deep.0.deeper'],
    ];
    for (const [path, body, field] of cases) {
      const response = await call(t.app, 'POST', path, { body });
      expect(response.status, path).toBe(400);
      expect(response.json.message, path).toMatch(new RegExp(`^${field.replace(/[.[\]]/g, '\\$&')}`));
    }
    expect(handled).toEqual([]);
    expect((await call(t.app, 'POST', '/api/test/plain/ok', { body: { note: 'fine 👍' } })).status).toBe(200);
    expect(handled).toEqual(['ok']);
  });
});

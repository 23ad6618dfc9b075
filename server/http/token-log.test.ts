/**
 * Issue #29: no token a link carries ends up in the request log. Every route and page whose path
 * or query holds a token is requested with a real (or well-formed) token, and the whole captured
 * log is searched for each token afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { donations } from '../db/schema.ts';
import { signToken } from '../modules/auth/tokens.ts';
import { signingLink } from '../modules/esign/esign-link.ts';
import { actionToken } from '../modules/templates/links.ts';
import { call, demoOrganizationIds, signIn } from '../test-helpers.ts';
import { createTestContext, type TestContext } from '../testing.ts';
import { tokenPathRedactor } from './token-paths.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

describe('the request log', () => {
  it('holds no token from any token-bearing route or page', async () => {
    const { hopeHarbor } = await demoOrganizationIds(t.db);
    const [match] = await t.db
      .insert(donations)
      .values({
        organization_id: hopeHarbor,
        amount_cents: 10_000,
        donated_at: new Date('2026-02-01T12:00:00Z'),
        transaction_id: 'TX-LOG-1',
        status_id: 5,
      })
      .returning();
    if (!match) throw new Error('no match');
    const esign = new URL(
      await t.db.transaction((tx) =>
        signingLink(tx, t.config, { id: match.id, organization_id: hopeHarbor }, new Date()),
      ),
    ).pathname.slice('/sign/'.length);
    const staff = await signIn(t.app, 'admin@twofold.test');
    const csv = (await call(t.app, 'GET', `/api/donation/${hopeHarbor}/csv-token`, { token: staff })).json
      .url as string;
    const csvToken = new URL(csv, 'http://x').searchParams.get('token') ?? '';
    const donorLink = await signToken(t.config.jwtSecret, 'donor-session', 'donor@example.org');
    const actions = (['confirm', 'decline', 'unsubscribe'] as const).map((a) => ({
      action: a,
      token: actionToken(t.config.jwtSecret, 1, a),
    }));
    const tokens = [
      esign,
      csvToken,
      staff,
      donorLink,
      'a-magic-link-token-0123456789',
      ...actions.map((a) => a.token),
    ];

    const before = t.logger.lines.length;
    const requests: [string, string, unknown?][] = [
      ['GET', `/api/esign/${esign}`],
      ['POST', `/api/esign/${esign}`, { name: 'Sam Signer', signature: { kind: 'typed', text: 'Sam' } }],
      ['POST', `/api/esign/${esign}/resend`, {}],
      ['GET', `/api/esign/${esign}/no-such-route`],
      ['GET', `/sign/${esign}`],
      ['GET', `/sign/${esign}/`],
      ['GET', csv],
      ['GET', `/api/organization/${hopeHarbor}/billing-portal?token=${staff}`],
      ['GET', `/portal/donor-match-update/${match.id}?token=${donorLink}`],
      ['GET', `/donor-match-update/${match.id}?token=${donorLink}`],
      ['GET', '/portal/reset-password?token=a-magic-link-token-0123456789'],
      ['GET', '/portal/login?token=a-magic-link-token-0123456789'],
      ...actions.flatMap(({ action, token }): [string, string, unknown?][] => [
        ['GET', `/api/email/${action}?t=${token}`],
        ['POST', `/api/email/${action}?t=${token}`, {}],
      ]),
    ];
    for (const [method, path, body] of requests)
      await call(t.app, method, path, body === undefined ? {} : { body });

    const log = t.logger.lines.slice(before).join('\n');
    // Every request was logged: the check below looks at real lines.
    expect(t.logger.lines.length - before).toBeGreaterThanOrEqual(requests.length);
    expect(log).toContain('GET /api/esign/:token ');
    expect(log).toContain('POST /api/esign/:token/resend ');
    expect(log).toContain('GET /sign/:token ');
    for (const token of tokens) expect(log).not.toContain(token);
  });

  it('redacts by parameter name, by prefix, leaving other paths alone', () => {
    const redact = tokenPathRedactor([
      '/api/esign/:token',
      '/api/esign/:token/resend',
      '/x/:id/:signToken/y',
    ]);
    expect(redact('/api/esign/abc.def.ghi')).toBe('/api/esign/:token');
    expect(redact('/api/esign/abc/resend')).toBe('/api/esign/:token/resend');
    expect(redact('/x/7/secret/z')).toBe('/x/7/:signToken/z');
    expect(redact('/api/esignature/abc')).toBe('/api/esignature/abc');
    expect(redact('/api/donation/12')).toBe('/api/donation/12');
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryStorage } from '../../state/testing.ts';
import { billingNotice } from './billing.ts';

describe('billingNotice', () => {
  it('confirms a plan the server put in place', () => {
    expect(billingNotice('?subscribed=flat_0')).toEqual({
      kind: 'success',
      text: 'You are now on the Free plan.',
    });
    expect(billingNotice('?subscribed=elig_3')?.text).toBe('You are now on the Growing plan.');
  });

  it('says a paid checkout waits for the provider to confirm it', () => {
    expect(billingNotice('?checkout=flat_20')).toMatchObject({ kind: 'success' });
    expect(billingNotice('?checkout=flat_20')?.text).toContain('as soon as the payment provider confirms it');
  });

  it("explains the server's reason, and a generic one for a code it does not know", () => {
    expect(billingNotice('?billing_error=payments-unavailable')).toEqual({
      kind: 'error',
      text: 'Card payments are not set up on this server yet; choose the free plan or contact us.',
    });
    expect(billingNotice('?billing_error=nonsense')?.text).toBe(
      'Your plan could not be changed. Please try again or contact us.',
    );
    // An error wins over a success parameter in the same address.
    expect(billingNotice('?subscribed=flat_0&billing_error=no-customer')?.kind).toBe('error');
  });

  it('shows nothing for an ordinary visit or an unknown plan', () => {
    expect(billingNotice('')).toBeNull();
    expect(billingNotice('?subscribed=premium')).toBeNull();
  });
});

describe('subscribe and billing-portal addresses', () => {
  afterEach(() => vi.unstubAllGlobals());

  async function load(token: string | null) {
    vi.resetModules();
    const storage = new MemoryStorage();
    if (token) storage.setItem('auth_token', token);
    vi.stubGlobal('localStorage', storage);
    const client = await import('../../api/client.ts');
    client.setApiBase('https://api.twofold.test/');
    return import('../../api/billing.ts');
  }

  it('open the API under the api base with a fetched one-action link, never the session token', async () => {
    const api = await load('tok.en/+=');
    const asked: { url: string; authorization: string | null }[] = [];
    vi.stubGlobal('fetch', async (input: Request | string, init?: RequestInit) => {
      const request = new Request(input, init);
      asked.push({ url: request.url, authorization: request.headers.get('authorization') });
      const url = new URL(request.url);
      const action = url.searchParams.get('action');
      const path =
        action === 'portal'
          ? '/api/organization/12/billing-portal'
          : `/api/organization/12/subscribe/${url.searchParams.get('plan')}`;
      return Response.json({ url: `${path}?token=one.time.link` });
    });
    expect(await api.subscribeUrl(12, 'flat_0')).toBe(
      'https://api.twofold.test/api/organization/12/subscribe/flat_0?token=one.time.link',
    );
    expect(await api.billingPortalUrl(12)).toBe(
      'https://api.twofold.test/api/organization/12/billing-portal?token=one.time.link',
    );
    // The session travels only as the bearer header of the link request.
    expect(asked).toEqual([
      {
        url: 'https://api.twofold.test/api/organization/12/billing-link?action=subscribe&plan=flat_0',
        authorization: 'Bearer tok.en/+=',
      },
      {
        url: 'https://api.twofold.test/api/organization/12/billing-link?action=portal',
        authorization: 'Bearer tok.en/+=',
      },
    ]);
    expect(api.billingPortalHref(12)).toBe('https://api.twofold.test/api/organization/12/billing-portal');
  });

  it('log an error and give nothing to open without a token (spec)', async () => {
    const api = await load(null);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await api.subscribeUrl(12, 'flat_0')).toBeNull();
    expect(await api.billingPortalUrl(12)).toBeNull();
    expect(logged).toHaveBeenCalledTimes(2);
    logged.mockRestore();
  });
});

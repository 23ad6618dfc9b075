import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RegistrationRequest } from '../contract/index.ts';
import { jsonResponse, MemoryStorage, mockFetch } from '../state/testing.ts';

const realFetch = globalThis.fetch;

async function load() {
  vi.resetModules();
  vi.stubGlobal('localStorage', new MemoryStorage());
  const client = await import('./client.ts');
  const token = await import('../state/token.ts');
  const api = await import('./public.ts');
  client.setApiBase('http://api.test/');
  return { client, token, api };
}

afterEach(() => {
  globalThis.fetch = realFetch;
  vi.unstubAllGlobals();
});

const input: RegistrationRequest = {
  name: 'Riverside Food Pantry',
  type: 'non-profit',
  phone: '555-0100',
  mission: 'Feeding our neighbours.',
  ein: '12-3456789',
  url: 'https://riverside.example',
  address: { street: '1 River Road', city: 'Springfield', country: 'US' },
  categoryId: [14],
  contact_name: 'Rita River',
  contact_email: 'rita@riverside.example',
};
const registered = { registered: true, already_registered: false, email: 'rita@riverside.example' };
const expired = { message: 'Your form session has expired. Please reload the page and try again.' };

describe('register', () => {
  it('fetches and stores a csrf token, then posts with it as bearer and X-CSRF-Token, never the session token', async () => {
    const { api, token } = await load();
    token.setToken('session-jwt');
    const calls = mockFetch((call) =>
      call.url.pathname === '/api/csrf-token'
        ? jsonResponse(200, { csrf_token: 'csrf-1' })
        : jsonResponse(200, registered),
    );
    await expect(api.register(input)).resolves.toEqual(registered);
    expect(calls.map((c) => `${c.method} ${c.url.href}`)).toEqual([
      'GET http://api.test/api/csrf-token',
      'POST http://api.test/organization/register',
    ]);
    expect(calls[0]?.headers.get('authorization')).toBeNull();
    expect(calls[1]?.headers.get('authorization')).toBe('Bearer csrf-1');
    expect(calls[1]?.headers.get('x-csrf-token')).toBe('csrf-1');
    expect(calls[1]?.body).toEqual({ return_json: 1, ...input });
    expect(localStorage.getItem('csrf_token')).toBe('csrf-1');
  });

  it('reuses the stored token; on 403 it fetches a new one and retries once', async () => {
    const { api } = await load();
    localStorage.setItem('csrf_token', 'stale');
    const calls = mockFetch((call) => {
      if (call.url.pathname === '/api/csrf-token') return jsonResponse(200, { csrf_token: 'fresh' });
      return call.headers.get('x-csrf-token') === 'fresh'
        ? jsonResponse(200, registered)
        : jsonResponse(403, expired);
    });
    await expect(api.register(input)).resolves.toEqual(registered);
    expect(calls.map((c) => c.url.pathname)).toEqual([
      '/organization/register',
      '/api/csrf-token',
      '/organization/register',
    ]);
    expect(localStorage.getItem('csrf_token')).toBe('fresh');
  });

  it('gives up after the one retry, and does not retry other failures', async () => {
    const { api, client } = await load();
    let calls = mockFetch((call) =>
      call.url.pathname === '/api/csrf-token'
        ? jsonResponse(200, { csrf_token: 'always-refused' })
        : jsonResponse(403, expired),
    );
    await expect(api.register(input)).rejects.toEqual(new client.ApiError(403, expired.message));
    expect(calls.filter((c) => c.url.pathname === '/organization/register')).toHaveLength(2);

    calls = mockFetch(() => jsonResponse(400, { message: 'EIN is required' }));
    await expect(api.register(input)).rejects.toEqual(new client.ApiError(400, 'EIN is required'));
    expect(calls).toHaveLength(1);
  });
});

describe('the other public calls', () => {
  it('searches registered organizations anonymously', async () => {
    const { api, token } = await load();
    token.setToken('session-jwt');
    const calls = mockFetch(() =>
      jsonResponse(200, { organizations: [{ id: 3, name: 'Maple Street PTA' }] }),
    );
    await expect(api.searchRegisteredOrganizations('map')).resolves.toEqual([
      { id: 3, name: 'Maple Street PTA' },
    ]);
    expect(calls[0]?.url.href).toBe('http://api.test/api/public/organization-search?term=map');
    expect(calls[0]?.headers.get('authorization')).toBeNull();
  });

  it('posts the contact form with its token and reads the confirmation', async () => {
    const { api } = await load();
    const calls = mockFetch(() => jsonResponse(200, { message: 'Message sent' }));
    const message = {
      name: 'Dana',
      email: 'dana@example.org',
      organization: 'PTA',
      subject: 'Hi',
      message: 'Hello',
      recaptchaToken: 'abc',
    };
    await expect(api.sendContactMessage(message)).resolves.toEqual({ message: 'Message sent' });
    expect(calls[0]?.url.href).toBe('http://api.test/api/contact-form');
    expect(calls[0]?.body).toEqual(message);
  });
});

describe('captcha', () => {
  it('fetches a challenge and solves it into the base64 JSON payload the server verifies', async () => {
    await load();
    const captcha = await import('../features/contact/captcha.ts');
    const salt = 'abc?expires=9999999999';
    const challenge = createHash('sha256').update(`${salt}42`).digest('hex');
    mockFetch(() =>
      jsonResponse(200, { algorithm: 'SHA-256', challenge, maxnumber: 100, salt, signature: 'sig' }),
    );
    const token = await captcha.fetchAndSolve();
    expect(JSON.parse(atob(token ?? ''))).toEqual({
      algorithm: 'SHA-256',
      challenge,
      number: 42,
      salt,
      signature: 'sig',
    });
  });

  it('resolves null when the challenge cannot be fetched, cannot be solved, or is abandoned', async () => {
    await load();
    const captcha = await import('../features/contact/captcha.ts');
    mockFetch(() => jsonResponse(404, { message: 'Not found' }));
    await expect(captcha.fetchAndSolve()).resolves.toBeNull();
    const unsolvable = {
      algorithm: 'SHA-256',
      challenge: '00',
      maxnumber: 20,
      salt: 's',
      signature: 'x',
    } as const;
    await expect(captcha.solve(unsolvable)).resolves.toBeNull();
    const abort = new AbortController();
    abort.abort();
    await expect(captcha.solve({ ...unsolvable, maxnumber: 1_000_000 }, abort.signal)).resolves.toBeNull();
  });
});

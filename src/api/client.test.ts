import { HTTPError, TimeoutError } from 'ky';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, MemoryStorage, mockFetch } from '../state/testing.ts';

const realFetch = globalThis.fetch;

async function load() {
  vi.resetModules();
  vi.stubGlobal('localStorage', new MemoryStorage());
  const client = await import('./client.ts');
  const token = await import('../state/token.ts');
  const navigation = await import('../state/navigation.ts');
  const auth = { ...(await import('./auth.ts')), ...(await import('./sign-in.ts')) };
  const organization = await import('./organization.ts');
  client.setApiBase('http://api.test/');
  const visited: string[] = [];
  navigation.setNavigate((to) => visited.push(to));
  return { client, token, auth, organization, visited };
}

beforeEach(() => {
  globalThis.fetch = realFetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
  vi.unstubAllGlobals();
});

describe('errorMessage', () => {
  it('maps every kind of failure to the spec text', async () => {
    const { client } = await load();
    expect(client.errorMessage(new client.ApiError(422, 'Name is required'))).toBe('Name is required');
    expect(client.errorMessage(new client.NetworkError())).toBe(
      'Network error. Please check your connection.',
    );
    expect(client.errorMessage(new Error('Boom'))).toBe('Boom');
    expect(client.errorMessage(new Error(''))).toBe('An unknown error occurred');
    expect(client.errorMessage('weird')).toBe('An unknown error occurred');
    expect(client.errorMessage(undefined)).toBe('An unknown error occurred');
    const request = new Request('http://api.test/x');
    const http = new HTTPError(new Response(null, { status: 503 }), request, {} as never);
    expect(client.errorMessage(http)).toBe('Error: 503');
    expect(client.errorMessage(new TimeoutError(request))).toBe(
      'Network error. Please check your connection.',
    );
  });
});

describe('request', () => {
  it('sends the bearer token and parses the answer with the contract', async () => {
    const { token, organization } = await load();
    token.setToken('tok-123');
    const calls = mockFetch(() =>
      jsonResponse(200, {
        organizations: [{ id: 3, name: 'Maple Street PTA', parent_id: null, file_logo: null }],
      }),
    );
    const found = await organization.searchOrganizations('map');
    expect(found).toEqual([{ id: 3, name: 'Maple Street PTA', parent_id: null, file_logo: null }]);
    expect(calls[0]?.url.href).toBe('http://api.test/api/search/organization?term=map');
    expect(calls[0]?.headers.get('authorization')).toBe('Bearer tok-123');
  });

  it("shows the server's message, else 'Error: {status}'", async () => {
    const { client, organization } = await load();
    mockFetch(() => jsonResponse(404, { message: 'Organization with id 9 not found' }));
    await expect(organization.getOrganization(9)).rejects.toThrow('Organization with id 9 not found');
    mockFetch(() => new Response('<html>oops</html>', { status: 500 }));
    const error = await organization.getOrganization(9).catch((e: unknown) => e);
    expect(client.errorMessage(error)).toBe('Error: 500');
  });

  it('a 401 on an authenticated call removes the token and goes to /portal/login', async () => {
    const { client, token, auth, visited } = await load();
    token.setToken('old');
    mockFetch(() => jsonResponse(401, { message: 'Authentication expired. Please login again.' }));
    const error = await auth.common().catch((e: unknown) => e);
    expect(client.errorMessage(error)).toBe('Authentication expired. Please login again.');
    expect(token.authToken.value).toBeNull();
    expect(localStorage.getItem('auth_token')).toBeNull();
    expect(visited).toEqual(['/portal/login']);
  });

  it('a 401 from login is the wrong password, not an expired session', async () => {
    const { client, token, auth, visited } = await load();
    token.setToken('someone-else');
    const calls = mockFetch(() => jsonResponse(401, { message: 'Invalid email or password' }));
    const error = await auth.login('a@b.co', 'secret1').catch((e: unknown) => e);
    expect(client.errorMessage(error)).toBe('Invalid email or password');
    expect(calls[0]?.headers.get('authorization')).toBeNull();
    expect(calls[0]?.body).toEqual({ email: 'a@b.co', password: 'secret1' });
    expect(token.authToken.value).toBe('someone-else');
    expect(visited).toEqual([]);
  });

  it('a login answer without a token is reported as such', async () => {
    const { auth } = await load();
    mockFetch(() => jsonResponse(200, { me: null }));
    await expect(auth.login('a@b.co', 'secret1')).rejects.toThrow('Authentication failed: No token received');
  });

  it('no response at all is a network error, and mutations are not retried', async () => {
    const { client, auth } = await load();
    let attempts = 0;
    globalThis.fetch = async () => {
      attempts++;
      throw new TypeError('Failed to fetch');
    };
    const error = await auth.forgot('a@b.co').catch((e: unknown) => e);
    expect(client.errorMessage(error)).toBe('Network error. Please check your connection.');
    expect(attempts).toBe(1);
  });

  it('an answer that does not match the contract is an error, not silently accepted', async () => {
    const { client, organization } = await load();
    mockFetch(() => jsonResponse(200, { organizations: [{ id: 'x' }] }));
    const error = await organization.searchOrganizations('').catch((e: unknown) => e);
    expect(client.errorMessage(error)).toBe('The server sent an unexpected response.');
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeJwt, jsonResponse, MemoryStorage, mockFetch } from './testing.ts';

const realFetch = globalThis.fetch;
const me = {
  id: 7,
  email: 'ada@twofold.test',
  name: 'Ada',
  globalPermission: false,
  orgs: [{ id: 1, name: 'Hope Harbor Foundation' }],
};

/** Fresh modules over a fresh localStorage holding `stored`. */
async function load(stored: Record<string, string> = {}) {
  vi.resetModules();
  const storage = new MemoryStorage();
  for (const [k, v] of Object.entries(stored)) storage.setItem(k, v);
  vi.stubGlobal('localStorage', storage);
  const client = await import('../api/client.ts');
  const navigation = await import('./navigation.ts');
  const session = await import('./session.ts');
  const { toasts } = await import('./toasts.ts');
  client.setApiBase('http://api.test');
  const visited: string[] = [];
  navigation.setNavigate((to) => visited.push(to));
  return { session, toasts, visited, storage };
}

afterEach(() => {
  globalThis.fetch = realFetch;
  vi.unstubAllGlobals();
});

const now = Date.parse('2030-01-01T12:00:00Z');
const live = fakeJwt({ sub: '7', exp: now / 1000 + 3600, purpose: 'access' });
const expired = fakeJwt({ sub: '7', exp: now / 1000 - 1, purpose: 'access' });

describe('session on load', () => {
  it('decodes the stored token', async () => {
    const { session } = await load();
    expect(session.decodeToken(live)).toEqual({ sub: '7', exp: now / 1000 + 3600, purpose: 'access' });
    expect(session.decodeToken('not-a-token')).toBeNull();
    expect(session.decodeToken('a.!!!.c')).toBeNull();
  });

  it('removes a token whose exp is before now and treats the user as signed out', async () => {
    const { session, storage } = await load({ auth_token: expired });
    const calls = mockFetch(() => jsonResponse(200, me));
    expect(session.sessionStatus.value).toBe('loading');
    await session.initSession(now);
    expect(session.sessionStatus.value).toBe('anonymous');
    expect(storage.getItem('auth_token')).toBeNull();
    expect(calls).toHaveLength(0);
  });

  it('a live token loads the user from GET /api/common', async () => {
    const { session, storage } = await load({ auth_token: live });
    const calls = mockFetch(() => jsonResponse(200, me));
    const loading = session.initSession(now);
    expect(session.sessionStatus.value).toBe('loading');
    await loading;
    expect(session.sessionStatus.value).toBe('authenticated');
    expect(session.user.value?.name).toBe('Ada');
    expect(calls[0]?.url.pathname).toBe('/api/common');
    expect(calls[0]?.headers.get('authorization')).toBe(`Bearer ${live}`);
    expect(JSON.parse(storage.getItem('orgs') ?? '[]')).toEqual(me.orgs);
  });

  it('a token the server rejects signs out and goes to login', async () => {
    const { session, visited, storage } = await load({ auth_token: live });
    mockFetch(() => jsonResponse(401, { message: 'Authentication expired. Please login again.' }));
    await session.initSession(now);
    expect(session.sessionStatus.value).toBe('anonymous');
    expect(storage.getItem('auth_token')).toBeNull();
    expect(visited).toEqual(['/portal/login']);
  });

  it('an unreachable server is an error the guard can retry, not a sign-out', async () => {
    const { session, storage } = await load({ auth_token: live });
    globalThis.fetch = async () => {
      throw new TypeError('Failed to fetch');
    };
    await session.initSession(now);
    expect(session.sessionStatus.value).toBe('error');
    expect(session.sessionError.value).toBe('Network error. Please check your connection.');
    expect(storage.getItem('auth_token')).toBe(live);
    mockFetch(() => jsonResponse(200, me));
    await session.retrySession();
    expect(session.sessionStatus.value).toBe('authenticated');
  });
});

describe('login and logout', () => {
  it('login stores token, user and orgs, keeps a single organization as current, welcomes and goes on', async () => {
    const { session, toasts, visited, storage } = await load();
    session.login({ access_token: live, me }, '/portal/donations');
    expect(session.sessionStatus.value).toBe('authenticated');
    expect(storage.getItem('auth_token')).toBe(live);
    expect(JSON.parse(storage.getItem('orgs') ?? '[]')).toEqual(me.orgs);
    expect(storage.getItem('currentOrganizationId')).toBe('1');
    expect(toasts.value[0]).toMatchObject({ title: 'Login Successful', description: 'Welcome back, Ada!' });
    expect(visited).toEqual(['/portal/donations']);
  });

  it('login with several organizations stores none as current; default destination is /portal', async () => {
    const { session, visited, storage } = await load();
    const orgs = [
      { id: 1, name: 'Hope Harbor Foundation' },
      { id: 4, name: 'Maple Street PTA' },
    ];
    session.login({ access_token: live, me: { ...me, orgs } });
    expect(storage.getItem('currentOrganizationId')).toBeNull();
    expect(visited).toEqual(['/portal']);
  });

  it('logout clears user, token and orgs, says so and goes to /portal/login', async () => {
    const { session, toasts, visited, storage } = await load();
    session.login({ access_token: live, me });
    session.logout();
    expect(session.user.value).toBeNull();
    expect(session.sessionStatus.value).toBe('anonymous');
    for (const key of ['auth_token', 'orgs', 'currentOrganizationId'])
      expect(storage.getItem(key)).toBeNull();
    expect(toasts.value[0]).toMatchObject({
      title: 'Logged out',
      description: 'You have been successfully logged out.',
    });
    expect(visited.at(-1)).toBe('/portal/login');
    // The guard must not remember the page the user left on purpose; a new sign-in resets that.
    expect(session.signedOut.value).toBe(true);
    session.login({ access_token: live, me });
    expect(session.signedOut.value).toBe(false);
  });
});

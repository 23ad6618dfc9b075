import { afterEach, describe, expect, it, vi } from 'vitest';
import { emptyOrganization } from '../contract/index.ts';
import { fakeJwt, jsonResponse, MemoryStorage, mockFetch, type RecordedCall } from './testing.ts';

const realFetch = globalThis.fetch;
const token = fakeJwt({ sub: '7', exp: Date.now() / 1000 + 3600 });
const hope = { id: 1, name: 'Hope Harbor Foundation' };
const maple = { id: 4, name: 'Maple Street PTA' };

function orgAnswer(id: number, name: string) {
  return {
    organization: { ...emptyOrganization, id, name },
    accessibleOrganizations: [
      { id, name, parent_id: null, file_logo: null },
      { id: 2, name: `${name} – North Shore Chapter`, parent_id: id, file_logo: null },
    ],
    level: 'admin',
  };
}

/** An API with the demo organizations; ids other than 1 and 4 are unknown. */
function api(call: RecordedCall): Response {
  if (call.url.pathname === '/api/search/organization') {
    return jsonResponse(200, {
      organizations: [hope, maple].map((o) => ({ ...o, parent_id: null, file_logo: null })),
    });
  }
  const id = Number(call.url.pathname.split('/').at(-1));
  const known = [hope, maple].find((o) => o.id === id);
  return known
    ? jsonResponse(200, orgAnswer(known.id, known.name))
    : jsonResponse(404, { message: `Organization with id ${id} not found` });
}

async function load(options: {
  superUser?: boolean;
  orgs?: { id: number; name: string }[];
  stored?: Record<string, string>;
}) {
  vi.resetModules();
  const storage = new MemoryStorage();
  for (const [k, v] of Object.entries(options.stored ?? {})) storage.setItem(k, v);
  vi.stubGlobal('localStorage', storage);
  const client = await import('../api/client.ts');
  const navigation = await import('./navigation.ts');
  const session = await import('./session.ts');
  const organization = await import('./organization.ts');
  const { toasts } = await import('./toasts.ts');
  client.setApiBase('http://api.test');
  navigation.setNavigate(() => {});
  let reloads = 0;
  navigation.setReload(() => reloads++);
  session.login({
    access_token: token,
    me: {
      id: 7,
      email: 'x@twofold.test',
      name: 'X',
      globalPermission: options.superUser ?? false,
      orgs: options.orgs ?? [hope, maple],
    },
  });
  if (options.stored?.currentOrganizationId)
    storage.setItem('currentOrganizationId', options.stored.currentOrganizationId);
  return { organization, toasts, storage, reloads: () => reloads };
}

afterEach(() => {
  globalThis.fetch = realFetch;
  vi.unstubAllGlobals();
});

describe('current organization on start', () => {
  it('uses the stored id when there is one', async () => {
    const { organization, storage } = await load({ stored: { currentOrganizationId: '4' } });
    const calls = mockFetch(api);
    await organization.startOrganization();
    expect(organization.currentOrganization.value?.name).toBe('Maple Street PTA');
    expect(calls.map((c) => c.url.pathname)).toEqual(['/api/organization/4']);
    expect(storage.getItem('currentOrganizationId')).toBe('4');
    expect(organization.currentLevel.value).toBe('admin');
  });

  it('a non-super user without one gets the first organization of an empty-term search', async () => {
    const { organization, storage } = await load({});
    const calls = mockFetch(api);
    await organization.startOrganization();
    expect(calls[0]?.url.search).toBe('?term=');
    expect(organization.currentOrganization.value?.name).toBe('Hope Harbor Foundation');
    expect(storage.getItem('currentOrganizationId')).toBe('1');
    expect(organization.knownOrganizations.value.map((o) => o.name)).toEqual([
      'Hope Harbor Foundation',
      'Hope Harbor Foundation – North Shore Chapter',
      'Maple Street PTA',
    ]);
  });

  it('a pick made while the start-up search is out is not overridden by the first result', async () => {
    const { organization } = await load({});
    let releaseSearch: () => void = () => {};
    const searchHeld = new Promise<void>((resolve) => {
      releaseSearch = resolve;
    });
    let releasePick: () => void = () => {};
    const pickHeld = new Promise<void>((resolve) => {
      releasePick = resolve;
    });
    mockFetch(async (call) => {
      if (call.url.pathname === '/api/search/organization') await searchHeld;
      if (call.url.pathname === `/api/organization/${maple.id}`) await pickHeld;
      return api(call);
    });
    const starting = organization.startOrganization();
    // The user picks Maple Street; its answer is still out when the search comes back.
    const picked = organization.selectOrganization(maple.id);
    releaseSearch();
    await starting;
    releasePick();
    await picked;
    expect(organization.currentOrganization.value?.name).toBe('Maple Street PTA');
  });

  it('clears the stored id when the search finds nothing', async () => {
    const { organization, storage } = await load({ orgs: [] });
    storage.setItem('currentOrganizationId', 'junk');
    mockFetch(() => jsonResponse(200, { organizations: [] }));
    await organization.startOrganization();
    expect(organization.currentOrganization.value).toBeNull();
    expect(storage.getItem('currentOrganizationId')).toBeNull();
  });

  it('a super user without a stored id starts with none selected', async () => {
    const { organization } = await load({ superUser: true, orgs: [] });
    const calls = mockFetch(api);
    await organization.startOrganization();
    expect(calls).toHaveLength(0);
    expect(organization.currentOrganization.value).toBeNull();
  });

  it('a stored id that fails to load clears the stored ids and reloads the page', async () => {
    const { organization, storage, reloads } = await load({ stored: { currentOrganizationId: '99' } });
    mockFetch(api);
    await organization.startOrganization();
    expect(storage.getItem('currentOrganizationId')).toBeNull();
    expect(storage.getItem('orgs')).toBeNull();
    expect(reloads()).toBe(1);
  });
});

describe('selecting an organization', () => {
  it("tells a super user 'Organization Selected'", async () => {
    const { organization, toasts } = await load({ superUser: true, orgs: [] });
    mockFetch(api);
    await organization.selectOrganization(4);
    expect(organization.currentOrganization.value?.name).toBe('Maple Street PTA');
    expect(toasts.value[0]?.title).toBe('Organization Selected');
  });

  it('does not toast for other users', async () => {
    const { organization, toasts } = await load({});
    mockFetch(api);
    await organization.selectOrganization(4);
    expect(organization.currentOrganization.value?.name).toBe('Maple Street PTA');
    expect(toasts.value[0]?.title).toBe('Login Successful');
  });

  it('the last selection wins when answers arrive out of order', async () => {
    const { organization } = await load({});
    let releaseFirst: () => void = () => {};
    const firstHeld = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    mockFetch(async (call) => {
      if (call.url.pathname.endsWith('/1')) await firstHeld;
      return api(call);
    });
    const first = organization.selectOrganization(1);
    await organization.selectOrganization(4);
    releaseFirst();
    await first;
    expect(organization.currentOrganization.value?.name).toBe('Maple Street PTA');
  });
});

describe('the organizations a member can choose from', () => {
  /** Hope Harbor with two chapters and Maple Street, as the server's empty-term search answers. */
  function reachableApi(call: RecordedCall): Response {
    if (call.url.pathname === '/api/search/organization') {
      return jsonResponse(200, {
        organizations: [
          { ...hope, parent_id: null, file_logo: null },
          { id: 3, name: 'Hope Harbor – Riverside Chapter', parent_id: 1, file_logo: null },
          { id: 2, name: `${hope.name} – North Shore Chapter`, parent_id: 1, file_logo: null },
          { ...maple, parent_id: null, file_logo: null },
        ],
      });
    }
    if (call.url.pathname === '/api/organization/4') {
      const answer = orgAnswer(maple.id, maple.name);
      return jsonResponse(200, {
        ...answer,
        accessibleOrganizations: answer.accessibleOrganizations.slice(0, 1),
      });
    }
    return api(call);
  }

  it('are the same whichever organization is current, chapters under their parent', async () => {
    const { organization } = await load({});
    mockFetch(reachableApi);
    await organization.loadReachableOrganizations();
    const listed = () => organization.knownOrganizations.value.map((o) => `${o.depth}:${o.name}`);
    const expected = [
      '0:Hope Harbor Foundation',
      '1:Hope Harbor – Riverside Chapter',
      '1:Hope Harbor Foundation – North Shore Chapter',
      '0:Maple Street PTA',
    ];
    expect(listed()).toEqual(expected);
    await organization.selectOrganization(4);
    expect(listed()).toEqual(expected);
    await organization.selectOrganization(1);
    expect(listed()).toEqual(expected);
  });

  it('fetches the list once per user, and a failed fetch keeps what the sign-in said', async () => {
    const { organization } = await load({});
    const calls = mockFetch(() => jsonResponse(500, { message: 'down' }));
    await organization.loadReachableOrganizations();
    expect(organization.knownOrganizations.value.map((o) => o.name)).toEqual([hope.name, maple.name]);
    const again = mockFetch(reachableApi);
    await organization.loadReachableOrganizations();
    await organization.loadReachableOrganizations();
    expect(calls).toHaveLength(1);
    expect(again.filter((c) => c.url.pathname === '/api/search/organization')).toHaveLength(1);
    expect(organization.knownOrganizations.value).toHaveLength(4);
  });
});
